import Foundation

/// What a stored snapshot of projection state is valid for. A snapshot is
/// used only when all of these match the projection being asked, so a fold
/// change (a version bump) or another rule set can never be answered from
/// stale state. Storage, policy and loading of snapshots build on this key.
public struct SnapshotKey: Sendable, Hashable {
    public var projection: String
    public var projectionVersion: Int
    public var ruleSetId: String
    public var ruleSetVersion: Int

    public init(projection: String, projectionVersion: Int, ruleSetId: String, ruleSetVersion: Int) {
        self.projection = projection
        self.projectionVersion = projectionVersion
        self.ruleSetId = ruleSetId
        self.ruleSetVersion = ruleSetVersion
    }
}

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

    public init(id: Int64, key: SnapshotKey, position: Int64, createdAt: Timestamp, size: Int, checksum: String) {
        self.id = id
        self.key = key
        self.position = position
        self.createdAt = createdAt
        self.size = size
        self.checksum = checksum
    }
}

/// A snapshot row as stored: the state (sealed on a sealed store), the
/// checksum it was saved with and the chain hash of the event it stands on.
public struct StoredSnapshot: Sendable {
    public var state: [UInt8]
    public var checksum: [UInt8]
    /// Nil for snapshots taken before the hash was recorded.
    public var positionHash: [UInt8]?

    public init(state: [UInt8], checksum: [UInt8], positionHash: [UInt8]?) {
        self.state = state
        self.checksum = checksum
        self.positionHash = positionHash
    }
}

/// Where a store keeps snapshot rows beside its events: a device's ledger
/// file (its `snapshots` table), or an account's rows in PostgreSQL. I/O
/// only: checksums, sealing and the check against the chain are written once,
/// in `SnapshotStore` (RepLedgerSnapshots), over this seam.
public protocol SnapshotRows: AnyObject {
    /// Stores a row → its id (ids grow: a later save has a larger id).
    func insertSnapshot(_ info: SnapshotInfo, _ row: StoredSnapshot) throws -> Int64
    /// Descriptions, newest position first (ties: newest id first), of one
    /// projection's snapshots (every projection's for nil) at or before `position`.
    func snapshotInfos(projection: String?, atOrBefore position: Int64) throws -> [SnapshotInfo]
    func snapshotRow(id: Int64) throws -> StoredSnapshot?
    func deleteSnapshots(ids: [Int64]) throws
    /// Snapshot rows stored, of every projection.
    func snapshotCount() throws -> Int64
}
