import Foundation

// Workout lifecycle and structure. Every event names its workout, and the
// stream is `workout-<id>`; the envelope's occurredAt is when it happened.

public struct WorkoutStarted: EventPayload {
    public static let eventType = EventType("WorkoutStarted", code: 20)
    public var workoutId = UUID.zero
    public var name = ""
    public var origin: WorkoutOrigin = .empty
    public var templateId: UUID? = nil
    public var programId: UUID? = nil
    /// Which session of the program (0-based), for `programDay` hints.
    public var programDayIndex: Int? = nil
    public var stream: StreamName { .workout(workoutId) }
    public init() {}
    public mutating func fields<C: PayloadCoder>(_ c: inout C) throws {
        try c.field("workoutId", &workoutId)
        try c.field("name", &name)
        try c.field("origin", &origin)
        try c.field("templateId", &templateId)
        try c.field("programId", &programId)
        try c.field("programDayIndex", &programDayIndex)
    }
}

/// An exercise placed in the workout. `entryId` tells two entries of the same
/// exercise apart and survives a swap.
public struct WorkoutExerciseAdded: EventPayload {
    public static let eventType = EventType("WorkoutExerciseAdded", code: 21)
    public var workoutId = UUID.zero
    public var entryId = UUID.zero
    public var exerciseId = ""
    public var targetSets: Int? = nil
    public var targetRepsMin: Int? = nil
    public var targetRepsMax: Int? = nil
    public var stream: StreamName { .workout(workoutId) }
    public init() {}
    public mutating func fields<C: PayloadCoder>(_ c: inout C) throws {
        try c.field("workoutId", &workoutId)
        try c.field("entryId", &entryId)
        try c.field("exerciseId", &exerciseId)
        try c.field("targetSets", &targetSets)
        try c.field("targetRepsMin", &targetRepsMin)
        try c.field("targetRepsMax", &targetRepsMax)
    }
}

public struct WorkoutExerciseRemoved: EventPayload {
    public static let eventType = EventType("WorkoutExerciseRemoved", code: 22)
    public var workoutId = UUID.zero
    public var entryId = UUID.zero
    public var stream: StreamName { .workout(workoutId) }
    public init() {}
    public mutating func fields<C: PayloadCoder>(_ c: inout C) throws {
        try c.field("workoutId", &workoutId)
        try c.field("entryId", &entryId)
    }
}

public struct WorkoutExercisesReordered: EventPayload {
    public static let eventType = EventType("WorkoutExercisesReordered", code: 23)
    public var workoutId = UUID.zero
    public var entryIds: [UUID] = []
    public var stream: StreamName { .workout(workoutId) }
    public init() {}
    public mutating func fields<C: PayloadCoder>(_ c: inout C) throws {
        try c.field("workoutId", &workoutId)
        try c.field("entryIds", &entryIds)
    }
}

/// Sets already logged stay with `fromExerciseId`; later sets of the entry go to `toExerciseId`.
public struct WorkoutExerciseSwapped: EventPayload {
    public static let eventType = EventType("WorkoutExerciseSwapped", code: 24)
    public var workoutId = UUID.zero
    public var entryId = UUID.zero
    public var fromExerciseId = ""
    public var toExerciseId = ""
    public var stream: StreamName { .workout(workoutId) }
    public init() {}
    public mutating func fields<C: PayloadCoder>(_ c: inout C) throws {
        try c.field("workoutId", &workoutId)
        try c.field("entryId", &entryId)
        try c.field("fromExerciseId", &fromExerciseId)
        try c.field("toExerciseId", &toExerciseId)
    }
}

public struct SupersetLinked: EventPayload {
    public static let eventType = EventType("SupersetLinked", code: 25)
    public var workoutId = UUID.zero
    public var supersetId = UUID.zero
    public var entryIds: [UUID] = []
    public var stream: StreamName { .workout(workoutId) }
    public init() {}
    public mutating func fields<C: PayloadCoder>(_ c: inout C) throws {
        try c.field("workoutId", &workoutId)
        try c.field("supersetId", &supersetId)
        try c.field("entryIds", &entryIds)
    }
}

public struct SupersetUnlinked: EventPayload {
    public static let eventType = EventType("SupersetUnlinked", code: 26)
    public var workoutId = UUID.zero
    public var supersetId = UUID.zero
    public var stream: StreamName { .workout(workoutId) }
    public init() {}
    public mutating func fields<C: PayloadCoder>(_ c: inout C) throws {
        try c.field("workoutId", &workoutId)
        try c.field("supersetId", &supersetId)
    }
}

/// A note on the workout (`entryId` nil) or on one exercise entry. Replaces the previous note.
public struct WorkoutNoteSet: EventPayload {
    public static let eventType = EventType("WorkoutNoteSet", code: 40)
    public var workoutId = UUID.zero
    public var entryId: UUID? = nil
    public var text = ""
    public var stream: StreamName { .workout(workoutId) }
    public init() {}
    public mutating func fields<C: PayloadCoder>(_ c: inout C) throws {
        try c.field("workoutId", &workoutId)
        try c.field("entryId", &entryId)
        try c.field("text", &text)
    }
}

public struct RestTimerStarted: EventPayload {
    public static let eventType = EventType("RestTimerStarted", code: 41)
    public var workoutId = UUID.zero
    public var seconds = 0
    public var afterSetId: UUID? = nil
    public var stream: StreamName { .workout(workoutId) }
    public init() {}
    public mutating func fields<C: PayloadCoder>(_ c: inout C) throws {
        try c.field("workoutId", &workoutId)
        try c.field("seconds", &seconds)
        try c.field("afterSetId", &afterSetId)
    }
}

/// The ±15 s buttons.
public struct RestTimerAdjusted: EventPayload {
    public static let eventType = EventType("RestTimerAdjusted", code: 42)
    public var workoutId = UUID.zero
    public var deltaSeconds = 0
    public var stream: StreamName { .workout(workoutId) }
    public init() {}
    public mutating func fields<C: PayloadCoder>(_ c: inout C) throws {
        try c.field("workoutId", &workoutId)
        try c.field("deltaSeconds", &deltaSeconds)
    }
}

public struct RestTimerDismissed: EventPayload {
    public static let eventType = EventType("RestTimerDismissed", code: 43)
    public var workoutId = UUID.zero
    public var stream: StreamName { .workout(workoutId) }
    public init() {}
    public mutating func fields<C: PayloadCoder>(_ c: inout C) throws {
        try c.field("workoutId", &workoutId)
    }
}

/// The rest timer held (a phone call, a machine taken): its countdown stops
/// until it is resumed, and the held span is not rest taken.
public struct RestTimerPaused: EventPayload {
    public static let eventType = EventType("RestTimerPaused", code: 37)
    public var workoutId = UUID.zero
    public var stream: StreamName { .workout(workoutId) }
    public init() {}
    public mutating func fields<C: PayloadCoder>(_ c: inout C) throws {
        try c.field("workoutId", &workoutId)
    }
}

public struct RestTimerResumed: EventPayload {
    public static let eventType = EventType("RestTimerResumed", code: 38)
    public var workoutId = UUID.zero
    public var stream: StreamName { .workout(workoutId) }
    public init() {}
    public mutating func fields<C: PayloadCoder>(_ c: inout C) throws {
        try c.field("workoutId", &workoutId)
    }
}

public struct WorkoutPaused: EventPayload {
    public static let eventType = EventType("WorkoutPaused", code: 44)
    public var workoutId = UUID.zero
    public var stream: StreamName { .workout(workoutId) }
    public init() {}
    public mutating func fields<C: PayloadCoder>(_ c: inout C) throws {
        try c.field("workoutId", &workoutId)
    }
}

public struct WorkoutResumed: EventPayload {
    public static let eventType = EventType("WorkoutResumed", code: 45)
    public var workoutId = UUID.zero
    public var stream: StreamName { .workout(workoutId) }
    public init() {}
    public mutating func fields<C: PayloadCoder>(_ c: inout C) throws {
        try c.field("workoutId", &workoutId)
    }
}

/// A watch sample: heart rate in bpm or active energy in kcal.
public struct HealthSampleRecorded: EventPayload {
    public static let eventType = EventType("HealthSampleRecorded", code: 46)
    public var workoutId = UUID.zero
    public var kind: HealthSampleKind = .heartRate
    public var value = 0.0
    public var stream: StreamName { .workout(workoutId) }
    public init() {}
    public mutating func fields<C: PayloadCoder>(_ c: inout C) throws {
        try c.field("workoutId", &workoutId)
        try c.field("kind", &kind)
        try c.field("value", &value)
    }
}

public struct WorkoutFinished: EventPayload {
    public static let eventType = EventType("WorkoutFinished", code: 47)
    public var workoutId = UUID.zero
    public var stream: StreamName { .workout(workoutId) }
    public init() {}
    public mutating func fields<C: PayloadCoder>(_ c: inout C) throws {
        try c.field("workoutId", &workoutId)
    }
}

/// How the session felt, 1 (awful) to 5 (great; nil: not rated), and a
/// closing note (empty: none), given as it ends or later. The newer one wins
/// across devices, both together.
public struct WorkoutFeelingRecorded: EventPayload {
    public static let eventType = EventType("WorkoutFeelingRecorded", code: 49)
    public var workoutId = UUID.zero
    public var feeling: Int? = nil
    public var note = ""
    public var stream: StreamName { .workout(workoutId) }
    public init() {}
    public mutating func fields<C: PayloadCoder>(_ c: inout C) throws {
        try c.field("workoutId", &workoutId)
        try c.field("feeling", &feeling)
        try c.field("note", &note)
    }
}

/// A module as a workout uses it: which module, its name and type, and the
/// entries (exercises of the workout) it brought, in order.
public struct WorkoutModule: Sendable, Hashable, PayloadRecord {
    public var moduleId = UUID.zero
    public var name = ""
    public var type: ModuleType = .strength
    public var entryIds: [UUID] = []
    public init() {}
    public mutating func fields<C: PayloadCoder>(_ c: inout C) throws {
        try c.field("moduleId", &moduleId)
        try c.field("name", &name)
        try c.field("type", &type)
        try c.field("entryIds", &entryIds)
    }
}

/// The named modules a workout was started with (from a template made of
/// modules, or a program day that takes some), recorded beside its planned
/// exercises so the workout keeps them when the template or program changes.
public struct WorkoutModulesPlanned: EventPayload {
    public static let eventType = EventType("WorkoutModulesPlanned", code: 29)
    public var workoutId = UUID.zero
    public var modules: [WorkoutModule] = []
    public var stream: StreamName { .workout(workoutId) }
    public init() {}
    public mutating func fields<C: PayloadCoder>(_ c: inout C) throws {
        try c.field("workoutId", &workoutId)
        try c.field("modules", &modules)
    }
}

/// A workout marked as a deload (`workout start --deload`, `workout deload W
/// on|off`): lighter on purpose, so progression and stall counting pass over
/// it. The newer mark wins across devices.
public struct WorkoutDeloadMarked: EventPayload {
    public static let eventType = EventType("WorkoutDeloadMarked", code: 19)
    public var workoutId = UUID.zero
    public var deload = true
    public var stream: StreamName { .workout(workoutId) }
    public init() {}
    public mutating func fields<C: PayloadCoder>(_ c: inout C) throws {
        try c.field("workoutId", &workoutId)
        try c.field("deload", &deload)
    }
}

/// What kind of session a workout is: strength unless this says otherwise (a
/// watch's run or ride). The newer choice wins across devices.
public struct WorkoutActivitySet: EventPayload {
    public static let eventType = EventType("WorkoutActivitySet", code: 27)
    public var workoutId = UUID.zero
    public var activity: WorkoutActivity = .strength
    public var stream: StreamName { .workout(workoutId) }
    public init() {}
    public mutating func fields<C: PayloadCoder>(_ c: inout C) throws {
        try c.field("workoutId", &workoutId)
        try c.field("activity", &activity)
    }
}

/// An analysis of a finished workout, in Markdown: the ledger's own
/// deterministic one (`engine` "ledger": planned against done, records, the
/// last sessions of the same kind, heart rate and energy), or one an outside
/// engine filled in later (an assistant, a coach's tool), named by `engine`.
/// Kept in the log so what was said about a session stays with it.
public struct WorkoutAnalysisRecorded: EventPayload {
    public static let eventType = EventType("WorkoutAnalysisRecorded", code: 28)
    public var workoutId = UUID.zero
    public var engine = ""
    public var markdown = ""
    public var stream: StreamName { .workout(workoutId) }
    public init() {}
    public mutating func fields<C: PayloadCoder>(_ c: inout C) throws {
        try c.field("workoutId", &workoutId)
        try c.field("engine", &engine)
        try c.field("markdown", &markdown)
    }
}

/// A discarded workout stays in the log for audit but never counts anywhere.
public struct WorkoutDiscarded: EventPayload {
    public static let eventType = EventType("WorkoutDiscarded", code: 48)
    public var workoutId = UUID.zero
    public var stream: StreamName { .workout(workoutId) }
    public init() {}
    public mutating func fields<C: PayloadCoder>(_ c: inout C) throws {
        try c.field("workoutId", &workoutId)
    }
}
