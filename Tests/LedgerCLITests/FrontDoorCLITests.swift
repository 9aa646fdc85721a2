import Foundation
import LedgerTestSupport
import RepLedgerCore
import RepLedgerSQLite
import Testing

/// What a new user meets first: help, suggestions, where --db goes, and
/// which files the ledger agrees to open.
@Suite("front door: help, suggestions, --db, foreign files")
struct FrontDoorCLITests {
    @Test("help prints for the root, `help X`, `X --help` and nested commands, with examples")
    func helpPrints() throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        for args in [[], ["--help"], ["help"]] {
            let out = try cli.run(args, useDbFlag: false)
            #expect(out.status == 0)
            #expect(out.stdout.contains("USAGE: ledger <subcommand>") && out.stdout.contains("SUBCOMMANDS"), "\(args)")
        }
        let prs = try cli.run(["help", "prs"], useDbFlag: false)
        #expect(prs.status == 0 && prs.stdout.contains("USAGE: ledger prs") && prs.stdout.contains("--until"))
        let history = try cli.run(["history", "--help"], useDbFlag: false)
        #expect(history.status == 0 && history.stdout.contains("USAGE: ledger history"))
        let log = try cli.run(["workout", "log", "--help"], useDbFlag: false)
        #expect(log.status == 0 && log.stdout.contains("Examples:") && log.stdout.contains("--extra"))
        #expect(try cli.run(["help", "workout", "complete"], useDbFlag: false).stdout.contains("USAGE: ledger workout complete"))
        // Help never creates a ledger.
        #expect(!FileManager.default.fileExists(atPath: cli.db))
    }

    @Test("a mistyped command or exercise gets the closest names")
    func suggestions() throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let top = try cli.run(["histroy"])
        #expect(top.status == 2)
        #expect(top.stderr.contains("unknown command 'histroy'; did you mean history?"))
        let nested = try cli.run(["workout", "strat"])
        #expect(nested.status == 2 && nested.stderr.contains("did you mean start?"))

        #expect(try cli.run(["workout", "start"]).status == 0)
        let exercise = try cli.run(["workout", "log", "last", "bench prss", "--reps", "5"])
        #expect(exercise.status == 1)
        #expect(exercise.stderr.contains("did you mean Bench Press (Barbell)"))
        #expect(exercise.stderr.split(separator: "\n").count == 1)
    }

    @Test("--db and --json before the subcommand work as after it")
    func dbBeforeSubcommand() throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let started = try cli.run(["--db", cli.db, "--json", "workout", "start"], useDbFlag: false)
        #expect(started.status == 0, "\(started.stderr)")
        #expect(started.json?["workoutId"] is String)
        #expect(FileManager.default.fileExists(atPath: cli.db))
        let prs = try cli.run(["--db=\(cli.db)", "prs", "--json"], useDbFlag: false)
        #expect(prs.status == 0 && prs.json?["exercises"] is [Any])
    }

    @Test("another app's database, a text file and a missing path are refused with exit 4, one line, and left as they were")
    func foreignFiles() throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        func make(_ name: String, _ sql: String) throws -> String {
            let path = cli.folder.appendingPathComponent(name).path
            let db = try SQLiteDatabase(path: path)
            try db.execute(sql)
            return path
        }
        let withEvents = try make("other-events.db", "CREATE TABLE events (id INTEGER, body TEXT); INSERT INTO events VALUES (1, 'x');")
        let withNotes = try make("notes.db", "CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT); INSERT INTO notes (text) VALUES ('hi');")
        let stamped = try make("stamped.db", "PRAGMA application_id = 1234;")
        let text = cli.folder.appendingPathComponent("notes.txt").path
        try Data("just some text\n".utf8).write(to: URL(fileURLWithPath: text))

        for path in [withEvents, withNotes, stamped, text] {
            let before = try Data(contentsOf: URL(fileURLWithPath: path))
            for args in [["workout", "start"], ["prs"], ["verify"], ["import", "jsonl", text]] {
                let out = try cli.run(args + ["--db", path], useDbFlag: false)
                #expect(out.status == 4, "\(args) on \(path): \(out.stderr)")
                #expect(out.stderr.hasPrefix("error: ") && out.stderr.split(separator: "\n").count == 1)
                #expect(out.stderr.contains("is not a RepLedger ledger"))
            }
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before, "\(path) changed")
            #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
        }

        // A query on a path that does not exist says so and creates nothing; a recording command creates the ledger.
        let missing = cli.folder.appendingPathComponent("typo.sqlite").path
        for args in [["prs"], ["history"], ["verify"], ["exercise", "list"], ["log"]] {
            let out = try cli.run(args + ["--db", missing], useDbFlag: false)
            #expect(out.status == 4 && out.stderr.contains("there is no ledger at \(missing)"), "\(args)")
        }
        #expect(!FileManager.default.fileExists(atPath: missing))
        #expect(try cli.run(["workout", "start", "--db", missing], useDbFlag: false).status == 0)
        #expect(try cli.run(["prs", "--db", missing], useDbFlag: false).status == 0)
    }

    @Test("a refused command on a new ledger appends nothing, the library seed included")
    func refusalsAppendNothing() throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let bad = cli.folder.appendingPathComponent("bad.csv").path
        try Data("Not,A,Known,Header\n1,2,3,4\n".utf8).write(to: URL(fileURLWithPath: bad))
        let refused = try cli.run(["import", "strong", bad])
        #expect(refused.status == 1)
        #expect(try cli.eventCount() == 0)
        #expect(try cli.run(["workout", "log", "last", "deadlift", "--reps", "5"]).status == 1)
        #expect(try cli.run(["template", "create", "  "]).status == 1)
        #expect(try cli.eventCount() == 0)
        // The first command that is accepted brings the library with it, in one transaction.
        #expect(try cli.run(["workout", "start"]).status == 0)
        #expect(try cli.eventCount() == Ledger.seedEvents.count + 1)
        #expect(try cli.run(["verify"]).status == 0)
    }

    @Test("3 parallel template creates on a Free ledger with 2 templates leave exactly 3, every round")
    func templateLimitUnderRaces() throws {
        for round in 0..<12 {
            let cli = try LedgerProcess()
            defer { cli.cleanUp() }
            #expect(try cli.run(["template", "create", "A"]).status == 0)
            #expect(try cli.run(["template", "create", "B"]).status == 0)
            let processes = (0..<3).map { i -> Process in
                let p = Process()
                p.executableURL = LedgerProcess.binary
                p.arguments = ["template", "create", "Parallel \(i)", "--db", cli.db]
                p.standardOutput = FileHandle.nullDevice
                p.standardError = FileHandle.nullDevice
                return p
            }
            for p in processes { try p.run() }
            for p in processes { p.waitUntilExit() }
            let statuses = processes.map(\.terminationStatus).sorted()
            #expect(statuses == [0, 1, 1], "round \(round): \(statuses)")
            let templates = try #require(try cli.run(["template", "list", "--json"]).json?["templates"] as? [Any])
            #expect(templates.count == 3, "round \(round)")
        }
    }
}
