import Foundation

/// A lifter lets a coach account read their log (SERVER.md §4). Recorded in
/// the lifter's own log, so who could see what, and when, is itself audited.
public struct CoachAccessGranted: EventPayload {
    public static let eventType = EventType("CoachAccessGranted", code: 100)
    /// The coach's account id on the server.
    public var coachAccountId = ""
    public var stream: StreamName { .coaching }
    public init() {}
    public mutating func fields<C: PayloadCoder>(_ c: inout C) throws {
        try c.field("coachAccountId", &coachAccountId)
    }
}

/// The lifter withdraws a coach's read access.
public struct CoachAccessRevoked: EventPayload {
    public static let eventType = EventType("CoachAccessRevoked", code: 101)
    public var coachAccountId = ""
    public var stream: StreamName { .coaching }
    public init() {}
    public mutating func fields<C: PayloadCoder>(_ c: inout C) throws {
        try c.field("coachAccountId", &coachAccountId)
    }
}
