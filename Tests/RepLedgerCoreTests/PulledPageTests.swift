import Foundation
import LedgerTestSupport
import Testing

@testable import RepLedgerCore
@testable import RepLedgerDemo

/// A pull page is read in place, straight from its bytes; the tree reader
/// answers the rest. Both must read every page to the same lines.
@Suite("Pulled pages read in place")
struct PulledPageTests {
    /// What the tree reader makes of a page's events, or nil when it refuses the page.
    static func tree(_ body: String) -> [JSONLBackup.Line]? {
        // The first "events" key counts, as the sync client's reader takes it.
        guard case .object(let pairs)? = try? JSONReader.parse(body),
            case .array(let items)? = pairs.first(where: { $0.0 == "events" })?.1
        else { return nil }
        return try? items.map { try JSONLBackup.Line(json: $0) }
    }

    static func same(_ a: [JSONLBackup.Line], _ b: [JSONLBackup.Line]) -> Bool {
        a.count == b.count
            && zip(a, b).allSatisfy {
                $0.proposed == $1.proposed && $0.position == $1.position && $0.version == $1.version
                    && $0.recordedAt == $1.recordedAt && $0.hash == $1.hash
            }
    }

    /// In place reads what the tree reads; where the tree refuses, in place refuses too.
    func agree(_ body: String, inPlace expected: Bool, sourceLocation: SourceLocation = #_sourceLocation) {
        let inPlace = PulledEvent.pageInPlace(body)
        #expect((inPlace != nil) == expected, sourceLocation: sourceLocation)
        switch (inPlace, Self.tree(body)) {
        case (let read?, let tree?): #expect(Self.same(read.map(\.line), tree), sourceLocation: sourceLocation)
        case (_?, nil): Issue.record("read in place a page the tree refuses", sourceLocation: sourceLocation)
        default: break
        }
    }

    @Test("every line of the demo's log, in pages as the server writes them, reads in place to the tree's lines")
    func demoLog() throws {
        let t = try MemoryLedger()
        try t.store.append(try DemoHistory.events(library: try t.ledger.library()))
        var lines: [String] = []
        try t.store.read { lines.append($0.canonicalJSON) }
        #expect(lines.count > 1500)
        for start in stride(from: 0, to: lines.count, by: 1000) {
            let body = #"{"events":[\#(lines[start..<min(start + 1000, lines.count)].joined(separator: ","))],"head":{"position":1,"hash":"x"}}"#
            let read = try #require(PulledEvent.pageInPlace(body))
            #expect(read.count == min(1000, lines.count - start))
            agree(body, inPlace: true)
        }
    }

    @Test("other shapes read as the tree reads them, or are left to it")
    func otherShapes() throws {
        let t = try MemoryLedger()
        try t.store.append(try DemoHistory.events(library: try t.ledger.library()))
        var line = ""
        try t.store.read { if line.isEmpty, $0.type.name == "SetLogged" { line = $0.canonicalJSON } }
        func page(_ lines: String...) -> String { #"{"head":null,"events":[\#(lines.joined(separator: ","))]}"# }
        let payload = String(line[line.range(of: #""payload":"#)!.upperBound..<line.range(of: #","hash":"#)!.lowerBound])

        agree(page(line), inPlace: true)
        agree(page(), inPlace: true)
        agree(#"{"events":[\#(line)],"events":[]}"#, inPlace: true)
        agree(page(line.replacingOccurrences(of: #"{"position""#, with: #"{"extra":[{"a":1}],"position""#)), inPlace: true)
        agree(page(#"{"payload":\#(payload),"# + line.replacingOccurrences(of: #","payload":\#(payload)"#, with: "").dropFirst()), inPlace: true)
        agree(page(line.replacingOccurrences(of: #""setId""#, with: #""set\u0049d""#)), inPlace: true)

        agree("", inPlace: false)
        agree(#"{"events":{}}"#, inPlace: false)
        agree(page(line) + " x", inPlace: false)
        agree(page(line.replacingOccurrences(of: #""schema":1"#, with: #""schema":7"#)), inPlace: false)
        agree(page(line.replacingOccurrences(of: #","hash":"#, with: #","hush":"#)), inPlace: false)
        agree(page(line.replacingOccurrences(of: #""device":""#, with: #""device":1,"x":""#)), inPlace: false)
        agree(page(line.replacingOccurrences(of: #"{"workoutId":"#, with: #"{"extra":1,"workoutId":"#)), inPlace: false)
    }
}
