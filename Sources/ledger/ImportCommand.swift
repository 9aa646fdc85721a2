import ArgumentParser
import Foundation
import RepLedgerCore

/// `ledger import strong|hevy|fitnotes|jsonl FILE`.
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Bring in a Strong, Hevy or FitNotes CSV export, or restore a JSONL backup.",
        discussion: """
        An import lands whole or not at all. Importing the same file again appends nothing; a newer \
        export that contains an older one adds only the workouts the ledger lacks. Exports do not \
        carry a time zone: their times are read in --timezone (default: this machine's zone).

        Examples:
          ledger import strong strong_workouts.csv --unit lb --timezone Europe/Paris
          ledger import hevy workouts.csv
          ledger import jsonl backup.jsonl --db restored.sqlite
        """)

    @OptionGroup var global: GlobalOptions
    @Argument(help: "strong, hevy, fitnotes or jsonl.") var source: String
    @Argument(help: "The exported file.") var file: String
    @Option(help: "kg or lb, for exports that do not say (older Strong layouts).") var unit: String?
    @Option(help: "The zone the times in the file are in: an IANA name, UTC or +HH:MM.") var timezone: String?

    func run() throws {
        let text = try readText(file)
        guard let kind = ImportSource(rawValue: source.lowercased()), kind != .demo else {
            throw ValidationError("unknown source '\(source)'; use strong, hevy, fitnotes or jsonl")
        }
        if kind == .jsonl {
            try restore(text)
            return
        }
        let unitValue: WeightUnit?
        if let unit {
            guard let u = WeightUnit(rawValue: unit.lowercased()) else { throw Refusal.unknownUnit(unit) }
            unitValue = u
        } else {
            unitValue = nil
        }
        let zone = try timezone.map { try ImportTimeZone(parsing: $0) } ?? .current
        let ledger = try global.openLedger()
        let bar = ProgressBar(enabled: !global.json && isatty(STDERR_FILENO) != 0)
        let summary = try ledger.importExport(ImportRequest(source: kind, text: text, fileName: file, unit: unitValue, timeZone: zone),
                                              progress: bar.update)
        bar.finish()
        if global.json {
            Console.json(Self.json(summary))
        } else {
            Self.print(summary)
        }
    }

    func readText(_ path: String) throws -> String {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ImportError.unreadableFile(path, reason: FileManager.default.fileExists(atPath: path) ? "permission denied" : "no such file")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw ImportError.unreadableFile(path, reason: "the file is not UTF-8 text")
        }
        return text
    }

    /// Into an empty ledger, a byte-exact restore; into one that holds events, a merge (a watch's batch).
    func restore(_ text: String) throws {
        let store = try global.openOrCreateStore()
        if try store.headPosition() > 0 {
            let merged = try JSONLBackup.merge(text, into: store)
            if !merged.appended.isEmpty { try SnapshotPolicy.apply(store) }
            if global.json {
                Console.json(.object([("events", .int(Int64(merged.events))), ("appended", .int(Int64(merged.appended.count))),
                                      ("alreadyStored", .int(Int64(merged.alreadyStored))), ("rows", .int(Int64(merged.events)))]))
            } else if merged.appended.isEmpty {
                Console.out("Already in the ledger: all \(merged.events) events of this file. Nothing appended.")
            } else {
                Console.out("Merged \(merged.appended.count) new events (\(merged.alreadyStored) were in the ledger already).")
            }
            return
        }
        let restored = try JSONLBackup.restore(text, into: store)
        if global.json {
            Console.json(.object([("events", .int(Int64(restored.events))), ("headHash", .string(restored.headHash)),
                                  ("rows", .int(Int64(restored.events)))]))
        } else {
            Console.out("Restored \(restored.events) events; the hash chain matches the backup (head \(restored.headHash.prefix(16))…).")
        }
    }

    static func json(_ s: ImportSummary) -> JSONValue {
        .object([
            ("workouts", .int(Int64(s.workouts))), ("sets", .int(Int64(s.sets))),
            ("exercisesCreated", .int(Int64(s.exercisesCreated.count))), ("skipped", .int(Int64(s.skipped.total))),
            ("alreadyImported", .bool(s.alreadyImported)), ("unitSettingChanged", .bool(s.unitSettingChanged)),
            ("workoutsAlreadyPresent", .int(Int64(s.workoutsAlreadyPresent))), ("restPeriods", .int(Int64(s.restFacts))),
            ("rows", .int(Int64(s.rows))), ("layout", .string(s.layout)), ("unit", .string(s.unit.rawValue)),
            ("timeZone", .string(s.timeZone)), ("batchId", .string(s.batchId.lowercased)),
            ("skippedReasons", .object(s.skipped.byReason.sorted { $0.key < $1.key }.map { ($0.key, .int(Int64($0.value))) })),
            ("newExercises", .array(s.exercisesCreated.map(JSONValue.string))),
        ])
    }

    static func print(_ s: ImportSummary) {
        if s.alreadyImported {
            Console.out("Already imported: every workout of this \(s.source.displayName) export is in the ledger. Nothing appended.")
            return
        }
        Console.out("\(s.layout), \(s.rows) rows, weights in \(s.unit.rawValue), times read in \(s.timeZone)")
        let span = [s.firstWorkout, s.lastWorkout].compactMap { $0?.isoDate }
        Console.out("Imported \(s.workouts) workouts\(span.count == 2 ? " (\(span[0]) to \(span[1]))" : ""), \(s.sets) sets, \(s.restFacts) rest periods")
        if s.unitSettingChanged { Console.out("Weights will show in \(s.unit.rawValue), like the file (change with `ledger settings unit`)") }
        if s.workoutsAlreadyPresent > 0 { Console.out("Already in the ledger, left as they were: \(s.workoutsAlreadyPresent) workouts") }
        if !s.exercisesCreated.isEmpty {
            let names = s.exercisesCreated.prefix(8).joined(separator: ", ")
            Console.out("New custom exercises: \(s.exercisesCreated.count) (\(names)\(s.exercisesCreated.count > 8 ? ", …" : ""))")
        }
        if s.skipped.total > 0 {
            Console.out("Skipped \(s.skipped.total) rows:")
            for (reason, n) in s.skipped.byReason.sorted(by: { $0.value > $1.value }) {
                let lines = s.skipped.firstLines[reason, default: []].map(String.init).joined(separator: ", ")
                Console.out("  \(n) \(reason) (lines \(lines)\(n > 5 ? ", …" : ""))")
            }
        }
    }
}

/// A one-line bar on stderr, only on a terminal and only for files big enough to wait for.
final class ProgressBar {
    private let enabled: Bool
    private var shown = -1

    init(enabled: Bool) { self.enabled = enabled }

    func update(_ done: Int, _ total: Int) {
        guard enabled, total >= 2_000 else { return }
        let percent = done * 100 / max(total, 1)
        guard percent != shown else { return }
        shown = percent
        let filled = percent * 30 / 100
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: 30 - filled)
        FileHandle.standardError.write(Data("\r\(bar) \(percent)% \(done)/\(total) rows".utf8))
    }

    func finish() {
        if enabled, shown >= 0 { FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8)) }
    }
}
