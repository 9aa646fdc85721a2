import Foundation
import RepLedgerCore
import RepLedgerProjections
import RepLedgerSnapshots

/// `replay`, `blame` and `diff`: a workout stepped through event by event,
/// every event that touched one set, and what changed between two points of
/// the log.
public enum AuditQuery {
    /// A workout's stream up to `through`, stepped through with each change
    /// in words (what `replay` shows and `blame` filters).
    public struct Steps {
        public var workoutId: UUID
        public var steps: [WorkoutReplayProjection.Step]
        public var library: LibraryState
    }

    public static func steps(_ store: any EventStore, workout: String, through: Int64 = .max) throws -> Steps {
        let ledger = Ledger(store: store)
        let id = try ledger.resolveWorkout(workout)
        let library = try ledger.library()
        let steps = WorkoutReplayProjection.steps(
            try store.read(stream: .workout(id), through: through), workoutId: id,
            library: library, unit: try ledger.account().liftingUnit)
        return Steps(workoutId: id, steps: steps, library: library)
    }

    /// `replay --json`: each step with the event and the state after it.
    public static func replayDocument(_ steps: [WorkoutReplayProjection.Step], library: LibraryState) -> JSONValue {
        .array(
            steps.map { step in
                .object([
                    ("position", .int(step.envelope.position)), ("change", .string(step.change)),
                    ("event", .raw(step.envelope.canonicalJSON)), ("state", state(step.state, library)),
                ])
            })
    }

    /// The steps that touched the set `set` (its id or a unique prefix, deleted sets included).
    public static func blame(_ all: Steps, set: String) throws -> (setId: UUID, steps: [WorkoutReplayProjection.Step]) {
        // Resolved against every set the stream ever had, so a deleted set can be blamed too.
        let key = set.lowercased()
        let ids = Array(Set(all.steps.compactMap(\.envelope.event.setId))).filter { $0.lowercased.hasPrefix(key) }
        guard !key.isEmpty, let setId = ids.first(where: { $0.lowercased == key }) ?? (ids.count == 1 ? ids[0] : nil) else {
            if ids.count > 1 { throw Refusal.ambiguousSet(set, matches: ids.map(\.lowercased).sorted()) }
            throw Refusal.unknownSet(set, workout: all.workoutId)
        }
        return (setId, all.steps.filter { $0.envelope.event.setId == setId })
    }

    public static func blameDocument(setId: UUID, _ steps: [WorkoutReplayProjection.Step]) -> JSONValue {
        .object([
            ("setId", .string(setId.lowercased)),
            (
                "events",
                .array(
                    steps.map { s in
                        .object([
                            ("position", .int(s.envelope.position)), ("type", .string(s.envelope.type.name)),
                            ("occurredAt", .string(s.envelope.occurredAt.iso8601)), ("recordedAt", .string(s.envelope.recordedAt.iso8601)),
                            ("device", .string(s.envelope.device)), ("causationId", .optional(s.envelope.causationId?.lowercased)),
                            ("change", .string(s.change)),
                        ])
                    })
            ),
        ])
    }

    /// What changed in history, records and entitlements between positions
    /// `a` and `b` (in either order), under `rules`.
    public static func diff(_ store: any EventStore, from a: Int64, to b: Int64, rules: RuleSet) throws -> [LogDiff.Change] {
        // The earlier point from the newest snapshot (as every query does), then on to the later one.
        var (log, _) = try TrainingLogSnapshots.load(store, through: min(a, b))
        let earlier = log
        try store.replay(from: log.position + 1, through: max(a, b)) { log.apply($0) }
        let (before, after) = a <= b ? (earlier, log) : (log, earlier)
        func time(_ position: Int64) throws -> Timestamp { try store.event(at: position)?.recordedAt ?? Timestamp(millis: 0) }
        // Weights in the unit the lifter reads now, as every other answer gives them.
        let unit = try Ledger(store: store).account().liftingUnit
        return LogDiff.between(before, after, rules: rules, timeBefore: try time(a), timeAfter: try time(b), unit: unit)
    }

    public static func diffDocument(from a: Int64, to b: Int64, _ changes: [LogDiff.Change]) -> JSONValue {
        .object([
            ("from", .int(a)), ("to", .int(b)),
            (
                "changes",
                .array(
                    changes.map { c in
                        .object([
                            ("area", .string(c.area)), ("change", .string(c.kind)), ("subject", .string(c.subject)),
                            ("detail", .string(c.detail)),
                        ])
                    })
            ),
        ])
    }

    /// A workout's state as JSON (each step of `replay`).
    public static func state(_ w: WorkoutState, _ library: LibraryState) -> JSONValue {
        .object([
            ("workoutId", .string(w.workoutId.lowercased)), ("status", .string(w.status.rawValue)), ("name", .string(w.name)),
            ("startedAt", .optional(w.startedAt?.iso8601)), ("finishedAt", .optional(w.finishedAt?.iso8601)),
            ("durationSeconds", w.durationSeconds().map { .int($0) } ?? .null), ("note", .optional(w.note)),
            (
                "exercises",
                .array(
                    w.entries.map { e in
                        .object([
                            ("entryId", .string(e.entryId.lowercased)), ("exerciseId", .string(e.exerciseId)),
                            ("exercise", .string(library.name(of: e.exerciseId))), ("supersetId", .optional(e.supersetId?.lowercased)),
                        ])
                    })
            ),
            (
                "sets",
                .array(
                    w.sets.map { s in
                        .object([
                            ("setId", .string(s.setId.lowercased)), ("entryId", .string(s.entryId.lowercased)),
                            ("exerciseId", .string(s.exerciseId)), ("type", .string(s.type.rawValue)),
                            ("weightKg", .optional(s.metrics.weight?.kilograms)), ("reps", .optional(s.metrics.reps)),
                            ("rpe", .optional(s.metrics.rpe)), ("completed", .bool(s.completed)),
                        ])
                    })
            ),
        ])
    }
}
