import Foundation
import LedgerTestSupport
import Testing

/// Issue 77, item 5: the logger's loose ends. Warm-ups planned for an
/// exercise a free workout does not have yet add it, as logging a set does;
/// a workout's summary shows set notes, as history does.
@Suite("ledger workout: warm-ups in a free workout, set notes in the summary")
struct LoggerLooseEndsRoundThreeCLITests {
    @Test("workout warmup on a free workout adds the exercise and says so; without a weight it is refused and nothing is appended")
    func warmupAddsTheExercise() throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        #expect(try cli.run(["settings", "unit", "kg"]).status == 0)
        let w = try #require(try cli.run(["workout", "start", "--name", "Legs", "--json"]).json?["workoutId"] as? String)

        let before = try cli.eventCount()
        let noWeight = try cli.run(["workout", "warmup", w, "Squat (Barbell)"])
        #expect(noWeight.status == 1 && noWeight.stderr.split(separator: "\n").count == 1, "\(noWeight.stderr)")
        #expect(try cli.eventCount() == before, "a refusal appends nothing, not even the exercise")

        let words = try cli.run(["workout", "warmup", w, "Squat (Barbell)", "--weight", "140kg"])
        #expect(words.status == 0, "\(words.stderr)")
        #expect(words.stdout.hasPrefix("Added Squat (Barbell) to the workout.\nPlanned "), "\(words.stdout)")
        let shown = try #require(try cli.run(["workout", "show", w, "--json"]).json?["exercises"] as? [[String: Any]])
        #expect(shown.count == 1 && shown.first?["exercise"] as? String == "Squat (Barbell)", "\(shown)")
        let sets = try #require(shown.first?["sets"] as? [[String: Any]])
        #expect(!sets.isEmpty && sets.allSatisfy { $0["type"] as? String == "warmup" && $0["state"] as? String == "planned" })
        #expect(sets.compactMap { $0["weightKg"] as? Double }.allSatisfy { $0 < 140 })

        // A second exercise, by JSON: `added` says it was added; one the workout has already is not.
        let bench = try #require(try cli.run(["workout", "warmup", w, "Bench Press (Barbell)", "--weight", "100kg", "--json"]).json)
        #expect(bench["added"] as? Bool == true && (bench["setIds"] as? [String])?.isEmpty == false, "\(bench)")
        #expect(try cli.run(["workout", "log", w, "Deadlift (Barbell)", "--weight", "60kg", "--reps", "5", "--type", "warmup"]).status == 0)
        let deadlift = try #require(try cli.run(["workout", "warmup", w, "Deadlift (Barbell)", "--weight", "180kg", "--json"]).json)
        #expect(deadlift["added"] as? Bool == false, "\(deadlift)")
    }

    @Test("workout summary shows each set's note, as history does; timed work's set rows carry theirs once")
    func summaryShowsSetNotes() throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        #expect(try cli.run(["settings", "unit", "kg"]).status == 0)
        let w = try #require(try cli.run(["workout", "start", "--name", "Push", "--json"]).json?["workoutId"] as? String)
        #expect(try cli.run(["workout", "log", w, "Bench Press (Barbell)", "--weight", "100kg", "--reps", "5"]).status == 0)
        #expect(
            try cli.run(["workout", "log", w, "Bench Press (Barbell)", "--weight", "100kg", "--reps", "4", "--notes", "left shoulder pinched"])
                .status == 0)
        #expect(try cli.run(["workout", "log", w, "Plank", "--duration", "60s", "--notes", "wobbly"]).status == 0)
        #expect(try cli.run(["workout", "finish", w]).status == 0)

        let history = try cli.run(["history", "--limit", "1"]).stdout
        #expect(history.contains("“left shoulder pinched”"), "\(history)")
        let summary = try cli.run(["workout", "summary", w]).stdout
        let benchLine = try #require(summary.split(separator: "\n").first { $0.contains("Bench Press (Barbell):") })
        #expect(benchLine.hasSuffix(" — set 2 “left shoulder pinched”"), "\(benchLine)")
        let plankLine = try #require(summary.split(separator: "\n").first { $0.contains("Plank:") })
        #expect(plankLine.components(separatedBy: "“wobbly”").count == 2, "once: \(plankLine)")
    }
}
