import Foundation
import LedgerTestSupport
import Testing

/// Issue 45, row 6: after a watch workout, the ledger records its own
/// analysis (Markdown: planned against done, records, the last sessions of
/// the same kind, heart rate and energy); a hook, when set, hands it to an
/// outside engine, which fills in its own later. On a real Strong history
/// (Andrew50's, in lb), at its last bench weight.
@Suite("ledger workout analysis", .needsSharedData(.realExports))
struct WorkoutAnalysisCLITests {
    static let day = "2026-11-2"

    /// A watch session from the template: three bench sets, heart rate and energy, then finish.
    static func watchSession(_ cli: LedgerProcess, day: Int, weight: String, env: [String: String] = [:]) throws -> (String, LedgerProcess.Output) {
        let t = "2026-11-\(day)T"
        let w = try #require(
            try cli.run(["workout", "start", "--template", "Bench 8-12", "--at", t + "10:00:00Z", "--json"]).json?["workoutId"] as? String)
        for (i, reps) in [10, 9, 8].enumerated() {
            #expect(try cli.run(["workout", "log", w, "bench", "--reps", "\(reps)", "--weight", weight, "--at", t + "10:0\(i + 1):00Z"]).status == 0)
        }
        for (minute, bpm) in [(1, "128"), (2, "141"), (3, "137")] {
            #expect(try cli.run(["workout", "health", w, "--heart-rate", bpm, "--at", t + "10:0\(minute):30Z"]).status == 0)
        }
        #expect(try cli.run(["workout", "health", w, "--energy", "85", "--at", t + "10:04:00Z"]).status == 0)
        return (w, try cli.run(["workout", "finish", w, "--at", t + "10:30:00Z"], env: env))
    }

    @Test("a watch workout's finish records the ledger's analysis, hands it to the hook, and an engine fills in its own")
    func watchWorkoutAnalysed() throws {
        let (cli, weight) = try AndrewsStrongHistory.withBenchTemplate()
        defer { cli.cleanUp() }
        let (first, finished) = try Self.watchSession(cli, day: 20, weight: "\(weight)lb")
        #expect(finished.status == 0 && finished.stdout.contains("analysis"), "\(finished.stderr)")

        let hookOut = URL(fileURLWithPath: cli.db).deletingLastPathComponent().appendingPathComponent("hook")
        let hook = "cat > '\(hookOut.path).md'; printf '%s %s' \"$REPLEDGER_WORKOUT_ID\" \"$REPLEDGER_DB\" > '\(hookOut.path).env'"
        let (second, done) = try Self.watchSession(cli, day: 23, weight: "\(weight + 5)lb", env: ["REPLEDGER_ANALYSIS_HOOK": hook])
        #expect(done.status == 0, "\(done.stderr)")
        let answer = try #require(try cli.run(["workout", "analysis", second, "--json"]).json)
        let analyses = try #require(answer["analyses"] as? [[String: Any]])
        #expect(analyses.count == 1 && analyses.first?["engine"] as? String == "ledger")
        let markdown = try #require(analyses.first?["markdown"] as? String)
        // Deterministic: what the log says now is what was recorded, byte for byte.
        #expect(answer["ledgerAnalysis"] as? String == markdown)
        #expect(markdown.contains("| Bench Press (Barbell) | 3 × 8–12 | "), "\(markdown)")
        let heavier = "\(Int(weight) + 5) lb"
        #expect(markdown.contains("| \(heavier) × 10, \(heavier) × 9, \(heavier) × 8 |"), "\(markdown)")
        // The records section says what `workout summary` counts as records: a line per set, or none.
        let records = try #require(try cli.run(["workout", "summary", second, "--json"]).json?["records"] as? [[String: Any]])
        let section = try #require(markdown.components(separatedBy: "## Records\n\n").last?.components(separatedBy: "\n\n").first)
        #expect(records.isEmpty ? section == "None this time." : section.hasPrefix("- Bench Press (Barbell), \(heavier) × 10: "), "\(section)")
        // The last session of the same kind (the same template) is the first one, with its average heart rate.
        #expect(markdown.contains("| 2026-11-20 | Bench 8-12 | 30 | 3 | "), "\(markdown)")
        #expect(markdown.contains("135 avg") && markdown.contains("Heart rate 135 bpm average, 141 max (3 samples)"), "\(markdown)")
        #expect(markdown.contains("85 kcal of active energy"))
        // The hook read the same Markdown, with the workout and the ledger named.
        #expect(try String(contentsOf: URL(fileURLWithPath: hookOut.path + ".md"), encoding: .utf8) == markdown)
        let env = try String(contentsOf: URL(fileURLWithPath: hookOut.path + ".env"), encoding: .utf8)
        #expect(env.hasPrefix(second + " ") && env.hasSuffix("/" + URL(fileURLWithPath: cli.db).lastPathComponent), "\(env)")
        #expect(try #require(try cli.run(["workout", "analysis", first, "--json"]).json?["analyses"] as? [[String: Any]]).count == 1)

        // The outside engine fills in its own; a nameless or overlong engine is refused, nothing appended.
        let review = URL(fileURLWithPath: hookOut.path + "-review.md")
        try "## Coach's read\n\nBar speed held on set 3: add 5 lb next time.\n".write(to: review, atomically: true, encoding: .utf8)
        #expect(try cli.run(["workout", "analysis", second, "--engine", "assistant", "--file", review.path]).status == 0)
        let before = try cli.eventCount()
        for bad in ["", String(repeating: "x", count: 41)] {
            let out = try cli.run(["workout", "analysis", second, "--engine", bad, "--text", "hello"])
            #expect(out.status == 1 && out.stderr.contains("names its engine in 1 to 40 characters"), "\(out.stderr)")
        }
        // Recorded already, as it stands: said, nothing appended, exit 0.
        let again = try cli.run(["workout", "analysis", second, "--record"])
        #expect(again.status == 0 && again.stdout.contains("is recorded already, as it stands"), "\(again.stderr)")
        #expect(try cli.eventCount() == before)
        let both = try #require(try cli.run(["workout", "analysis", second, "--json"]).json?["analyses"] as? [[String: Any]])
        #expect(both.compactMap { $0["engine"] as? String } == ["ledger", "assistant"])
        #expect(try cli.run(["workout", "analysis", second]).stdout.contains("Bar speed held on set 3"))
    }

    @Test("a workout without watch samples records no analysis until asked; a failing hook is said and changes nothing")
    func plainWorkoutAndFailingHook() throws {
        let (cli, _) = try AndrewsStrongHistory.imported()
        defer { cli.cleanUp() }
        let w = try #require(try cli.run(["workout", "start", "--at", "2026-11-20T10:00:00Z", "--json"]).json?["workoutId"] as? String)
        #expect(try cli.run(["workout", "log", w, "bench", "--reps", "5", "--weight", "135lb", "--at", "2026-11-20T10:01:00Z"]).status == 0)
        #expect(try cli.run(["workout", "finish", w, "--at", "2026-11-20T10:30:00Z"]).status == 0)
        let none = try #require(try cli.run(["workout", "analysis", w, "--json"]).json)
        #expect((none["analyses"] as? [Any])?.isEmpty == true && none["ledgerAnalysis"] is String)
        let failing = try cli.run(["workout", "analysis", w, "--record"], env: ["REPLEDGER_ANALYSIS_HOOK": "exit 3"])
        #expect(failing.status == 0 && failing.stderr.contains("the analysis hook exited with 3"), "\(failing.stderr)")
        #expect(try #require(try cli.run(["workout", "analysis", w, "--json"]).json?["analyses"] as? [[String: Any]]).count == 1)
    }
}

/// Issue 77, item 5: a watch workout that reaches another device (a watch's
/// batch, `ledger import jsonl`, or a sync) runs that device's analysis hook
/// there, with the analysis the watch recorded; `--record` on it runs the
/// hook again instead of refusing. On ledgers made by the test alone.
@Suite("ledger workout analysis: the hook on the device a watch workout reaches")
struct AnalysisHookOnArrivalCLITests {
    @Test("a watch's batch runs the phone's hook once per watch workout, with the watch's analysis; --record runs it again, appending nothing")
    func batchRunsTheHook() throws {
        let watch = try LedgerProcess(), phone = try LedgerProcess()
        defer { watch.cleanUp(); phone.cleanUp() }
        #expect(try phone.run(["settings", "unit", "kg"]).status == 0)
        let w = try #require(
            try watch.run(["workout", "start", "--name", "Watch bench", "--at", "2026-11-20T10:00:00Z", "--json"]).json?["workoutId"] as? String)
        for (i, reps) in [8, 8, 7].enumerated() {
            #expect(
                try watch.run([
                    "workout", "log", w, "Bench Press (Barbell)", "--reps", "\(reps)", "--weight", "80kg", "--at", "2026-11-20T10:0\(i + 1):00Z",
                ]).status == 0)
        }
        #expect(try watch.run(["workout", "health", w, "--heart-rate", "131", "--at", "2026-11-20T10:02:30Z"]).status == 0)
        #expect(try watch.run(["workout", "finish", w, "--at", "2026-11-20T10:30:00Z"]).status == 0)
        let recorded = try #require(
            (try watch.run(["workout", "analysis", w, "--json"]).json?["analyses"] as? [[String: Any]])?.first?["markdown"] as? String)
        let batch = watch.folder.appendingPathComponent("watch.jsonl").path
        #expect(try watch.run(["export", "jsonl", batch]).status == 0)

        let out = phone.folder.appendingPathComponent("hook")
        let hook = "cat > '\(out.path).md'; printf '%s\\n' \"$REPLEDGER_WORKOUT_ID\" >> '\(out.path).ids'"
        let merged = try phone.run(["import", "jsonl", batch], env: ["REPLEDGER_ANALYSIS_HOOK": hook])
        #expect(merged.status == 0, "\(merged.stderr)")
        #expect(try String(contentsOfFile: out.path + ".md", encoding: .utf8) == recorded, "the watch's analysis, byte for byte")
        #expect(try String(contentsOfFile: out.path + ".ids", encoding: .utf8) == w + "\n")
        // The same batch again brings nothing: the hook does not run twice.
        #expect(try phone.run(["import", "jsonl", batch], env: ["REPLEDGER_ANALYSIS_HOOK": hook]).status == 0)
        #expect(try String(contentsOfFile: out.path + ".ids", encoding: .utf8) == w + "\n")

        // Asked to record it, the phone says it is recorded already and runs its hook again; nothing is appended.
        let before = try phone.eventCount()
        let again = try phone.run(["workout", "analysis", w, "--record"], env: ["REPLEDGER_ANALYSIS_HOOK": hook])
        #expect(again.status == 0 && again.stdout.contains("is recorded already, as it stands; the hook ran"), "\(again.stdout)\(again.stderr)")
        #expect(try String(contentsOfFile: out.path + ".ids", encoding: .utf8) == w + "\n" + w + "\n")
        #expect(try phone.eventCount() == before)
    }
}
