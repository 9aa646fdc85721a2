import Foundation

/// The unit new weights default to and are displayed in. History keeps the
/// unit each weight was entered in (DOMAIN.md §1).
public struct LiftingUnitChanged: EventPayload {
    public static let eventType = EventType("LiftingUnitChanged", code: 1)
    public var unit: WeightUnit = .kg
    public var stream: StreamName { .account }
    public init() {}
    public init(unit: WeightUnit) { self.unit = unit }
    public mutating func fields<C: PayloadCoder>(_ c: inout C) throws {
        try c.field("unit", &unit)
    }
}

public struct BodyweightDisplayChanged: EventPayload {
    public static let eventType = EventType("BodyweightDisplayChanged", code: 2)
    public var display: BodyweightDisplay = .kg
    public var stream: StreamName { .account }
    public init() {}
    public mutating func fields<C: PayloadCoder>(_ c: inout C) throws {
        try c.field("display", &display)
    }
}

/// The unit distances are shown in (km or mi). Distances are stored in
/// metres whatever unit they were typed in; this is only how they read.
public struct DistanceUnitChanged: EventPayload {
    public static let eventType = EventType("DistanceUnitChanged", code: 4)
    public var unit: DistanceUnit = .km
    public var stream: StreamName { .account }
    public init() {}
    public init(unit: DistanceUnit) { self.unit = unit }
    public mutating func fields<C: PayloadCoder>(_ c: inout C) throws {
        try c.field("unit", &unit)
    }
}

/// The default rest between sets, for all exercises (`exerciseId` nil) or one.
/// For one exercise, 0 seconds removes its own rest (the default applies again).
public struct RestTimerDefaultChanged: EventPayload {
    public static let eventType = EventType("RestTimerDefaultChanged", code: 3)
    public var seconds = 0
    public var exerciseId: String? = nil
    public var stream: StreamName { .account }
    public init() {}
    public mutating func fields<C: PayloadCoder>(_ c: inout C) throws {
        try c.field("seconds", &seconds)
        try c.field("exerciseId", &exerciseId)
    }
}

/// The bar and plates the lifter has (`settings plates`), in one unit: what
/// `plates` loads by default and what `next` rounds barbell targets to.
/// No plates: back to the defaults of the unit.
public struct PlateInventorySet: EventPayload {
    public static let eventType = EventType("PlateInventorySet", code: 77)
    public var unit: WeightUnit = .kg
    public var bar = 0.0
    public var plates: [Double] = []
    public var stream: StreamName { .account }
    public init() {}
    public mutating func fields<C: PayloadCoder>(_ c: inout C) throws {
        try c.field("unit", &unit)
        try c.field("bar", &bar)
        try c.field("plates", &plates)
    }
}

/// Whether completing a set starts the rest timer by itself (`settings rest --auto on|off`; off until chosen).
public struct RestTimerAutoStartChanged: EventPayload {
    public static let eventType = EventType("RestTimerAutoStartChanged", code: 5)
    public var on = false
    public var stream: StreamName { .account }
    public init() {}
    public init(on: Bool) { self.on = on }
    public mutating func fields<C: PayloadCoder>(_ c: inout C) throws {
        try c.field("on", &on)
    }
}

/// The scale a set's effort shows in: RPE (default) or reps in reserve.
public struct EffortScaleChanged: EventPayload {
    public static let eventType = EventType("EffortScaleChanged", code: 6)
    public var scale: EffortScale = .rpe
    public var stream: StreamName { .account }
    public init() {}
    public init(scale: EffortScale) { self.scale = scale }
    public mutating func fields<C: PayloadCoder>(_ c: inout C) throws {
        try c.field("scale", &scale)
    }
}

/// A one-rep max the lifter tested (`settings one-rep-max EXERCISE 150kg`):
/// what `percent` works from by default, dated by when it was tested (the
/// event's `occurredAt`). A newer test replaces it.
public struct OneRepMaxTested: EventPayload {
    public static let eventType = EventType("OneRepMaxTested", code: 7)
    public var exerciseId = ""
    public var weight = Weight(0, .kg)
    public var stream: StreamName { .account }
    public init() {}
    public mutating func fields<C: PayloadCoder>(_ c: inout C) throws {
        try c.field("exerciseId", &exerciseId)
        try c.field("weight", &weight)
    }
}
