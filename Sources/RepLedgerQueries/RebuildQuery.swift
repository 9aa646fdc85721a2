import RepLedgerCore
import RepLedgerProjections

/// `rebuild [--diff]`: every projection folded again from the log, and what
/// other rules change.
public enum RebuildQuery {
    public struct Answer {
        public var events: Int
        public var seconds: Double
        public var rules: RuleSet
        public var changes: [RuleSetDiff.Change]
        public var log: TrainingLogProjection
        /// Exercises with records and weeks of volume under `rules` (computed, so the time covers every view).
        public var recordCount: Int
        public var volumeWeeks: Int
    }

    /// Folds `store` afresh under `rules`, timing it; with `against`, the changes from those rules to `rules`.
    public static func answer(_ store: any EventStore, rules target: RuleSet, against current: RuleSet?) throws -> Answer {
        let clock = ContinuousClock()
        let start = clock.now
        var registry = ProjectionRegistry()
        let events = try registry.catchUp(from: store)
        let records = PersonalRecordsProjection.compute(registry.log, rules: target)
        let volume = VolumeProjection.rows(registry.log, by: .week, rules: target)
        let elapsed = clock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let changes = current.map { RuleSetDiff.changes(registry.log, from: $0, to: target) } ?? []
        return Answer(
            events: events, seconds: seconds, rules: target, changes: changes, log: registry.log, recordCount: records.count,
            volumeWeeks: volume.count)
    }

    public static func document(_ a: Answer) -> JSONValue {
        .object([
            (
                "projections",
                .array(ProjectionRegistry.all.map { .object([("name", .string($0.name)), ("version", .int(Int64($0.version)))]) })
            ),
            ("events", .int(Int64(a.events))), ("seconds", .number(a.seconds)),
            ("rules", .object([("id", .string(a.rules.id)), ("version", .int(Int64(a.rules.version)))])),
            ("diff", .array(a.changes.map { change($0, a.log) })),
        ])
    }

    public static func change(_ c: RuleSetDiff.Change, _ log: TrainingLogProjection) -> JSONValue {
        switch c {
        case .recordGained(let r), .recordLost(let r):
            let change = { if case .recordGained = c { return "recordGained" } else { return "recordLost" } }()
            let head: [(String, JSONValue)] = [
                ("change", .string(change)), ("exercise", .string(log.exerciseName(r.exerciseId))),
                ("exerciseId", .string(r.exerciseId)),
            ]
            return .object(head + RecordsQuery.recordPairs(r))
        case .e1rmMoved(let id, let w, let from, let to):
            return .object([
                ("change", .string("e1rmMoved")), ("exercise", .string(log.exerciseName(id))), ("exerciseId", .string(id)),
                ("workoutId", .string(w.lowercased)), ("fromKg", .optional(from)), ("toKg", .optional(to)),
                ("deltaKg", from.flatMap { f in to.map { $0 - f } }.map(JSONValue.number) ?? .null),
            ])
        case .volumeChanged(let week, let fs, let ts, let fk, let tk):
            return .object([
                ("change", .string("volumeChanged")), ("week", .string(week)), ("fromSets", .int(Int64(fs))),
                ("toSets", .int(Int64(ts))), ("fromKg", .number(fk)), ("toKg", .number(tk)), ("deltaKg", .number(tk - fk)),
            ])
        case .nextTargetChanged(let id, let from, let to):
            return .object([
                ("change", .string("nextTargetChanged")), ("exercise", .string(log.exerciseName(id))), ("exerciseId", .string(id)),
                ("fromKg", .optional(from.weightKg)), ("toKg", .optional(to.weightKg)),
                ("fromReps", .string("\(from.repsMin)-\(from.repsMax)")), ("toReps", .string("\(to.repsMin)-\(to.repsMax)")),
                ("fromRule", .string(from.rule.rawValue)), ("toRule", .string(to.rule.rawValue)), ("reason", .string(to.reason)),
            ])
        case .warmupChanged(let id, let working, let from, let to):
            func ramp(_ sets: [WarmupRamp.Set]) -> JSONValue {
                .array(sets.map { .object([("weight", .number($0.weight)), ("reps", .int(Int64($0.reps))), ("percent", .optional($0.percent))]) })
            }
            return .object([
                ("change", .string("warmupChanged")), ("exercise", .string(log.exerciseName(id))), ("exerciseId", .string(id)),
                ("working", .number(working)), ("unit", .string(log.account.liftingUnit.rawValue)), ("from", ramp(from)), ("to", ramp(to)),
            ])
        case .programWeekChanged(let from, let to):
            return .object([
                ("change", .string("programWeekChanged")), ("week", .int(Int64(to.week))), ("weeks", .int(Int64(to.weeks))),
                ("from", ProgressionQuery.weekDocument(from)), ("to", ProgressionQuery.weekDocument(to)),
            ])
        }
    }
}
