import Foundation

/// The lifter's changes to the exercise library (issue 31 point 5): rename,
/// edit, archive and unarchive, favourites, merges. History keeps the
/// exercise's id, so every past set follows a rename, an edit or a merge.
extension CommandSession {
    /// `exercise rename X NAME`.
    public mutating func renameExercise(_ exercise: String, to name: String) throws {
        let x = try library.resolve(exercise)
        let clean = name.trimmingSpaces()
        try Invariants.check(name: clean, of: .exercise)
        guard clean != x.name else { throw Refusal.nothingToChange }
        if let other = library.exactMatch(clean), other.exerciseId != x.exerciseId {
            throw Refusal.exerciseExists(name: other.name, exerciseId: other.exerciseId)
        }
        var e = ExerciseRenamed()
        e.exerciseId = x.exerciseId
        e.name = clean
        emit([.exerciseRenamed(e)])
    }

    /// The fields `exercise edit` changes; nil keeps the current value.
    public struct ExerciseChanges: Sendable {
        public var primaryMuscles: [Muscle]?
        public var secondaryMuscles: [Muscle]?
        public var equipment: [Equipment]?
        public var kind: ExerciseKind?
        public var unilateral: Bool?
        /// Empty clears the note.
        public var notes: String?
        public init(
            primaryMuscles: [Muscle]? = nil, secondaryMuscles: [Muscle]? = nil, equipment: [Equipment]? = nil,
            kind: ExerciseKind? = nil, unilateral: Bool? = nil, notes: String? = nil
        ) {
            self.primaryMuscles = primaryMuscles
            self.secondaryMuscles = secondaryMuscles
            self.equipment = equipment
            self.kind = kind
            self.unilateral = unilateral
            self.notes = notes
        }
    }

    /// `exercise edit X [--muscle …] [--secondary …] [--equipment …] [--kind K] [--unilateral on|off] [--notes T]`.
    public mutating func editExercise(_ exercise: String, _ changes: ExerciseChanges) throws {
        let x = try library.resolve(exercise)
        var e = ExerciseEdited()
        e.exerciseId = x.exerciseId
        e.primaryMuscles = changes.primaryMuscles ?? x.definition.primaryMuscles
        e.secondaryMuscles = changes.secondaryMuscles ?? x.definition.secondaryMuscles
        e.equipment = changes.equipment ?? x.definition.equipment
        e.kind = changes.kind ?? x.definition.kind
        e.unilateral = changes.unilateral ?? x.unilateral
        e.notes = (changes.notes ?? x.notes ?? "").trimmingSpaces()
        try Invariants.check(exerciseEdit: e)
        let same =
            e.primaryMuscles == x.definition.primaryMuscles && e.secondaryMuscles == x.definition.secondaryMuscles
            && e.equipment == x.definition.equipment && e.kind == x.definition.kind && e.unilateral == x.unilateral
            && e.notes == (x.notes ?? "")
        guard !same else { throw Refusal.nothingToChange }
        emit([.exerciseEdited(e)])
    }

    /// `exercise archive X`: it keeps its history and leaves the pickers (no new sets, not listed).
    public mutating func archiveExercise(_ exercise: String) throws {
        let x = try library.resolve(exercise)
        guard !x.archived else { throw Refusal.nothingToChange }
        var e = ExerciseArchived()
        e.exerciseId = x.exerciseId
        emit([.exerciseArchived(e)])
    }

    /// `exercise unarchive X` (by id or whole name: an archived exercise is in no prefix search).
    public mutating func unarchiveExercise(_ exercise: String) throws {
        let x = try library.resolve(exercise)
        guard x.archived else { throw Refusal.nothingToChange }
        var e = ExerciseUnarchived()
        e.exerciseId = x.exerciseId
        emit([.exerciseUnarchived(e)])
    }

    /// `exercise favourite X [--off]`.
    public mutating func favouriteExercise(_ exercise: String, _ on: Bool = true) throws {
        let x = try library.resolve(exercise)
        guard x.favourite != on else { throw Refusal.nothingToChange }
        var e = ExerciseFavourited()
        e.exerciseId = x.exerciseId
        e.favourite = on
        emit([.exerciseFavourited(e)])
    }

    /// `exercise merge FROM INTO`: FROM's sets count as INTO's in every view
    /// from now on (history, records, trends, volume, hints) and FROM's name
    /// finds INTO; FROM leaves the pickers. For a custom exercise an import
    /// made that the library has under another name.
    public mutating func mergeExercise(_ exercise: String, into target: String) throws {
        let from = try library.resolve(exercise)
        let into = try library.resolve(target)
        guard from.exerciseId != into.exerciseId else {
            // Merged already: the name typed is the merged exercise's own.
            if library.ownMatch(exercise)?.mergedInto != nil { throw Refusal.nothingToChange }
            throw Refusal.mergeIntoItself(into.name)
        }
        guard !into.archived else { throw Refusal.exerciseArchived(into.name) }
        guard from.definition.kind == into.definition.kind else {
            throw Refusal.mergeKindsDiffer(from.name, from.definition.kind, into: into.name, into.definition.kind)
        }
        var e = ExerciseMerged()
        e.exerciseId = from.exerciseId
        e.intoExerciseId = into.exerciseId
        emit([.exerciseMerged(e)])
    }
}
