import Foundation

/// Why the store refused or failed an operation.
public enum StoreError: Error, CustomStringConvertible {
    /// The stream moved on since the command read it: re-read and decide again.
    case wrongExpectedVersion(stream: StreamName, expected: ExpectedVersion, actual: Int64)
    /// The event id is stored already with different content.
    case eventIdConflict(eventId: UUID, position: Int64)
    /// The file was written by a newer RepLedger.
    case newerSchema(found: Int64, supported: Int64)
    /// A stored event cannot be read back.
    case unreadableEvent(position: Int64, reason: String)
    case sqlite(SQLiteError)

    public var description: String {
        switch self {
        case .wrongExpectedVersion(let s, let e, let a):
            return "stream \(s) is at version \(a), the command expected \(e); someone else wrote to it first, run the command again"
        case .eventIdConflict(let id, let p):
            return "event \(id.lowercased) is already stored at position \(p) with different content; an event id can only be re-sent unchanged"
        case .newerSchema(let f, let s):
            return "this database has schema \(f), this build reads up to \(s); upgrade RepLedger to open it"
        case .unreadableEvent(let p, let r):
            return "event at position \(p) cannot be read: \(r); run `ledger verify`"
        case .sqlite(let e):
            return e.isBusy ? "the database is busy (another process holds it): \(e)" : e.description
        }
    }
}

/// What a command expects of a stream when it appends.
public enum ExpectedVersion: Sendable, Equatable, CustomStringConvertible {
    /// No check (merging events that are safe in any order, e.g. a watch sync).
    case any
    /// The stream must be at exactly this version; 0 means it must not exist.
    case exactly(Int64)

    public var description: String {
        switch self {
        case .any: return "any version"
        case .exactly(0): return "no stream"
        case .exactly(let v): return "version \(v)"
        }
    }
}
