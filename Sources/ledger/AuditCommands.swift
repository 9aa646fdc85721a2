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
    @Flag(help: "After each step, the workout as it stood then: its status and every exercise with its sets.") var states = false

    func run() throws {
        let store = try global.openStore()
        let all = try AuditQuery.steps(store, workout: workout, through: until.flatMap { Int64($0) } ?? .max)
        var steps = all.steps
        if let until, Int64(until) == nil {
            let end = try TrainingDateOption.endOf(until)
            steps = steps.filter { $0.envelope.occurredAt <= end }
        }
        if global.json {
            Console.json(AuditQuery.replayDocument(steps, library: all.library))
            return
        }
        let unit = states ? try Ledger(store: store).account().liftingUnit : .kg
        for step in steps {
            let e = step.envelope
            Console.out("#\(e.position)  \(e.occurredAt.iso8601)  \(e.device.padding(toLength: 5, withPad: " ", startingAt: 0))  \(step.change)")
            if states { Self.stateLines(step.state, library: all.library, unit: unit).forEach(Console.out) }
        }
        if let last = steps.last?.state {
            let done = last.sets.filter(\.completed).count
            Console.out(
                "\nAfter #\(steps.last!.envelope.position): \(last.status.rawValue), \(counted(last.entries.count, "exercise")), \(counted(done, "completed set"))"
            )
        }
    }
}

extension ReplayCommand {
    /// `--states`: the workout after a step, one line for its status and one per exercise with its sets
    /// in order (a planned set in brackets, a superset's exercises marked with its first letters).
    static func stateLines(_ w: WorkoutState, library: LibraryState, unit: WeightUnit) -> [String] {
        let done = w.sets.filter(\.completed).count
        var lines = ["    = \(w.status.rawValue), \(counted(w.entries.count, "exercise")), \(counted(done, "completed set"))"]
        for entry in w.entries {
            let sets = w.sets.filter { $0.entryId == entry.entryId }.map { s in
                var text = WeightText.set(kg: s.metrics.weight?.kilograms, reps: s.metrics.reps, in: unit)
                if let seconds = s.metrics.durationSeconds { text += " \(seconds.formatted) s" }
                if let meters = s.metrics.distanceMeters { text += " \(meters.formatted) m" }
                return s.completed ? text : "[\(text)]"
            }
            let superset = entry.supersetId.map { " (superset \($0.lowercased.prefix(4)))" } ?? ""
            lines.append("      \(library.name(of: entry.exerciseId))\(superset): \(sets.isEmpty ? "no sets" : sets.joined(separator: ", "))")
        }
        return lines
    }
}

/// `ledger blame W SET`: every event that touched one set.
struct BlameCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "blame", abstract: "Every event that touched one set, with times and devices.")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The workout.") var workout: String
    @Argument(help: "The set's id or a unique prefix (deleted sets included).") var set: String

    func run() throws {
        let (setId, steps) = try AuditQuery.blame(try AuditQuery.steps(try global.openStore(), workout: workout), set: set)
        if global.json {
            Console.json(AuditQuery.blameDocument(setId: setId, steps))
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
        let rules = try RuleSet.load(option: self.rules)
        let a = try AsOfOption.position(from, in: store)
        if a == 0, let mismatch = try LogTimeMismatch.check(from, in: store) { Console.error(LogTimeWords.diffFrom(mismatch)) }
        let b = try to.map { try AsOfOption.position($0, in: store) } ?? store.headPosition()
        let changes = try AuditQuery.diff(store, from: a, to: b, rules: rules)
        if global.json {
            Console.json(AuditQuery.diffDocument(from: a, to: b, changes))
            return
        }
        Console.out("From #\(a) to #\(b): \(changes.isEmpty ? "nothing changed" : "\(changes.count) changes")")
        for c in changes {
            Console.out(
                "  \(c.area.padding(toLength: 12, withPad: " ", startingAt: 0)) \(c.kind.padding(toLength: 8, withPad: " ", startingAt: 0)) \(c.subject): \(c.detail)"
            )
        }
    }
}
