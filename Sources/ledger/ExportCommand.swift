import ArgumentParser
import Foundation
import LedgerShell
import RepLedgerCore
import RepLedgerProjections
import RepLedgerQueries

/// `ledger export jsonl|csv FILE`, and `ledger export --bundle FILE` (an audit bundle, see `AuditBundle`).
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write the whole log as JSON lines (backup, audit), or your history as CSV in Strong's columns.",
        discussion: """
            jsonl is the backup: `ledger import jsonl FILE` into an empty ledger reproduces the same events and hash chain. \
            csv is Strong's columns with each set's unit, set notes, the workout's end and supersets added, which \
            other apps import and `ledger import strong FILE` reads back whole with no option. --bundle FILE writes \
            an audit bundle: the events with their hashes, the rule set they are read with and the head, in one file \
            that `ledger inspect --bundle FILE` opens read-only. None is gated: a lifter's own data always comes out, \
            on every plan.

            Examples:
              ledger export jsonl backup.jsonl
              ledger export csv history.csv
              ledger export --bundle audit.rlbundle
              ledger export --bundle audit.rlbundle --rules brzycki.json
            """)

    @OptionGroup var global: GlobalOptions
    @Argument(help: "jsonl or csv.") var format: String?
    @Argument(help: "The file to write (replaced if it exists).") var file: String?
    @Option(help: "Write an audit bundle to this file instead (replaced if it exists).") var bundle: String?
    @Option(help: "With --bundle: the rule set (JSON) the bundle's views are read with (default: the built-in rules).") var rules: String?

    func validate() throws {
        if bundle != nil, format != nil { throw ValidationError("--bundle FILE takes no format or other file: `ledger export --bundle FILE`") }
        if bundle == nil, format == nil || file == nil {
            throw ValidationError("give a format and a file (`ledger export jsonl FILE`), or --bundle FILE")
        }
        if bundle == nil, rules != nil { throw ValidationError("--rules goes with --bundle") }
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
        default:
            throw ValidationError("unknown export format '\(format)'; use jsonl or csv")
        }
        ExportRecord.note(store, file: file, format: format.lowercased())
        if global.json {
            Console.json(.object([("rows", .int(Int64(rows))), ("file", .string(file))]))
        } else {
            Console.out("Wrote \(rows) \(format.lowercased() == "csv" ? "rows" : "events") to \(file)")
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
