import RepLedgerCore
import RepLedgerProjections

/// The automatic policy: after a command appends, snapshot the fold once
/// `TrainingLogSnapshots.automaticEvery` events have come since the newest
/// snapshot, and keep the newest `keep` per key so the file does not grow
/// without bound.
public enum SnapshotPolicy {
    public static let keep = 3

    @discardableResult
    public static func apply(_ store: any EventStore, every: Int64 = TrainingLogSnapshots.automaticEvery,
                             folded: (() throws -> TrainingLogProjection)? = nil) throws -> SnapshotInfo? {
        // Only fold snapshots are pruned here: records milestones are small and serve --as-of anywhere.
        guard let taken = try TrainingLogSnapshots.createIfDue(store, every: every, folded: folded) else { return nil }
        try SnapshotStore.of(store)?.prune(keep: keep, only: TrainingLogSnapshots.key)
        return taken
    }
}
