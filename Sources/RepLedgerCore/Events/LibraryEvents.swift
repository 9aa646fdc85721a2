import Foundation

/// An exercise entering the library: a seeded one or a user's custom one.
public struct ExerciseDefined: EventPayload {
    public static let eventType = EventType("ExerciseDefined", code: 10)
    /// A readable slug (`barbell-bench-press`), stable for the exercise's life.
    public var exerciseId = ""
    public var name = ""
    public var primaryMuscles: [Muscle] = []
    public var secondaryMuscles: [Muscle] = []
    public var equipment: [Equipment] = []
    public var kind: ExerciseKind = .strength
    /// Exercises that train the same pattern share it (a program never repeats one in a session).
    public var canonicalMovement = ""
    /// Minimum experience level: 0 = everyone, 1 complete beginner, 2 beginner, 3 intermediate and up.
    public var complexity = 0
    /// 0–100; higher is preferred when generating programs.
    public var rating = 50
    public var custom = false
    public var stream: StreamName { .library }
    public init() {}
    public mutating func fields<C: PayloadCoder>(_ c: inout C) throws {
        try c.field("exerciseId", &exerciseId)
        try c.field("name", &name)
        try c.field("primaryMuscles", &primaryMuscles)
        try c.field("secondaryMuscles", &secondaryMuscles)
        try c.field("equipment", &equipment)
        try c.field("kind", &kind)
        try c.field("canonicalMovement", &canonicalMovement)
        try c.field("complexity", &complexity)
        try c.field("rating", &rating)
        try c.field("custom", &custom)
    }
}

public struct ExerciseRenamed: EventPayload {
    public static let eventType = EventType("ExerciseRenamed", code: 11)
    public var exerciseId = ""
    public var name = ""
    public var stream: StreamName { .library }
    public init() {}
    public mutating func fields<C: PayloadCoder>(_ c: inout C) throws {
        try c.field("exerciseId", &exerciseId)
        try c.field("name", &name)
    }
}

/// Archived exercises keep their history but are not offered for new sets.
public struct ExerciseArchived: EventPayload {
    public static let eventType = EventType("ExerciseArchived", code: 12)
    public var exerciseId = ""
    public var stream: StreamName { .library }
    public init() {}
    public mutating func fields<C: PayloadCoder>(_ c: inout C) throws {
        try c.field("exerciseId", &exerciseId)
    }
}

/// An exercise's details as the lifter corrected them (`exercise edit`): the
/// whole set of editable fields, so the last edit in the log is the state.
/// A unilateral exercise's sets are per side (its volume counts each side once).
public struct ExerciseEdited: EventPayload {
    public static let eventType = EventType("ExerciseEdited", code: 13)
    public var exerciseId = ""
    public var primaryMuscles: [Muscle] = []
    public var secondaryMuscles: [Muscle] = []
    public var equipment: [Equipment] = []
    public var kind: ExerciseKind = .strength
    public var unilateral = false
    /// The lifter's note on the exercise (a seat height, a grip); empty: none.
    public var notes = ""
    public var stream: StreamName { .library }
    public init() {}
    public mutating func fields<C: PayloadCoder>(_ c: inout C) throws {
        try c.field("exerciseId", &exerciseId)
        try c.field("primaryMuscles", &primaryMuscles)
        try c.field("secondaryMuscles", &secondaryMuscles)
        try c.field("equipment", &equipment)
        try c.field("kind", &kind)
        try c.field("unilateral", &unilateral)
        try c.field("notes", &notes)
    }
}

/// An archived exercise offered again.
public struct ExerciseUnarchived: EventPayload {
    public static let eventType = EventType("ExerciseUnarchived", code: 14)
    public var exerciseId = ""
    public var stream: StreamName { .library }
    public init() {}
    public mutating func fields<C: PayloadCoder>(_ c: inout C) throws {
        try c.field("exerciseId", &exerciseId)
    }
}

/// An exercise marked as a favourite, or no longer (`exercise favourite X [--off]`).
public struct ExerciseFavourited: EventPayload {
    public static let eventType = EventType("ExerciseFavourited", code: 15)
    public var exerciseId = ""
    public var favourite = true
    public var stream: StreamName { .library }
    public init() {}
    public mutating func fields<C: PayloadCoder>(_ c: inout C) throws {
        try c.field("exerciseId", &exerciseId)
        try c.field("favourite", &favourite)
    }
}

/// One exercise joined into another (`exercise merge FROM INTO`): the sets
/// done under `exerciseId` count as `intoExerciseId`'s from then on, in
/// every view (history, records, trends, volume, hints), and the name typed
/// finds the one it joined. The sets' own events are untouched, so the log as
/// of a position before this event still shows the two apart.
public struct ExerciseMerged: EventPayload {
    public static let eventType = EventType("ExerciseMerged", code: 16)
    public var exerciseId = ""
    public var intoExerciseId = ""
    public var stream: StreamName { .library }
    public init() {}
    public mutating func fields<C: PayloadCoder>(_ c: inout C) throws {
        try c.field("exerciseId", &exerciseId)
        try c.field("intoExerciseId", &intoExerciseId)
    }
}

extension ExerciseDefined {
    /// Done with the body as its load: every piece of its equipment is the body or a bar to hang from.
    public var isBodyweight: Bool { !equipment.isEmpty && equipment.allSatisfy { $0 == .bodyweight || $0 == .pullUpBar } }
}
