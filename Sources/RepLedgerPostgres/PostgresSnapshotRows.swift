import Foundation
import NIOCore
import PostgresNIO
import RepLedgerCore

/// An account's snapshots: rows of the `snapshots` table (migration 3), by
/// account like every other table, sealed like the payloads they were folded from.
extension PostgresEventStore: SnapshotRows {
    public var snapshotRows: (any SnapshotRows)? { self }

    public func insertSnapshot(_ info: SnapshotInfo, _ row: StoredSnapshot) throws -> Int64 {
        try reading { c in
            let rows = try pool.run(
                c,
                """
                INSERT INTO snapshots (account_id, projection, projection_version, rules_id, rules_version, position, created_at, size,
                    checksum, state, position_hash)
                VALUES (\(accountId), \(info.key.projection), \(Int64(info.key.projectionVersion)), \(info.key.ruleSetId),
                    \(Int64(info.key.ruleSetVersion)), \(info.position), \(info.createdAt.millis), \(Int64(info.size)),
                    \(ByteBuffer(bytes: row.checksum)), \(ByteBuffer(bytes: row.state)), \(row.positionHash.map { ByteBuffer(bytes: $0) }))
                RETURNING id
                """)
            guard let id = try rows.rows.first?.decode(Int64.self) else { throw StoreError.database("a snapshot insert returned no id") }
            return id
        }
    }

    public func snapshotInfos(projection: String?, atOrBefore position: Int64) throws -> [SnapshotInfo] {
        try reading { c in
            let rows = try pool.run(
                c,
                """
                SELECT id, projection, projection_version, rules_id, rules_version, position, created_at, size, checksum
                FROM snapshots WHERE account_id = \(accountId) AND (\(projection)::text IS NULL OR projection = \(projection))
                    AND position <= \(position)
                ORDER BY position DESC, id DESC
                """)
            return try rows.rows.map { row in
                let (id, name, version, rulesId, rulesVersion, at, created, size, checksum) =
                    try row.decode((Int64, String, Int64, String, Int64, Int64, Int64, Int64, ByteBuffer).self)
                return SnapshotInfo(
                    id: id,
                    key: SnapshotKey(
                        projection: name, projectionVersion: Int(version), ruleSetId: rulesId,
                        ruleSetVersion: Int(rulesVersion)),
                    position: at, createdAt: Timestamp(millis: created), size: Int(size),
                    checksum: Array(checksum.readableBytesView).hex)
            }
        }
    }

    public func snapshotRow(id: Int64) throws -> StoredSnapshot? {
        try reading { c in
            let rows = try pool.run(c, "SELECT state, checksum, position_hash FROM snapshots WHERE account_id = \(accountId) AND id = \(id)")
            return try rows.rows.first.map { row in
                let (state, checksum, hash) = try row.decode((ByteBuffer, ByteBuffer, ByteBuffer?).self)
                return StoredSnapshot(
                    state: Array(state.readableBytesView), checksum: Array(checksum.readableBytesView),
                    positionHash: hash.map { Array($0.readableBytesView) })
            }
        }
    }

    public func deleteSnapshots(ids: [Int64]) throws {
        try reading { c in _ = try pool.run(c, "DELETE FROM snapshots WHERE account_id = \(accountId) AND id = ANY(\(ids))") }
    }

    public func snapshotCount() throws -> Int64 {
        try reading { c in
            try pool.run(c, "SELECT COUNT(*)::bigint FROM snapshots WHERE account_id = \(accountId)").rows.first?.decode(Int64.self) ?? 0
        }
    }
}
