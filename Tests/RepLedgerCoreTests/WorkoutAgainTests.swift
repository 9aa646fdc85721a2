import Foundation
import LedgerTestSupport
import RepLedgerCore
import Testing

/// A workout done becomes a template, or is started again as planned sets: one implementation each, which the
/// CLI (`template create --from-workout`, `workout start --repeat-last`) and the command API both call.
@Suite struct WorkoutAgainTests {
    /// A finished "Push" of warm-ups, three bench sets of 8, 8 and 6, and a planned set of flyes never done.
    static func pushDay(_ t: MemoryLedger) throws -> UUID {
        let id = try t.ledger.execute { try $0.startWorkout(name: "Push") }
        try t.ledger.execute { session in
            _ = try session.logTypedSet(
                id, exercise: "Bench Press (Barbell)", type: .warmup, metrics: SetMetrics(weight: Weight(40, .kg), reps: 10), notes: nil,
                timeGiven: false)
            for (reps, kg) in [(8, 80.0), (8, 82.5), (6, 85.0)] {
                _ = try session.logTypedSet(
                    id, exercise: "Bench Press (Barbell)", type: .normal, metrics: SetMetrics(weight: Weight(kg, .kg), reps: reps), notes: nil,
                    timeGiven: false)
            }
            _ = try session.addExercise(id, exercise: "Chest Fly (Dumbbell)")
            try session.finishWorkout(id, timeGiven: false)
        }
        return id
    }

    @Test func aWorkoutBecomesATemplateOfWhatWasDone() throws {
        let t = try MemoryLedger()
        let id = try Self.pushDay(t)
        let templateId = try t.ledger.execute { try $0.createTemplate(fromWorkout: id, name: nil) }
        let template = try #require(try t.ledger.templates().live.first { $0.templateId == templateId })
        // Named after the workout; the bench's three working sets, 6–8 reps, the heaviest weight; the exercise with no set left out.
        #expect(template.name == "Push")
        #expect(template.exercises.map(\.exerciseId) == ["barbell-bench-press"])
        let bench = try #require(template.exercises.first)
        #expect((bench.sets, bench.repsMin, bench.repsMax, bench.weight) == (3, 6, 8, Weight(85, .kg)))
        // A workout with no set makes no template.
        let empty = try t.ledger.execute { try $0.startWorkout(name: "Nothing") }
        #expect(throws: Refusal.self) { try t.ledger.execute { try $0.createTemplate(fromWorkout: empty, name: "x") } }
    }

    @Test func theLastFinishedWorkoutStartsAgainAsPlannedSets() throws {
        let t = try MemoryLedger()
        #expect(throws: Refusal.nothingToRepeat) { try t.ledger.repeatLastWorkout() }
        _ = try Self.pushDay(t)
        let again = try t.ledger.repeatLastWorkout()
        let w = try t.ledger.workout(again)
        #expect(w.name == "Push" && w.status == .running)
        let planned = w.sets.filter { !$0.completed }
        #expect(planned.count == 4 && planned.filter { $0.type == .normal }.compactMap(\.metrics.reps) == [8, 8, 6], "\(planned)")
    }
}
