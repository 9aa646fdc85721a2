import Foundation

/// One exercise line of a template with its targets.
public struct TemplateExercise: Sendable, Hashable, PayloadRecord {
    public var exerciseId = ""
    public var sets = 3
    public var repsMin: Int? = nil
    public var repsMax: Int? = nil
    public init() {}
    public init(exerciseId: String, sets: Int = 3, repsMin: Int? = nil, repsMax: Int? = nil) {
        self.exerciseId = exerciseId
        self.sets = sets
        self.repsMin = repsMin
        self.repsMax = repsMax
    }
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
