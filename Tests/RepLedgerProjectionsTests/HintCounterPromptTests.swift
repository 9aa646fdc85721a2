import Foundation
import LedgerTestSupport
import Testing

@testable import RepLedgerCore
@testable import RepLedgerProjections

@Suite("Last-time hint (DOMAIN.md §6)")
struct LastTimeHintTests {
    func hint(
        _ b: LogBuilder, _ exercise: String, at iso: String, scope: HintScope = .exercise,
        program: UUID? = nil, day: Int? = nil
    ) -> LastTimeHintProjection.Hint {
        LastTimeHintProjection.hint(
            b.log, exerciseId: exercise,
            context: .init(time: .at(iso), scope: scope, programId: program, programDayIndex: day))
    }

    @Test("the most recent finished workout with a completed working set, its best set and its sets")
    func lastTime() throws {
        var b = LogBuilder()
        try b.workout("2026-10-01T07:00:00Z", sets: [working("barbell-bench-press", 90, 5)])
        let last = try b.workout(
            "2026-11-02T07:00:00Z",
            sets: [
                warmup("barbell-bench-press", 60, 10), working("barbell-bench-press", 80, 8),
                working("barbell-bench-press", 85, 6), working("barbell-bench-press", 85, 7),
            ])
        // A later workout that only listed the exercise is no "last time".
        let listed = try b.workout("2026-11-04T07:00:00Z", sets: [working("deadlift", 150, 5)])
        try b.run("2026-11-04T07:01:00Z") { _ = try $0.addExercise(listed.id, exercise: "barbell-bench-press", historyEdit: true) }
        let h = hint(b, "barbell-bench-press", at: "2026-11-05T18:00:00Z")
        #expect(h.lastWorkoutId == last.id)
        #expect(h.ago == "3 days ago")
        #expect(h.sets == [.init(weightKg: 80, reps: 8), .init(weightKg: 85, reps: 6), .init(weightKg: 85, reps: 7)])
        #expect(h.bestSet == .init(weightKg: 85, reps: 7))  // heaviest, tie broken by more reps
    }

    @Test(
        "ago in words",
        arguments: [
            ("2026-11-02T20:00:00Z", "today"), ("2026-11-03T06:00:00Z", "yesterday"), ("2026-11-04T07:00:00Z", "2 days ago"),
            ("2026-11-15T07:00:00Z", "13 days ago"), ("2026-11-23T07:00:00Z", "3 weeks ago"), ("2027-01-10T07:00:00Z", "2 months ago"),
            ("2027-11-02T07:00:00Z", "1 year ago"), ("2029-01-01T07:00:00Z", "2 years ago"),
        ])
    func ago(at: String, words: String) throws {
        #expect(Ago.words(from: .at("2026-11-02T07:00:00Z"), to: .at(at)) == words)
    }

    @Test("no earlier workout gives an empty hint, not an error")
    func empty() throws {
        var b = LogBuilder()
        try b.workout("2026-11-02T07:00:00Z", sets: [working("deadlift", 150, 5)])
        let h = hint(b, "deadlift", at: "2026-11-02T06:00:00Z")
        #expect(h.lastWorkoutId == nil)
        #expect(h.sets.isEmpty)
        #expect(h.bestSet == nil)
        #expect(h.ago == nil)
    }

    @Test("programDay scope only looks at the same program session")
    func programDay() throws {
        var b = LogBuilder()
        let program = UUID()
        let dayA = try b.workout("2026-11-02T07:00:00Z", sets: [working("back-squat", 100, 5)], programId: program, day: 0)
        try b.workout("2026-11-04T07:00:00Z", sets: [working("back-squat", 80, 10)], programId: program, day: 1)
        #expect(hint(b, "back-squat", at: "2026-11-09T07:00:00Z").sets.first?.weightKg == 80)
        let scoped = hint(b, "back-squat", at: "2026-11-09T07:00:00Z", scope: .programDay, program: program, day: 0)
        #expect(scoped.lastWorkoutId == dayA.id)
    }
}

@Suite("Rep counter (DOMAIN.md §7)")
struct RepCounterTests {
    @Test(
        "the DOMAIN.md examples",
        arguments: [
            ([12, 10, 9], [10, 9, 8], 4), ([12, 9, 11], [10, 10, 10], 3), ([10, 10, 10], [12, 12, 12], 0),
            ([12, 12, 12, 12], [10, 10], 4), ([8], [10, 10, 10], 0),
        ])
    func examples(current: [Int], previous: [Int], expected: Int) {
        #expect(RepCounterProjection.excessReps(current: current, previous: previous) == expected)
    }

    @Test("against the previous workout's working sets; none before means hidden")
    func fromLog() throws {
        var b = LogBuilder()
        let first = try b.workout(
            "2026-11-02T07:00:00Z",
            sets: [
                warmup("pull-up", nil, 15), working("pull-up", nil, 10), working("pull-up", nil, 9), working("pull-up", nil, 8),
            ])
        #expect(RepCounterProjection.excessReps(b.log, workoutId: first.id, exerciseId: "pull-up") == 0)
        let now = try b.workout(
            "2026-11-05T07:00:00Z",
            sets: [
                warmup("pull-up", nil, 3), working("pull-up", nil, 12), working("pull-up", nil, 10), working("pull-up", nil, 9),
                working("pull-up", nil, 20),
            ], finish: false)
        #expect(RepCounterProjection.excessReps(b.log, workoutId: now.id, exerciseId: "pull-up") == 4)
    }
}

@Suite("Progression prompt (DOMAIN.md §8)")
struct ProgressionPromptTests {
    static let domainExamples: [([Int], ProgressionPromptProjection.Kind?, ProgressionPromptProjection.Variant?)] = [
        ([7, 10, 10], .regression, .default), ([10, 6, 10], .regression, .default), ([12, 12, 10], .progression, .default),
        ([12, 12, 7], .consistency, .strongStart), ([10, 9, 8], .consistency, .default), ([10, 0, 0], nil, nil),
        // Seed 001 prompts on exactly three completed sets: a fourth (12, 12, 10, 5) shows nothing.
        ([12, 12], nil, nil), ([13, 14, 8, 1], nil, nil), ([12, 12, 10, 5], nil, nil),
    ]

    @Test("the DOMAIN.md examples with 8-12", arguments: domainExamples)
    func examples(reps: [Int], kind: ProgressionPromptProjection.Kind?, variant: ProgressionPromptProjection.Variant?) throws {
        let p = ProgressionPromptProjection.evaluate(reps: reps, range: try RepRange.parse("8-12"))
        #expect(p?.kind == kind)
        #expect(p?.variant == variant)
    }

    @Test("titles and messages are DOMAIN.md's")
    func messages() throws {
        let range = try RepRange.parse("8-12")
        let red = try #require(ProgressionPromptProjection.evaluate(reps: [7, 10, 10], range: range))
        #expect(red.title == "Great effort today!")
        #expect(red.message == "Try choosing a weight that allows you to hit the target range for all sets.")
        let green = try #require(ProgressionPromptProjection.evaluate(reps: [12, 12, 10], range: range))
        #expect(green.title == "Excellent work!")
        #expect(green.message == "You hit or exceeded the top end for your first two sets. Time to increase weight next session.")
        let start = try #require(ProgressionPromptProjection.evaluate(reps: [12, 12, 7], range: range))
        #expect(start.title == "Great start!")
        #expect(start.message == "Push harder on the last set.")
        let amber = try #require(ProgressionPromptProjection.evaluate(reps: [10, 9, 8], range: range))
        #expect(amber.title == "You're doing great!")
        #expect(amber.message == "Try to hit the top end of the range or exceed it for all sets.")
    }

    @Test("malformed ranges are refused", arguments: ["12-8", "8", "a-b", "0-5", "8-12-14", "", "-5", "8-", "5-1001"])
    func malformed(text: String) {
        #expect(throws: Refusal.malformedRange(text)) { try RepRange.parse(text) }
    }

    @Test("a 0-rep set (a failed attempt) is passed over")
    func zeroRepSkipped() throws {
        let p = ProgressionPromptProjection.evaluate(reps: [12, 0, 12, 9], range: try RepRange.parse("8-12"))
        #expect(p?.kind == .progression)
    }
}
