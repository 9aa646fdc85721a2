import Foundation
import RepLedgerCore

/// A ledger file keeps its snapshots in its own `snapshots` table.
extension SQLiteEventStore: SnapshotRows {
    public var snapshotRows: (any SnapshotRows)? { self }

    public func insertSnapshot(_ info: SnapshotInfo, _ row: StoredSnapshot) throws -> Int64 {
        try db.with(
            """
            INSERT INTO snapshots (projection, projection_version, rules_id, rules_version, position, created_at, size, checksum, state,
                position_hash)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """
        ) { s in
            try s.bind(1, info.key.projection)
            try s.bind(2, Int64(info.key.projectionVersion))
            try s.bind(3, info.key.ruleSetId)
            try s.bind(4, Int64(info.key.ruleSetVersion))
            try s.bind(5, info.position)
            try s.bind(6, info.createdAt.millis)
            try s.bind(7, Int64(info.size))
            try s.bind(8, row.checksum)
            try s.bind(9, row.state)
            if let hash = row.positionHash { try s.bind(10, hash) } else { try s.bindNull(10) }
            try s.run()
        }
        return try db.scalarInt("SELECT last_insert_rowid()")
    }

    public func snapshotInfos(projection: String?, atOrBefore position: Int64) throws -> [SnapshotInfo] {
        let filter = projection == nil ? "" : "projection = ? AND "
        return try db.with(
            """
            SELECT id, projection, projection_version, rules_id, rules_version, position, created_at, size, checksum
            FROM snapshots WHERE \(filter)position <= ? ORDER BY position DESC, id DESC
            """
        ) { s in
            var i: Int32 = 1
            if let projection { try s.bind(i, projection); i += 1 }
            try s.bind(i, position)
            var out: [SnapshotInfo] = []
            while try s.step() {
                out.append(
                    SnapshotInfo(
                        id: s.int(0),
                        key: SnapshotKey(
                            projection: s.text(1), projectionVersion: Int(s.int(2)),
                            ruleSetId: s.text(3), ruleSetVersion: Int(s.int(4))),
                        position: s.int(5), createdAt: Timestamp(millis: s.int(6)), size: Int(s.int(7)),
                        checksum: s.bytes(8).hex))
            }
            return out
        }
    }

    public func snapshotRow(id: Int64) throws -> StoredSnapshot? {
        try db.with("SELECT state, checksum, position_hash FROM snapshots WHERE id = ?") { s in
            try s.bind(1, id)
            guard try s.step() else { return nil }
            return StoredSnapshot(state: s.bytes(0), checksum: s.bytes(1), positionHash: s.isNull(2) ? nil : s.bytes(2))
        }
    }

    public func deleteSnapshots(ids: [Int64]) throws {
        try db.transaction {
            for id in ids {
                try db.with("DELETE FROM snapshots WHERE id = ?") { s in
                    try s.bind(1, id)
                    try s.run()
                }
            }
        }
    }

    public func snapshotCount() throws -> Int64 { try db.scalarInt("SELECT COUNT(*) FROM snapshots") }
}
