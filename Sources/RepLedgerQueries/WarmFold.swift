import Foundation
import RepLedgerCore
import RepLedgerProjections
import RepLedgerSnapshots

/// A training-log fold kept in memory between queries: the server keeps one
/// per warm account. Every use reads the store's head first and folds only the
/// events after the kept position up to it, so an answer is never behind the
/// head it read, whichever process appended (on PostgreSQL the head row says
/// whether anything is new: one round trip). A cold start loads the newest
/// snapshot and folds the tail. Results a view computed from the fold are kept
/// beside it until the head moves.
public final class WarmFold: @unchecked Sendable {
    private var log: TrainingLogProjection?
    private var hash: [UInt8] = []
    private var views: [String: Any] = [:]
    /// Results kept across head moves, each with the position it was made at, for a view that can tell from
    /// the events since whether it still stands; gone when the fold is loaded again (another log) or dropped.
    private var carried: [String: (position: Int64, value: Any)] = [:]
    private let lock = NSLock()
    /// Told what each use's upkeep did, when it did anything (the server's metrics).
    private let observe: (@Sendable (Upkeep) -> Void)?

    /// What the fold's upkeep did, for the server's metrics.
    public struct Upkeep: Sendable {
        /// Events folded to bring a kept fold up to a head.
        public var caughtUpEvents = 0
        /// Folds started from nothing or a snapshot (cold, dropped or replaced).
        public var loads = 0
        /// Of those loads, the ones a stored snapshot served.
        public var snapshotHits = 0
        /// Events folded after a snapshot (or from the start) on a load.
        public var loadedEvents = 0
    }

    public init(observe: (@Sendable (Upkeep) -> Void)? = nil) {
        self.observe = observe
    }

    /// The fold's position, nil when nothing is kept.
    public var position: Int64? {
        lock.lock()
        defer { lock.unlock() }
        return log?.position
    }

    /// Lets the kept state go (memory budget); the next use loads again.
    public func drop() {
        lock.lock()
        defer { lock.unlock() }
        log = nil
        views = [:]
        carried = [:]
    }

    /// The fold at the store's head, as it stood when this call read the head.
    public func current(_ store: any EventStore) throws -> TrainingLogProjection {
        let (log, upkeep) = try advance(store)
        if upkeep.caughtUpEvents > 0 || upkeep.loads > 0 { observe?(upkeep) }
        return log
    }

    private func advance(_ store: any EventStore) throws -> (TrainingLogProjection, Upkeep) {
        lock.lock()
        defer { lock.unlock() }
        var upkeep = Upkeep()
        let head = try store.head()
        if var kept = log, kept.position <= head.position {
            if kept.position == head.position, hash == head.hash { return (kept, upkeep) }
            // The stored event at the kept position must still be the one folded: a log that lost its
            // tail and grew again (a failover to a standby that missed unacknowledged commits, a restored
            // backup) has more events than the fold but is another log.
            if kept.position < head.position, (try? store.hash(at: kept.position)) == hash {
                // Released first so the fold is advanced in place, not copied.
                log = nil
                views = [:]
                try store.replay(from: kept.position + 1, through: head.position) {
                    kept.apply($0)
                    upkeep.caughtUpEvents += 1
                }
                log = kept
                hash = head.hash
                return (kept, upkeep)
            }
        }
        // Nothing kept, or a log that no longer continues the kept one: load again.
        log = nil
        views = [:]
        carried = [:]
        let (loaded, report) = try TrainingLogSnapshots.load(store, through: head.position)
        upkeep.loads = 1
        upkeep.snapshotHits = report.snapshot == nil ? 0 : 1
        upkeep.loadedEvents = report.tailEvents
        log = loaded
        hash = head.hash
        return (loaded, upkeep)
    }

    /// A view's result at `position`, computed once per head under `key`.
    public func view<T>(_ key: String, at position: Int64, _ compute: () throws -> T) rethrows -> T {
        lock.lock()
        if log?.position == position, let kept = views[key] as? T {
            lock.unlock()
            return kept
        }
        lock.unlock()
        let value = try compute()
        lock.lock()
        if log?.position == position { views[key] = value }
        lock.unlock()
        return value
    }

    /// What `carry` kept under `key`, with the position it was made at.
    public func carried<T>(_ key: String, as: T.Type) -> (position: Int64, value: T)? {
        lock.lock()
        defer { lock.unlock() }
        guard let kept = carried[key], let value = kept.value as? T else { return nil }
        return (kept.position, value)
    }

    /// Keeps `value`, made from the fold at `position`, under `key` across head moves.
    public func carry<T>(_ key: String, at position: Int64, _ value: T) {
        lock.lock()
        defer { lock.unlock() }
        carried[key] = (position, value)
    }
}
