import Foundation

/// A set as a person (or an assistant) names it: the workout's own exercise
/// first, a planned set completed before a new one is added, the rest timer
/// started after. `ledger workout log` and the assistant's `log_set` both
/// record through this, so they fill the same plans the same way.
extension CommandSession {
    public struct TypedSet {
        public var setId: UUID
        /// Seconds of rest the set started (auto-start on), else nil.
        public var rest: Int?
        public var exercise: LibraryState.Exercise
        /// True when the exercise was not in the workout (which held others) until this set.
        public var addedToWorkout: Bool
    }

    /// Logs a completed set of `exercise` (an id or a name) on the workout: the next planned set of that
    /// exercise and type is completed unless `extra`; `details` records what the set carries beyond its
    /// metrics (effort, tempo, equipment) before the rest starts.
    public mutating func logTypedSet(
        _ workoutId: UUID, exercise ref: String, type: SetType, metrics: SetMetrics, notes: String?, extra: Bool = false,
        historyEdit: Bool = false, timeGiven: Bool, details: (inout CommandSession, UUID) throws -> Void = { _, _ in }
    ) throws -> TypedSet {
        let w = try workout(workoutId)
        let x = try exercise(ref, in: w, active: true)
        let planned = extra ? nil : try nextPlannedSet(workoutId, exercise: x.exerciseId, type: type)
        let setId = try logSet(
            workoutId, exercise: x.exerciseId, type: type, metrics: metrics, notes: notes, historyEdit: historyEdit,
            plannedSetId: planned, timeGiven: timeGiven)
        try details(&self, setId)
        let added = w.entry(forExercise: x.exerciseId) == nil && !w.entries.isEmpty
        return TypedSet(setId: setId, rest: try autoStartRest(workoutId, afterSet: setId), exercise: x, addedToWorkout: added)
    }
}
