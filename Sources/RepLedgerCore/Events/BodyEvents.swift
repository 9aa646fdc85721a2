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
