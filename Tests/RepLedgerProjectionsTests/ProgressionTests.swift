import Foundation
import Testing

@testable import RepLedgerCore
@testable import RepLedgerProjections

@Suite("progression rules and next-session targets (DOMAIN.md §14)")
struct ProgressionTests {
    func next(_ b: LogBuilder, _ id: String, rules: RuleSet = .default) -> NextTargetProjection.Target {
        NextTargetProjection.next(b.log, exerciseId: id, programId: nil, rules: rules)
    }

    @Test("double: reps climb at the same weight until every set reaches MAX, then the weight goes up and reps restart at MIN")
    func double() throws {
        var b = LogBuilder()
        #expect(next(b, "barbell-bench-press").weightKg == nil)
        try b.workout(
            "2026-01-05T18:00:00Z",
            sets: [
                working("barbell-bench-press", 80, 10), working("barbell-bench-press", 80, 9),
                working("barbell-bench-press", 80, 8), warmup("barbell-bench-press", 40, 10),
            ])
        var t = next(b, "barbell-bench-press")
        #expect(t.weightKg == 80 && t.repsMin == 9 && t.repsMax == 12 && t.rule == .double)
        #expect(t.reason == "the lowest set was 8 reps at 80 kg: stay, aim for 9")
        try b.workout(
            "2026-01-12T18:00:00Z",
            sets: [
                working("barbell-bench-press", 80, 12), working("barbell-bench-press", 80, 12),
                working("barbell-bench-press", 80, 11),
            ])
        #expect(next(b, "barbell-bench-press").repsMin == 12)
        try b.workout(
            "2026-01-19T18:00:00Z",
            sets: [
                working("barbell-bench-press", 80, 12), working("barbell-bench-press", 80, 12),
                working("barbell-bench-press", 80, 12),
            ])
        t = next(b, "barbell-bench-press")
        #expect(t.weightKg == 82.5 && t.repsMin == 8 && t.repsMax == 12)
        #expect(t.reason.hasPrefix("every set reached 12 reps at 80 kg: add 2.5 kg"))
        // Every set at MAX but not at one weight: no increase.
        try b.workout("2026-01-26T18:00:00Z", sets: [working("barbell-bench-press", 82.5, 12), working("barbell-bench-press", 80, 12)])
        #expect(next(b, "barbell-bench-press").weightKg == 82.5)
        // Lower-body compounds step by 5 kg.
        try b.workout("2026-01-27T18:00:00Z", sets: [working("back-squat", 100, 12), working("back-squat", 100, 12)])
        #expect(next(b, "back-squat").weightKg == 105)
    }

    @Test("linear: success adds the step, a miss keeps the weight, the second miss in a row deloads 10 % to the plate below")
    func linear() throws {
        var b = LogBuilder()
        try b.run("2026-01-01T00:00:00Z") { s in
            try s.setProgression(exercise: "back-squat", rule: .linear, reps: (5, 5))
        }
        func squat(_ iso: String, _ kg: Double, _ reps: [Int]) throws {
            try b.workout(iso, sets: reps.map { working("back-squat", kg, $0) })
        }
        try squat("2026-01-05T18:00:00Z", 100, [5, 5, 5])
        var t = next(b, "back-squat")
        #expect(t.weightKg == 105 && t.repsMin == 5 && t.rule == .linear)
        try squat("2026-01-08T18:00:00Z", 105, [5, 5, 4])
        t = next(b, "back-squat")
        #expect(t.weightKg == 105 && t.reason.hasPrefix("missed 5 reps at 105 kg"))
        try squat("2026-01-12T18:00:00Z", 105, [5, 4, 3])
        t = next(b, "back-squat")
        #expect(t.weightKg == 93.75, "105 × 0.9 = 94.5, down to the 1.25 kg plate step")  // 94.5 → 93.75
        #expect(t.reason.contains("deload 10 %"))
        try squat("2026-01-15T18:00:00Z", 93.75, [5, 5, 5])
        #expect(next(b, "back-squat").weightKg == 98.75)
        // A miss after the deload is a first miss again.
        try squat("2026-01-19T18:00:00Z", 98.75, [5, 5, 3])
        #expect(next(b, "back-squat").weightKg == 98.75)
    }

    @Test("in lb: 5 lb steps, rounded to 2.5 lb; an increment override in lb; a deload rounds down to 2.5 lb")
    func pounds() throws {
        var b = LogBuilder()
        try b.run("2026-01-01T00:00:00Z") { s in try s.setLiftingUnit(.lb) }
        try b.workout("2026-01-05T18:00:00Z", sets: [working("overhead-press", 96, 12), working("overhead-press", 96, 12)], unit: .lb)
        let t = next(b, "overhead-press")
        let lb = (t.weightKg ?? 0) / WeightUnit.kilogramsPerPound
        #expect(abs(lb - 100) < 1e-9, "96 + 5 = 101 lb rounds to 100 lb")  // the nearest 2.5 lb
        try b.run("2026-01-06T00:00:00Z") { s in
            try s.setProgression(exercise: "overhead-press", rule: .linear, increment: Weight(10, .lb), reps: (5, 5))
        }
        try b.workout("2026-01-07T18:00:00Z", sets: [working("overhead-press", 100, 5)], unit: .lb)
        #expect(abs((next(b, "overhead-press").weightKg ?? 0) / WeightUnit.kilogramsPerPound - 110) < 1e-9)
        try b.workout("2026-01-09T18:00:00Z", sets: [working("overhead-press", 110, 3)], unit: .lb)
        try b.workout("2026-01-11T18:00:00Z", sets: [working("overhead-press", 110, 4)], unit: .lb)
        #expect(abs((next(b, "overhead-press").weightKg ?? 0) / WeightUnit.kilogramsPerPound - 97.5) < 1e-9)  // 99 → 97.5
    }

    @Test("smart defaults: on for strength exercises, off for warm-up, recovery and other kinds; overrides and clearing")
    func defaultsAndOverrides() throws {
        var b = LogBuilder()
        let plank = NextTargetProjection.settings(b.log, exerciseId: "plank", programId: nil)
        #expect(plank.module == .strength && !plank.enabled)
        #expect(!NextTargetProjection.settings(b.log, exerciseId: "foam-rolling", programId: nil).enabled)
        #expect(!NextTargetProjection.settings(b.log, exerciseId: "box-jump", programId: nil).enabled)
        #expect(NextTargetProjection.settings(b.log, exerciseId: "barbell-bench-press", programId: nil).enabled)
        try b.workout("2026-01-05T18:00:00Z", sets: [working("barbell-bench-press", 80, 12), working("barbell-bench-press", 80, 12)])
        try b.run("2026-01-06T00:00:00Z") { s in try s.setProgression(exercise: "barbell-bench-press", module: .warmup) }
        var t = next(b, "barbell-bench-press")
        #expect(t.rule == .none && t.weightKg == 80 && t.reason.hasPrefix("progression is off for this warmup exercise"))
        try b.run("2026-01-07T00:00:00Z") { s in try s.setProgression(exercise: "barbell-bench-press", enabled: true) }
        #expect(next(b, "barbell-bench-press").weightKg == 82.5)
        try b.run("2026-01-08T00:00:00Z") { s in try s.setProgression(exercise: "barbell-bench-press", rule: ProgressionRule.none) }
        #expect(next(b, "barbell-bench-press").rule == .none)
        try b.run("2026-01-09T00:00:00Z") { s in try s.setProgression(exercise: "barbell-bench-press", clear: true) }
        t = next(b, "barbell-bench-press")
        #expect(t.rule == .double && t.weightKg == 82.5)
        // A rule set that changes the default rule changes the target, and rebuild --diff says so.
        var linear = RuleSet.default
        linear.id = "linear"
        linear.progressionRule = .linear
        #expect(
            RuleSetDiff.changes(b.log, from: .default, to: linear).contains {
                if case .nextTargetChanged("barbell-bench-press", _, let to) = $0 { to.rule == .linear } else { false }
            })
    }
}
