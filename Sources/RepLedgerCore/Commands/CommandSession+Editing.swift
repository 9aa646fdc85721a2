import Foundation

/// Editing a workout (issue 31 point 1): exercises added mid-workout,
/// removed and reordered; sets duplicated and moved to another exercise. A
/// finished workout changes only with `historyEdit`, as every set change.
extension CommandSession {
    /// Removes an exercise and its sets from the workout (the last entry of it, if it was done twice).
    public mutating func removeExercise(_ workoutId: UUID, exercise: String, historyEdit: Bool = false) throws {
        let w = try writableWorkout(workoutId, historyEdit: historyEdit)
        let x = try self.exercise(exercise, in: w)
        guard let entry = w.entries.last(where: { $0.exerciseId == x.exerciseId }) else {
            throw Refusal.exerciseNotInWorkout(x.name, workout: workoutId)
        }
        var e = WorkoutExerciseRemoved()
        e.workoutId = workoutId
        e.entryId = entry.entryId
        emit([.workoutExerciseRemoved(e)])
    }

    /// Puts the workout's exercises in this order: every one named once (an
    /// exercise done twice is named twice; its entries keep their order).
    public mutating func reorderExercises(_ workoutId: UUID, exercises: [String], historyEdit: Bool = false) throws {
        let w = try writableWorkout(workoutId, historyEdit: historyEdit)
        var remaining = w.entries
        var order: [UUID] = []
        for name in exercises {
            let x = try exercise(name, in: w)
            guard let i = remaining.firstIndex(where: { $0.exerciseId == x.exerciseId }) else {
                throw Refusal.exerciseNotInWorkout(x.name, workout: workoutId)
            }
            order.append(remaining.remove(at: i).entryId)
        }
        guard remaining.isEmpty else {
            let missing = remaining.map { library.name(of: $0.exerciseId) }
            throw Refusal.invalidInput("name every exercise of the workout once; missing: \(missing.joined(separator: ", "))")
        }
        guard order != w.entries.map(\.entryId) else { throw Refusal.nothingToChange }
        var e = WorkoutExercisesReordered()
        e.workoutId = workoutId
        e.entryIds = order
        emit([.workoutExercisesReordered(e)])
    }

    /// A copy of a set, added to the same exercise: done if the set was done, else planned → the new set's id.
    public mutating func duplicateSet(_ workoutId: UUID, set ref: String, historyEdit: Bool = false) throws -> UUID {
        let w = try writableWorkout(workoutId, historyEdit: historyEdit)
        let source = try Self.resolveSet(ref, in: w)
        return try copy(source, in: w, to: (source.entryId, source.exerciseId))
    }

    /// Moves a set to another exercise of the workout (added to it if absent),
    /// as a deletion and a new set with the same values: the set merges like
    /// any other (SERVER-CONTRACT.md §6) and needs no event of its own; its id changes.
    public mutating func moveSet(_ workoutId: UUID, set ref: String, toExercise exercise: String, historyEdit: Bool = false) throws -> UUID {
        let w = try writableWorkout(workoutId, historyEdit: historyEdit)
        let source = try Self.resolveSet(ref, in: w)
        let x = try library.resolveActive(exercise)
        guard x.exerciseId != source.exerciseId else { throw Refusal.sameExercise(x.name) }
        try SetValidation.validate(source.metrics, kind: x.definition.kind, exercise: x.name)
        let entryId = try w.entry(forExercise: x.exerciseId)?.entryId ?? addExercise(workoutId, exercise: x.exerciseId, historyEdit: historyEdit)
        var deleted = SetDeleted()
        deleted.workoutId = workoutId
        deleted.setId = source.setId
        deleted.historyEdit = w.status == .finished
        emit([.setDeleted(deleted)])
        return try copy(source, in: w, to: (entryId, x.exerciseId))
    }

    private mutating func copy(_ source: WorkoutState.SetRecord, in w: WorkoutState, to target: (entryId: UUID, exerciseId: String)) throws -> UUID {
        let id = ids.next()
        if source.completed {
            var e = SetLogged()
            e.workoutId = w.workoutId
            e.setId = id
            e.entryId = target.entryId
            e.exerciseId = target.exerciseId
            e.type = source.type
            e.metrics = source.metrics
            e.notes = source.notes
            e.historyEdit = w.status == .finished
            emit([.setLogged(e)])
        } else {
            var e = SetAdded()
            e.workoutId = w.workoutId
            e.setId = id
            e.entryId = target.entryId
            e.exerciseId = target.exerciseId
            e.type = source.type
            e.target = source.metrics
            emit([.setAdded(e)])
        }
        // Its reps in reserve, tempo and equipment go with it: they are part of the set as the lifter logged it.
        if let effort = w.effort(of: source.setId), effort.rir != nil || effort.tempo != nil {
            var e = SetEffortRecorded()
            e.workoutId = w.workoutId
            e.setId = id
            e.rir = effort.rir
            e.tempo = effort.tempo
            emit([.setEffortRecorded(e)])
        }
        if let effort = w.effort(of: source.setId), effort.band != nil || effort.implement != nil {
            var e = SetEquipmentRecorded()
            e.workoutId = w.workoutId
            e.setId = id
            e.band = effort.band
            e.implement = effort.implement
            emit([.setEquipmentRecorded(e)])
        }
        return id
    }
}
