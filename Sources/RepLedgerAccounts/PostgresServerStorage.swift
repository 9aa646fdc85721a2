import Foundation
import Logging
import NIOCore
import PostgresNIO
import RepLedgerCore
import RepLedgerPostgres
import RepLedgerSQLite

/// Every account in one PostgreSQL database (`ledger serve --postgres URL`).
/// Several server processes may share it: appends serialize per account on
/// the database's head row, and `LISTEN repledger_events` tells each process
/// of the others' appends.
public final class PostgresServerStorage: ServerStorage, @unchecked Sendable {
    public let pool: PostgresPool
    package let table: PostgresAccountTable
    public let keys: AccountKeyStore
    package let logger: Logger
    private var listener: Task<Void, Never>?
    private let listenerStopped = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    public var accountTable: any AccountTable { table }

    /// Hot standbys serving reads (`--postgres-read`), or nil.
    public let replicas: PostgresReplicas?

    /// `urls`: the primary, as one URL (one host or several) or several URLs of
    /// one database; appends go to whichever host accepts writes. `readURLs`:
    /// hot standbys that serve reads of events.
    /// `password`: for URLs that name none (before libpq's `PGPASSWORD` and password file).
    public init(urls: [String], readURLs: [String] = [], password: String? = nil, keys: AccountKeyStore, logger: Logger) throws {
        pool = try PostgresPool(location: try PostgresLocation(urls: urls, password: password), maximumConnections: Self.connections)
        replicas = readURLs.isEmpty ? nil : try PostgresReplicas(urls: readURLs, password: password)
        self.keys = keys
        self.logger = logger
        try PostgresSchema.prepare(pool)
        replicas?.work(like: pool)
        table = PostgresAccountTable(pool: pool)
    }

    public func store(for accountId: String) throws -> any EventStore {
        guard let id = UUID(uuidString: accountId) else { throw ServerStorageFailure.notAnAccountId }
        return PostgresEventStore(accountId: id, pool: pool, cipher: try keys.cipher(for: accountId), replicas: replicas)
    }

    /// Every read is a statement of its own on the pool, outside any append's transaction.
    public func reader(for accountId: String) throws -> any EventStore { try store(for: accountId) }

    public func hasLog(_ accountId: String) throws -> Bool {
        guard let id = UUID(uuidString: accountId) else { return false }
        return try pool.withConnection { c in
            try !pool.run(c, "SELECT 1 FROM heads WHERE account_id = \(id) AND position > 0").rows.isEmpty
        }
    }

    public func erase(_ accountId: String) throws -> ErasedAccount {
        guard let id = UUID(uuidString: accountId) else { return ErasedAccount(events: 0, snapshots: 0, tokens: 0, keyDestroyed: false) }
        return try pool.transaction { c in
            // Waits for an append in flight on another process: nothing lands after the erase.
            try pool.run(c, "SELECT 1 FROM heads WHERE account_id = \(id) FOR UPDATE")
            let snapshots = try pool.run(c, "SELECT COUNT(*)::bigint FROM snapshots WHERE account_id = \(id)").rows.first?.decode(Int64.self) ?? 0
            // The key goes first: should the deletion fail or the process die now, the rows are already unreadable.
            try keys.destroyKey(of: accountId, at: .now())
            let row = try pool.run(c, "SELECT events, tokens FROM repledger_erase_account(\(id))").rows.first
            var (events, tokens): (Int64, Int64) = (0, 0)
            if let row { (events, tokens) = try row.decode((Int64, Int64).self) }
            return ErasedAccount(events: events, snapshots: snapshots, tokens: Int(tokens), keyDestroyed: true)
        }
    }

    /// Whether a stored payload (read unopened) opens under `seal`'s key: it is sealed already.
    package static func opens(_ row: StoredEvent, _ seal: PayloadSeal) -> Bool {
        row.payload.withUnsafeBytes { stored in
            withUnsafeBytes(of: row.eventId.uuid) { (try? seal.opened(stored, eventId: $0, position: row.position)) != nil }
        }
    }

    /// Seals the account's payloads in place, in one transaction under its
    /// head lock (no append interleaves), through `repledger_seal_payloads`.
    /// The rows' old versions stay in the WAL and in old backups until
    /// those are recycled: sealing cannot reach them.
    public func sealLegacyLog(_ accountId: String, with cipher: PayloadCipher) throws -> Int64 {
        guard let id = UUID(uuidString: accountId) else { return 0 }
        let plain = PostgresEventStore(accountId: id, pool: pool)
        // Sealed already (a crash came between this step and the name's) when the first payload opens.
        var first: StoredEvent?
        try plain.storedEvents(from: 1, through: 1) { first = $0 }
        let seal = PayloadSeal(cipher)
        guard let first, !Self.opens(first, seal) else { return 0 }
        var rows: [(position: Int64, sealed: [UInt8])] = []
        try plain.storedEvents(from: 1, through: .max) { row in
            rows.append((row.position, try seal.sealed(row.payload, eventId: row.eventId)))
        }
        return try pool.transaction { c in
            try pool.run(c, "SELECT 1 FROM heads WHERE account_id = \(id) FOR UPDATE")
            var sealed: Int64 = 0
            for chunk in stride(from: 0, to: rows.count, by: 5_000) {
                let part = rows[chunk..<min(chunk + 5_000, rows.count)]
                let positions = part.map(\.position), payloads = part.map { ByteBuffer(bytes: $0.sealed) }
                let row = try pool.run(c, "SELECT sealed FROM repledger_seal_payloads(\(id), \(positions), \(payloads))").rows.first
                sealed += try row?.decode(Int64.self) ?? 0
            }
            guard sealed == Int64(rows.count) else {
                throw StoreError.database("sealing account \(accountId) changed \(sealed) of \(rows.count) events; nothing was kept")
            }
            return sealed
        }
    }

    public func discardLog(_ accountId: String) throws {
        guard let id = UUID(uuidString: accountId) else { return }
        // An import that failed appended nothing (it is one transaction); the account row goes through the erase path.
        _ = try pool.transaction { c in try pool.run(c, "SELECT events FROM repledger_erase_account(\(id))") }
    }

    /// One connection per process listens; if it drops (the database
    /// restarted), it reconnects and wakes every subscriber, which then
    /// re-reads after its last position: nothing is missed or repeated.
    public func watchAppends(_ appended: @escaping @Sendable (String) -> Void) throws {
        let pool = self.pool
        let logger = self.logger
        let stopped = listenerStopped
        let notified = notifications
        let task = Task.detached {
            defer { stopped.signal() }
            // Said once an outage, not every half second of it (a failover takes seconds).
            var paused = false
            while !Task.isCancelled {
                var open: PostgresConnection?
                do {
                    let connection = try pool.listenerConnection()
                    open = connection
                    let (stream, continuation) = AsyncStream.makeStream(of: String.self)
                    let context = connection.addListener(channel: "repledger_events") { _, notification in
                        // "account:position:process": this process's own appends woke their subscribers already.
                        let fields = notification.payload.split(separator: ":")
                        guard let account = fields.first, fields.count < 3 || fields[2] != PostgresEventStore.processTag else { return }
                        notified.add()
                        continuation.yield(String(account))
                    }
                    _ = try await connection.query("LISTEN repledger_events", logger: logger)
                    connection.closeFuture.whenComplete { _ in continuation.finish() }
                    if paused { logger.notice("live updates from PostgreSQL resumed") }
                    paused = false
                    appended("*")
                    for await account in stream { appended(account) }
                    context.stop()
                } catch {
                    if !paused { logger.warning("live updates from PostgreSQL paused: \(error); retrying") }
                    paused = true
                }
                // A connection is closed before it is let go (postgres-nio requires it).
                if let open, !open.isClosed { try? await open.close() }
                try? await Task.sleep(nanoseconds: 500_000_000)
            }
        }
        lock.lock()
        listener = task
        lock.unlock()
    }

    public var replicaReads: (replica: Int, primary: Int)? { replicas?.reads }

    public var appendNotifications: Int? { notifications.value }
    private let notifications = Tally()

    /// A count several threads add to.
    final class Tally: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        func add() { lock.withLock { count += 1 } }
        var value: Int { lock.withLock { count } }
    }

    /// Connections to the primary, and so the threads that may wait on it at once.
    package static let connections = 8
    /// One per connection: a push waits on several round trips, and with a thread per core the
    /// two cores sat idle while both threads waited (276 single-set pushes/s from 20 lifters).
    public var workerThreads: Int { Self.connections }

    public func shutdown() {
        lock.lock()
        let task = listener
        listener = nil
        lock.unlock()
        if let task {
            task.cancel()
            _ = listenerStopped.wait(timeout: .now() + 5)
        }
        pool.shutdown()
        replicas?.shutdown()
    }
}
