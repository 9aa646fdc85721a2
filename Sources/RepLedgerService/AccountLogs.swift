import Foundation
import RepLedgerAccounts
import RepLedgerCore
import RepLedgerQueries
import RepLedgerSnapshots

/// One account's ledger on the server: its store, the command path that
/// validates pushed events, and the live subscribers waiting for its next
/// event. Every use of the file goes through `withLedger`, one at a time.
public final class AccountLog: @unchecked Sendable {
    public let accountId: String
    private let ledger: Ledger
    private let lock = NSLock()
    private var closed = false
    private var subscribers: [UUID: AsyncStream<LiveSignal>.Continuation] = [:]
    private let subscribersLock = NSLock()
    /// The account's training-log fold, kept between requests while the
    /// memory budget allows (`AccountLogs.warmBudgetBytes`).
    public let warm: WarmFold
    /// A snapshot is being encoded off the lock (`LedgerAPI.push`): no second
    /// one is started meanwhile. Read and written under the lock only.
    var snapshotInFlight = false
    /// How far reads have verified the chain (`EventStore.verifiedHead`):
    /// each read walks what was appended since. Read and written under the lock only.
    var verifiedMark = ChainMark.genesis

    package init(accountId: String, store: any EventStore, metrics: ServerMetrics? = nil) {
        self.accountId = accountId
        ledger = Ledger(store: store, device: "server")
        if let metrics {
            warm = WarmFold(observe: { metrics.record($0) })
        } else {
            warm = WarmFold()
        }
    }

    /// The log answers nothing afterwards; the connection closes with the
    /// last reference to it (a request in flight may hold one).
    package func close() {
        lock.lock()
        defer { lock.unlock() }
        closed = true
    }

    /// Runs `body` with the account's ledger, alone.
    public func withLedger<T>(_ body: (Ledger) throws -> T) throws -> T {
        lock.lock()
        defer { lock.unlock() }
        // Erased while this request held the log: the erasure's own answer, as every later request gets.
        guard !closed else { throw APIError.erased }
        return try body(ledger)
    }

    // MARK: Live subscribers

    /// What a live subscriber is woken for: an append, a keep-alive, or the
    /// periodic check that its caller may still read (a token revoked by
    /// another process, say, is seen within `recheck` seconds).
    public enum LiveSignal: Sendable { case appended, keepAlive, recheck }

    /// A stream that yields `.appended` after each append to this account (the
    /// subscriber then reads the log after its last position, so nothing is
    /// missed or repeated whatever it was woken for) and `.keepAlive` every
    /// `keepAlive` seconds. Register before reading the catch-up.
    public func subscribe(keepAlive: Double, recheck: Double = 1) -> (id: UUID, stream: AsyncStream<LiveSignal>) {
        let id = UUID()
        // Room for one of each: a keep-alive must not push out a pending append or check.
        let (stream, continuation) = AsyncStream.makeStream(of: LiveSignal.self, bufferingPolicy: .bufferingNewest(3))
        let ticker = Task {
            while !Task.isCancelled {
                try await Task.sleep(nanoseconds: UInt64(keepAlive * 1e9))
                continuation.yield(.keepAlive)
            }
        }
        let checker = Task {
            while !Task.isCancelled {
                try await Task.sleep(nanoseconds: UInt64(recheck * 1e9))
                continuation.yield(.recheck)
            }
        }
        continuation.onTermination = { [weak self] _ in
            ticker.cancel()
            checker.cancel()
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

    package func unsubscribe(_ id: UUID) {
        subscribersLock.lock()
        subscribers[id] = nil
        subscribersLock.unlock()
    }

    /// Ends a subscriber's signals now (its client went away): its stream's loop ends at once.
    package func endSubscriber(_ id: UUID) {
        subscribersLock.lock()
        let continuation = subscribers.removeValue(forKey: id)
        subscribersLock.unlock()
        continuation?.finish()
    }

    package func notifyAppended() {
        subscribersLock.lock()
        let all = Array(subscribers.values)
        subscribersLock.unlock()
        for c in all { c.yield(.appended) }
    }

    /// Ends every live stream (the server is shutting down).
    package func finishSubscribers() {
        subscribersLock.lock()
        let all = Array(subscribers.values)
        subscribers = [:]
        subscribersLock.unlock()
        for c in all { c.finish() }
    }
}

/// The accounts' ledgers, opened on first use. At most `maximumOpen` stay
/// open (a SQLite ledger holds three file descriptors, with the WAL): the
/// least recently used without live subscribers is let go first (a request
/// still holding it finishes on its own connection; the store's own locking
/// keeps two connections to one log correct).
///
/// The warm folds of open accounts are held within `warmBudgetBytes`: past
/// it, the least recently used accounts' folds are dropped first (their next
/// read loads the newest snapshot and folds the tail).
public final class AccountLogs: @unchecked Sendable {
    public let storage: any ServerStorage
    let maximumOpen: Int
    /// The memory the warm folds may hold, estimated from the events folded.
    public let warmBudgetBytes: Int
    package let metrics: ServerMetrics?
    private var open: [String: (log: AccountLog, used: UInt64)] = [:]
    private var clock: UInt64 = 0
    private let lock = NSLock()

    /// A fold's resident bytes per event folded, its kept views included:
    /// 314 measured on the roster benchmark's 50 accounts of 20,000 events
    /// after a restart, on PostgreSQL (no page cache in the process;
    /// Benchmarks/README.md, "A coach's roster"), counted high so the
    /// budget is kept. SQLite's page caches come on top: up to 2 MB per open log.
    public static let foldBytesPerEvent = 400

    /// 512 MiB by default: about 1.34M events of folds (17 accounts the size of the real 77,707-event one).
    public static let defaultWarmBudgetBytes = 512 << 20

    public init(
        storage: any ServerStorage, maximumOpen: Int = 256, warmBudgetBytes: Int = defaultWarmBudgetBytes,
        metrics: ServerMetrics? = nil
    ) {
        self.storage = storage
        self.maximumOpen = maximumOpen
        self.warmBudgetBytes = warmBudgetBytes
        self.metrics = metrics
    }

    /// Drops the least recently used warm folds until the rest fit the budget.
    public func keepWarmWithinBudget() {
        lock.lock()
        var warm = open.values.compactMap { entry in entry.log.warm.position.map { (entry.log, entry.used, $0) } }
        lock.unlock()
        warm.sort { $0.1 > $1.1 }
        var bytes = 0, kept = 0, events: Int64 = 0
        for (log, _, position) in warm {
            let size = Int(position) * Self.foldBytesPerEvent
            if bytes + size > warmBudgetBytes, kept > 0 || size > warmBudgetBytes {
                log.warm.drop()
                continue
            }
            bytes += size
            kept += 1
            events += position
        }
        metrics?.warmAccounts.record(kept)
        metrics?.warmEvents.record(events)
    }

    public func log(_ accountId: String) throws -> AccountLog {
        lock.lock()
        defer { lock.unlock() }
        clock += 1
        if let entry = open[accountId] {
            open[accountId]?.used = clock
            return entry.log
        }
        let log = AccountLog(accountId: accountId, store: try storage.store(for: accountId), metrics: metrics)
        if open.count >= maximumOpen,
            let idle = open.filter({ !$0.value.log.hasSubscribers }).min(by: { $0.value.used < $1.value.used })?.key
        {
            open[idle] = nil
        }
        open[accountId] = (log, clock)
        return log
    }

    /// Another process appended to the account ("*": to any account):
    /// its live subscribers here read what is new.
    package func appendedElsewhere(_ accountId: String) {
        lock.lock()
        let logs = accountId == "*" ? open.values.map(\.log) : open[accountId].map { [$0.log] } ?? []
        lock.unlock()
        for log in logs { log.notifyAppended() }
    }

    /// Closes the account's ledger and deletes its log, snapshots and tokens →
    /// what was deleted. Its live streams end.
    package func erase(_ accountId: String) throws -> ErasedAccount {
        lock.lock()
        defer { lock.unlock() }
        let log = open[accountId]?.log
        log?.close()
        open[accountId] = nil
        // Its streams are woken once the erasure is done, so their last check sees it (and says so).
        defer { log?.finishSubscribers() }
        return try storage.erase(accountId)
    }

    /// On a clean stop: each warm fold that has moved `every` events past the
    /// account's newest snapshot is stored, so the first read after the
    /// restart loads it instead of folding that tail again.
    package func snapshotWarmFolds(every: Int64) {
        lock.lock()
        let all = open.values.map(\.log).filter { $0.warm.position != nil }
        lock.unlock()
        for log in all {
            _ = try? log.withLedger { ledger in
                try SnapshotPolicy.apply(ledger.store, every: every, folded: { try log.warm.current(ledger.store) })
            }
        }
    }

    package func finishSubscribers() {
        lock.lock()
        let all = open.values.map(\.log)
        lock.unlock()
        for log in all { log.finishSubscribers() }
    }
}
