import Foundation
import RepLedgerCore
import RepLedgerProjections

/// Stored view results for instant head queries. A view snapshot answers only
/// for exactly the position it was taken at (a view is not a fold: it cannot
/// be advanced by a tail), and only under exactly the rules it was computed
/// with. Anything else falls back to fold snapshot + tail + view.
public enum ViewSnapshots {
    /// How many results to keep per view and rule set: the head moves on.
    public static let keep = 2

    /// The rule set's id with a fingerprint of its content, so a rules file
    /// edited without a new id or version can never reuse a stale result.
    public static func rulesId(_ rules: RuleSet) -> String {
        let content = [
            rules.id, "\(rules.version)", rules.e1rmFormula.rawValue, "\(rules.e1rmRepCap)", "\(rules.warmupsCount)",
            rules.prKinds.map(\.rawValue).joined(separator: ","), rules.hintScope.rawValue,
            "\(rules.incrementKg)", "\(rules.incrementLb)", "\(rules.bodyweightTonnage)", rules.progressionRule.rawValue,
        ].joined(separator: "|")
        return "\(rules.id)#\(Digest.sha256(Array(content.utf8)).hex.prefix(12))"
    }

    /// Records without their timeline: the current bests, which is what head
    /// queries print (the timeline is computed from the fold when asked for).
    public static func recordsKey(_ rules: RuleSet) -> SnapshotKey {
        SnapshotKey(
            projection: PersonalRecordsProjection.name + "-bests", projectionVersion: PersonalRecordsProjection.version,
            ruleSetId: rulesId(rules), ruleSetVersion: rules.version)
    }

    public static let hintKey = SnapshotKey(
        projection: HintIndexProjection.name, projectionVersion: HintIndexProjection.version,
        ruleSetId: "none", ruleSetVersion: 0)

    public static let entitlementsKey = SnapshotKey(
        projection: "entitlement-inputs", projectionVersion: EntitlementsProjection.version,
        ruleSetId: "none", ruleSetVersion: 0)

    /// What entitlements at any time are computed from, at exactly `position`, if stored.
    public static func entitlementInputs(
        _ store: any EventStore, at position: Int64,
        ignored: inout [String]
    ) throws -> EntitlementsProjection.Inputs? {
        let found: [EntitlementsProjection.Inputs]? = try load(store, entitlementsKey, at: position, ignored: &ignored)
        return found?.first
    }

    public static func saveEntitlementInputs(_ store: any EventStore, at position: Int64, _ inputs: EntitlementsProjection.Inputs) throws {
        try save(store, entitlementsKey, at: position, [inputs])
    }

    /// Records of every exercise (bests, no timeline) at exactly `position` under `rules`, if stored.
    public static func records(
        _ store: any EventStore, rules: RuleSet, at position: Int64,
        ignored: inout [String]
    ) throws -> [PersonalRecordsProjection.ExerciseRecords]? {
        try load(store, recordsKey(rules), at: position, ignored: &ignored)
    }

    public static func hintIndex(_ store: any EventStore, at position: Int64, ignored: inout [String]) throws -> [HintIndexProjection.Entry]? {
        try load(store, hintKey, at: position, ignored: &ignored)
    }

    public static func saveRecords(
        _ store: any EventStore, rules: RuleSet, at position: Int64,
        _ records: [PersonalRecordsProjection.ExerciseRecords]
    ) throws {
        try save(store, recordsKey(rules), at: position, records)
    }

    /// History rows follow the default rules (working sets counted), so the key carries their fingerprint.
    public static let historyHeadKey = SnapshotKey(
        projection: HistoryHeadProjection.name, projectionVersion: HistoryHeadProjection.version,
        ruleSetId: rulesId(.default), ruleSetVersion: RuleSet.default.version)

    /// The first page of history at exactly `position`, if stored.
    public static func historyHead(_ store: any EventStore, at position: Int64, ignored: inout [String]) throws -> HistoryHeadProjection.Page? {
        let found: [HistoryHeadProjection.Page]? = try load(store, historyHeadKey, at: position, ignored: &ignored)
        return found?.first
    }

    public static func saveHistoryHead(_ store: any EventStore, at position: Int64, _ page: HistoryHeadProjection.Page) throws {
        try save(store, historyHeadKey, at: position, [page])
    }

    /// The volume page depends on the rules (which sets count, bodyweight tonnage), so its key carries their fingerprint.
    public static func volumeHeadKey(_ rules: RuleSet) -> SnapshotKey {
        SnapshotKey(
            projection: VolumeHeadProjection.name, projectionVersion: VolumeHeadProjection.version,
            ruleSetId: rulesId(rules), ruleSetVersion: rules.version)
    }

    /// Every counted workout's volume under `rules` at exactly `position`, if stored.
    public static func volumeHead(
        _ store: any EventStore, rules: RuleSet, at position: Int64,
        ignored: inout [String]
    ) throws -> VolumeHeadProjection.Page? {
        let found: [VolumeHeadProjection.Page]? = try load(store, volumeHeadKey(rules), at: position, ignored: &ignored)
        return found?.first
    }

    public static func saveVolumeHead(_ store: any EventStore, rules: RuleSet, at position: Int64, _ page: VolumeHeadProjection.Page) throws {
        try save(store, volumeHeadKey(rules), at: position, [page])
    }

    public static func saveHintIndex(_ store: any EventStore, at position: Int64, _ entries: [HintIndexProjection.Entry]) throws {
        try save(store, hintKey, at: position, entries)
    }

    /// Stores every view result of the fold at its position, under `rules`.
    public static func saveAll(_ store: any EventStore, _ log: TrainingLogProjection, rules: RuleSet) throws {
        try saveRecords(store, rules: rules, at: log.position, PersonalRecordsProjection.compute(log, rules: rules, timeline: false))
        try saveHintIndex(store, at: log.position, HintIndexProjection.entries(log))
        try saveEntitlementInputs(store, at: log.position, EntitlementsProjection.inputs(log))
        try saveHistoryHead(store, at: log.position, HistoryHeadProjection.page(log))
        try saveVolumeHead(store, rules: rules, at: log.position, VolumeHeadProjection.page(log, rules: rules))
    }

    private static func load<T: PayloadValue>(
        _ store: any EventStore, _ key: SnapshotKey, at position: Int64,
        ignored: inout [String]
    ) throws -> [T]? {
        guard let found = try SnapshotStore.of(store)?.newest(key, atOrBefore: position, ignored: &ignored),
            found.info.position == position
        else { return nil }
        do {
            return try found.state.withUnsafeBytes { raw in
                var r = BinaryReader(raw)
                let value = try [T](from: &r)
                guard r.isAtEnd else { throw CodecError.trailingBytes(type: key.projection, count: r.remaining) }
                return value
            }
        } catch {
            ignored.append("snapshot \(found.info.id) at #\(found.info.position): unreadable (\(error))")
            return nil
        }
    }

    private static func save<T: PayloadValue>(_ store: any EventStore, _ key: SnapshotKey, at position: Int64, _ value: [T]) throws {
        var w = BinaryWriter()
        value.encode(to: &w)
        guard let snapshots = SnapshotStore.of(store) else { return }
        try snapshots.save(key, position: position, state: w.bytes)
        try snapshots.prune(key, keep: keep)
    }
}
