import ArgumentParser
import Foundation
import LedgerShell
import RepLedgerCore
import RepLedgerProjections
import RepLedgerQueries
import RepLedgerSQLite
import RepLedgerSnapshots

/// `ledger show POSITION|EVENT_ID`: one event with its whole envelope.
struct ShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "show", abstract: "One event with its envelope: device, times, causation, hash.")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "A global position or an event id.") var event: String

    func run() throws {
        let store = try global.openStore()
        let found: EventEnvelope?
        if let position = Int64(event) {
            found = try store.event(at: position)
        } else if let id = UUID(uuidString: event) {
            found = try store.event(id: id)
        } else {
            throw ValidationError("give a position (a number) or an event id (a UUID)")
        }
        guard let e = found else { throw Refusal.unknownEvent(event) }
        if global.json { Console.out(e.canonicalJSON); return }
        Console.out("#\(e.position)  \(e.type.name) (schema \(e.type.schema))  \(e.stream.raw) v\(e.version)")
        Console.out("  event id     \(e.eventId.lowercased)")
        Console.out("  occurred at  \(e.occurredAt.iso8601)  on \(e.device)")
        Console.out("  recorded at  \(e.recordedAt.iso8601)")
        Console.out("  causation    \(e.causationId?.lowercased ?? "–")")
        Console.out("  correlation  \(e.correlationId?.lowercased ?? "–")")
        Console.out("  hash         \(e.hash.hex)")
        Console.out("  payload      \(e.event.payloadJSON)")
    }
}

/// `ledger replay W`: a workout's state after each of its events.
struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay", abstract: "Step through a workout event by event: what changed and the state after each.")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The workout.") var workout: String
    @Option(
        help: "Stop after this global position, or at this time of the session (an ISO 8601 time or date, as --until everywhere: when it happened).")
    var until: String?

    func run() throws {
        var steps: [WorkoutReplayProjection.Step]
        let library: LibraryState
        if let until, let position = Int64(until) {
            (_, steps, library) = try workoutSteps(global, workout, through: position)
        } else {
            (_, steps, library) = try workoutSteps(global, workout)
            if let until {
                let end = try TrainingDateOption.endOf(until)
                steps = steps.filter { $0.envelope.occurredAt <= end }
            }
        }
        if global.json {
            Console.json(
                .array(
                    steps.map { step in
                        .object([
                            ("position", .int(step.envelope.position)), ("change", .string(step.change)),
                            ("event", .raw(step.envelope.canonicalJSON)), ("state", WorkoutJSON.state(step.state, library)),
                        ])
                    }))
            return
        }
        for step in steps {
            let e = step.envelope
            Console.out("#\(e.position)  \(e.occurredAt.iso8601)  \(e.device.padding(toLength: 5, withPad: " ", startingAt: 0))  \(step.change)")
        }
        if let last = steps.last?.state {
            let done = last.sets.filter(\.completed).count
            Console.out(
                "\nAfter #\(steps.last!.envelope.position): \(last.status.rawValue), \(counted(last.entries.count, "exercise")), \(counted(done, "completed set"))"
            )
        }
    }
}

/// `ledger blame W SET`: every event that touched one set.
struct BlameCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "blame", abstract: "Every event that touched one set, with times and devices.")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The workout.") var workout: String
    @Argument(help: "The set's id or a unique prefix (deleted sets included).") var set: String

    func run() throws {
        let (id, allSteps, _) = try workoutSteps(global, workout)
        // Resolve against every set the stream ever had, so a deleted set can be blamed too.
        let key = set.lowercased()
        let ids = Array(Set(allSteps.compactMap(\.envelope.event.setId))).filter { $0.lowercased.hasPrefix(key) }
        guard !key.isEmpty, let setId = ids.first(where: { $0.lowercased == key }) ?? (ids.count == 1 ? ids[0] : nil) else {
            if ids.count > 1 { throw Refusal.ambiguousSet(set, matches: ids.map(\.lowercased).sorted()) }
            throw Refusal.unknownSet(set, workout: id)
        }
        let steps = allSteps.filter { $0.envelope.event.setId == setId }
        if global.json {
            Console.json(
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
                ]))
            return
        }
        Console.out("Set \(setId.lowercased)")
        for s in steps {
            let e = s.envelope
            Console.out("  #\(e.position)  \(e.occurredAt.iso8601)  recorded \(e.recordedAt.iso8601)  \(e.device)  \(s.change)")
        }
    }
}

/// `ledger diff --from A --to B`: what changed between two points of the log.
struct DiffCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff", abstract: "What changed in history, records and entitlements between two points of the log.")
    @OptionGroup var global: GlobalOptions
    @Option(help: "The earlier point: a position or an ISO 8601 time.") var from: String
    @Option(help: "The later point (default: the head).") var to: String?
    @Option(help: "A rule set (JSON) for the records.") var rules: String?

    func run() throws {
        let store = try global.openStore()
        let rules = try self.rules.map { try RuleSet.load(path: $0) } ?? .default
        let a = try AsOfOption.position(from, in: store)
        if a == 0, let mismatch = try LogTimeMismatch.check(from, in: store) { Console.error(LogTimeWords.diffFrom(mismatch)) }
        let b = try to.map { try AsOfOption.position($0, in: store) } ?? store.headPosition()
        // The earlier point from the newest snapshot (as every query does), then on to the later one.
        var (log, _) = try TrainingLogSnapshots.load(store, through: min(a, b))
        let earlier = log
        try store.replay(from: log.position + 1, through: max(a, b)) { log.apply($0) }
        let (before, after) = a <= b ? (earlier, log) : (log, earlier)
        let tA = try time(of: a, store), tB = try time(of: b, store)
        let changes = LogDiff.between(before, after, rules: rules, timeBefore: tA, timeAfter: tB)
        if global.json {
            Console.json(
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
                ]))
            return
        }
        Console.out("From #\(a) to #\(b): \(changes.isEmpty ? "nothing changed" : "\(changes.count) changes")")
        for c in changes {
            Console.out(
                "  \(c.area.padding(toLength: 12, withPad: " ", startingAt: 0)) \(c.kind.padding(toLength: 8, withPad: " ", startingAt: 0)) \(c.subject): \(c.detail)"
            )
        }
    }

    /// The time the log stood at a position: when that event was recorded.
    private func time(of position: Int64, _ store: SQLiteEventStore) throws -> Timestamp {
        try store.event(at: position)?.recordedAt ?? Timestamp(millis: 0)
    }
}

/// A workout's stream up to `through`, stepped through with each change in words
/// (what `replay` shows and `blame` filters).
func workoutSteps(
    _ global: GlobalOptions, _ workout: String, through: Int64 = .max
) throws
    -> (UUID, [WorkoutReplayProjection.Step], LibraryState)
{
    let store = try global.openStore()
    let ledger = Ledger(store: store)
    let id = try ledger.resolveWorkout(workout)
    let library = try ledger.library()
    let steps = WorkoutReplayProjection.steps(
        try store.read(stream: .workout(id), through: through), workoutId: id,
        library: library, unit: try ledger.account().liftingUnit)
    return (id, steps, library)
}

/// Workout state as JSON (for replay).
enum WorkoutJSON {
    static func state(_ w: WorkoutState, _ library: LibraryState) -> JSONValue {
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
