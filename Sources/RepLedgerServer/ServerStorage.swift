import Foundation
import RepLedgerCore

/// Where a server keeps its accounts, tokens and every account's log: one
/// SQLite file per account under `--data` (the default), or one PostgreSQL
/// database for all (`--postgres URL`). The HTTP API, its rules and its
/// queries are the same over both; only this seam differs.
public protocol ServerStorage: Sendable {
    var accountTable: any AccountTable { get }
    /// The account's log (created empty by its first append).
    func store(for accountId: String) throws -> any EventStore
    /// False when the account has never had an event.
    func hasLog(_ accountId: String) throws -> Bool
    /// Deletes the account's log, snapshots and tokens and marks it erased
    /// (its id stays taken) → what was deleted. The one privileged path.
    func erase(_ accountId: String) throws -> (events: Int64, snapshots: Int64, tokens: Int)
    /// Removes the log of an account that never came into use (a failed import).
    func discardLog(_ accountId: String) throws
    /// Calls `appended` with an account's id after another process appended
    /// to it (so live subscribers here wake up); nothing for a storage one
    /// process owns.
    func watchAppends(_ appended: @escaping @Sendable (String) -> Void) throws
    func shutdown()
}

/// The default: `DIR/accounts.sqlite` and `DIR/accounts/<id>.sqlite`.
public final class SQLiteServerStorage: ServerStorage {
    let directory: String
    let table: SQLiteAccountTable
    public var accountTable: any AccountTable { table }

    public init(directory: String) throws {
        self.directory = directory + "/accounts"
        table = try SQLiteAccountTable(directory: directory)
        try FileManager.default.createDirectory(atPath: self.directory, withIntermediateDirectories: true)
    }

    /// The ledger file of an account.
    public func path(of accountId: String) -> String { "\(directory)/\(accountId).sqlite" }

    public func store(for accountId: String) throws -> any EventStore {
        try SQLiteEventStore(path: path(of: accountId), durability: .full, access: .create)
    }

    public func hasLog(_ accountId: String) throws -> Bool { FileManager.default.fileExists(atPath: path(of: accountId)) }

    public func erase(_ accountId: String) throws -> (events: Int64, snapshots: Int64, tokens: Int) {
        var counts: (Int64, Int64) = (0, 0)
        if try hasLog(accountId) {
            let store = try SQLiteEventStore(path: path(of: accountId), durability: .full, access: .existing)
            counts = (try store.headPosition(), try store.database.scalarInt("SELECT COUNT(*) FROM snapshots"))
        }
        let tokens = try table.erase(accountId)
        try discardLog(accountId)
        return (counts.0, counts.1, tokens)
    }

    public func discardLog(_ accountId: String) throws {
        for suffix in ["", "-wal", "-shm", "-journal"] {
            let file = path(of: accountId) + suffix
            if FileManager.default.fileExists(atPath: file) { try FileManager.default.removeItem(atPath: file) }
        }
    }

    public func watchAppends(_ appended: @escaping @Sendable (String) -> Void) throws {}
    public func shutdown() {}
}
