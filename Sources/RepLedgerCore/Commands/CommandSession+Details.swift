import Foundation

// Notes, supersets and rest timers: the details of a session that other apps
// export and that an import must keep.
extension CommandSession {
    /// Sets the note of the workout (`entryId` nil) or of one exercise entry.
    public mutating func setNote(_ workoutId: UUID, entryId: UUID? = nil, text: String) throws {
        let w = try writableWorkout(workoutId, historyEdit: true)
        if let id = entryId, !w.entries.contains(where: { $0.entryId == id }) {
            throw Refusal.exerciseNotInWorkout(id.lowercased, workout: workoutId)
        }
        try SetValidation.validateNote(text)
        var e = WorkoutNoteSet()
        e.workoutId = workoutId
        e.entryId = entryId
        e.text = text
        emit([.workoutNoteSet(e)])
    }

    /// `workout note W TEXT [--exercise X]`: the note of the workout, or of the
    /// exercise's entry in it (the last one, if it was done twice); empty text clears it.
    public mutating func setNote(_ workoutId: UUID, exercise: String?, text: String) throws {
        guard let exercise else { return try setNote(workoutId, text: text) }
        let w = try workout(workoutId)
        let x = try self.exercise(exercise, in: w)
        guard let entry = w.entries.last(where: { $0.exerciseId == x.exerciseId }) else {
            throw Refusal.exerciseNotInWorkout(x.name, workout: workoutId)
        }
        try setNote(workoutId, entryId: entry.entryId, text: text)
    }

    /// Links two or more entries of the workout into one superset.
    @discardableResult
    public mutating func linkSuperset(_ workoutId: UUID, entryIds: [UUID]) throws -> UUID {
        let w = try writableWorkout(workoutId, historyEdit: true)
        guard entryIds.count >= 2 else { throw Refusal.invalidMeasure("the superset", reason: "link at least two exercises") }
        for id in entryIds where !w.entries.contains(where: { $0.entryId == id }) {
            throw Refusal.exerciseNotInWorkout(id.lowercased, workout: workoutId)
        }
        var e = SupersetLinked()
        e.workoutId = workoutId
        e.supersetId = ids.next()
        e.entryIds = entryIds
        emit([.supersetLinked(e)])
        return e.supersetId
    }

    /// `workout superset W E1 E2 [E3…]`: links these exercises of the workout
    /// (the last entry of each) into one superset → its id.
    @discardableResult
    public mutating func linkSuperset(_ workoutId: UUID, exercises: [String]) throws -> UUID {
        let w = try workout(workoutId)
        var entries: [UUID] = []
        for name in exercises {
            let x = try exercise(name, in: w)
            guard let entry = w.entries.last(where: { $0.exerciseId == x.exerciseId }) else {
                throw Refusal.exerciseNotInWorkout(x.name, workout: workoutId)
            }
            guard !entries.contains(entry.entryId) else { throw Refusal.invalidMeasure("the superset", reason: "\(x.name) is named twice") }
            entries.append(entry.entryId)
        }
        let current = w.entries.filter { entries.contains($0.entryId) }.map(\.supersetId)
        if let first = current.first, first != nil, current.allSatisfy({ $0 == first }),
            w.entries.filter({ $0.supersetId == first }).count == entries.count
        {
            throw Refusal.nothingToChange
        }
        return try linkSuperset(workoutId, entryIds: entries)
    }

    /// `workout unlink W EXERCISE`: ends the superset the exercise is in (its other exercises stand alone again).
    public mutating func unlinkSuperset(_ workoutId: UUID, exercise: String) throws {
        let w = try writableWorkout(workoutId, historyEdit: true)
        let x = try self.exercise(exercise, in: w)
        guard let entry = w.entries.last(where: { $0.exerciseId == x.exerciseId }) else {
            throw Refusal.exerciseNotInWorkout(x.name, workout: workoutId)
        }
        guard let superset = entry.supersetId else { throw Refusal.nothingToChange }
        var e = SupersetUnlinked()
        e.workoutId = workoutId
        e.supersetId = superset
        emit([.supersetUnlinked(e)])
    }

    /// A rest taken after a set (a rest-timer start with its length).
    public mutating func startRestTimer(_ workoutId: UUID, seconds: Int, afterSetId: UUID?) throws {
        _ = try writableWorkout(workoutId, historyEdit: true)
        try Invariants.check(restTaken: seconds)
        var e = RestTimerStarted()
        e.workoutId = workoutId
        e.seconds = seconds
        e.afterSetId = afterSetId
        emit([.restTimerStarted(e)])
    }
}

extension CommandSession {
    /// Notes a file the ledger wrote (backup, CSV, report), for account erasure.
    public mutating func recordExport(path: String, format: String, sha256: String) {
        emit([.exportWritten(ExportWritten(path: path, format: format, sha256: sha256))])
    }
}
