import Foundation
import LedgerTestSupport
import Testing

/// `ledger import` on the layout fixtures (`RepLedgerImportTests/Fixtures`),
/// through the real command: what a person reads, the JSON, the exit codes.
@Suite("ledger import: layouts, skipped rows, --skip-unreadable and --unit")
struct ImportLayoutsCLITests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("RepLedgerImportTests/Fixtures")

    static var fixtures: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasSuffix(".csv") }.sorted()
    }

    static func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    @Test(
        "every fixture imports (unreadable rows skipped when asked), and every row is a set, a rest period, a note or a skipped row with its line and reason",
        arguments: fixtures)
    func everyRowAccountedFor(_ name: String) throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let source = String(name.prefix { $0 != "-" })
        let out = try cli.run(["import", source, Self.path(name), "--unit", "kg", "--timezone", "UTC", "--json", "--skip-unreadable"])
        #expect(out.status == 0, "\(out.stderr)")
        let j = try #require(out.json)
        let skipped = try #require(j["skippedRows"] as? [[String: Any]])
        let rows = try #require(j["rows"] as? Int)
        #expect((j["sets"] as? Int ?? -1) + (j["restPeriods"] as? Int ?? -1) + (j["noteRows"] as? Int ?? -1) + skipped.count == rows)
        // The file's own count of rows, read here without the importer: every line after the header.
        let lines = try String(contentsOfFile: Self.path(name), encoding: .utf8).split(whereSeparator: \.isNewline).count - 1  // CRLF too
        #expect(rows == lines)
        #expect(skipped.allSatisfy { ($0["line"] as? Int ?? 0) >= 2 && !($0["reason"] as? String ?? "").isEmpty })
        #expect(try cli.run(["verify", "--json"]).json?["ok"] as? Bool == true)
    }

    @Test(
        "a row with an impossible value refuses the file in one line that names it, counts the others and says what to add, exit 1, nothing appended; --skip-unreadable leaves each out and names it; --strict is still taken"
    )
    func impossibleValue() throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let file = Self.path("strong-impossible-value.csv")
        for extra in [[], ["--strict"]] {
            let refused = try cli.run(["import", "strong", file, "--unit", "kg", "--timezone", "UTC"] + extra)
            #expect(refused.status == 1)
            #expect(
                refused.stderr.contains(
                    "line 3: reps 877777 is out of range. Give reps from 0 to 1000 (and 1 more row that could not be read); nothing was imported. Correct the file, or repeat with --skip-unreadable"
                ), "\(refused.stderr)")
            #expect(refused.stderr.split(separator: "\n").count == 1, "\(refused.stderr)")
            #expect(try cli.eventCount() == 0)
        }
        let both = try cli.run(["import", "strong", file, "--unit", "kg", "--strict", "--skip-unreadable"])
        #expect(both.status != 0)
        #expect(both.stderr.contains("--strict and --skip-unreadable contradict each other"))

        let text = try cli.run(["import", "strong", file, "--unit", "kg", "--timezone", "UTC", "--skip-unreadable"])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("Imported 3 workouts (2019-01-07 to 2025-02-10), 4 sets"))
        #expect(text.stdout.contains("Left out 2 rows that could not be read or hold values the ledger refuses (--skip-unreadable):"))
        #expect(text.stdout.contains("  line 3: reps 877777 is out of range"))
        #expect(text.stdout.contains("  line 6: date '2023-13-45 18:00:00' is not a date and time"))

        let again = try LedgerProcess()
        defer { again.cleanUp() }
        let j = try #require(try again.run(["import", "strong", file, "--unit", "kg", "--timezone", "UTC", "--json", "--skip-unreadable"]).json)
        let skipped = try #require(j["skippedRows"] as? [[String: Any]])
        #expect(skipped.map { $0["line"] as? Int } == [3, 6])
        #expect(skipped.map { $0["refused"] as? Bool } == [true, true])
    }

    @Test("--unit given for a file that states its unit is not used, and the summary says which unit was used and why")
    func unitFlagExplained() throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let rows = try cli.run(["import", "strong", Self.path("strong-semicolon-units.csv"), "--unit", "lb", "--timezone", "UTC"])
        #expect(
            rows.stdout.contains(
                "Weights in the unit each row gives in its Weight Unit column (mostly kg); --unit lb was not used, since the file states its unit"))
        let hevy = try cli.run(["import", "hevy", Self.path("hevy-repeated-blocks.csv"), "--unit", "lb", "--timezone", "UTC", "--json"])
        let j = try #require(hevy.json)
        #expect(j["unitSource"] as? String == "header")
        #expect(j["unitFlagIgnored"] as? String == "lb")
        #expect(j["unit"] as? String == "kg")
        let flag = try cli.run(["import", "strong", Self.path("strong-english.csv"), "--unit", "lb", "--timezone", "UTC"])
        #expect(flag.stdout.contains("Weights in lb, from --unit (the file does not say)"))
    }

    @Test("a French export a spreadsheet saved again in Windows-1252, and one in UTF-16, import like the UTF-8 file")
    func spreadsheetEncodings() throws {
        let text = try String(contentsOfFile: Self.path("strong-french.csv"), encoding: .utf8)
        let expected = try LedgerProcess()
        defer { expected.cleanUp() }
        let reference = try #require(
            try expected.run([
                "import", "strong", Self.path("strong-french.csv"), "--unit", "kg",
                "--timezone", "UTC", "--json",
            ]).json)
        for (name, encoding) in [("cp1252", String.Encoding.windowsCP1252), ("utf16", String.Encoding.utf16)] {
            let cli = try LedgerProcess()
            defer { cli.cleanUp() }
            let file = cli.folder.appendingPathComponent("strong-french-\(name).csv")
            try #require(text.data(using: encoding)).write(to: file)
            let out = try cli.run(["import", "strong", file.path, "--unit", "kg", "--timezone", "UTC", "--json"])
            #expect(out.status == 0, "\(name): \(out.stderr)")
            #expect(out.json?["sets"] as? Int == reference["sets"] as? Int, "\(name)")
            #expect(out.json?["layout"] as? String == "Strong 12-column, French header", "\(name)")
            #expect(try cli.run(["history"]).stdout.contains("Entraînement du midi"), "\(name)")
        }
    }

    @Test("an unknown layout is refused in one line that says what it lacks and lists the layouts and languages known")
    func unknownLayout() throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let file = cli.folder.appendingPathComponent("odd.csv")
        try "Datum,Workout-Name,Name der Übung,Gewicht\n2025-01-01 10:00:00,A,Squat,100\n".write(to: file, atomically: true, encoding: .utf8)
        let out = try cli.run(["import", "strong", file.path, "--unit", "kg"])
        #expect(out.status != 0)
        #expect(out.stderr.split(separator: "\n").count == 1, "\(out.stderr)")
        #expect(out.stderr.contains("no column for Set Order, Reps"))
        #expect(out.stderr.contains("French, German, Spanish, Italian, Portuguese, Dutch, Polish"))
        #expect(try cli.eventCount() == 0)
    }

    @Test("a file of another app is refused in the importer's words, with the shell's command for it, in one line")
    func wrongSourcePointer() throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let out = try cli.run(["import", "strong", Self.path("hevy-minutes-only.csv")])
        #expect(out.status == 1, "\(out.stderr)")
        #expect(out.stderr == "error: this is not a Strong export; it looks like a hevy export: run `ledger import hevy FILE`\n")
        let appended = FileManager.default.fileExists(atPath: cli.db) ? try cli.eventCount() : 0
        #expect(appended == 0)
    }

    @Test("an export that does not say its unit is refused with the option that says it")
    func unitPointer() throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let file = cli.folder.appendingPathComponent("no-unit.csv")
        try "Date,Workout Name,Exercise Name,Set Order,Weight,Reps\n2024-01-02 10:00:00,A,Bench,1,100,5\n".write(
            to: file, atomically: true, encoding: .utf8)
        let out = try cli.run(["import", "strong", file.path])
        #expect(out.status == 1, "\(out.stderr)")
        #expect(out.stderr == "error: this Strong export does not say whether its weights are kg or lb; repeat with --unit kg or --unit lb\n")
        let appended = FileManager.default.fileExists(atPath: cli.db) ? try cli.eventCount() : 0
        #expect(appended == 0)
    }
}
