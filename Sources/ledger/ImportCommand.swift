import ArgumentParser
import Foundation
import LedgerShell
import RepLedgerCore
import RepLedgerImport
import RepLedgerSnapshots

/// `ledger import strong|hevy|fitnotes|jsonl FILE`.
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Bring in a Strong, Hevy or FitNotes CSV export, or restore a JSONL backup.",
        discussion: """
            An import lands in one transaction, whole or not at all. A row the ledger cannot read or \
            refuses (a date in a language it does not know, a typed 877777 reps) refuses the file, naming \
            its line; --skip-unreadable imports the rest and lists each row left out. Rows with nothing \
            to import (a blank set, a second copy of a workout the app wrote twice) are skipped and \
            counted without asking. Importing the same file again \
            appends nothing; a newer export that contains an older one adds only the workouts the ledger \
            lacks. Exports do not carry a time zone: their times are read in --timezone (default: this \
            machine's zone).

            Strong headers are recognised by meaning in English, French, German, Spanish, Italian, \
            Portuguese, Dutch, Polish and Chinese, with the unit from the header, from a Weight Unit \
            column on each row, or else from --unit. Hevy's dates are read as any phone writes them \
            (4 Oct 2022, 23:17 or Oct 4, 2022, 11:17 PM); FitNotes' Android and iOS exports are both \
            read. A file of which no row can be imported is refused, saying why.

            Examples:
              ledger import strong strong_workouts.csv --unit lb --timezone Europe/Paris
              ledger import hevy workouts.csv
              ledger import fitnotes FitNotes_Export.csv --skip-unreadable
              ledger import jsonl backup.jsonl --db restored.sqlite
            """)

    @OptionGroup var global: GlobalOptions
    @Argument(help: "strong, hevy, fitnotes or jsonl.") var source: String
    @Argument(help: "The exported file.") var file: String
    @Option(help: "kg or lb, for exports that do not say (older Strong layouts); a unit the file states wins.") var unit: String?
    @Option(help: "The zone the times in the file are in: an IANA name, UTC or +HH:MM.") var timezone: String?
    @Flag(help: "Import the rest when rows cannot be read or hold values the ledger refuses, listing each row left out.")
    var skipUnreadable = false
    /// All or nothing was an option before it became the default; scripts that pass it keep working.
    @Flag(help: .hidden) var strict = false

    func validate() throws {
        if strict && skipUnreadable { throw ValidationError("--strict and --skip-unreadable contradict each other; give one") }
    }

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
        let summary = try ledger.importExport(
            ImportRequest(
                source: kind, text: text, fileName: file, unit: unitValue, timeZone: zone,
                skipUnreadable: skipUnreadable),
            progress: bar.update)
        bar.finish()
        // An import is the largest append a device makes: the next command should not fold it all.
        try SnapshotPolicy.apply(ledger.store)
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
        guard let text = Self.decode(data) else {
            throw ImportError.unreadableFile(path, reason: "the file is not text in UTF-8, UTF-16 or Windows-1252")
        }
        return text
    }

    /// Exports come as the apps write them (UTF-8) and as spreadsheets save them again: UTF-16 with a byte-order
    /// mark, or Windows-1252 (Excel's "CSV" in Western European languages, where é is one byte).
    static func decode(_ data: Data) -> String? {
        if let text = String(data: data, encoding: .utf8) { return text }
        if data.starts(with: [0xFF, 0xFE]) || data.starts(with: [0xFE, 0xFF]) { return String(data: data, encoding: .utf16) }
        // Windows-1252 leaves five bytes undefined; a file holding one is no such text.
        guard !data.contains(where: { [0x81, 0x8D, 0x8F, 0x90, 0x9D].contains($0) }) else { return nil }
        return String(data: data, encoding: .windowsCP1252)
    }

    /// Into an empty ledger, a byte-exact restore; into one that holds events, a merge (a watch's batch).
    func restore(_ text: String) throws {
        let store = try global.openOrCreateStore()
        if try store.headPosition() > 0 {
            // A watch's batch: this device's analysis hook hears of the watch workouts it brings.
            let before = try AnalysisHook.command.map { _ in try AnalysisHook.watchWorkouts(store) }
            let merged = try JSONLBackup.merge(text, into: store)
            if !merged.appended.isEmpty { try SnapshotPolicy.apply(store) }
            if let before, !merged.appended.isEmpty { try WorkoutAnalysis.arrived(global, Ledger(store: store), before: before) }
            if global.json {
                Console.json(
                    .object([
                        ("events", .int(Int64(merged.events))), ("appended", .int(Int64(merged.appended.count))),
                        ("alreadyStored", .int(Int64(merged.alreadyStored))), ("rows", .int(Int64(merged.events))),
                    ]))
            } else if merged.appended.isEmpty {
                Console.out("Already in the ledger: all \(merged.events) events of this file. Nothing appended.")
            } else {
                Console.out("Merged \(merged.appended.count) new events (\(merged.alreadyStored) were in the ledger already).")
            }
            return
        }
        let restored = try JSONLBackup.restore(text, into: store)
        if global.json {
            Console.json(
                .object([
                    ("events", .int(Int64(restored.events))), ("headHash", .string(restored.headHash)),
                    ("rows", .int(Int64(restored.events))),
                ]))
        } else {
            Console.out("Restored \(restored.events) events; the hash chain matches the backup (head \(restored.headHash.prefix(16))…).")
        }
    }

    static func json(_ s: ImportSummary) -> JSONValue {
        .object([
            ("workouts", .int(Int64(s.workouts))), ("sets", .int(Int64(s.sets))),
            ("exercisesCreated", .int(Int64(s.exercisesCreated.count))), ("skipped", .int(Int64(s.skipped.total))),
            ("alreadyImported", .bool(s.alreadyImported)), ("unitSettingChanged", .bool(s.unitSettingChanged)),
            ("workoutsAlreadyPresent", .int(Int64(s.workoutsAlreadyPresent))),
            ("workoutsRecognisedWithoutSeconds", .int(Int64(s.workoutsRecognisedWithoutSeconds))), ("restPeriods", .int(Int64(s.restFacts))),
            ("noteRows", .int(Int64(s.noteRows))),
            ("rows", .int(Int64(s.rows))), ("layout", .string(s.layout)), ("unit", .string(s.unit.rawValue)),
            ("timeZone", .string(s.timeZone)), ("batchId", .string(s.batchId.lowercased)),
            ("skippedReasons", .object(s.skipped.byReason.sorted { $0.key < $1.key }.map { ($0.key, .int(Int64($0.value))) })),
            ("skippedRows", .array(s.skipped.rows.map(rowJSON))),
            ("rowsAlreadyPresent", .int(Int64(s.rowsAlreadyPresent))),
            ("unitSource", .string(s.unitSource.rawValue)), ("unitFlagIgnored", s.unitFlagIgnored.map { .string($0.rawValue) } ?? .null),
            ("ignoredColumns", .array(s.ignoredColumns.map(JSONValue.string))),
            ("shortenedNotes", .array(s.shortenedNotes.map(rowJSON))),
            ("unreadDurations", .array(s.unreadDurations.map(rowJSON))),
            ("newExercises", .array(s.exercisesCreated.map(JSONValue.string))),
            ("matchedExercises", .array(s.exercisesMatched.map { .object([("name", .string($0.file)), ("exercise", .string($0.library))]) })),
        ])
    }

    static func rowJSON(_ row: SkippedRow) -> JSONValue {
        .object([("line", .int(Int64(row.line))), ("reason", .string(row.reason)), ("refused", .bool(row.refused))])
    }

    /// Why the weights are in the unit they are, in words; and what became of `--unit`.
    static func unitWords(_ s: ImportSummary) -> String {
        let why: String
        switch s.unitSource {
        case .header: why = "weights in \(s.unit.rawValue), as the file's header says (\(s.unitEvidence ?? s.unit.rawValue))"
        case .rows: why = "weights in the unit each row gives in its Weight Unit column (mostly \(s.unit.rawValue))"
        case .flag: why = "weights in \(s.unit.rawValue), from --unit (the file does not say)"
        }
        guard let ignored = s.unitFlagIgnored else { return why }
        return why + "; --unit \(ignored.rawValue) was not used, since the file states its unit"
    }

    static func recognisedWithoutSeconds(_ s: ImportSummary) {
        guard s.workoutsRecognisedWithoutSeconds > 0 else { return }
        Console.out(
            "  \(s.workoutsRecognisedWithoutSeconds) of them recognised by name and minute: one of the two files had lost the seconds of their start, as a spreadsheet's re-save does"
        )
    }

    static func print(_ s: ImportSummary) {
        if s.alreadyImported {
            Console.out("Already imported: every workout of this \(s.source.displayName) export is in the ledger. Nothing appended.")
            recognisedWithoutSeconds(s)
            return
        }
        Console.out("\(s.layout), \(counted(s.rows, "row")), times read in \(s.timeZone)")
        Console.out(unitWords(s).prefix(1).uppercased() + unitWords(s).dropFirst())
        let span = [s.firstWorkout, s.lastWorkout].compactMap { $0?.isoDate }
        Console.out(
            "Imported \(counted(s.workouts, "workout"))\(span.count == 2 ? " (\(span[0]) to \(span[1]))" : ""), \(counted(s.sets, "set")), \(counted(s.restFacts, "rest period"))"
                + (s.noteRows > 0 ? ", \(counted(s.noteRows, "exercise note row"))" : "")
        )
        if s.unitSettingChanged { Console.out("Weights will show in \(s.unit.rawValue), like the file (change with `ledger settings unit`)") }
        if s.workoutsAlreadyPresent > 0 { Console.out("Already in the ledger, left as they were: \(s.workoutsAlreadyPresent) workouts") }
        recognisedWithoutSeconds(s)
        if !s.exercisesMatched.isEmpty {
            let pairs = s.exercisesMatched.prefix(8).map { "\($0.file) → \($0.library)" }.joined(separator: ", ")
            Console.out("Matched to the library: \(s.exercisesMatched.count) (\(pairs)\(s.exercisesMatched.count > 8 ? ", …" : ""))")
        }
        if !s.exercisesCreated.isEmpty {
            let names = s.exercisesCreated.prefix(8).joined(separator: ", ")
            Console.out("New custom exercises: \(s.exercisesCreated.count) (\(names)\(s.exercisesCreated.count > 8 ? ", …" : ""))")
        }
        if !s.ignoredColumns.isEmpty {
            Console.out("Columns not recognised, left out: \(s.ignoredColumns.joined(separator: ", "))")
        }
        let refused = s.skipped.refused
        if !refused.isEmpty {
            Console.out("Left out \(refused.count) rows that could not be read or hold values the ledger refuses (--skip-unreadable):")
            for row in refused.prefix(20) { Console.out("  line \(row.line): \(row.reason)") }
            if refused.count > 20 { Console.out("  … and \(refused.count - 20) more (--json lists every one)") }
        }
        let other = s.skipped.total - refused.count
        if other > 0 {
            Console.out("Skipped \(other) rows with nothing to import:")
            let reasons = s.skipped.rows.filter { !$0.refused }.reduce(into: [String: [Int]]()) { $0[$1.reason, default: []].append($1.line) }
            for (reason, lines) in reasons.sorted(by: { $0.value.count > $1.value.count || ($0.value.count == $1.value.count && $0.key < $1.key) }) {
                let shown = lines.prefix(5).map(String.init).joined(separator: ", ")
                Console.out("  \(lines.count) \(reason) (lines \(shown)\(lines.count > 5 ? ", …" : ""))")
            }
        }
        for row in s.shortenedNotes + s.unreadDurations { Console.out("Line \(row.line): \(row.reason)") }
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
