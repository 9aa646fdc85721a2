import Foundation
import RepLedgerCore

/// A stored snapshot's description (the state itself is loaded on demand).
public struct SnapshotInfo: Sendable, Equatable {
    public var id: Int64
    public var key: SnapshotKey
    /// The last log position folded into the state.
    public var position: Int64
    public var createdAt: Timestamp
    public var size: Int
    /// Hex SHA-256 over the key, the position and the state.
    public var checksum: String
}

/// Snapshot rows in the ledger's own file (the `snapshots` table).
public final class SnapshotStore {
    let db: SQLiteDatabase
    let store: SQLiteEventStore

    public init(_ store: SQLiteEventStore) {
        self.store = store
        db = store.database
    }

    /// The snapshots of a store that keeps them: a SQLite ledger keeps them in
    /// its own file. Other stores (an account in PostgreSQL) keep none, and
    /// every query folds from the log: snapshots are caches, never facts.
    public static func of(_ store: any EventStore) -> SnapshotStore? {
        (store as? SQLiteEventStore).map(SnapshotStore.init)
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
        try db.with("""
            INSERT INTO snapshots (projection, projection_version, rules_id, rules_version, position, created_at, size, checksum, state,
                position_hash)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """) { s in
            try s.bind(1, key.projection)
            try s.bind(2, Int64(key.projectionVersion))
            try s.bind(3, key.ruleSetId)
            try s.bind(4, Int64(key.ruleSetVersion))
            try s.bind(5, position)
            try s.bind(6, now.millis)
            try s.bind(7, Int64(state.count))
            try s.bind(8, sum)
            // On the server the state is sealed like the payloads it was folded from.
            try s.bind(9, try store.cipher.map { try $0.seal(state, context: sum) } ?? state)
            try s.bind(10, positionHash)
            try s.run()
        }
        return SnapshotInfo(id: try db.scalarInt("SELECT last_insert_rowid()"), key: key, position: position, createdAt: now,
                            size: state.count, checksum: sum.hex)
    }

    static let infoColumns = "id, projection, projection_version, rules_id, rules_version, position, created_at, size, checksum"

    private static func info(_ s: SQLiteStatement) -> SnapshotInfo {
        SnapshotInfo(id: s.int(0), key: SnapshotKey(projection: s.text(1), projectionVersion: Int(s.int(2)), ruleSetId: s.text(3),
                                                   ruleSetVersion: Int(s.int(4))),
                     position: s.int(5), createdAt: Timestamp(millis: s.int(6)), size: Int(s.int(7)), checksum: s.bytes(8).hex)
    }

    /// Every snapshot, newest position first.
    public func list() throws -> [SnapshotInfo] {
        try db.with("SELECT \(Self.infoColumns) FROM snapshots ORDER BY position DESC, id DESC") { s in
            var out: [SnapshotInfo] = []
            while try s.step() { out.append(Self.info(s)) }
            return out
        }
    }

    /// A snapshot that could be used, and why others were passed over.
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
        let candidates: [SnapshotInfo] = try db.with("""
            SELECT \(Self.infoColumns) FROM snapshots WHERE projection = ? AND position <= ? ORDER BY position DESC, id DESC
            """) { s in
            try s.bind(1, key.projection)
            try s.bind(2, position)
            var out: [SnapshotInfo] = []
            while try s.step() { out.append(Self.info(s)) }
            return out
        }
        for c in candidates {
            if c.key.projectionVersion != key.projectionVersion {
                ignored.append("snapshot \(c.id) at #\(c.position): \(c.key.projection) version \(c.key.projectionVersion), this build folds version \(key.projectionVersion)")
                continue
            }
            if c.key.ruleSetId != key.ruleSetId || c.key.ruleSetVersion != key.ruleSetVersion {
                ignored.append("snapshot \(c.id) at #\(c.position): rules \(c.key.ruleSetId) v\(c.key.ruleSetVersion), asked for \(key.ruleSetId) v\(key.ruleSetVersion)")
                continue
            }
            var (state, positionHash, sum): ([UInt8], [UInt8]?, [UInt8]) = try db.with(
                "SELECT state, position_hash, checksum FROM snapshots WHERE id = ?") { s in
                try s.bind(1, c.id)
                guard try s.step() else { return ([], nil, []) }
                return (s.bytes(0), s.isNull(1) ? nil : s.bytes(1), s.bytes(2))
            }
            if let cipher = store.cipher {
                do {
                    state = try cipher.open(state, context: sum)
                } catch {
                    ignored.append("snapshot \(c.id) at #\(c.position): \(error)")
                    continue
                }
            }
            guard Self.checksum(c.key, position: c.position, state: state).hex == c.checksum else {
                ignored.append("snapshot \(c.id) at #\(c.position): checksum mismatch, the stored state is damaged")
                continue
            }
            try store.checkLink(at: c.position, expectedHash: positionHash)
            return Loaded(info: c, state: state)
        }
        return nil
    }

    /// The position of the newest snapshot stored under `key` (unverified: for policy decisions only).
    public func newestPosition(_ key: SnapshotKey) throws -> Int64? {
        try db.with("""
            SELECT MAX(position) FROM snapshots WHERE projection = ? AND projection_version = ? AND rules_id = ? AND rules_version = ?
            """) { s in
            try s.bind(1, key.projection)
            try s.bind(2, Int64(key.projectionVersion))
            try s.bind(3, key.ruleSetId)
            try s.bind(4, Int64(key.ruleSetVersion))
            return try s.step() && !s.isNull(0) ? s.int(0) : nil
        }
    }

    /// Keeps the newest `keep` snapshots of one key.
    @discardableResult
    public func prune(_ key: SnapshotKey, keep: Int) throws -> Int {
        try prune(keep: keep, only: key)
    }

    /// Keeps the newest `keep` snapshots of each key; returns how many were deleted.
    @discardableResult
    public func prune(keep: Int, only: SnapshotKey? = nil) throws -> Int {
        let all = try list().filter { only == nil || $0.key == only }
        var seen: [SnapshotKey: Int] = [:]
        var doomed: [Int64] = []
        for s in all {
            seen[s.key, default: 0] += 1
            if seen[s.key]! > keep { doomed.append(s.id) }
        }
        try db.transaction {
            for id in doomed {
                try db.with("DELETE FROM snapshots WHERE id = ?") { s in
                    try s.bind(1, id)
                    try s.run()
                }
            }
        }
        return doomed.count
    }
}
