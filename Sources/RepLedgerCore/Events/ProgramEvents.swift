import Foundation

/// The trainer app's questionnaire (DOMAIN.md §12), recorded as answered.
public struct QuestionnaireAnswered: EventPayload {
    public static let eventType = EventType("QuestionnaireAnswered", code: 70)
    public var questionnaireId = UUID.zero
    public var daysPerWeek = 3
    public var sessionMinutes = 60
    public var experience: ExperienceLevel = .beginner
    public var goals: [TrainingGoal] = []
    public var equipment: [Equipment] = []
    public var priorityMuscles: [Muscle] = []
    public var injuries: [String] = []
    public var stream: StreamName { .programs }
    public init() {}
    public mutating func fields<C: PayloadCoder>(_ c: inout C) throws {
        try c.field("questionnaireId", &questionnaireId)
        try c.field("daysPerWeek", &daysPerWeek)
        try c.field("sessionMinutes", &sessionMinutes)
        try c.field("experience", &experience)
        try c.field("goals", &goals)
        try c.field("equipment", &equipment)
        try c.field("priorityMuscles", &priorityMuscles)
        try c.field("injuries", &injuries)
    }
}

public struct ProgramExercise: Sendable, Hashable, PayloadRecord {
    public var exerciseId = ""
    public var sets = 3
    public var repsMin = 8
    public var repsMax = 12
    public var restSeconds = 90
    public var injuryWarning = false
    public init() {}
    public mutating func fields<C: PayloadCoder>(_ c: inout C) throws {
        try c.field("exerciseId", &exerciseId)
        try c.field("sets", &sets)
        try c.field("repsMin", &repsMin)
        try c.field("repsMax", &repsMax)
        try c.field("restSeconds", &restSeconds)
        try c.field("injuryWarning", &injuryWarning)
    }
}

public struct ProgramSession: Sendable, Hashable, PayloadRecord {
    public var name = ""
    public var exercises: [ProgramExercise] = []
    public init() {}
    public mutating func fields<C: PayloadCoder>(_ c: inout C) throws {
        try c.field("name", &name)
        try c.field("exercises", &exercises)
    }
}

/// The generated program in full, with the seed of its random choices, so a
/// replay never re-runs randomness.
public struct ProgramGenerated: EventPayload {
    public static let eventType = EventType("ProgramGenerated", code: 71)
    public var programId = UUID.zero
    public var questionnaireId = UUID.zero
    public var split = ""
    public var seed: UInt64 = 0
    public var repeatWarning = false
    public var sessions: [ProgramSession] = []
    public var stream: StreamName { .programs }
    public init() {}
    public mutating func fields<C: PayloadCoder>(_ c: inout C) throws {
        try c.field("programId", &programId)
        try c.field("questionnaireId", &questionnaireId)
        try c.field("split", &split)
        try c.field("seed", &seed)
        try c.field("repeatWarning", &repeatWarning)
        try c.field("sessions", &sessions)
    }
}

/// A hold's time target in a program: the exercise of one session, held
/// for `secondsMin`–`secondsMax` seconds per set.
public struct ProgramHold: Sendable, Hashable, PayloadRecord {
    /// The session's index in the program (day 1 is 0).
    public var session = 0
    public var exerciseId = ""
    public var secondsMin = 30
    public var secondsMax = 45
    public init() {}
    public mutating func fields<C: PayloadCoder>(_ c: inout C) throws {
        try c.field("session", &session)
        try c.field("exerciseId", &exerciseId)
        try c.field("secondsMin", &secondsMin)
        try c.field("secondsMax", &secondsMax)
    }
}

/// The time targets of a program's holds (isometric exercises: a plank is
/// held for seconds, not counted in repetitions), recorded with the program
/// they belong to. A separate event so that `ProgramGenerated`'s layout, which
/// every earlier log holds, stays as it is.
public struct ProgramHoldsTimed: EventPayload {
    public static let eventType = EventType("ProgramHoldsTimed", code: 75)
    public var programId = UUID.zero
    public var holds: [ProgramHold] = []
    public var stream: StreamName { .programs }
    public init() {}
    public mutating func fields<C: PayloadCoder>(_ c: inout C) throws {
        try c.field("programId", &programId)
        try c.field("holds", &holds)
    }
}

/// A program's days put on weekdays (`program schedule P mon,wed,fri`): the
/// calendar's planned days and a coach's planned sessions. ISO weekdays, 1 is
/// Monday; none takes the program off the calendar.
public struct ProgramScheduled: EventPayload {
    public static let eventType = EventType("ProgramScheduled", code: 76)
    public var programId = UUID.zero
    public var weekdays: [Int] = []
    public var stream: StreamName { .programs }
    public init() {}
    public mutating func fields<C: PayloadCoder>(_ c: inout C) throws {
        try c.field("programId", &programId)
        try c.field("weekdays", &weekdays)
    }
}

public struct ProgramActivated: EventPayload {
    public static let eventType = EventType("ProgramActivated", code: 72)
    public var programId = UUID.zero
    public var stream: StreamName { .programs }
    public init() {}
    public mutating func fields<C: PayloadCoder>(_ c: inout C) throws {
        try c.field("programId", &programId)
    }
}

/// Removed by the user, or as the oldest when a third program is created.
public struct ProgramRemoved: EventPayload {
    public static let eventType = EventType("ProgramRemoved", code: 73)
    public var programId = UUID.zero
    public var reason = ""
    public var stream: StreamName { .programs }
    public init() {}
    public mutating func fields<C: PayloadCoder>(_ c: inout C) throws {
        try c.field("programId", &programId)
        try c.field("reason", &reason)
    }
}

/// How an exercise progresses (DOMAIN.md §14): the rule that turns its last
/// session into the next target. `double` is the default.
public enum ProgressionRule: String, Sendable, CaseIterable, PayloadEnum {
    case double, linear, none
}

/// The role of an exercise in a session (DOMAIN.md §14); progression is on by
/// default only for `strength` modules of strength exercises. Cardio comes
/// as the gym app has it, long (steady, for endurance) apart from speed
/// (intervals, sprints); `cardio` is cardio not said which, as older logs
/// and a cardio exercise by default have it.
public enum ModuleType: String, Sendable, CaseIterable, PayloadEnum {
    case warmup, prehab, explosive, strength, cardio, recovery, longCardio, speedCardio
}

/// A module: a named, reusable group of exercises of one type (a warm-up, a
/// strength block, speed cardio), each with its targets, in the `programs`
/// stream. Defining it again under its id replaces it; templates take a copy
/// of it when they use it, so an edit changes no template made before.
public struct ModuleDefined: EventPayload {
    public static let eventType = EventType("ModuleDefined", code: 78)
    public var moduleId = UUID.zero
    public var name = ""
    public var type: ModuleType = .strength
    public var lines: [TemplateLine] = []
    public var stream: StreamName { .programs }
    public init() {}
    public mutating func fields<C: PayloadCoder>(_ c: inout C) throws {
        try c.field("moduleId", &moduleId)
        try c.field("name", &name)
        try c.field("type", &type)
        try c.field("lines", &lines)
    }
}

/// The named modules of one program day (`program add-module|remove-module`),
/// in the order they were added; each replaces the day's list before it.
/// Each is a copy of the module as defined then, so a later redefinition
/// changes no program day.
public struct ProgramDayModulesSet: EventPayload {
    public static let eventType = EventType("ProgramDayModulesSet", code: 79)
    public var programId = UUID.zero
    /// The day's index in the program (day 1 is 0).
    public var session = 0
    public var modules: [ModuleDefined] = []
    public var stream: StreamName { .programs }
    public init() {}
    public mutating func fields<C: PayloadCoder>(_ c: inout C) throws {
        try c.field("programId", &programId)
        try c.field("session", &session)
        try c.field("modules", &modules)
    }
}

/// A per-exercise progression override, for one program or (no `programId`)
/// everywhere. Fields left nil keep their default; `cleared` returns the
/// exercise to its defaults.
public struct ProgressionOverrideSet: EventPayload {
    public static let eventType = EventType("ProgressionOverrideSet", code: 74)
    public var exerciseId = ""
    public var programId: UUID? = nil
    public var enabled: Bool? = nil
    public var rule: ProgressionRule? = nil
    public var module: ModuleType? = nil
    public var increment: Weight? = nil
    public var repsMin: Int? = nil
    public var repsMax: Int? = nil
    public var cleared = false
    public var stream: StreamName { .programs }
    public init() {}
    public mutating func fields<C: PayloadCoder>(_ c: inout C) throws {
        try c.field("exerciseId", &exerciseId)
        try c.field("programId", &programId)
        try c.field("enabled", &enabled)
        try c.field("rule", &rule)
        try c.field("module", &module)
        try c.field("increment", &increment)
        try c.field("repsMin", &repsMin)
        try c.field("repsMax", &repsMax)
        try c.field("cleared", &cleared)
    }
}

/// How a program's weeks run (`ProgramWeeksPlanned`).
public enum ProgramBlockKind: String, Sendable, CaseIterable, PayloadEnum {
    /// Accumulation weeks whose target effort rises and whose weekly sets per muscle grow, then a deload week.
    case mesocycle
    /// The program's weeks as written, with a deload week every `weeks` weeks.
    case deloadCycle = "deload-cycle"
}

/// A program's weeks planned (`program generate --weeks N`, `program mesocycle`,
/// `program deload --every N`): a block of `weeks` weeks from `startsOn`, whose
/// last week is a deload, repeated after it ends. Only the shape is stored: the
/// week's effort, sets and loads come from the rules at read time, so a changed
/// rule re-derives every week (`rebuild --diff` shows it). Each replaces the
/// program's plan before it; `weeks` 0 takes the plan away.
public struct ProgramWeeksPlanned: EventPayload {
    public static let eventType = EventType("ProgramWeeksPlanned", code: 84)
    public var programId = UUID.zero
    public var kind: ProgramBlockKind = .mesocycle
    /// The block's length, 2–16 (0: no plan).
    public var weeks = 0
    /// `YYYY-MM-DD`: the first day of week 1; each week is 7 days from it.
    public var startsOn = ""
    public var stream: StreamName { .programs }
    public init() {}
    public mutating func fields<C: PayloadCoder>(_ c: inout C) throws {
        try c.field("programId", &programId)
        try c.field("kind", &kind)
        try c.field("weeks", &weeks)
        try c.field("startsOn", &startsOn)
    }
}

/// Which one-rep max a percentage is of: the one the lifter tested (`settings one-rep-max`), or the estimated one.
public enum OneRepMaxSource: String, Sendable, CaseIterable, PayloadEnum {
    case tested, e1rm
}

/// A program day's exercise given as a percentage of its max (`program percent P --day N EXERCISE 75`): `next` loads
/// that share of the tested max (or, with none or `of: e1rm`, the estimate), rounded to what the lifter loads.
/// Each replaces the one before for the same day and exercise; `percent` nil takes it away.
public struct ProgramPercentTargetSet: EventPayload {
    public static let eventType = EventType("ProgramPercentTargetSet", code: 85)
    public var programId = UUID.zero
    /// The day's index in the program (day 1 is 0).
    public var session = 0
    public var exerciseId = ""
    /// 1–100.
    public var percent: Int? = nil
    /// nil: the tested max when there is one, else the estimate.
    public var of: OneRepMaxSource? = nil
    public var stream: StreamName { .programs }
    public init() {}
    public mutating func fields<C: PayloadCoder>(_ c: inout C) throws {
        try c.field("programId", &programId)
        try c.field("session", &session)
        try c.field("exerciseId", &exerciseId)
        try c.field("percent", &percent)
        try c.field("of", &of)
    }
}

/// Which generator made a program (`program generate --style`).
public enum ProgramStyle: String, Sendable, CaseIterable, PayloadEnum {
    /// Seed 001's generator: three sets, the goal table's rep ranges drawn per exercise, rests by rating.
    case seed
    /// A coach's strength block: heavy low-rep main lifts, hypertrophy accessories, rests by intensity (docs/PROGRAMS.md).
    case strengthBlock = "strength-block"
}

/// The style of a program generated by anything but seed 001's generator,
/// appended with it. A separate event so that `ProgramGenerated`'s layout,
/// which every earlier log holds, stays as it is; a program without one is
/// the seed's.
public struct ProgramStyleChosen: EventPayload {
    public static let eventType = EventType("ProgramStyleChosen", code: 86)
    public var programId = UUID.zero
    public var style: ProgramStyle = .seed
    public var stream: StreamName { .programs }
    public init() {}
    public mutating func fields<C: PayloadCoder>(_ c: inout C) throws {
        try c.field("programId", &programId)
        try c.field("style", &style)
    }
}
