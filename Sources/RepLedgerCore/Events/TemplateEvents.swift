import Foundation

/// One exercise line of a template with its targets.
///
/// The events of the first release store four fields (exercise, sets, reps);
/// the weight, duration and rest targets came later and are stored by
/// `TemplateTargetsSet` as `TemplateLine`s, so this layout never changed.
public struct TemplateExercise: Sendable, Hashable, PayloadRecord {
    public var exerciseId = ""
    public var sets = 3
    public var repsMin: Int? = nil
    public var repsMax: Int? = nil
    /// Held in memory, stored only by `TemplateTargetsSet`.
    public var weight: Weight? = nil
    public var durationSeconds: Double? = nil
    public var restSeconds: Int? = nil
    public init() {}
    public init(
        exerciseId: String, sets: Int = 3, repsMin: Int? = nil, repsMax: Int? = nil, weight: Weight? = nil,
        durationSeconds: Double? = nil, restSeconds: Int? = nil
    ) {
        self.exerciseId = exerciseId
        self.sets = sets
        self.repsMin = repsMin
        self.repsMax = repsMax
        self.weight = weight
        self.durationSeconds = durationSeconds
        self.restSeconds = restSeconds
    }

    /// Whether it has a target the four stored fields cannot hold.
    public var hasLaterTargets: Bool { weight != nil || durationSeconds != nil || restSeconds != nil }

    public mutating func fields<C: PayloadCoder>(_ c: inout C) throws {
        try c.field("exerciseId", &exerciseId)
        try c.field("sets", &sets)
        try c.field("repsMin", &repsMin)
        try c.field("repsMax", &repsMax)
    }
}

public struct TemplateCreated: EventPayload {
    public static let eventType = EventType("TemplateCreated", code: 50)
    public var templateId = UUID.zero
    public var name = ""
    public var exercises: [TemplateExercise] = []
    public var stream: StreamName { .template(templateId) }
    public init() {}
    public mutating func fields<C: PayloadCoder>(_ c: inout C) throws {
        try c.field("templateId", &templateId)
        try c.field("name", &name)
        try c.field("exercises", &exercises)
    }
}

public struct TemplateRenamed: EventPayload {
    public static let eventType = EventType("TemplateRenamed", code: 51)
    public var templateId = UUID.zero
    public var name = ""
    public var stream: StreamName { .template(templateId) }
    public init() {}
    public mutating func fields<C: PayloadCoder>(_ c: inout C) throws {
        try c.field("templateId", &templateId)
        try c.field("name", &name)
    }
}

/// The whole ordered exercise list after the edit.
public struct TemplateExercisesChanged: EventPayload {
    public static let eventType = EventType("TemplateExercisesChanged", code: 52)
    public var templateId = UUID.zero
    public var exercises: [TemplateExercise] = []
    public var stream: StreamName { .template(templateId) }
    public init() {}
    public mutating func fields<C: PayloadCoder>(_ c: inout C) throws {
        try c.field("templateId", &templateId)
        try c.field("exercises", &exercises)
    }
}

/// A new template copied from another; lives in the new template's stream.
public struct TemplateDuplicated: EventPayload {
    public static let eventType = EventType("TemplateDuplicated", code: 53)
    public var templateId = UUID.zero
    public var sourceTemplateId = UUID.zero
    public var name = ""
    public var exercises: [TemplateExercise] = []
    public var stream: StreamName { .template(templateId) }
    public init() {}
    public mutating func fields<C: PayloadCoder>(_ c: inout C) throws {
        try c.field("templateId", &templateId)
        try c.field("sourceTemplateId", &sourceTemplateId)
        try c.field("name", &name)
        try c.field("exercises", &exercises)
    }
}

/// The user's order of templates, as a whole.
public struct TemplatesReordered: EventPayload {
    public static let eventType = EventType("TemplatesReordered", code: 54)
    public var templateIds: [UUID] = []
    public var stream: StreamName { .templates }
    public init() {}
    public mutating func fields<C: PayloadCoder>(_ c: inout C) throws {
        try c.field("templateIds", &templateIds)
    }
}

public struct TemplateDeleted: EventPayload {
    public static let eventType = EventType("TemplateDeleted", code: 55)
    public var templateId = UUID.zero
    public var stream: StreamName { .template(templateId) }
    public init() {}
    public mutating func fields<C: PayloadCoder>(_ c: inout C) throws {
        try c.field("templateId", &templateId)
    }
}

/// A template line with every target: sets × reps (or a duration), an optional
/// weight and rest. What `TemplateTargetsSet` stores.
public struct TemplateLine: Sendable, Hashable, PayloadRecord {
    public var exercise = TemplateExercise()
    public init() {}
    public init(_ exercise: TemplateExercise) { self.exercise = exercise }
    public mutating func fields<C: PayloadCoder>(_ c: inout C) throws {
        try c.field("exerciseId", &exercise.exerciseId)
        try c.field("sets", &exercise.sets)
        try c.field("repsMin", &exercise.repsMin)
        try c.field("repsMax", &exercise.repsMax)
        try c.field("durationSeconds", &exercise.durationSeconds)
        try c.field("weight", &exercise.weight)
        try c.field("restSeconds", &exercise.restSeconds)
    }
}

/// The whole ordered exercise list after an edit, with every target (`template
/// create` or `edit` with weights, durations or rests).
public struct TemplateTargetsSet: EventPayload {
    public static let eventType = EventType("TemplateTargetsSet", code: 56)
    public var templateId = UUID.zero
    public var lines: [TemplateLine] = []
    public var stream: StreamName { .template(templateId) }
    public init() {}
    public mutating func fields<C: PayloadCoder>(_ c: inout C) throws {
        try c.field("templateId", &templateId)
        try c.field("lines", &lines)
    }
}

/// A module as a template uses it: which module, its name and type, and the
/// exercises it brought, in order.
public struct TemplateModule: Sendable, Hashable, PayloadRecord {
    public var moduleId = UUID.zero
    public var name = ""
    public var type: ModuleType = .strength
    public var exerciseIds: [String] = []
    public init() {}
    public mutating func fields<C: PayloadCoder>(_ c: inout C) throws {
        try c.field("moduleId", &moduleId)
        try c.field("name", &name)
        try c.field("type", &type)
        try c.field("exerciseIds", &exerciseIds)
    }
}

/// The modules a template is made of (`template create T --module M`), in
/// the template's order; lines outside every module stand alone.
public struct TemplateModulesSet: EventPayload {
    public static let eventType = EventType("TemplateModulesSet", code: 57)
    public var templateId = UUID.zero
    public var modules: [TemplateModule] = []
    public var stream: StreamName { .template(templateId) }
    public init() {}
    public mutating func fields<C: PayloadCoder>(_ c: inout C) throws {
        try c.field("templateId", &templateId)
        try c.field("modules", &modules)
    }
}
