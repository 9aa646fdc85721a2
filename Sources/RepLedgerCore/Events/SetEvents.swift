import Foundation

/// The measured values of a set. Every field is optional because exercise
/// kinds measure different things (DOMAIN.md §2): strength has weight × reps
/// (weight absent for bodyweight work), cardio duration and/or distance,
/// isometric a hold time.
public struct SetMetrics: Sendable, Hashable, PayloadRecord {
    public var weight: Weight? = nil
    public var reps: Int? = nil
    public var rpe: Double? = nil
    public var durationSeconds: Double? = nil
    public var distanceMeters: Double? = nil
    public init() {}
    public init(weight: Weight? = nil, reps: Int? = nil, rpe: Double? = nil,
                durationSeconds: Double? = nil, distanceMeters: Double? = nil) {
        self.weight = weight
        self.reps = reps
        self.rpe = rpe
        self.durationSeconds = durationSeconds
        self.distanceMeters = distanceMeters
    }
    public mutating func fields<C: PayloadCoder>(_ c: inout C) throws {
        try c.field("weight", &weight)
        try c.field("reps", &reps)
        try c.field("rpe", &rpe)
        try c.field("durationSeconds", &durationSeconds)
        try c.field("distanceMeters", &distanceMeters)
    }
}

/// A planned set: on the screen, not yet done (templates, programs, "add set").
public struct SetAdded: EventPayload {
    public static let eventType = EventType("SetAdded", code: 30)
    public var workoutId = UUID.zero
    public var setId = UUID.zero
    public var entryId = UUID.zero
    public var exerciseId = ""
    public var type: SetType = .normal
    public var target = SetMetrics()
    public var stream: StreamName { .workout(workoutId) }
    public init() {}
    public mutating func fields<C: PayloadCoder>(_ c: inout C) throws {
        try c.field("workoutId", &workoutId)
        try c.field("setId", &setId)
        try c.field("entryId", &entryId)
        try c.field("exerciseId", &exerciseId)
        try c.field("type", &type)
        try c.field("target", &target)
    }
}

/// A set done and recorded in one step (the common case on phone and watch).
/// If `setId` names a planned set, that set is filled in and completed.
/// `historyEdit` marks a deliberate change to a finished workout.
public struct SetLogged: EventPayload {
    public static let eventType = EventType("SetLogged", code: 31)
    public var workoutId = UUID.zero
    public var setId = UUID.zero
    public var entryId = UUID.zero
    public var exerciseId = ""
    public var type: SetType = .normal
    public var metrics = SetMetrics()
    public var notes: String? = nil
    public var historyEdit = false
    public var stream: StreamName { .workout(workoutId) }
    public init() {}
    public mutating func fields<C: PayloadCoder>(_ c: inout C) throws {
        try c.field("workoutId", &workoutId)
        try c.field("setId", &setId)
        try c.field("entryId", &entryId)
        try c.field("exerciseId", &exerciseId)
        try c.field("type", &type)
        try c.field("metrics", &metrics)
        try c.field("notes", &notes)
        try c.field("historyEdit", &historyEdit)
    }
}

/// A correction. Only the fields present change; the rest keep their values.
public struct SetEdited: EventPayload {
    public static let eventType = EventType("SetEdited", code: 32)
    public var workoutId = UUID.zero
    public var setId = UUID.zero
    public var type: SetType? = nil
    public var changes = SetMetrics()
    public var notes: String? = nil
    public var historyEdit = false
    public var stream: StreamName { .workout(workoutId) }
    public init() {}
    public mutating func fields<C: PayloadCoder>(_ c: inout C) throws {
        try c.field("workoutId", &workoutId)
        try c.field("setId", &setId)
        try c.field("type", &type)
        try c.field("changes", &changes)
        try c.field("notes", &notes)
        try c.field("historyEdit", &historyEdit)
    }
}

public struct SetDeleted: EventPayload {
    public static let eventType = EventType("SetDeleted", code: 33)
    public var workoutId = UUID.zero
    public var setId = UUID.zero
    public var historyEdit = false
    public var stream: StreamName { .workout(workoutId) }
    public init() {}
    public mutating func fields<C: PayloadCoder>(_ c: inout C) throws {
        try c.field("workoutId", &workoutId)
        try c.field("setId", &setId)
        try c.field("historyEdit", &historyEdit)
    }
}

/// Ticks a planned set, keeping its target values as the done values.
public struct SetCompleted: EventPayload {
    public static let eventType = EventType("SetCompleted", code: 34)
    public var workoutId = UUID.zero
    public var setId = UUID.zero
    public var stream: StreamName { .workout(workoutId) }
    public init() {}
    public mutating func fields<C: PayloadCoder>(_ c: inout C) throws {
        try c.field("workoutId", &workoutId)
        try c.field("setId", &setId)
    }
}

public struct SetUncompleted: EventPayload {
    public static let eventType = EventType("SetUncompleted", code: 35)
    public var workoutId = UUID.zero
    public var setId = UUID.zero
    public var stream: StreamName { .workout(workoutId) }
    public init() {}
    public mutating func fields<C: PayloadCoder>(_ c: inout C) throws {
        try c.field("workoutId", &workoutId)
        try c.field("setId", &setId)
    }
}
