import Foundation

/// Why the store refused or failed an operation, whichever store it is.
/// The wording here names no command or option: the edge that shows an
/// error (the CLI's `ExitStatus`, the server's `APIError`) adds what a
/// person there should do.
public enum StoreError: Error, CustomStringConvertible {
    /// The stream moved on since the command read it: re-read and decide again.
    case wrongExpectedVersion(stream: StreamName, expected: ExpectedVersion, actual: Int64)
    /// The event id is stored already with different content.
    case eventIdConflict(eventId: UUID, position: Int64)
    /// The file was written by a newer RepLedger.
    case newerSchema(found: Int64, supported: Int64)
    /// A stored event cannot be read back.
    case unreadableEvent(position: Int64, reason: String)
    /// The storage engine failed (SQLite's error on a device, PostgreSQL refusing or out of reach on a server), kept
    /// whole for the edge that words it: one vocabulary whichever store it is.
    case engine(any StorageEngineFailure)
    /// A query was pointed at a file that does not exist (only recording commands create a ledger).
    case noLedger(path: String)
    /// The file is another application's database (or not a database): refused before any write.
    case foreignDatabase(path: String, reason: String)

    public var description: String {
        switch self {
        case .wrongExpectedVersion(let s, let e, let a):
            return "stream \(s) is at version \(a), the command expected \(e); someone else wrote to it first"
        case .eventIdConflict(let id, let p):
            return "event \(id.lowercased) is already stored at position \(p) with different content; an event id can only be re-sent unchanged"
        case .newerSchema(let f, let s):
            return "this database has schema \(f), this build reads up to \(s); upgrade RepLedger to open it"
        case .unreadableEvent(let p, let r):
            return "event at position \(p) cannot be read: \(Self.printable(r)); the log is damaged"
        case .engine(let e):
            return e.plainMessage
        case .noLedger(let path):
            return "there is no ledger at \(path); a query never creates one, recording something does"
        case .foreignDatabase(let path, let reason):
            return "\(path) is not a RepLedger ledger: \(reason); it was left untouched"
        }
    }
}

extension StoreError {
    /// A database server (PostgreSQL) refused or could not be reached, or a store's own step failed: one line, no
    /// credentials, carried as an engine failure like SQLite's.
    public static func database(_ message: String) -> StoreError { .engine(DatabaseFailure(plainMessage: message)) }
}

/// A storage failure worded by the store that met it (PostgreSQL's answer, a sealing step), as one line.
public struct DatabaseFailure: StorageEngineFailure {
    public let plainMessage: String
    public init(plainMessage: String) { self.plainMessage = plainMessage }
    public var description: String { plainMessage }
}

/// A storage engine's own error, as `StoreError.engine` carries it.
public protocol StorageEngineFailure: Error, Sendable, CustomStringConvertible {
    /// One line for a person: what happened, never the engine's statement text.
    var plainMessage: String { get }
}

extension StoreError {
    /// A reason made from stored bytes may carry garbage from a damaged row:
    /// one short printable line, never raw bytes.
    public static func printable(_ text: String) -> String {
        let clean = String(
            text.unicodeScalars.map {
                $0.properties.isWhitespace ? " " : ($0.value < 0x20 || $0.value == 0x7F || $0 == "\u{FFFD}" ? "?" : Character($0))
            })
        return clean.count > 120 ? String(clean.prefix(117)) + "…" : clean
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
