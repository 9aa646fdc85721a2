import Foundation
import Testing

@testable import RepLedgerCore
@testable import RepLedgerDemo
@testable import RepLedgerSQLite

/// A pushed batch is read in place, straight from the body's bytes; the tree
/// reader answers everything else. Both must agree on every body: the same
/// events when the in-place reader accepts, the tree's answer when it does not.
@Suite struct PushBatchTests {
    /// Every event type the library seed and the demo's twelve weeks hold, as a device pushes them.
    static let corpus: [ProposedEvent] = {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("repledger-batch-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let store = try SQLiteEventStore(path: folder.appendingPathComponent("l.sqlite").path)
            let ledger = Ledger(store: store, device: "phone", ids: .seeded(7))
            try ledger.seedLibraryIfNeeded()
            var events: [ProposedEvent] = []
            try store.read { e in
                events.append(
                    ProposedEvent(
                        eventId: e.eventId, event: e.event, occurredAt: e.occurredAt, device: "phone",
                        causationId: e.causationId, correlationId: e.correlationId))
            }
            return events + (try DemoHistory.events(library: try ledger.library()))
        } catch {
            Issue.record("the corpus could not be made: \(error)")
            return []
        }
    }()

    /// The in-place reading of `body` agrees with the tree's, and the public reader answers as the tree does.
    func agree(_ body: String, inPlace expected: Bool? = nil, sourceLocation: SourceLocation = #_sourceLocation) {
        let tree = Result { () throws(PushBatch.Malformed) in try PushBatch(tree: body, device: "phone") }
        let inPlace = PushBatch.readInPlace(Array(body.utf8), device: "phone")
        let viaPublic = Result { () throws(PushBatch.Malformed) in try PushBatch(json: body, device: "phone") }
        if let expected { #expect((inPlace != nil) == expected, "in place: \(inPlace != nil)", sourceLocation: sourceLocation) }
        switch (tree, viaPublic) {
        case (.success(let t), .success(let p)):
            #expect(t.events == p.events && t.expectedVersions == p.expectedVersions, sourceLocation: sourceLocation)
            if let inPlace { #expect(inPlace.events == t.events && inPlace.expectedVersions == t.expectedVersions, sourceLocation: sourceLocation) }
        case (.failure(let t), .failure(let p)):
            #expect("\(t)" == "\(p)", sourceLocation: sourceLocation)
            #expect(inPlace == nil, "read in place what the tree refuses: \(t)", sourceLocation: sourceLocation)
        default:
            Issue.record("the tree and the public reader disagree on \(body.prefix(300))", sourceLocation: sourceLocation)
        }
    }

    @Test func everyEventTypeAsADeviceWritesItIsReadInPlaceToTheSameEvents() throws {
        let corpus = Self.corpus
        #expect(corpus.count > 1500)
        #expect(Set(corpus.map(\.event.eventType.name)).count >= 10)
        for start in stride(from: 0, to: corpus.count, by: 500) {
            let events = Array(corpus[start..<min(start + 500, corpus.count)])
            let body = PushBatch(events: events).json
            let read = try #require(PushBatch.readInPlace(Array(body.utf8), device: "phone"))
            // The token's device, not the event's, is what a server records.
            #expect(
                read.events
                    == events.map {
                        var e = $0; e.device = "phone"; return e
                    })
            agree(body, inPlace: true)
        }
    }

    @Test func theDevicesWriterAndTheServersReaderAgreeOnExpectations() throws {
        let events = Array(Self.corpus.suffix(40))
        let expected = Dictionary(uniqueKeysWithValues: Set(events.map(\.stream)).map { ($0, ExpectedVersion.exactly(3)) })
        let body = PushBatch(events: events, expectedVersions: expected).json
        let read = try PushBatch(json: body, device: "phone")
        #expect(read.expectedVersions == expected)
        #expect(read.events.map(\.eventId) == events.map(\.eventId))
        #expect(read.json == body)
        agree(body, inPlace: true)
    }

    @Test func otherShapesReadAsTheTreeReadsThem() throws {
        let one = PushBatch(events: [try #require(Self.corpus.first { if case .setLogged = $0.event { true } else { false } })]).json
        let event = String(one.dropFirst(#"{"events":["#.count).dropLast(2))
        let payload = String(event[event.range(of: #""payload":"#)!.upperBound...].dropLast())
        func batch(_ events: String...) -> String { #"{"events":[\#(events.joined(separator: ","))]}"# }

        agree(one, inPlace: true)
        // Whitespace anywhere, an unknown key, expected versions, keys repeated (the first counts), escaped key names.
        agree(" \n{ \"events\" : [ " + Self.spaced(event) + " ] }\n", inPlace: true)
        agree(batch(event.replacingOccurrences(of: #"{"eventId""#, with: #"{"note":{"a":[1,2,{"b":null}]},"eventId""#)), inPlace: true)
        agree(#"{"expectedVersions":{"workout-x":3},"events":[\#(event)],"events":[]}"#, inPlace: true)
        agree(batch(event.replacingOccurrences(of: #""type":"SetLogged""#, with: #""type":"SetLogged","type":"WorkoutStarted""#)), inPlace: true)
        agree(batch(event.replacingOccurrences(of: #""eventId""#, with: #""event\u0049d""#)), inPlace: true)
        // The payload before the type; the payload's keys in another order or escaped (its record reads them as a tree).
        let moved = event.replacingOccurrences(of: #","payload":\#(payload)"#, with: "")
        agree(batch(#"{"payload":\#(payload),"# + moved.dropFirst()), inPlace: true)
        agree(batch(event.replacingOccurrences(of: #""workoutId""#, with: #""workout\u0049d""#)), inPlace: true)
        let swapped = payload.replacingOccurrences(of: #"{"workoutId":"#, with: #"{"x":"#)
        agree(batch(event.replacingOccurrences(of: payload, with: swapped)), inPlace: false)

        // Refused: each the tree's answer, word for word.
        agree("", inPlace: false)
        agree("[]", inPlace: false)
        agree(#"{"events":{}}"#, inPlace: false)
        agree(one + "x", inPlace: false)
        agree(batch(event.replacingOccurrences(of: #""schema":1"#, with: #""schema":9"#)), inPlace: false)
        agree(batch(event.replacingOccurrences(of: #""type":"SetLogged""#, with: #""type":"SetForged""#)), inPlace: false)
        agree(batch(event.replacingOccurrences(of: #""stream":""#, with: #""stream":"x"#)), inPlace: false)
        agree(batch(event.replacingOccurrences(of: #""reps":"#, with: #""reps":"5","x":"#)), inPlace: false)
        agree(batch(event.replacingOccurrences(of: #"{"workoutId":"#, with: #"{"extra":1,"workoutId":"#)), inPlace: false)
        agree(#"{"expectedVersions":{"s":-1},"events":[\#(event)]}"#, inPlace: false)
        agree(
            batch(
                event.replacingOccurrences(
                    of: #"{"eventId""#, with: #"{"deep":\#(String(repeating: "[", count: 62) + String(repeating: "]", count: 62)),"eventId""#)),
            inPlace: false)
        agree(batch(Array(repeating: event, count: PushBatch.maximumEvents + 1).joined(separator: ",")), inPlace: false)
    }

    /// JSON text with whitespace around every structural character outside strings.
    static func spaced(_ json: String) -> String {
        var out = "", inString = false, escaped = false
        for c in json {
            if inString {
                out.append(c)
                if escaped { escaped = false } else if c == "\\" { escaped = true } else if c == "\"" { inString = false }
            } else if c == "\"" {
                out.append(c)
                inString = true
            } else if "{}[],:".contains(c) {
                out += " \(c)\n\t"
            } else {
                out.append(c)
            }
        }
        return out
    }
}
