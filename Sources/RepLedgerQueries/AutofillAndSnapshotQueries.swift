import RepLedgerCore
import RepLedgerProjections

/// `workout autofill W EXERCISE`: the values a new set of an exercise starts with.
public enum AutofillQuery {
    public struct Answer {
        public var exercise: LibraryState.Exercise
        public var fill: AutofillProjection.Fill
        /// The units the lifter reads weights and distances in.
        public var account: AccountState
    }

    public static func answer(_ store: any EventStore, _ scope: QueryScope, workout: String, exercise: String) throws -> Answer {
        let id = try Ledger(store: store).resolveWorkout(workout)
        let log = try scope.log(store)
        let x = try log.library.resolve(exercise)
        guard let w = log.workouts[id] else { throw Refusal.unknownWorkout(workout) }
        return Answer(exercise: x, fill: AutofillProjection.next(log, workout: w, exerciseId: x.exerciseId), account: log.account)
    }

    public static func document(_ a: Answer) -> JSONValue {
        let fill = a.fill
        return .object(
            [
                ("exercise", .string(a.exercise.name)), ("setNumber", .int(Int64(fill.setNumber))),
                ("weightKg", .optional(fill.metrics?.weight?.kilograms)), ("reps", .optional(fill.metrics?.reps)),
                ("durationSeconds", .optional(fill.metrics?.durationSeconds)), ("distanceMeters", .optional(fill.metrics?.distanceMeters)),
                ("source", .optional(fill.source?.rawValue)), ("weightSource", .optional(fill.weightSource?.rawValue)),
            ] + HistoryQuery.effort(rpe: fill.rpe, rir: fill.rir, tempo: nil, band: fill.band, implement: fill.implement).filter { $0.0 != "tempo" })
    }
}

/// `snapshot create|list`: what a stored snapshot is.
public enum SnapshotQuery {
    public static func document(_ s: SnapshotInfo) -> JSONValue {
        .object([
            ("id", .int(s.id)), ("projection", .string(s.key.projection)), ("version", .int(Int64(s.key.projectionVersion))),
            ("rulesId", .string(s.key.ruleSetId)), ("rulesVersion", .int(Int64(s.key.ruleSetVersion))),
            ("position", .int(s.position)), ("createdAt", .string(s.createdAt.iso8601)), ("size", .int(Int64(s.size))),
            ("checksum", .string(s.checksum)),
        ])
    }

    public static func listDocument(_ all: [SnapshotInfo]) -> JSONValue { .object([("snapshots", .array(all.map(document)))]) }
}
