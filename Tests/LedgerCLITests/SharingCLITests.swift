import Foundation
import LedgerTestSupport
import Testing

/// Issue 49, row 6: sharing. `program export` and `template export` write a
/// document signed by its SHA-256; `import` on another ledger records it
/// with its origin, refuses an edited document, and records nothing the
/// second time. A program generated on Andrew50's real Strong history, with
/// a module on its first day, travels to a friend's new ledger.
@Suite("ledger program and template export/import", .needsSharedData(.realExports))
struct SharingCLITests {
    /// A program's days as a lifter reads them, ids aside: each day's exercises with targets, and its modules' lines.
    static func days(_ cli: LedgerProcess) throws -> [String] {
        let sessions = try #require(try cli.run(["program", "show", "--json"]).json?["sessions"] as? [[String: Any]])
        return sessions.map { day in
            let exercises = (day["exercises"] as? [[String: Any]] ?? []).map { x in
                ["exerciseId", "sets", "repsMin", "repsMax", "secondsMin", "secondsMax", "restSeconds", "injuryWarning"].map { "\(x[$0] ?? "-")" }
                    .joined(separator: "/")
            }
            let modules = (day["modules"] as? [[String: Any]] ?? []).map { m in
                "\(m["name"] ?? "")(\(m["type"] ?? "")):"
                    + (m["lines"] as? [[String: Any]] ?? []).map { "\($0["exerciseId"] ?? "")×\($0["sets"] ?? "")" }.joined(separator: ",")
            }
            return "\(day["name"] ?? "") | " + exercises.joined(separator: "; ") + " | " + modules.joined(separator: "; ")
        }
    }

    @Test("a program travels whole: the friend's ledger shows the same days, plans the same workout, and knows its origin")
    func programTravels() throws {
        let cli = try ProgressionByModuleCLITests.setUp()
        defer { cli.cleanUp() }
        #expect(
            try cli.run(["module", "define", "Shoulder warm-up", "--type", "warmup", "--exercise", "Face Pull", "--sets", "2", "--reps", "15"]).status
                == 0)
        #expect(try cli.run(["program", "add-module", "--day", "1", "--module", "Shoulder warm-up"]).status == 0)
        let file = cli.folder.appendingPathComponent("program.json").path
        let written = try #require(try cli.run(["program", "export", "active", file, "--json"]).json)
        let hash = try #require(written["sha256"] as? String)
        #expect(hash.count == 64)

        let friend = try LedgerProcess()
        defer { friend.cleanUp() }
        let imported = try #require(try friend.run(["program", "import", file, "--json"]).json)
        #expect(imported["imported"] as? Bool == true && imported["sha256"] as? String == hash)
        #expect(try Self.days(friend) == Self.days(cli), "the same days, targets, holds and modules")
        let count = try friend.eventCount()
        let again = try #require(try friend.run(["program", "import", file, "--json"]).json)
        #expect(again["imported"] as? Bool == false && again["id"] as? String == imported["id"] as? String)
        #expect(try friend.eventCount() == count, "the same document twice records nothing")
        let origin = try friend.run(["log", "--type", "SharedDocumentImported", "--json"]).stdout
        #expect(origin.contains(hash), "the import's origin is in the log: \(origin)")

        // The friend's day 1 plans what the lifter's does.
        for ledger in [cli, friend] { #expect(try ledger.run(["workout", "start", "--program", "active", "--day", "1"]).status == 0) }
        func planned(_ l: LedgerProcess) throws -> [String] {
            (try l.run(["workout", "show", "last", "--json"]).json?["exercises"] as? [[String: Any]] ?? []).map {
                "\($0["exerciseId"] ?? "")×\(($0["sets"] as? [Any])?.count ?? 0)"
            }
        }
        #expect(try planned(friend) == planned(cli))
    }

    @Test("a template keeps its targets and modules; an edited or foreign document is refused in one line and appends nothing")
    func templatesAndRefusals() throws {
        let (cli, benchLb) = try AndrewsStrongHistory.imported()
        defer { cli.cleanUp() }
        #expect(
            try cli.run(["module", "define", "Shoulder warm-up", "--type", "warmup", "--exercise", "Face Pull", "--sets", "2", "--reps", "15"]).status
                == 0)
        #expect(
            try cli.run([
                "template", "create", "Bench day", "--module", "Shoulder warm-up", "--exercise", "Bench Press (Barbell)", "--sets", "3", "--reps",
                "5", "--weight", "\(benchLb.formatted)lb", "--rest", "3m",
            ]).status == 0)
        let file = cli.folder.appendingPathComponent("bench.json").path
        #expect(try cli.run(["template", "export", "Bench day", file]).stdout.contains("Wrote template Bench day"))
        let friend = try LedgerProcess()
        defer { friend.cleanUp() }
        #expect(try friend.run(["template", "import", file]).stdout.contains("Imported template"))
        func lines(_ l: LedgerProcess) throws -> [String] {
            (try l.run(["template", "list", "--json"]).json?["templates"] as? [[String: Any]] ?? []).flatMap { t in
                (t["lines"] as? [[String: Any]] ?? []).map { x in
                    ["exerciseId", "sets", "repsMin", "repsMax", "weightKg", "restSeconds"].map { "\(x[$0] ?? "-")" }.joined(separator: "/")
                }
            }
        }
        #expect(try lines(friend) == lines(cli) && !(try lines(friend)).isEmpty)
        let modules = try #require(
            (try friend.run(["progression", "show", "--template", "Bench day", "--json"]).json?["workouts"] as? [[String: Any]])?.first?["modules"]
                as? [[String: Any]])
        #expect(modules.first?["name"] as? String == "Shoulder warm-up")

        // Edited after sharing, the wrong kind, not a document, a custom exercise the friend lacks: refused, nothing appended.
        let text = try String(contentsOfFile: file, encoding: .utf8)
        let edited = cli.folder.appendingPathComponent("edited.json").path
        try text.replacingOccurrences(of: "\"sets\":3", with: "\"sets\":4").write(toFile: edited, atomically: true, encoding: .utf8)
        let custom = cli.folder.appendingPathComponent("custom.json").path
        #expect(try cli.run(["template", "create", "Pulldowns", "--exercise", "Arm Pulldown", "--sets", "3", "--reps", "12"]).status == 0)
        #expect(try cli.run(["template", "export", "Pulldowns", custom]).status == 0)
        let junk = cli.folder.appendingPathComponent("junk.json").path
        try "{\"name\": \"Bench day\"}".write(toFile: junk, atomically: true, encoding: .utf8)
        let count = try friend.eventCount()
        let refusals: [([String], String)] = [
            (["template", "import", edited], "it was edited after it was shared: its content no longer matches its sha256"),
            (["program", "import", file], "it is a template, not a program: use `ledger template import`"),
            (["template", "import", junk], "it is not a RepLedger template document"),
            (["template", "import", custom], "it names an exercise this ledger lacks: Arm Pulldown"),
        ]
        for (args, words) in refusals {
            let out = try friend.run(args)
            #expect(out.status == 1 && out.stderr.contains(words) && out.stderr.split(separator: "\n").count == 1, "\(args): \(out.stderr)")
        }
        #expect(try friend.eventCount() == count)
        // Once the friend has the exercise (by name), the template comes over onto it.
        #expect(try friend.run(["exercise", "add", "Arm Pulldown", "--muscle", "lats", "--equipment", "cable"]).status == 0)
        #expect(try friend.run(["template", "import", custom]).status == 0)
    }
}
