import Foundation
import RepLedgerCore

/// One account's ledger on the server: its SQLite file, the command path that
/// validates pushed events, and the live subscribers waiting for its next
/// event. Every use of the file goes through `withLedger`, one at a time.
public final class AccountLog: @unchecked Sendable {
    public let accountId: String
    private let ledger: Ledger
    private let lock = NSLock()
    private var closed = false
    private var subscribers: [UUID: AsyncStream<LiveSignal>.Continuation] = [:]
    private let subscribersLock = NSLock()

    init(accountId: String, path: String) throws {
        self.accountId = accountId
        ledger = Ledger(store: try SQLiteEventStore(path: path, durability: .full, access: .create), device: "server")
    }

    /// The log answers nothing afterwards; the connection closes with the
    /// last reference to it (a request in flight may hold one).
    func close() {
        lock.lock()
        defer { lock.unlock() }
        closed = true
    }

    /// Runs `body` with the account's ledger, alone.
    public func withLedger<T>(_ body: (Ledger) throws -> T) throws -> T {
        lock.lock()
        defer { lock.unlock() }
        guard !closed else { throw APIError.forbidden("this account was erased") }
        return try body(ledger)
    }

    // MARK: Live subscribers

    /// What a live subscriber is woken for.
    public enum LiveSignal: Sendable { case appended, keepAlive }

    /// A stream that yields `.appended` after each append to this account (the
    /// subscriber then reads the log after its last position, so nothing is
    /// missed or repeated whatever it was woken for) and `.keepAlive` every
    /// `keepAlive` seconds. Register before reading the catch-up.
    public func subscribe(keepAlive: Double) -> (id: UUID, stream: AsyncStream<LiveSignal>) {
        let id = UUID()
        let (stream, continuation) = AsyncStream.makeStream(of: LiveSignal.self, bufferingPolicy: .bufferingNewest(1))
        let ticker = Task {
            while !Task.isCancelled {
                try await Task.sleep(nanoseconds: UInt64(keepAlive * 1e9))
                continuation.yield(.keepAlive)
            }
        }
        continuation.onTermination = { [weak self] _ in
            ticker.cancel()
            self?.unsubscribe(id)
        }
        subscribersLock.lock()
        subscribers[id] = continuation
        subscribersLock.unlock()
        return (id, stream)
    }

    var hasSubscribers: Bool {
        subscribersLock.lock()
        defer { subscribersLock.unlock() }
        return !subscribers.isEmpty
    }

    func unsubscribe(_ id: UUID) {
        subscribersLock.lock()
        subscribers[id] = nil
        subscribersLock.unlock()
    }

    func notifyAppended() {
        subscribersLock.lock()
        let all = Array(subscribers.values)
        subscribersLock.unlock()
        for c in all { c.yield(.appended) }
    }

    /// Ends every live stream (the server is shutting down).
    func finishSubscribers() {
        subscribersLock.lock()
        let all = Array(subscribers.values)
        subscribers = [:]
        subscribersLock.unlock()
        for c in all { c.finish() }
    }
}

/// The accounts' ledgers under `DIR/accounts/`, opened on first use. At most
/// `maximumOpen` stay open (three file descriptors each, with the WAL): the
/// least recently used without live subscribers is let go first (a request
/// still holding it finishes on its own connection; SQLite's locking keeps
/// two connections to one file correct).
public final class AccountLogs: @unchecked Sendable {
    let directory: String
    let maximumOpen: Int
    private var open: [String: (log: AccountLog, used: UInt64)] = [:]
    private var clock: UInt64 = 0
    private let lock = NSLock()

    public init(directory: String, maximumOpen: Int = 256) throws {
        self.directory = directory + "/accounts"
        self.maximumOpen = maximumOpen
        try FileManager.default.createDirectory(atPath: self.directory, withIntermediateDirectories: true)
    }

    /// The ledger file of an account (created by the first event it is given).
    public func path(of accountId: String) -> String { "\(directory)/\(accountId).sqlite" }

    public func log(_ accountId: String) throws -> AccountLog {
        lock.lock()
        defer { lock.unlock() }
        clock += 1
        if let entry = open[accountId] {
            open[accountId]?.used = clock
            return entry.log
        }
        let log = try AccountLog(accountId: accountId, path: path(of: accountId))
        if open.count >= maximumOpen,
           let idle = open.filter({ !$0.value.log.hasSubscribers }).min(by: { $0.value.used < $1.value.used })?.key {
            open[idle] = nil
        }
        open[accountId] = (log, clock)
        return log
    }

    /// Closes the account's ledger and removes its file with -wal and -shm →
    /// how many events and snapshots it held. Its live streams end.
    func erase(_ accountId: String) throws -> (events: Int64, snapshots: Int64) {
        lock.lock()
        defer { lock.unlock() }
        let log = try open[accountId]?.log ?? AccountLog(accountId: accountId, path: path(of: accountId))
        let counts = try log.withLedger { ledger in
            (try ledger.store.headPosition(), try (ledger.store as? SQLiteEventStore)?.database.scalarInt("SELECT COUNT(*) FROM snapshots") ?? 0)
        }
        log.finishSubscribers()
        open[accountId] = nil
        log.close()
        for suffix in ["", "-wal", "-shm", "-journal"] {
            let file = path(of: accountId) + suffix
            if FileManager.default.fileExists(atPath: file) { try FileManager.default.removeItem(atPath: file) }
        }
        return counts
    }

    func finishSubscribers() {
        lock.lock()
        let all = open.values.map(\.log)
        lock.unlock()
        for log in all { log.finishSubscribers() }
    }
}
