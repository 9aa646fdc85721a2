import Foundation
import LedgerTestSupport
import Testing

@testable import RepLedgerCore
@testable import RepLedgerSQLite

@Suite("Workout state")
struct WorkoutStateTests {
    @Test("a set's RIR and tempo merge field by field, the later occurredAt winning whatever order the log holds them in")
    func effortMergesByOccurredAt() throws {
        let w = UUID(), set = UUID()
        func effort(rir: Double?, tempo: String?) -> LedgerEvent {
            var e = SetEffortRecorded()
            e.workoutId = w
            e.setId = set
            e.rir = rir
            e.tempo = tempo
            return .setEffortRecorded(e)
        }
        let early = (effort(rir: 3, tempo: "3-1-1-0"), Timestamp(millis: 1_000))
        let late = (effort(rir: 1, tempo: nil), Timestamp(millis: 2_000))
        for order in [[early, late], [late, early]] {
            var state = WorkoutState(workoutId: w)
            for (event, at) in order { state.evolve(event, at: at) }
            let merged = try #require(state.effort(of: set))
            #expect(merged.rir == 1 && merged.tempo == "3-1-1-0", "\(order.map(\.1.millis))")
        }
    }

    @Test("a swap keeps logged sets with the old exercise; later sets go to the new one")
    func swapKeepsHistory() throws {
        let t = try TempLedger()
        let w = try t.ledger.execute { try $0.startWorkout(name: "Lower A") }
        try t.ledger.execute { _ = try $0.logSet(w, exercise: "leg-press", metrics: SetMetrics(weight: Weight(160, .kg), reps: 10)) }
        try t.ledger.execute { try $0.swapExercise(w, from: "leg-press", to: "hack-squat") }
        try t.ledger.execute { _ = try $0.logSet(w, exercise: "hack-squat", metrics: SetMetrics(weight: Weight(100, .kg), reps: 10)) }
        let state = try t.ledger.workout(w)
        #expect(state.entries.count == 1)
        #expect(state.entries[0].exerciseId == "hack-squat")
        #expect(state.sets.map(\.exerciseId) == ["leg-press", "hack-squat"])
        #expect(Set(state.sets.map(\.entryId)).count == 1)
    }

    @Test("logging a planned set fills it in; a set already done or of another exercise is not reused")
    func plannedSets() throws {
        let t = try TempLedger()
        try t.ledger.execute { try $0.setLiftingUnit(.kg) }
        let template = try t.ledger.execute { try $0.createTemplate(name: "Push", exercises: ["barbell-bench-press", "overhead-press"]) }
        let w = try t.ledger.execute { try $0.startWorkout(fromTemplate: template.lowercased) }
        let planned = try t.ledger.workout(w).sets
        let bench = try #require(planned.first { $0.exerciseId == "barbell-bench-press" })
        let done = try t.ledger.execute {
            try $0.logSet(w, exercise: "barbell-bench-press", metrics: SetMetrics(weight: Weight(100, .kg), reps: 5), plannedSetId: bench.setId)
        }
        #expect(done == bench.setId)
        let again = try t.ledger.execute {
            try $0.logSet(w, exercise: "barbell-bench-press", metrics: SetMetrics(weight: Weight(100, .kg), reps: 5), plannedSetId: bench.setId)
        }
        #expect(again != bench.setId)
        let press = try t.ledger.execute {
            try $0.logSet(w, exercise: "overhead-press", metrics: SetMetrics(weight: Weight(50, .kg), reps: 5), plannedSetId: bench.setId)
        }
        #expect(press != bench.setId)
        let state = try t.ledger.workout(w)
        #expect(state.sets.count == planned.count + 2)
        #expect(state.sets.first { $0.setId == bench.setId }?.completed == true)
        #expect(state.sets.filter(\.completed).count == 3)
    }

    @Test("a ledger keeps stream states between commands and still sees another writer's events")
    func cachedStatesCatchUp() throws {
        let t = try TempLedger()
        let other = Ledger(store: try SQLiteEventStore(path: t.path), device: "watch", ids: .seeded(7))
        let w = try t.ledger.execute { try $0.startWorkout(name: "Upper A") }
        try t.ledger.execute { _ = try $0.logSet(w, exercise: "barbell-bench-press", metrics: SetMetrics(weight: Weight(100, .kg), reps: 5)) }
        // The watch logs a set and adds an exercise to the library behind the phone's back.
        try other.execute { _ = try $0.logSet(w, exercise: "barbell-bench-press", metrics: SetMetrics(weight: Weight(100, .kg), reps: 4)) }
        let custom = try other.execute { try $0.defineExercise(name: "Spoto Press", primaryMuscles: [.chest]) }
        // The phone's next command is decided on the current state: no lost update, no unknown exercise.
        try t.ledger.execute { _ = try $0.logSet(w, exercise: custom, metrics: SetMetrics(weight: Weight(90, .kg), reps: 5)) }
        let state = try t.ledger.workout(w)
        #expect(state.sets.map(\.metrics.reps) == [5, 4, 5])
        #expect(state == (try Ledger(store: t.store).workout(w)))
        #expect(try t.ledger.library() == (try Ledger(store: t.store).library()))
    }

    @Test("paused time is left out of the duration")
    func pausedTime() throws {
        let t = try TempLedger()
        let w = try t.ledger.execute(at: .at("2026-11-02T07:00:00Z")) { try $0.startWorkout(name: "Upper B") }
        try t.ledger.execute(at: .at("2026-11-02T07:20:00Z")) { try $0.pauseWorkout(w) }
        try t.ledger.execute(at: .at("2026-11-02T07:30:00Z")) { try $0.resumeWorkout(w) }
        try t.ledger.execute(at: .at("2026-11-02T08:00:00Z")) { try $0.finishWorkout(w) }
        #expect(try t.ledger.workout(w).durationSeconds() == 50 * 60)
        #expect(throws: Refusal.self) { try t.ledger.execute { try $0.resumeWorkout(w) } }
    }

    @Test("a deleted set is gone and an edit changes only the given fields")
    func editAndDelete() throws {
        let t = try TempLedger()
        let w = try t.ledger.execute { try $0.startWorkout(name: "") }
        let a = try t.ledger.execute { try $0.logSet(w, exercise: "back-squat", metrics: SetMetrics(weight: Weight(100, .kg), reps: 5, rpe: 8)) }
        let b = try t.ledger.execute {
            try $0.logSet(w, exercise: "back-squat", type: .warmup, metrics: SetMetrics(weight: Weight(60, .kg), reps: 5))
        }
        try t.ledger.execute { try $0.editSet(w, set: a.lowercased, changes: SetMetrics(weight: Weight(225, .lb))) }
        try t.ledger.execute { try $0.deleteSet(w, set: b.lowercased) }
        let state = try t.ledger.workout(w)
        #expect(state.sets.count == 1)
        #expect(state.sets[0].metrics == SetMetrics(weight: Weight(225, .lb), reps: 5, rpe: 8))
        #expect(["Morning Workout", "Afternoon Workout", "Evening Workout", "Night Workout"].contains(state.name))
    }

    @Test("`last` and id prefixes name workouts")
    func workoutReferences() throws {
        let t = try TempLedger()
        let first = try t.ledger.execute { try $0.startWorkout(name: "A") }
        let second = try t.ledger.execute { try $0.startWorkout(name: "B") }
        #expect(try t.ledger.resolveWorkout("last") == second)
        #expect(try t.ledger.resolveWorkout(String(first.lowercased.prefix(8))) == first)
        #expect(try t.ledger.resolveWorkout(second.uuidString) == second)
    }
}
