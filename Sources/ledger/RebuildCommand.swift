import ArgumentParser
import Foundation
import LedgerShell
import RepLedgerCore
import RepLedgerProjections
import RepLedgerQueries
import RepLedgerSnapshots

struct RebuildCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rebuild", abstract: "Rebuild every projection from the log, and with --diff show what other rules change.")
    @OptionGroup var global: GlobalOptions
    @Option(help: "The rule set to rebuild under (JSON).") var rules: String?
    @Option(help: "The rules to compare against (default: the built-in rules).") var against: String?
    @Flag(help: "Report records gained and lost, e1RM points moved and volumes changed.") var diff = false

    func run() throws {
        let target = try rules.map { try RuleSet.load(path: $0) } ?? .default
        let current = try against.map { try RuleSet.load(path: $0) } ?? .default
        let store = try global.openStore()
        let start = DispatchTime.now().uptimeNanoseconds
        var registry = ProjectionRegistry()
        let events = try registry.catchUp(from: store)
        // Views are computed too, so the time covers every projection under the target rules.
        let records = PersonalRecordsProjection.compute(registry.log, rules: target)
        let volume = VolumeProjection.rows(registry.log, by: .week, rules: target)
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        let changes = diff ? RuleSetDiff.changes(registry.log, from: current, to: target) : []
        let log = registry.log

        if global.json {
            Console.json(
                .object([
                    (
                        "projections",
                        .array(ProjectionRegistry.all.map { .object([("name", .string($0.name)), ("version", .int(Int64($0.version)))]) })
                    ),
                    ("events", .int(Int64(events))), ("seconds", .number(seconds)),
                    ("rules", .object([("id", .string(target.id)), ("version", .int(Int64(target.version)))])),
                    ("diff", .array(changes.map { Self.json($0, log) })),
                ]))
            return
        }
        Console.out(
            "Rebuilt \(ProjectionRegistry.all.count) projections from \(events) events in \(String(format: "%.3f", seconds)) s under rules \(target.id) v\(target.version): \(records.count) exercises with records, \(volume.count) weeks of volume."
        )
        guard diff else { return }
        guard !changes.isEmpty else { Console.out("No differences against \(current.id) v\(current.version)."); return }
        Console.out("")
        RebuildDiffText.lines(changes, log: log, against: "\(current.id) v\(current.version)").forEach(Console.out)
    }

    static func json(_ c: RuleSetDiff.Change, _ log: TrainingLogProjection) -> JSONValue {
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
        }
    }
}
