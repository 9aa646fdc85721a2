import Foundation

/// Planned sets (from a template, a program or a repeated workout) are
/// completed in place, so a plan of 3 sets done ends as 3 completed sets,
/// not 3 planned ones beside 3 logged ones.
extension CommandSession {
    /// The first planned, not completed set of `exercise` that a set of `type` fills (`SetType.fills(planned:)`), if any.
    public mutating func nextPlannedSet(_ workoutId: UUID, exercise: String, type: SetType = .normal) throws -> UUID? {
        let w = try workout(workoutId)
        let x = try self.exercise(exercise, in: w)
        return w.sets.filter { !$0.completed && $0.exerciseId == x.exerciseId && type.fills(planned: $0.type) }.min { $0.rank < $1.rank }?.setId
    }

    /// Completes a planned set. Values given replace the plan's (a `SetLogged`
    /// on the planned set's id); with none, the plan is what was done (a
    /// `SetCompleted`). Refused for a set completed already.
    @discardableResult
    public mutating func completeSet(
        _ workoutId: UUID, set ref: String, type: SetType? = nil, values: SetMetrics = SetMetrics(),
        notes: String? = nil, historyEdit: Bool = false, timeGiven: Bool = true
    ) throws -> UUID {
        let w = try writableWorkout(workoutId, historyEdit: historyEdit)
        let set = try Self.resolveSet(ref, in: w)
        guard !set.completed else { throw Refusal.setAlreadyCompleted(set.setId.lowercased.prefix(8).description) }
        try Self.refuseNowAfterIdle(w, at: context.occurredAt, timeGiven: timeGiven, or: Refusal.setTimeNeeded)
        if type == nil, values == SetMetrics(), notes == nil {
            guard set.metrics.reps != nil || set.metrics.durationSeconds != nil || set.metrics.distanceMeters != nil else {
                let x = library.exercises[set.exerciseId]?.definition
                throw Refusal.setLacksMeasure(exercise: x?.name ?? set.exerciseId, kind: x?.kind ?? .strength)
            }
            var e = SetCompleted()
            e.workoutId = workoutId
            e.setId = set.setId
            emit([.setCompleted(e)])
            return set.setId
        }
        var done = set.metrics
        if let v = values.weight { done.weight = v }
        if let v = values.reps { done.reps = v }
        if let v = values.rpe { done.rpe = v }
        if let v = values.durationSeconds { done.durationSeconds = v }
        if let v = values.distanceMeters { done.distanceMeters = v }
        return try logSet(
            workoutId, exercise: set.exerciseId, type: type ?? set.type, metrics: done, notes: notes,
            historyEdit: historyEdit, plannedSetId: set.setId, timeGiven: timeGiven)
    }

    /// Turns a completed set back into a planned one (its values stay; it stops counting).
    public mutating func uncompleteSet(_ workoutId: UUID, set ref: String, historyEdit: Bool = false) throws {
        let w = try writableWorkout(workoutId, historyEdit: historyEdit)
        let set = try Self.resolveSet(ref, in: w)
        guard set.completed else { throw Refusal.setNotCompleted(set.setId.lowercased.prefix(8).description) }
        var e = SetUncompleted()
        e.workoutId = workoutId
        e.setId = set.setId
        emit([.setUncompleted(e)])
    }

    /// Starts a workout that repeats an earlier one (a routine imported from
    /// another app has no template, only its workouts): the same exercises,
    /// one planned set per set done then, at the weight and reps done then.
    public mutating func startWorkout(repeating earlier: WorkoutState, name: String? = nil) throws -> UUID {
        let id = try startWorkout(name: name ?? earlier.name, origin: .empty)
        for entry in earlier.entries {
            guard let exercise = try? library.resolveActive(entry.exerciseId) else { continue }  // archived since
            let done = earlier.setsInOrderDone(entry: entry.entryId).filter(\.completed)
            guard !done.isEmpty else { continue }
            planExercise(
                id, exerciseId: exercise.exerciseId, repsMin: entry.targetRepsMin, repsMax: entry.targetRepsMax,
                sets: done.map { s in
                    (
                        s.type,
                        SetMetrics(
                            weight: s.metrics.weight, reps: s.metrics.reps, durationSeconds: s.metrics.durationSeconds,
                            distanceMeters: s.metrics.distanceMeters)
                    )
                })
        }
        return id
    }
}
