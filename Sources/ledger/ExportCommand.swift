import ArgumentParser
import Foundation
import LedgerShell
import RepLedgerCore
import RepLedgerExport
import RepLedgerProjections
import RepLedgerQueries

/// `ledger export jsonl|csv|fit|health-connect FILE`, and `ledger export --bundle FILE` (an audit bundle, see `AuditBundle`).
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write the whole log as JSON lines (backup, audit), or your history as CSV, Garmin FIT or Health Connect JSON.",
        discussion: """
            jsonl is the backup: `ledger import jsonl FILE` into an empty ledger reproduces the same events and hash chain. \
            csv is Strong's columns with each set's unit, set notes, the workout's end and supersets added, which \
            other apps import and `ledger import strong FILE` reads back whole with no option. fit writes Garmin FIT \
            activity files of strength training, one per workout, which Garmin Connect imports: FILE is a folder, \
            or the file itself with --workout. health-connect writes the workouts as Health Connect exercise \
            sessions with a segment per set (JSON). --workout and --since choose the workouts of fit and \
            health-connect (default: all). --bundle FILE writes \
            an audit bundle: the events with their hashes, the rule set they are read with and the head, in one file \
            that `ledger inspect --bundle FILE` opens read-only. None is gated: a lifter's own data always comes out, \
            on every plan.

            Examples:
              ledger export jsonl backup.jsonl
              ledger export csv history.csv
              ledger export fit garmin/ --since 2026-01-01
              ledger export fit last.fit --workout last
              ledger export health-connect sessions.json
              ledger export --bundle audit.rlbundle
              ledger export --bundle audit.rlbundle --rules brzycki.json
            """)

    @OptionGroup var global: GlobalOptions
    @Argument(help: "jsonl, csv, fit or health-connect.") var format: String?
    @Argument(help: "The file to write (replaced if it exists).") var file: String?
    @Option(help: "Write an audit bundle to this file instead (replaced if it exists).") var bundle: String?
    @Option(help: "fit and health-connect: only this workout (an id, a unique id prefix, or last).") var workout: String?
    @Option(help: "fit and health-connect: only the workouts started on or after this date (YYYY-MM-DD).") var since: String?
    @Option(help: "With --bundle: the rule set (JSON) the bundle's views are read with (default: the built-in rules).") var rules: String?

    func validate() throws {
        if bundle != nil, format != nil { throw ValidationError("--bundle FILE takes no format or other file: `ledger export --bundle FILE`") }
        if bundle == nil, format == nil || file == nil {
            throw ValidationError("give a format and a file (`ledger export jsonl FILE`), or --bundle FILE")
        }
        if bundle == nil, rules != nil { throw ValidationError("--rules goes with --bundle") }
        if workout != nil || since != nil, !["fit", "health-connect"].contains(format?.lowercased() ?? "") {
            throw ValidationError("--workout and --since go with fit and health-connect")
        }
        if workout != nil, since != nil { throw ValidationError("give --workout or --since, not both") }
    }

    func run() throws {
        let store = try global.openStore()
        if let bundle {
            let ruleSet = try RuleSet.load(option: rules)
            let events = try write(to: bundle) { handle in
                try AuditBundle.write(store, rules: ruleSet) { try handle.write(contentsOf: Data($0.utf8)) }
            }
            if global.json {
                Console.json(.object([("events", .int(Int64(events))), ("file", .string(bundle)), ("rules", .string(ruleSet.id))]))
            } else {
                Console.out("Wrote an audit bundle of \(events) events (rules \(ruleSet.id) v\(ruleSet.version)) to \(bundle)")
            }
            return
        }
        let (format, file) = (self.format ?? "", self.file ?? "")
        let rows: Int
        switch format.lowercased() {
        case "jsonl":
            rows = try write(to: file) { handle in try JSONLBackup.export(store) { try handle.write(contentsOf: Data($0.utf8)) } }
        case "csv":
            let log = try TrainingLogProjection.build(from: store)
            let (text, n) = StrongCSVFormat.render(log)
            rows = try write(to: file) {
                try $0.write(contentsOf: Data(text.utf8)); return n
            }
        case "fit", "health-connect":
            let log = try TrainingLogProjection.build(from: store)
            let chosen = try workouts(log, store: store)
            let sets = chosen.reduce(0) { $0 + $1.sets }
            if format.lowercased() == "health-connect" {
                let text = HealthConnectFormat.render(chosen, in: log)
                _ = try write(to: file) {
                    try $0.write(contentsOf: Data(text.utf8)); return chosen.count
                }
            } else if workout != nil {
                _ = try write(to: file) {
                    try $0.write(contentsOf: Data(FITActivity.file(chosen[0], in: log))); return 1
                }
            } else {
                try writeFolder(file, chosen.map { (FITActivity.fileName($0), FITActivity.file($0, in: log)) })
            }
            ExportRecord.note(store, file: file, format: format.lowercased())
            if global.json {
                Console.json(.object([("workouts", .int(Int64(chosen.count))), ("sets", .int(Int64(sets))), ("file", .string(file))]))
            } else {
                let what = format.lowercased() == "fit" && workout == nil ? "\(chosen.count) FIT files" : file
                Console.out("Wrote \(chosen.count) workouts (\(sets) sets) to \(what)\(what == file ? "" : " in \(file)")")
            }
            return
        default:
            throw ValidationError("unknown export format '\(format)'; use jsonl, csv, fit or health-connect")
        }
        ExportRecord.note(store, file: file, format: format.lowercased())
        if global.json {
            Console.json(.object([("rows", .int(Int64(rows))), ("file", .string(file))]))
        } else {
            Console.out("Wrote \(rows) \(format.lowercased() == "csv" ? "rows" : "events") to \(file)")
        }
    }

    /// The finished workouts `--workout` or `--since` choose (all by default), oldest first.
    private func workouts(_ log: TrainingLogProjection, store: any EventStore) throws -> [WorkoutHistoryProjection.WorkoutRow] {
        var all = Array(WorkoutHistoryProjection.workouts(log).reversed())
        if let workout {
            let id = try Ledger(store: store).resolveWorkout(workout)
            all = all.filter { $0.workoutId == id }
            guard !all.isEmpty else { throw ValidationError("workout \(workout) is not finished: finish it before exporting it") }
        } else if let since {
            let from = try parseTime(since)
            all = all.filter { $0.startedAt.millis >= from.millis }
        }
        return all
    }

    /// One file per workout in a folder, made if missing: each written whole beside its name and renamed over it.
    private func writeFolder(_ folder: String, _ files: [(name: String, bytes: [UInt8])]) throws {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), !isFolder.boolValue {
            throw ValidationError("\(folder) is a file; fit writes one file per workout into a folder (or give --workout W for one file)")
        }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for f in files {
            _ = try write(to: (folder as NSString).appendingPathComponent(f.name)) {
                try $0.write(contentsOf: Data(f.bytes)); return 1
            }
        }
    }

    /// Writes to a temporary file beside the target and renames it over, so a
    /// failed export never leaves a half-written file where a good one was.
    private func write(to file: String, _ body: (FileHandle) throws -> Int) throws -> Int {
        let temporary = file + ".partial"
        guard FileManager.default.createFile(atPath: temporary, contents: nil),
            let handle = FileHandle(forWritingAtPath: temporary)
        else {
            throw ImportError.unreadableFile(file, reason: "cannot create the file")
        }
        do {
            let n = try body(handle)
            try handle.synchronize()
            try handle.close()
            if FileManager.default.fileExists(atPath: file) { try FileManager.default.removeItem(atPath: file) }
            try FileManager.default.moveItem(atPath: temporary, toPath: file)
            return n
        } catch {
            try? handle.close()
            try? FileManager.default.removeItem(atPath: temporary)
            throw error
        }
    }
}
