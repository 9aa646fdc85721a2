import Foundation
import RepLedgerCore
import RepLedgerProjections

/// Snapshots of the training-log fold: answers at any position come from the
/// newest usable snapshot at or before it plus the fold of the events after.
///
/// The fold does not depend on rules (views apply them), so its snapshots are
/// keyed with the rule set `none`, version 0; a snapshot stored under any
/// other rules is not this fold's and is ignored.
public enum TrainingLogSnapshots {
    public static let key = SnapshotKey(
        projection: TrainingLogProjection.name, projectionVersion: TrainingLogProjection.version,
        ruleSetId: "none", ruleSetVersion: 0)

    /// Take a snapshot automatically once this many events have been appended
    /// since the newest one. Chosen by measurement: see docs/DESIGN.md.
    public static let automaticEvery: Int64 = 50_000

    /// How an answer was produced, for verbose output.
    public struct Report: Sendable {
        public var snapshot: SnapshotInfo?
        public var tailEvents: Int
        public var ignored: [String]
    }

    /// The fold as the log stood at `position`.
    public static func load(_ store: any EventStore, through position: Int64 = .max) throws -> (TrainingLogProjection, Report) {
        let target = min(position, try store.headPosition())
        var ignored: [String] = []
        var log = TrainingLogProjection()
        var used: SnapshotInfo?
        if let found = try SnapshotStore.of(store)?.newest(key, atOrBefore: target, ignored: &ignored) {
            do {
                log = try TrainingLogProjection(snapshot: found.state)
                used = found.info
            } catch {
                ignored.append("snapshot \(found.info.id) at #\(found.info.position): unreadable (\(error)); folding from the start")
                log = TrainingLogProjection()
            }
        }
        var tail = 0
        try store.replay(from: log.position + 1, through: target) {
            log.apply($0)
            tail += 1
        }
        return (log, Report(snapshot: used, tailEvents: tail, ignored: ignored))
    }

    /// Stores the fold at the head (or at `position`).
    @discardableResult
    public static func create(_ store: any EventStore, at position: Int64 = .max) throws -> SnapshotInfo {
        try save(store, try load(store, through: position).0)
    }

    /// Stores an already folded state (callers that go on using it need not load it again).
    @discardableResult
    public static func save(_ store: any EventStore, _ log: TrainingLogProjection) throws -> SnapshotInfo {
        guard let snapshots = SnapshotStore.of(store) else { throw StoreError.database("this store keeps no snapshots") }
        return try snapshots.save(key, position: log.position, state: log.snapshotBytes)
    }

    /// Takes a snapshot when `every` events have come since the newest one,
    /// with a records milestone beside it, without pruning (`SnapshotPolicy`).
    @discardableResult
    public static func createIfDue(
        _ store: any EventStore, every: Int64 = automaticEvery,
        folded: (() throws -> TrainingLogProjection)? = nil
    ) throws -> SnapshotInfo? {
        guard let log = try SnapshotPolicy.due(store, every: every, folded: folded) else { return nil }
        return try SnapshotPolicy.save(store, SnapshotPolicy.Encoded(log), prune: false)
    }
}
