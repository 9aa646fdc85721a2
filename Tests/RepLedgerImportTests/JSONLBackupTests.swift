import Foundation
import LedgerTestSupport
import Testing

@testable import RepLedgerCore
@testable import RepLedgerDemo
@testable import RepLedgerImport
@testable import RepLedgerSQLite

@Suite("JSONL backup and restore")
struct JSONLBackupTests {
    static func export(_ store: SQLiteEventStore) throws -> String {
        var text = ""
        try JSONLBackup.export(store) { text += $0 }
        return text
    }

    @Test("every event type round-trips: same lines, same hash chain, verify ok")
    func roundTrip() throws {
        let source = try TempLedger()
        // The demo plus one event of every type in the catalog, with every optional field set somewhere.
        try source.store.append(try DemoHistory.events(library: try source.ledger.library()))
        try source.store.append(EventSamples.all.map { proposed($0) })
        let text = try Self.export(source.store)
        let target = try TempLedger(seeded: false)
        let restored = try JSONLBackup.restore(text, into: target.store)
        #expect(restored.events == Int(try source.count()))
        #expect(try Self.export(target.store) == text)
        #expect(try target.store.verify().ok)
        #expect(restored.headHash == text.split(separator: "\n").last.map { String($0.suffix(66).prefix(64)) })
    }

    @Test("a changed line is refused by its hash, a non-empty ledger is refused, and nothing is kept")
    func refusals() throws {
        let source = try TempLedger()
        try source.store.append(try DemoHistory.events(library: try source.ledger.library()))
        let text = try Self.export(source.store)
        var lines = text.split(separator: "\n").map(String.init)
        let target = try TempLedger(seeded: false)
        // 80 kg → 85 kg in one set: still valid JSON and a valid event, but not the event that was hashed.
        let i = try #require(lines.firstIndex { $0.contains("\"type\":\"SetLogged\"") && $0.contains("\"value\":80,") })
        lines[i] = lines[i].replacingOccurrences(of: "\"value\":80,", with: "\"value\":85,")
        #expect(throws: ImportError.chainMismatch(line: i + 1, position: Int64(i + 1))) {
            try JSONLBackup.restore(lines.joined(separator: "\n"), into: target.store)
        }
        #expect(try target.count() == 0)
        lines[i] = "{\"position\":"  // cut short
        #expect { try JSONLBackup.restore(lines.joined(separator: "\n"), into: target.store) } throws: { error in
            guard case ImportError.malformedLine(let line, _) = error else { return false }
            return line == i + 1
        }
        #expect(try target.count() == 0)
        #expect(throws: ImportError.notEmpty(events: try source.count())) { try JSONLBackup.restore(text, into: source.store) }
    }

    @Test("JSON reading gives back exactly what the writer wrote")
    func jsonReader() throws {
        let text = #"{"a":[1,-2.5,1e-07,"x\"\\\n\u00e9\ud83d\udcaa"],"b":null,"c":true,"d":{}}"#
        let v = try JSONReader.parse(text)
        #expect(v.rendered == #"{"a":[1,-2.5,1e-07,"x\"\\\n"# + "é💪" + #""],"b":null,"c":true,"d":{}}"#)
        #expect(throws: JSONReader.Failure.self) { try JSONReader.parse("{\"a\":1,}") }
        #expect(throws: JSONReader.Failure.self) { try JSONReader.parse("[1] 2") }
    }
}
