import Foundation
import LedgerTestSupport
import Testing

@testable import RepLedgerCore

/// The fold keeps sets, clocks and entries packed (docs/PERFORMANCE.md, "The
/// fold's memory"); what they read and write must be what the optionals were.
@Suite("Packed fold state")
struct PackedStateTests {
    static func roundTrip<T: PayloadRecord>(_ value: T) throws -> T {
        var w = BinaryWriter()
        value.encode(to: &w)
        let bytes = w.bytes
        return try bytes.withUnsafeBytes { raw in
            var r = BinaryReader(raw)
            return try T(from: &r)
        }
    }

    @Test("every measurement present or absent reads back as written, in binary and JSON")
    func measurements() throws {
        let weights: [Weight?] = [nil, Weight(0, .kg), Weight(102.5, .kg), Weight(225, .lb)]
        let numbers: [Double?] = [nil, 0, 7.5, 1e-9, 86_400.25]
        for weight in weights {
            for reps in [nil, 0, 5, 1000, Int.max] as [Int?] {
                for n in numbers {
                    let m = SetMetrics(weight: weight, reps: reps, rpe: n, durationSeconds: n, distanceMeters: n.map { $0 * 2 })
                    #expect(m.weight == weight && m.reps == reps && m.rpe == n && m.durationSeconds == n)
                    #expect(m.distanceMeters == n.map { $0 * 2 })
                    #expect(try Self.roundTrip(m) == m)
                    var json = JSONWriter()
                    m.writeJSON(to: &json)
                    let back = try SetMetrics(json: JSONReader.parse(json.string))
                    #expect(back == m)
                }
            }
        }
    }

    @Test("measurements compare by value: no value equals absent, and -0 equals 0 with the same hash")
    func equality() {
        #expect(SetMetrics(rpe: 0) != SetMetrics())
        #expect(SetMetrics(reps: 0) != SetMetrics())
        #expect(SetMetrics(weight: Weight(0, .kg)) != SetMetrics())
        #expect(SetMetrics(weight: Weight(10, .kg)) != SetMetrics(weight: Weight(10, .lb)))
        #expect(SetMetrics(durationSeconds: -0.0) == SetMetrics(durationSeconds: 0.0))
        #expect(SetMetrics(durationSeconds: -0.0).hashValue == SetMetrics(durationSeconds: 0.0).hashValue)
        var m = SetMetrics(weight: Weight(60, .kg), reps: 8)
        m.weight = nil
        m.reps = nil
        #expect(m == SetMetrics())
    }

    @Test("a planned set completed, then edited, keeps each field's time through a snapshot")
    func clocks() throws {
        let t = try MemoryLedger()
        try t.ledger.execute { try $0.setLiftingUnit(.kg) }
        let template = try t.ledger.execute { try $0.createTemplate(name: "Push", exercises: ["barbell-bench-press"]) }
        let w = try t.ledger.execute { try $0.startWorkout(fromTemplate: template.lowercased) }
        let planned = try #require(try t.ledger.workout(w).sets.first)
        _ = try t.ledger.execute {
            try $0.logSet(w, exercise: "barbell-bench-press", metrics: SetMetrics(weight: Weight(100, .kg), reps: 5), plannedSetId: planned.setId)
        }
        let logged = try t.ledger.workout(w)
        let together = try #require(logged.setClocks.first { $0.setId == planned.setId })
        let fields = [
            together.weight, together.reps, together.rpe, together.duration, together.distance,
            together.type, together.notes, together.completed,
        ]
        #expect(Set(fields).count == 1 && fields[0] == together.written, "every field written by the one completion")
        #expect(try Self.roundTrip(logged) == logged)

        waitForTheNextMillisecond()  // the edit is recorded a millisecond later at least
        try t.ledger.execute { try $0.editSet(w, set: planned.setId.lowercased, changes: SetMetrics(reps: 6)) }
        let edited = try t.ledger.workout(w)
        let apart = try #require(edited.setClocks.first { $0.setId == planned.setId })
        #expect(apart.reps > apart.weight, "the edit moved only the reps' time")
        #expect(apart.weight == together.weight && apart.written == apart.reps)
        #expect(edited.sets.first { $0.setId == planned.setId }?.metrics == SetMetrics(weight: Weight(100, .kg), reps: 6))
        let back = try Self.roundTrip(edited)
        #expect(back == edited)
        #expect(back.setClocks.first { $0.setId == planned.setId }?.reps == apart.reps)
        #expect(back.entries.map(\.targetSets) == edited.entries.map(\.targetSets))
    }
}
