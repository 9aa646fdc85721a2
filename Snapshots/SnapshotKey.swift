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
