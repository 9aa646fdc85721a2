import Foundation
import NIOCore
import RepLedgerCore
import RepLedgerSQLite

/// Why a storage refuses to open an account's log.
public enum ServerStorageFailure: Error, Equatable {
    /// The id is not a UUID, so no account on this storage has it.
    case notAnAccountId
}

/// Where a server keeps its accounts, tokens and every account's log: one
/// SQLite file per account under `--data` (the default), or one PostgreSQL
/// database for all (`--postgres URL`). The HTTP API, its rules and its
/// queries are the same over both; only this seam differs.
public protocol ServerStorage: Sendable {
    var accountTable: any AccountTable { get }
    /// The accounts' keys: every payload and snapshot is sealed under its account's.
    var keys: AccountKeyStore { get }
    /// The account's log (created empty by its first append), sealed under its key.
    func store(for accountId: String) throws -> any EventStore
    /// The account's log on a connection of its own that never writes (an empty log when it has none
    /// yet): for reads that must not wait on, or hold up, the account's appends.
    func reader(for accountId: String) throws -> any EventStore
    /// False when the account has never had an event.
    func hasLog(_ accountId: String) throws -> Bool
    /// Destroys the account's key, then deletes its log, snapshots and tokens
    /// and marks it erased (its id stays taken) → what was deleted. The one
    /// privileged path.
    func erase(_ accountId: String) throws -> ErasedAccount
    /// Removes the log of an account that never came into use (a failed import).
    func discardLog(_ accountId: String) throws
    /// Seals, under `cipher`, the log of an account stored in clear by the
    /// first server release: the same events, positions and hashes → how
    /// many were sealed (0 when it was sealed already: a crash may have
    /// interrupted the step after this one).
    func sealLegacyLog(_ accountId: String, with cipher: PayloadCipher) throws -> Int64
    /// Calls `appended` with an account's id after another process appended
    /// to it (so live subscribers here wake up); nothing for a storage one
    /// process owns.
    func watchAppends(_ appended: @escaping @Sendable (String) -> Void) throws
    /// Range reads that hot standbys served and that fell to the primary, since the start; nil without standbys.
    var replicaReads: (replica: Int, primary: Int)? { get }
    /// Appends by other processes that the database announced to this one (PostgreSQL's `NOTIFY`) since
    /// the start; nil for a storage one process owns. A pooler that breaks `LISTEN` leaves it at 0.
    var appendNotifications: Int? { get }
    /// Threads the server runs store work on: work that waits on the disk
    /// and the CPU wants one per core; work that waits on a database's
    /// round trips wants one per connection.
    var workerThreads: Int { get }
    func shutdown()
}

extension ServerStorage {
    public var replicaReads: (replica: Int, primary: Int)? { nil }
    public var appendNotifications: Int? { nil }
    public var workerThreads: Int { System.coreCount }
}

/// What an erasure deleted (DOMAIN.md §11's report, less its time).
public struct ErasedAccount: Sendable, Equatable {
    public var events: Int64
    public var snapshots: Int64
    public var tokens: Int
    /// The key is gone: destroyed now, or by an earlier erasure a crash interrupted.
    public var keyDestroyed: Bool
}

/// The default: `DIR/accounts.sqlite` and `DIR/accounts/<id>.sqlite`.
public final class SQLiteServerStorage: ServerStorage {
    package let directory: String
    package let table: SQLiteAccountTable
    public let keys: AccountKeyStore
    public var accountTable: any AccountTable { table }
    /// How the accounts' ledgers commit: `.full` (the server's) survives the machine losing power;
    /// `.normal` survives the process's crash only (the sync simulation's, which crashes nothing else).
    public let durability: Durability

    public init(directory: String, keys: AccountKeyStore, durability: Durability = .full) throws {
        self.directory = directory + "/accounts"
        self.keys = keys
        self.durability = durability
        table = try SQLiteAccountTable(directory: directory)
        try FileManager.default.createDirectory(atPath: self.directory, withIntermediateDirectories: true)
    }

    /// The ledger file of an account.
    public func path(of accountId: String) -> String { "\(directory)/\(accountId).sqlite" }

    public func store(for accountId: String) throws -> any EventStore {
        let cipher = try keys.cipher(for: accountId)
        return try SQLiteEventStore(path: path(of: accountId), durability: durability, access: .create, cipher: cipher)
    }

    public func reader(for accountId: String) throws -> any EventStore {
        guard try hasLog(accountId) else { return InMemoryEventStore() }
        return try SQLiteEventStore(path: path(of: accountId), durability: durability, access: .readOnly, cipher: try keys.cipher(for: accountId))
    }

    public func hasLog(_ accountId: String) throws -> Bool { FileManager.default.fileExists(atPath: path(of: accountId)) }

    public func erase(_ accountId: String) throws -> ErasedAccount {
        var counts: (Int64, Int64) = (0, 0)
        if try hasLog(accountId) {
            // Counting reads no payload: no key needed.
            let store = try SQLiteEventStore(path: path(of: accountId), durability: .full, access: .existing)
            counts = (try store.headPosition(), try store.database.scalarInt("SELECT COUNT(*) FROM snapshots"))
        }
        try keys.destroyKey(of: accountId, at: .now())
        let tokens = try table.erase(accountId)
        try discardLog(accountId)
        return ErasedAccount(events: counts.0, snapshots: counts.1, tokens: tokens, keyDestroyed: true)
    }

    /// A new sealed file beside the old one, filled with the same events
    /// (`EventStore.appendCopy`: each run of one recorded time at that time, a
    /// few thousand at once, so the account is never held in memory),
    /// checked to end on the same head hash, then renamed over it: a crash
    /// leaves the old file or the new, never half of one.
    public func sealLegacyLog(_ accountId: String, with cipher: PayloadCipher) throws -> Int64 {
        guard try hasLog(accountId) else { return 0 }
        let path = path(of: accountId), sealing = path + ".sealing"
        if try Self.isSealed(path, cipher) { return 0 }
        for suffix in ["", "-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: sealing + suffix) }
        let events: Int64
        do {
            let old = try SQLiteEventStore(path: path, durability: .full, access: .existing)
            let sealed = try SQLiteEventStore(path: sealing, durability: .full, access: .create, cipher: cipher)
            try sealed.appendCopy(of: old)
            guard try sealed.head().hash == (try old.head().hash) else {
                throw StoreError.database("sealing account \(accountId) did not reproduce its chain; its log was left as it was")
            }
            events = try sealed.headPosition()
            try old.database.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            try sealed.database.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        }
        for suffix in ["-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        guard rename(sealing, path) == 0 else {
            throw StoreError.database("sealing account \(accountId): renaming \(sealing): \(String(cString: strerror(errno)))")
        }
        try AccountKeyStore.syncDirectory(directory)
        return events
    }

    /// True when the log's first event opens under `cipher`.
    static func isSealed(_ path: String, _ cipher: PayloadCipher) throws -> Bool {
        let store = try SQLiteEventStore(path: path, durability: .full, access: .existing, cipher: cipher)
        do {
            try store.storedEvents(from: 1, through: 1) { _ in }
            return try store.headPosition() > 0
        } catch StoreError.unreadableEvent {
            return false
        }
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
