import Foundation
import Testing

@testable import RepLedgerCore
@testable import RepLedgerProjections

@Suite("e1RM formulas (DOMAIN.md §3)")
struct E1RMFormulaTests {
    // Reference values for 100 kg × 10 reps, from the formulas as DOMAIN.md states them.
    static let tenReps: [(E1RMFormula, Double)] = [
        (.epley, 133.333), (.brzycki, 133.333), (.lombardi, 125.893), (.mayhew, 130.934),
        (.oconner, 125.0), (.wathan, 134.747), (.lander, 134.070),
    ]

    @Test("100 kg × 10 under each formula", arguments: tenReps)
    func tenRepMax(formula: E1RMFormula, expected: Double) {
        #expect(abs(formula.estimate(weight: 100, reps: 10) - expected) < 0.001)
    }

    @Test("one rep gives the weight itself under every formula", arguments: E1RMFormula.allCases)
    func oneRep(formula: E1RMFormula) {
        #expect(formula.estimate(weight: 142.5, reps: 1) == 142.5)
    }
}

@Suite("Personal records (DOMAIN.md §4)")
struct PersonalRecordsTests {
    func records(_ b: LogBuilder, _ exercise: String, rules: RuleSet = .default) throws -> PersonalRecordsProjection.ExerciseRecords {
        try #require(PersonalRecordsProjection.compute(b.log, rules: rules, exerciseId: exercise).first)
    }

    @Test("heaviest, e1RM, set volume, session volume and rep maxes from working sets")
    func allKinds() throws {
        var b = LogBuilder()
        try b.workout(
            "2026-11-02T07:00:00Z",
            sets: [
                warmup("barbell-bench-press", 60, 10), working("barbell-bench-press", 100, 5),
                working("barbell-bench-press", 90, 8), working("barbell-bench-press", 80, 12),
            ])
        let r = try records(b, "barbell-bench-press")
        #expect(r.heaviestKg == 100)
        let epley: [Double] = [100 * (1 + 5.0 / 30), 90 * (1 + 8.0 / 30), 80 * (1 + 12.0 / 30)]
        #expect(r.bestE1rmKg == epley.max())
        #expect(r.bestSetVolumeKg == 960)  // 80 × 12
        #expect(r.bestSessionVolumeKg == 2180)  // 500 + 720 + 960: the warm-up does not count
        // Heaviest for at least r reps: 100 up to 5, 90 for 6–8, 80 for 9–12.
        let expected: [Double?] = [100, 100, 100, 100, 100, 90, 90, 90, 80, 80, 80, 80]
        let repMaxes: [Double?] = (1...12).map { r.repMaxesKg[$0] }
        #expect(repMaxes == expected)
    }

    @Test("a tie is not a record; the first value is")
    func ties() throws {
        var b = LogBuilder()
        let first = try b.workout("2026-11-02T07:00:00Z", sets: [working("deadlift", 150, 5)])
        try b.workout("2026-11-05T07:00:00Z", sets: [working("deadlift", 150, 5)])
        let heaviest = try records(b, "deadlift").timeline.filter { $0.kind == .heaviest }
        #expect(heaviest.count == 1)
        #expect(heaviest[0].workoutId == first.id)
        #expect(heaviest[0].setId == first.sets[0])
    }

    @Test("deleting the record set gives the record back to the best before it")
    func deletedRecordSet() throws {
        var b = LogBuilder()
        try b.workout("2026-11-02T07:00:00Z", sets: [working("back-squat", 140, 5)])
        let later = try b.workout("2026-11-05T07:00:00Z", sets: [working("back-squat", 150, 5)])
        #expect(try records(b, "back-squat").heaviestKg == 150)
        try b.run("2026-11-06T07:00:00Z") { try $0.deleteSet(later.id, set: later.sets[0].lowercased, historyEdit: true) }
        let r = try records(b, "back-squat")
        #expect(r.heaviestKg == 140)
        #expect(!r.timeline.contains { $0.setId == later.sets[0] })
    }

    @Test("an edited weight moves the record, exactly as a rebuild would")
    func editedRecordSet() throws {
        var b = LogBuilder()
        let w = try b.workout("2026-11-02T07:00:00Z", sets: [working("overhead-press", 60, 5)])
        try b.run("2026-11-02T20:00:00Z") {
            try $0.editSet(w.id, set: w.sets[0].lowercased, changes: SetMetrics(weight: Weight(62.5, .kg)), historyEdit: true)
        }
        var rebuilt = TrainingLogProjection()
        for e in b.envelopes { rebuilt.apply(e) }
        #expect(try records(b, "overhead-press").heaviestKg == 62.5)
        #expect(PersonalRecordsProjection.compute(rebuilt) == PersonalRecordsProjection.compute(b.log))
    }

    @Test("discarded workouts, warm-ups, bodyweight sets and reps beyond the cap are left out as the rules say")
    func exclusions() throws {
        var b = LogBuilder()
        try b.workout("2026-11-02T07:00:00Z", sets: [working("barbell-bench-press", 80, 5), warmup("barbell-bench-press", 200, 1)])
        let discarded = try b.workout("2026-11-03T07:00:00Z", sets: [working("barbell-bench-press", 120, 5)], finish: false)
        try b.run("2026-11-03T08:00:00Z") { try $0.discardWorkout(discarded.id) }
        try b.workout("2026-11-04T07:00:00Z", sets: [working("barbell-bench-press", 60, 15), working("pull-up", nil, 12)])
        let r = try records(b, "barbell-bench-press")
        #expect(r.heaviestKg == 80)
        let capped: Double = 80 * (1 + 5.0 / 30)
        #expect(r.bestE1rmKg == capped)  // 60 × 15 is beyond the 12-rep cap
        #expect(r.bestSetVolumeKg == 900)
        #expect(PersonalRecordsProjection.compute(b.log, exerciseId: "pull-up").isEmpty)
        // With warm-ups counting, the 200 kg single is the heaviest.
        var rules = RuleSet.default
        rules.warmupsCount = true
        #expect(try records(b, "barbell-bench-press", rules: rules).heaviestKg == 200)
    }

    @Test("pounds are converted exactly (1 lb = 0.45359237 kg)")
    func pounds() throws {
        var b = LogBuilder()
        try b.workout("2026-11-02T07:00:00Z", sets: [working("deadlift", 405, 1)], unit: .lb)
        #expect(try records(b, "deadlift").heaviestKg == 405 * 0.45359237)
    }
}

@Suite("e1RM trend")
struct E1RMTrendTests {
    @Test("the best e1RM of each workout and of each ISO week")
    func trend() throws {
        var b = LogBuilder()
        let mon = try b.workout("2026-11-02T07:00:00Z", sets: [working("back-squat", 100, 5), working("back-squat", 110, 3)])
        try b.workout("2026-11-05T07:00:00Z", sets: [working("back-squat", 105, 5)])
        try b.workout("2026-11-09T07:00:00Z", sets: [working("back-squat", 110, 5)])
        let points = E1RMTrendProjection.points(b.log, exerciseId: "back-squat")
        #expect(points.count == 3)
        #expect(points[0].workoutId == mon.id)
        let monday: [Double] = [100 * (1 + 5.0 / 30), 110 * (1 + 3.0 / 30)]
        #expect(points[0].e1rmKg == monday.max())
        let weeks = E1RMTrendProjection.weeks(points)
        #expect(weeks.map(\.week) == ["2026-W45", "2026-W46"])
        let thursday: Double = 105 * (1 + 5.0 / 30)
        #expect(weeks[0].e1rmKg == thursday)
        var brzycki = RuleSet.default
        brzycki.e1rmFormula = .brzycki
        let brzyckiValue: Double = 110 * 36 / 32
        #expect(E1RMTrendProjection.points(b.log, exerciseId: "back-squat", rules: brzycki)[2].e1rmKg == brzyckiValue)
    }
}
