import Foundation
import RepLedgerCore

/// The "+N reps" counter (DOMAIN.md §7): the current workout's completed
/// working sets of an exercise against the previous workout's (same scope as
/// the hint), index by index: Σ max(0, current_i − previous_i) over indices
/// both have. Sets beyond the previous count add nothing; 0 means hidden.
public struct RepCounterProjection: ProjectionView {
    public static let name = "rep-counter"
    public static let version = 1

    public static func excessReps(current: [Int], previous: [Int]) -> Int {
        zip(current, previous).reduce(0) { $0 + max(0, $1.0 - $1.1) }
    }

    public static func excessReps(
        _ log: TrainingLogProjection, workoutId: UUID, exerciseId: String,
        scope: HintScope = .exercise
    ) -> Int {
        guard let w = log.workouts[workoutId] else { return 0 }
        let context = LastTimeHintProjection.Context(workout: w, scope: scope)
        guard let previous = LastTimeHintProjection.previousWorkout(log, exerciseId: exerciseId, context: context) else { return 0 }
        return excessReps(
            current: w.workingSets(of: exerciseId).map { $0.metrics.reps ?? 0 },
            previous: previous.workingSets(of: exerciseId).map { $0.metrics.reps ?? 0 })
    }
}
