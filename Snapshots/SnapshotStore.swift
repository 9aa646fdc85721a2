import Foundation
import RepLedgerCore

/// The snapshots of one log, over whatever rows its store keeps
/// (`SnapshotRows`: a ledger file's table, or an account's rows in
/// PostgreSQL). Written once for every store: the checksum over key,
/// position and state; sealing under the store's key (on the server a state
/// is sealed like the payloads it was folded from); and the check that the
/// event a snapshot stands on still carries the hash it was taken on.
public final class SnapshotStore {
    let rows: any SnapshotRows
    let store: any EventStore

    public init(_ store: any EventStore, rows: any SnapshotRows) {
        self.store = store
        self.rows = rows
    }

    /// A store that keeps its snapshots beside its events (a ledger file, an
    /// account on PostgreSQL): `rows` is the store itself.
    public convenience init(_ store: any EventStore & SnapshotRows) {
        self.init(store, rows: store)
    }

    /// The snapshots of a store that keeps them (both stores do). Snapshots
    /// are caches, never facts: a store without them folds from the log.
    public static func of(_ store: any EventStore) -> SnapshotStore? {
        store.snapshotRows.map { SnapshotStore(store, rows: $0) }
    }

    static func checksum(_ key: SnapshotKey, position: Int64, state: [UInt8]) -> [UInt8] {
        var w = BinaryWriter(capacity: state.count + 64)
        w.writeString(key.projection)
        w.writeSigned(Int64(key.projectionVersion))
        w.writeString(key.ruleSetId)
        w.writeSigned(Int64(key.ruleSetVersion))
        w.writeSigned(position)
        w.writeBytes(state)
        return Digest.sha256(w.bytes)
    }

    @discardableResult
    public func save(_ key: SnapshotKey, position: Int64, state: [UInt8], now: Timestamp = .now()) throws -> SnapshotInfo {
        let sum = Self.checksum(key, position: position, state: state)
        let positionHash = try store.hash(at: position)
        var info = SnapshotInfo(id: 0, key: key, position: position, createdAt: now, size: state.count, checksum: sum.hex)
        let sealed = try store.cipher.map { try $0.seal(state, context: sum) } ?? state
        info.id = try rows.insertSnapshot(info, StoredSnapshot(state: sealed, checksum: sum, positionHash: positionHash))
        return info
    }

    /// Every snapshot, newest position first.
    public func list() throws -> [SnapshotInfo] {
        try rows.snapshotInfos(projection: nil, atOrBefore: .max)
    }

    /// A snapshot that could be used.
    public struct Loaded {
        public var info: SnapshotInfo
        public var state: [UInt8]
    }

    /// The newest snapshot of `key` at or before `position` whose key and
    /// checksum match. Every snapshot passed over on the way is reported with
    /// the reason: a wrong answer is worse than a slow one.
    ///
    /// The log under the chosen snapshot is checked too: the event at its
    /// position must still be stored, decode, chain from its predecessor and
    /// carry the hash the snapshot was taken on. If not, the log is damaged
    /// and this throws, as a full replay of the same log would, rather than
    /// answer from a state the log no longer supports.
    public func newest(_ key: SnapshotKey, atOrBefore position: Int64, ignored: inout [String]) throws -> Loaded? {
        for c in try rows.snapshotInfos(projection: key.projection, atOrBefore: position) {
            if c.key.projectionVersion != key.projectionVersion {
                ignored.append(
                    "snapshot \(c.id) at #\(c.position): \(c.key.projection) version \(c.key.projectionVersion), this build folds version \(key.projectionVersion)"
                )
                continue
            }
            if c.key.ruleSetId != key.ruleSetId || c.key.ruleSetVersion != key.ruleSetVersion {
                ignored.append(
                    "snapshot \(c.id) at #\(c.position): rules \(c.key.ruleSetId) v\(c.key.ruleSetVersion), asked for \(key.ruleSetId) v\(key.ruleSetVersion)"
                )
                continue
            }
            guard let row = try rows.snapshotRow(id: c.id) else { continue }
            var state = row.state
            if let cipher = store.cipher {
                do {
                    state = try cipher.open(state, context: row.checksum)
                } catch {
                    ignored.append("snapshot \(c.id) at #\(c.position): \(error)")
                    continue
                }
            }
            guard Self.checksum(c.key, position: c.position, state: state).hex == c.checksum else {
                ignored.append("snapshot \(c.id) at #\(c.position): checksum mismatch, the stored state is damaged")
                continue
            }
            try store.checkLink(at: c.position, expectedHash: row.positionHash)
            return Loaded(info: c, state: state)
        }
        return nil
    }

    /// The position of the newest snapshot stored under `key` (unverified: for policy decisions only).
    public func newestPosition(_ key: SnapshotKey) throws -> Int64? {
        try rows.snapshotInfos(projection: key.projection, atOrBefore: .max).first { $0.key == key }?.position
    }

    /// Keeps the newest `keep` snapshots of one key.
    @discardableResult
    public func prune(_ key: SnapshotKey, keep: Int) throws -> Int {
        try prune(keep: keep, only: key)
    }

    /// Keeps the newest `keep` snapshots of each key; returns how many were deleted.
    @discardableResult
    public func prune(keep: Int, only: SnapshotKey? = nil) throws -> Int {
        let all = try rows.snapshotInfos(projection: only?.projection, atOrBefore: .max).filter { only == nil || $0.key == only }
        var seen: [SnapshotKey: Int] = [:]
        var doomed: [Int64] = []
        for s in all {
            seen[s.key, default: 0] += 1
            if seen[s.key]! > keep { doomed.append(s.id) }
        }
        if !doomed.isEmpty { try rows.deleteSnapshots(ids: doomed) }
        return doomed.count
    }
}
