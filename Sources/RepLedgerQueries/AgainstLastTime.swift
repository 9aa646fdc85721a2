import Foundation
import RepLedgerCore
import RepLedgerProjections

/// A workout against last time, per exercise it did: the hint it was shown
/// (`hint EXERCISE --workout W`) and its "+N reps" counter (`repcount W
/// EXERCISE`), as the inspector's Session page lists them.
public enum AgainstLastTime {
    public struct Row: Sendable {
        public var exerciseId: String
        public var exercise: String
        public var hint: LastTimeHintProjection.Hint
        public var excessReps: Int
    }

    public static func rows(_ log: TrainingLogProjection, workoutId: UUID, rules: RuleSet) -> [Row] {
        guard let w = log.workouts[workoutId] else { return [] }
        let context = LastTimeHintProjection.Context(workout: w, scope: rules.hintScope)
        return w.exercisesDone.filter { !w.workingSets(of: $0).isEmpty }.map { id in
            Row(
                exerciseId: id, exercise: log.exerciseName(id), hint: LastTimeHintProjection.hint(log, exerciseId: id, context: context),
                excessReps: RepCounterProjection.excessReps(log, workoutId: workoutId, exerciseId: id, scope: rules.hintScope))
        }
    }
}
