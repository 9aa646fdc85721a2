import Foundation
import Testing

@testable import RepLedgerCore
@testable import RepLedgerProjections

@Suite("Session replay")
struct ReplayTests {
    @Test("a session with an edit, a deletion and a swap replays to the expected states")
    func sessionReplay() throws {
        var b = LogBuilder()
        var w = UUID(), first = UUID(), second = UUID()
        try b.run("2026-11-02T07:00:00Z") { w = try $0.startWorkout(name: "Upper A") }
        try b.run("2026-11-02T07:05:00Z") {
            first = try $0.logSet(w, exercise: "barbell-bench-press", metrics: SetMetrics(weight: Weight(80, .kg), reps: 8))
        }
        try b.run("2026-11-02T07:08:00Z") {
            second = try $0.logSet(w, exercise: "barbell-bench-press", metrics: SetMetrics(weight: Weight(80, .kg), reps: 8))
        }
        try b.run("2026-11-02T07:09:00Z") { try $0.editSet(w, set: first.lowercased, changes: SetMetrics(weight: Weight(82.5, .kg))) }
        try b.run("2026-11-02T07:10:00Z") { try $0.deleteSet(w, set: second.lowercased) }
        try b.run("2026-11-02T07:15:00Z") { _ = try $0.logSet(w, exercise: "leg-press", metrics: SetMetrics(weight: Weight(160, .kg), reps: 10)) }
        try b.run("2026-11-02T07:18:00Z") { try $0.swapExercise(w, from: "leg-press", to: "hack-squat") }
        try b.run("2026-11-02T07:20:00Z") { _ = try $0.logSet(w, exercise: "hack-squat", metrics: SetMetrics(weight: Weight(100, .kg), reps: 10)) }
        try b.run("2026-11-02T07:40:00Z") { try $0.finishWorkout(w) }

        let events = b.envelopes.filter { $0.event.workoutId == w }
        let steps = WorkoutReplayProjection.steps(events, workoutId: w, library: b.log.library, unit: .kg)
        #expect(
            steps.map(\.change) == [
                "started \"Upper A\"",
                "added Bench Press (Barbell)",
                "Bench Press (Barbell) set 1: 80 kg × 8",
                "Bench Press (Barbell) set 2: 80 kg × 8",
                "Bench Press (Barbell) set 1: weight edited from 80 kg to 82.5 kg",
                "deleted Bench Press (Barbell) set 2 (80 kg × 8)",
                "added Leg Press (Machine)",
                "Leg Press (Machine) set 1: 160 kg × 10",
                "Leg Press (Machine) swapped for Hack Squat (Machine)",
                "Hack Squat (Machine) set 1: 100 kg × 10",
                "finished after 40 min",
            ])
        // The states along the way.
        #expect(steps[3].state.sets.count == 2)
        #expect(steps[4].state.sets.first?.metrics.weight == Weight(82.5, .kg))
        #expect(steps[5].state.sets.map(\.setId) == [first])
        #expect(steps[8].state.entries.map(\.exerciseId) == ["barbell-bench-press", "hack-squat"])
        #expect(steps[9].state.sets.map(\.exerciseId) == ["barbell-bench-press", "leg-press", "hack-squat"])
        #expect(steps.last?.state.status == .finished)
        #expect(steps.last?.state == b.log.workouts[w])
    }
}
