import Foundation
import LedgerTestSupport
import Testing

@testable import RepLedgerCore

@Suite("Payload codec")
struct CodecTests {
    @Test("the samples cover every event type in the catalog")
    func samplesCoverCatalog() {
        let sampled = Set(EventSamples.all.map(\.eventType.name))
        let catalog = Set(EventCatalog.entries.map(\.type.name))
        #expect(sampled == catalog)
        #expect(Set(EventCatalog.entries.map(\.type.code)).count == EventCatalog.entries.count)
    }

    @Test("every event type round-trips through its binary form", arguments: EventSamples.all)
    func binaryRoundTrip(event: LedgerEvent) throws {
        let bytes = event.encodedPayload
        let decoded = try bytes.withUnsafeBytes {
            try LedgerEvent.decode(code: event.eventType.code, schema: event.eventType.schema, payload: $0)
        }
        #expect(decoded == event)
        #expect(decoded.encodedPayload == bytes)
    }

    @Test("binary payloads are compact")
    func compact() {
        var e = SetLogged()
        e.workoutId = UUID(); e.setId = UUID(); e.entryId = UUID(); e.exerciseId = "barbell-bench-press"
        e.metrics = SetMetrics(weight: Weight(100, .kg), reps: 5, rpe: 8)
        let bytes = LedgerEvent.setLogged(e).encodedPayload
        let json = LedgerEvent.setLogged(e).payloadJSON.utf8.count
        #expect(bytes.count < 110)
        #expect(bytes.count * 2 < json)
    }

    @Test("truncated payloads fail with a codec error, never a crash")
    func truncated() throws {
        for event in EventSamples.all {
            let bytes = event.encodedPayload
            for cut in stride(from: 0, to: bytes.count, by: max(1, bytes.count / 7)) {
                let prefix = Array(bytes.prefix(cut))
                #expect(throws: CodecError.self) {
                    _ = try prefix.withUnsafeBytes {
                        try LedgerEvent.decode(code: event.eventType.code, schema: event.eventType.schema, payload: $0)
                    }
                }
            }
        }
    }

    @Test("trailing bytes, unknown codes and unknown schemas are refused")
    func refusals() throws {
        let event = EventSamples.all[14]
        let bytes = event.encodedPayload + [0]
        #expect(throws: CodecError.trailingBytes(type: "SetLogged", count: 1)) {
            _ = try bytes.withUnsafeBytes { try LedgerEvent.decode(code: 31, schema: 1, payload: $0) }
        }
        #expect(throws: CodecError.unknownEventType(code: 999)) {
            _ = try bytes.withUnsafeBytes { try LedgerEvent.decode(code: 999, schema: 1, payload: $0) }
        }
        #expect(throws: CodecError.unsupportedSchema(type: "SetLogged", schema: 2, current: 1)) {
            _ = try bytes.withUnsafeBytes { try LedgerEvent.decode(code: 31, schema: 2, payload: $0) }
        }
    }

    @Test("varints and zigzag cover the whole range")
    func integers() throws {
        for v: Int64 in [0, 1, -1, 63, -64, 64, 127, 128, 300, -300, .max, .min, 1 << 40] {
            var w = BinaryWriter()
            w.writeSigned(v)
            let bytes = w.bytes
            let back = try bytes.withUnsafeBytes { raw in
                var r = BinaryReader(raw)
                return try r.readSigned()
            }
            #expect(back == v)
        }
    }

    @Test("canonical JSON escapes what JSON needs and keeps declaration order")
    func canonicalJSON() {
        var note = WorkoutNoteSet()
        note.workoutId = UUID(uuidString: "6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f")!
        note.text = "\"quoted\"\n\\ \u{01} ü 💪"
        #expect(note.canonicalJSON == #"{"workoutId":"6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f","entryId":null,"text":"\"quoted\"\n\\ \u0001 ü 💪"}"#)
        // The parsed JSON matches the values (Foundation is fine here; it is not the replay path).
        let parsed = try? JSONSerialization.jsonObject(with: Data(note.canonicalJSON.utf8)) as? [String: Any]
        #expect(parsed?["text"] as? String == note.text)
    }

    @Test("numbers print in shortest round-trip form, integral ones without a fraction")
    func numbers() {
        let values = [80.0, 82.5, 0.1, 176.5 * 0.45359237, 1e21, -0.0, 1000.0, 2.5e-7]
        for d in values {
            var j = JSONWriter()
            j.number(d)
            #expect(Double(j.string) == d, "\(j.string) must read back as \(d)")
            #expect(!j.string.hasSuffix(".0"))
        }
        var j = JSONWriter()
        j.beginArray()
        for d in [80.0, 82.5, -0.0, 1000.0] { j.number(d) }
        j.endArray()
        #expect(j.string == "[80,82.5,0,1000]")
    }
}
