import RepLedgerCore
import RepLedgerProjections

/// The automatic policy: after a command appends, snapshot the fold once
/// `TrainingLogSnapshots.automaticEvery` events have come since the newest
/// snapshot, and keep the newest `keep` per key so the file does not grow
/// without bound.
///
/// Taking one is three steps, apart so that a server can make the bytes off
/// the account's lock: `due` (is one due, and the fold at the head),
/// `Encoded` (the bytes, pure) and `save` (the store's writes).
public enum SnapshotPolicy {
    public static let keep = 3

    @discardableResult
    public static func apply(
        _ store: any EventStore, every: Int64 = TrainingLogSnapshots.automaticEvery,
        folded: (() throws -> TrainingLogProjection)? = nil
    ) throws -> SnapshotInfo? {
        guard let log = try due(store, every: every, folded: folded) else { return nil }
        return try save(store, Encoded(log))
    }

    /// The fold at the head when `every` events have come since the newest
    /// fold snapshot, else nil. `folded`, when given, is that fold already in
    /// memory (the server's warm fold), used instead of folding again.
    public static func due(
        _ store: any EventStore, every: Int64 = TrainingLogSnapshots.automaticEvery,
        folded: (() throws -> TrainingLogProjection)? = nil
    ) throws -> TrainingLogProjection? {
        guard let snapshots = SnapshotStore.of(store) else { return nil }
        let head = try store.headPosition()
        let newest = try snapshots.newestPosition(TrainingLogSnapshots.key) ?? 0
        guard head - newest >= every else { return nil }
        var log = try folded?() ?? TrainingLogSnapshots.load(store).0
        if log.position != head { log = try TrainingLogSnapshots.load(store, through: head).0 }
        return log
    }

    /// A snapshot's bytes: the fold, and a records milestone under the default
    /// rules beside it (milestones are small and stay when fold snapshots are pruned).
    public struct Encoded: Sendable {
        public let position: Int64
        let fold: [UInt8]
        let records: [UInt8]

        public init(_ log: TrainingLogProjection) {
            position = log.position
            fold = log.snapshotBytes
            records = RecordsMilestone(log, rules: .default).encodedBytes
        }
    }

    /// Stores the bytes and prunes the older fold snapshots; nil when a fold
    /// snapshot at or after this position was stored meanwhile.
    @discardableResult
    public static func save(_ store: any EventStore, _ encoded: Encoded, prune: Bool = true) throws -> SnapshotInfo? {
        guard let snapshots = SnapshotStore.of(store) else { return nil }
        if let newest = try snapshots.newestPosition(TrainingLogSnapshots.key), newest >= encoded.position { return nil }
        let info = try snapshots.save(TrainingLogSnapshots.key, position: encoded.position, state: encoded.fold)
        _ = try snapshots.save(RecordsMilestones.key(.default), position: encoded.position, state: encoded.records)
        // Only fold snapshots are pruned here: records milestones are small and serve --as-of anywhere.
        if prune { _ = try snapshots.prune(keep: keep, only: TrainingLogSnapshots.key) }
        return info
    }
}
