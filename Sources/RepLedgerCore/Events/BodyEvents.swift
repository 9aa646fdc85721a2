import Foundation

/// A weigh-in (DOMAIN.md §15): the weight as entered (stone and pounds are
/// recorded as the pounds they are), at the event's `occurredAt`.
public struct BodyweightMeasured: EventPayload {
    public static let eventType = EventType("BodyweightMeasured", code: 90)
    public var measurementId = UUID.zero
    public var weight = Weight()
    public var stream: StreamName { .body }
    public init() {}
    public mutating func fields<C: PayloadCoder>(_ c: inout C) throws {
        try c.field("measurementId", &measurementId)
        try c.field("weight", &weight)
    }
}

/// A body measurement beyond weight (`body log --waist 82cm`), as entered.
public struct BodyMeasured: EventPayload {
    public static let eventType = EventType("BodyMeasured", code: 91)
    public var measurementId = UUID.zero
    public var site: BodySite = .waist
    public var value = 0.0
    public var unit: BodyMeasureUnit = .cm
    public var stream: StreamName { .body }
    public init() {}
    public mutating func fields<C: PayloadCoder>(_ c: inout C) throws {
        try c.field("measurementId", &measurementId)
        try c.field("site", &site)
        try c.field("value", &value)
        try c.field("unit", &unit)
    }
}

/// A progress photo's metadata: its pose, the SHA-256 of its bytes and where the
/// device keeps it. The bytes never enter the log; `account erase` removes the
/// file while it still holds those bytes.
public struct ProgressPhotoRecorded: EventPayload {
    public static let eventType = EventType("ProgressPhotoRecorded", code: 92)
    public var photoId = UUID.zero
    public var pose: PhotoPose = .front
    public var sha256 = ""
    public var byteCount = 0
    public var path = ""
    public var stream: StreamName { .body }
    public init() {}
    public mutating func fields<C: PayloadCoder>(_ c: inout C) throws {
        try c.field("photoId", &photoId)
        try c.field("pose", &pose)
        try c.field("sha256", &sha256)
        try c.field("byteCount", &byteCount)
        try c.field("path", &path)
    }
}
