import Foundation
import LedgerTestSupport
import RepLedgerCore
import RepLedgerSQLite
import Testing

/// Snapshots over a damaged log, answers by training date, planned sets and
/// routines, and `rebuild --diff` at the size of a real history.
@Suite("snapshots over a damaged log, --until, planned sets, rebuild --diff at scale")
struct TrainingDateAndPlanCLITests {
    /// A Strong export in its current layout, written by the test: two years of one routine.
    static func strongCSV() -> String {
        var text = "Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,Notes,Workout Notes,RPE\n"
        let days: [(String, Double)] = [("2022-03-01", 100), ("2022-09-01", 110), ("2022-12-20", 115), ("2023-02-01", 120), ("2023-06-01", 125)]
        for (day, kg) in days {
            for set in 1...3 {
                text += "\(day) 18:00:00,Push Day,1h,Bench Press (Barbell),\(set),\(kg),5,,,,,\n"
            }
            text += "\(day) 18:00:00,Push Day,1h,Overhead Press (Barbell),1,\(kg / 2),8,,,,,\n"
        }
        return text
    }

    func importedHistory() throws -> LedgerProcess {
        let cli = try LedgerProcess()
        let file = cli.folder.appendingPathComponent("strong.csv").path
        try Data(Self.strongCSV().utf8).write(to: URL(fileURLWithPath: file))
        let out = try cli.run(["import", "strong", file, "--unit", "kg", "--timezone", "UTC"])
        #expect(out.status == 0, "\(out.stderr)")
        return cli
    }

    func heaviestBench(_ cli: LedgerProcess, _ extra: [String]) throws -> Double? {
        let rows = try cli.run(["prs", "barbell-bench-press", "--json"] + extra).json?["exercises"] as? [[String: Any]]
        return rows?.first?["heaviestKg"] as? Double
    }

    @Test("--until answers by training date; --as-of stays the log's own time")
    func untilTrainingDate() throws {
        let cli = try importedHistory()
        defer { cli.cleanUp() }
        #expect(try heaviestBench(cli, []) == 125)
        #expect(try heaviestBench(cli, ["--until", "2022-12-31"]) == 115)
        #expect(try heaviestBench(cli, ["--until", "2022-12"]) == 115)
        #expect(try heaviestBench(cli, ["--until", "2022-09-01"]) == 110)  // a bare date counts that whole day
        #expect(try heaviestBench(cli, ["--until", "2022"]) == 115)
        // The import was recorded today: as of 2023-01-01 in log time there was nothing yet.
        #expect(try heaviestBench(cli, ["--as-of", "2023-01-01"]) == nil)
        let history = try cli.run(["history", "--json", "--until", "2022-12-31"]).json?["workouts"] as? [Any]
        #expect(history?.count == 3)
        let volume = try cli.run(["volume", "--by", "workout", "--json", "--until", "2023-01-31"]).json?["rows"] as? [Any]
        #expect(volume != nil)
        let hint = try cli.run(["hint", "barbell-bench-press", "--json", "--until", "2022-12-31"]).json
        #expect((hint?["date"] as? String)?.hasPrefix("2022-12-20") == true)
        #expect(try cli.run(["prs", "--until", "not-a-date"]).status == 1)
    }

    @Test("a query answered from a snapshot fails when the event under the snapshot is damaged: exit 3 at its position, as verify")
    func snapshotOverDamagedLog() throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        #expect(try cli.run(["demo"]).status == 0)
        #expect(try cli.run(["snapshot", "create"]).status == 0)
        let answered = try cli.run(["prs", "--verbose"])
        #expect(answered.status == 0 && answered.stderr.contains("snapshot"))

        // Damage the newest event's payload, as a bad disk or a hand edit would.
        let damaged = try cli.eventCount()
        let db = try SQLiteDatabase(path: cli.db)
        try db.execute(
            """
            DROP TRIGGER events_no_update;
            UPDATE events SET payload = X'07FF' WHERE position = (SELECT MAX(position) FROM events);
            """)
        for args in [["prs"], ["hint", "deadlift"], ["entitlements"], ["history"], ["e1rm", "deadlift"], ["prs", "--timeline"]] {
            let out = try cli.run(args)
            #expect(out.status == 3, "\(args): \(out.status) \(out.stderr)")
            #expect(
                out.stderr.hasPrefix("error: the log fails verification at position \(damaged): ") && out.stderr.split(separator: "\n").count == 1,
                "\(args): \(out.stderr)")
        }
        #expect(try cli.run(["verify"]).status == 3)
    }

    @Test("planned sets are completed in place, un-completed, and logged beyond the plan only with --extra")
    func plannedSets() throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        #expect(try cli.run(["template", "create", "Upper A", "--exercise", "Bench Press (Barbell)", "--exercise", "deadlift"]).status == 0)
        #expect(try cli.run(["workout", "start", "--template", "upper a"]).status == 0)
        func planned() throws -> [String] {
            try cli.run(["log", "--json", "--type", "SetAdded"]).stdout.split(separator: "\n").compactMap { line in
                let e = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
                return (e?["payload"] as? [String: Any])?["setId"] as? String
            }
        }
        func done() throws -> [[String: Any]] {
            let w = try cli.run(["workout", "summary", "last", "--json"]).json?["workout"] as? [String: Any]
            return ((w?["exercises"] as? [[String: Any]]) ?? []).flatMap { ($0["sets"] as? [[String: Any]]) ?? [] }
        }
        let plan = try planned()
        #expect(plan.count == 6)

        // `log` fills the first open planned set of the exercise.
        let logged = try cli.run(["workout", "log", "last", "Bench Press (Barbell)", "--reps", "8", "--weight", "80kg", "--json"])
        #expect(logged.json?["setId"] as? String == plan[0])
        // The template planned no reps: completing needs them; values given replace the plan's.
        let noReps = try cli.run(["workout", "complete", "last", String(plan[1].prefix(8))])
        #expect(noReps.status == 1 && noReps.stderr.contains("give --reps"))
        #expect(try cli.run(["workout", "complete", "last", String(plan[1].prefix(8)), "--reps", "8"]).status == 0)
        #expect(try cli.run(["workout", "complete", "last", String(plan[3].prefix(8)), "--reps", "5", "--weight", "140"]).status == 0)
        var sets = try done()
        #expect(sets.count == 3)
        #expect(sets.contains { $0["setId"] as? String == plan[3] && $0["reps"] as? Int == 5 && $0["weightKg"] as? Double == 140 })

        let again = try cli.run(["workout", "complete", "last", String(plan[1].prefix(8))])
        #expect(again.status == 1 && again.stderr.contains("completed already"))
        #expect(try cli.run(["workout", "uncomplete", "last", String(plan[1].prefix(8))]).status == 0)
        #expect(try done().count == 2)
        #expect(try cli.run(["workout", "uncomplete", "last", String(plan[1].prefix(8))]).status == 1)

        // Bench has planned sets open (1 and 2), so a log fills set 1; --extra adds a fourth bench set.
        #expect(try cli.run(["workout", "log", "last", "barbell-bench-press", "--reps", "6", "--json"]).json?["setId"] as? String == plan[1])
        let extra = try cli.run(["workout", "log", "last", "barbell-bench-press", "--reps", "6", "--extra", "--json"])
        let extraId = try #require(extra.json?["setId"] as? String)
        #expect(!plan.contains(extraId))
        sets = try done()
        #expect(sets.count == 4)
        #expect(try planned().count == 6)
    }

    @Test("start --template takes an imported routine's name and plans its last workout")
    func routineFromImport() throws {
        let cli = try importedHistory()
        defer { cli.cleanUp() }
        let started = try cli.run(["workout", "start", "--template", "push day", "--json", "--at", "2026-11-23T18:00:00Z"])
        #expect(started.status == 0, "\(started.stderr)")
        let w = try #require(started.json?["workoutId"] as? String)
        let planned = try cli.run(["log", "--json", "--type", "SetAdded", "--stream", "workout-\(w)"]).stdout.split(separator: "\n")
        #expect(planned.count == 4)  // the last Push Day: 3 bench sets and 1 press
        let first = try JSONSerialization.jsonObject(with: Data(planned[0].utf8)) as? [String: Any]
        let target = (first?["payload"] as? [String: Any])?["target"] as? [String: Any]
        #expect((target?["weight"] as? [String: Any])?["value"] as? Double == 125)
        // Completing with no values takes the plan: 125 kg × 5.
        let setId = try #require((first?["payload"] as? [String: Any])?["setId"] as? String)
        #expect(try cli.run(["workout", "complete", w, String(setId.prefix(8)), "--at", "2026-11-23T18:10:00Z"]).status == 0)
        let done = try cli.run(["workout", "summary", w, "--json"]).json?["workout"] as? [String: Any]
        let sets = ((done?["exercises"] as? [[String: Any]]) ?? []).flatMap { ($0["sets"] as? [[String: Any]]) ?? [] }
        #expect(sets.count == 1 && sets.first?["weightKg"] as? Double == 125 && sets.first?["reps"] as? Int == 5)
        // (With the routine's workout still in progress: --also starts a second one on purpose.)
        #expect(try cli.run(["workout", "start", "--template", "leg day", "--also"]).stderr.contains("no template 'leg day'"))
    }

    @Test(
        "rebuild --diff on a real Strong history: totals first, grouped per exercise, no line twice",
        .needsSharedData(.realExports))
    func rebuildDiffAtScale() throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let file = RealExports.folder.appendingPathComponent("strong_hipml_strong-unwrapped.csv").path
        #expect(try cli.run(["import", "strong", file, "--unit", "lb"]).status == 0)
        let rules = cli.folder.appendingPathComponent("brzycki.json").path
        try Data(#"{"id": "brzycki", "version": 1, "e1rmFormula": "brzycki"}"#.utf8).write(to: URL(fileURLWithPath: rules))
        let json = try cli.run(["rebuild", "--rules", rules, "--diff", "--json"])
        let changes = try #require(json.json?["diff"] as? [[String: Any]])
        let count = { (kind: String) in changes.filter { $0["change"] as? String == kind }.count }
        #expect(changes.count > 500)  // the detail is all there in JSON

        let text = try cli.run(["rebuild", "--rules", rules, "--diff"])
        #expect(text.status == 0)
        let lines = text.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count < 200, "\(lines.count) lines")
        let totals = try #require(lines.first { $0.hasPrefix("Against default") })
        #expect(totals.contains("\(count("recordGained")) records gained, \(count("recordLost")) lost"))
        #expect(totals.contains("e1RM moved in \(count("e1rmMoved")) workouts"))
        let nonEmpty = lines.filter { !$0.isEmpty }
        #expect(Set(nonEmpty).count == nonEmpty.count, "a line is repeated")
        let exercises = Set(changes.compactMap { $0["exercise"] as? String })
        for name in exercises {
            #expect(lines.filter { $0 == name || $0.hasPrefix(name + ": e1RM") }.count == 1, "\(name) is not one block")
        }
    }
}
