import RepLedgerCore
import RepLedgerProjections

/// The automatic policy: after a command appends, snapshot the fold once
/// `TrainingLogSnapshots.automaticEvery` events have come since the newest
/// snapshot, and keep the newest `keep` per key so the file does not grow
/// without bound.
public enum SnapshotPolicy {
    public static let keep = 3

    public static func apply(_ store: any EventStore, folded: (() throws -> TrainingLogProjection)? = nil) throws {
        // Only fold snapshots are pruned here: records milestones are small and serve --as-of anywhere.
        if try TrainingLogSnapshots.createIfDue(store, folded: folded) != nil { try SnapshotStore.of(store)?.prune(keep: keep, only: TrainingLogSnapshots.key) }
    }
}
