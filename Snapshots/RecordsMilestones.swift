import Foundation
import RepLedgerCore
import RepLedgerProjections

/// Records milestones in the ledger file: small (about the size of the
/// records themselves), taken with every automatic fold snapshot and kept
/// when fold snapshots are pruned, so an `--as-of` answer anywhere in the log
/// starts from a milestone at most one snapshot interval before it.
public enum RecordsMilestones {
    public static func key(_ rules: RuleSet) -> SnapshotKey {
        SnapshotKey(
            projection: RecordsMilestone.name, projectionVersion: RecordsMilestone.version,
            ruleSetId: ViewSnapshots.rulesId(rules), ruleSetVersion: rules.version)
    }

    @discardableResult
    public static func save(_ store: any EventStore, _ log: TrainingLogProjection, rules: RuleSet) throws -> SnapshotInfo? {
        try SnapshotStore.of(store)?.save(key(rules), position: log.position, state: RecordsMilestone(log, rules: rules).encodedBytes)
    }

    public struct Answer: Sendable {
        public var records: [PersonalRecordsProjection.ExerciseRecords]
        public var milestone: SnapshotInfo
        public var tailEvents: Int
    }

    private struct CannotCarry: Error {}

    /// Records as of `position` from the newest milestone at or before it and
    /// the events after it, or nil when there is none or the events in
    /// between cannot be carried forward (the caller then uses the fold).
    public static func records(
        _ store: any EventStore, rules: RuleSet, through position: Int64,
        ignored: inout [String]
    ) throws -> Answer? {
        let target = min(position, try store.headPosition())
        guard let found = try SnapshotStore.of(store)?.newest(key(rules), atOrBefore: target, ignored: &ignored) else { return nil }
        var milestone: RecordsMilestone
        do {
            milestone = try found.state.withUnsafeBytes { raw in
                var r = BinaryReader(raw)
                let m = try RecordsMilestone(from: &r)
                guard r.isAtEnd else { throw CodecError.trailingBytes(type: RecordsMilestone.name, count: r.remaining) }
                return m
            }
        } catch {
            ignored.append("records milestone \(found.info.id) at #\(found.info.position): unreadable (\(error))")
            return nil
        }
        var tail = 0
        do {
            try store.replay(from: found.info.position + 1, through: target) { e in
                guard milestone.apply(e) else { throw CannotCarry() }
                tail += 1
            }
        } catch is CannotCarry {
            ignored.append("records milestone \(found.info.id) at #\(found.info.position): a later event changes an older workout")
            return nil
        }
        guard let records = milestone.records(rules: rules) else {
            ignored.append("records milestone \(found.info.id) at #\(found.info.position): a later workout starts before the last one it counted")
            return nil
        }
        return Answer(records: records, milestone: found.info, tailEvents: tail)
    }
}
