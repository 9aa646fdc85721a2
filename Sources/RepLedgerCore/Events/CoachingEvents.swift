import Foundation

/// A lifter lets a coach account read their log (SERVER-CONTRACT.md §4). Recorded in
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

/// What a coach offers a client: a program or a template, whole (SERVER-CONTRACT.md
/// §8). Recorded in the coach's own log; it reaches the client's log only
/// when the client's device accepts it (`AssignmentAccepted` and the program
/// or template, caused by this event).
public struct AssignmentOffered: EventPayload {
    public static let eventType = EventType("AssignmentOffered", code: 102)
    public var assignmentId = UUID.zero
    /// The client's account id on the server.
    public var clientAccountId = ""
    /// `program` or `template`.
    public var kind: AssignmentKind = .program
    /// The program's split or the template's name, as the coach's ledger had it.
    public var name = ""
    /// A program's days (empty for a template).
    public var sessions: [ProgramSession] = []
    /// A program's hold targets.
    public var holds: [ProgramHold] = []
    public var split = ""
    /// A template's exercises with their targets (empty for a program).
    public var exercises: [TemplateExercise] = []
    public var stream: StreamName { .assignments }
    public init() {}
    public mutating func fields<C: PayloadCoder>(_ c: inout C) throws {
        try c.field("assignmentId", &assignmentId)
        try c.field("clientAccountId", &clientAccountId)
        try c.field("kind", &kind)
        try c.field("name", &name)
        try c.field("sessions", &sessions)
        try c.field("holds", &holds)
        try c.field("split", &split)
        try c.field("exercises", &exercises)
    }
}

/// A template offer's every target (weights, durations, rests), which the
/// offer's own layout cannot hold: recorded with the offer in the same
/// command, as `TemplateTargetsSet` is with a template (SERVER-CONTRACT.md §8).
/// Accepting the offer creates the template from these lines.
public struct AssignmentTargetsOffered: EventPayload {
    public static let eventType = EventType("AssignmentTargetsOffered", code: 105)
    public var assignmentId = UUID.zero
    public var lines: [TemplateLine] = []
    public var stream: StreamName { .assignments }
    public init() {}
    public mutating func fields<C: PayloadCoder>(_ c: inout C) throws {
        try c.field("assignmentId", &assignmentId)
        try c.field("lines", &lines)
    }
}

/// What an assignment carries.
public enum AssignmentKind: String, Sendable, CaseIterable, PayloadEnum {
    case program, template
}

/// The client's answer to an offer, in the client's own log (`coaching`).
/// Accepting records the program or template in the same command, each event
/// caused by the offer's event.
public struct AssignmentAnswered: EventPayload {
    public static let eventType = EventType("AssignmentAnswered", code: 103)
    public var assignmentId = UUID.zero
    public var coachAccountId = ""
    public var accepted = false
    public var stream: StreamName { .coaching }
    public init() {}
    public mutating func fields<C: PayloadCoder>(_ c: inout C) throws {
        try c.field("assignmentId", &assignmentId)
        try c.field("coachAccountId", &coachAccountId)
        try c.field("accepted", &accepted)
    }
}

/// A coach's note about a client, in the coach's own log (sealed like every
/// payload on the server); never in the client's.
public struct CoachNoteAdded: EventPayload {
    public static let eventType = EventType("CoachNoteAdded", code: 104)
    public var noteId = UUID.zero
    public var clientAccountId = ""
    public var text = ""
    public var stream: StreamName { .coachNotes }
    public init() {}
    public mutating func fields<C: PayloadCoder>(_ c: inout C) throws {
        try c.field("noteId", &noteId)
        try c.field("clientAccountId", &clientAccountId)
        try c.field("text", &text)
    }
}
