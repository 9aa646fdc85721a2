import Foundation
import LedgerTestSupport
import Testing

/// Templates with targets (issue 31 point 11): each exercise's sets × reps
/// (or a duration), weight and rest, which a workout started from it plans.
@Suite("ledger template: targets")
struct TemplateTargetsCLITests {
    @Test(
        "create with targets, start a workout from it: planned sets carry them and the rest timer rests as the template says; edit replaces the lines"
    )
    func targets() throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        _ = try cli.json([
            "template", "create", "Upper A", "--exercise", "Bench Press (Barbell)", "--sets", "3", "--reps", "8-12", "--weight", "60kg",
            "--rest", "90s", "--exercise", "Pull Up", "--sets=2", "--reps=6-10", "--rest=2m", "--exercise", "plank", "--sets", "2",
            "--duration", "45s",
        ])
        let template = try #require((try cli.json(["template", "list"])["templates"] as? [[String: Any]])?.first)
        let lines = try #require(template["lines"] as? [[String: Any]])
        #expect(lines.map { $0["sets"] as? Int } == [3, 2, 2] && lines.map { $0["restSeconds"] as? Int } == [90, 120, nil])
        #expect(lines[0]["repsMin"] as? Int == 8 && lines[0]["repsMax"] as? Int == 12 && lines[0]["weightKg"] as? Double == 60)
        #expect(lines[2]["durationSeconds"] as? Double == 45)
        #expect(try cli.run(["template", "list"]).stdout.contains("Bench Press (Barbell) 3 × 8–12 @ 60 kg, rest 1:30"))

        // A copy keeps every target: weights, rests and durations.
        #expect(try cli.run(["template", "duplicate", "Upper A", "--json"]).status == 0)
        let copy = try #require(
            (try cli.json(["template", "list"])["templates"] as? [[String: Any]])?.first { $0["name"] as? String == "Upper A (copy)" })
        let copied = try #require(copy["lines"] as? [[String: Any]])
        #expect(copied.map { $0["restSeconds"] as? Int } == [90, 120, nil] && copied[0]["weightKg"] as? Double == 60)
        #expect(copied[2]["durationSeconds"] as? Double == 45 && copied.map { $0["sets"] as? Int } == [3, 2, 2])
        #expect(try cli.run(["template", "delete", "Upper A (copy)"]).status == 0)

        #expect(try cli.run(["settings", "rest", "--auto", "on"]).status == 0)
        let w = try cli.json(["workout", "start", "--template", "Upper A"])["workoutId"] as! String
        let shown = try #require(try cli.json(["workout", "show", w])["exercises"] as? [[String: Any]])
        #expect(shown.map { ($0["sets"] as? [Any])?.count } == [3, 2, 2])
        let bench = try #require((shown[0]["sets"] as? [[String: Any]])?.first)
        #expect(bench["weightKg"] as? Double == 60 && bench["reps"] as? Int == 12 && shown[0]["restSource"] as? String == "template")
        #expect(((shown[2]["sets"] as? [[String: Any]])?.first?["durationSeconds"] as? Double) == 45)
        let done = try cli.json(["workout", "complete", w, String((bench["setId"] as! String).prefix(8))])
        #expect(done["restSeconds"] as? Int == 90, "the template's rest")

        // Edit replaces the whole list; the same list again is nothing to change.
        _ = try cli.json(["template", "edit", "Upper A", "--exercise", "squat", "--sets", "5", "--reps", "5", "--weight", "100kg"])
        let edited = try #require((try cli.json(["template", "list"])["templates"] as? [[String: Any]])?.first?["lines"] as? [[String: Any]])
        #expect(edited.count == 1 && edited[0]["exerciseId"] as? String == "back-squat" && edited[0]["weightKg"] as? Double == 100)
        let same = try cli.run(["template", "edit", "Upper A", "--exercise", "squat", "--sets", "5", "--reps", "5", "--weight", "100kg"])
        #expect(same.status == 1 && same.stderr.contains("nothing to change"))
    }

    @Test(
        "bad targets: one line, nothing appended",
        arguments: [
            (["--sets", "3", "--exercise", "squat"], Int32(2), "give --exercise before its --sets"),
            (["--exercise", "squat", "--sets", "3", "--sets", "4"], 2, "--sets is given twice"),
            (["--exercise", "squat", "--reps", "12-8"], 1, "rep range '12-8' is malformed"),
            (["--exercise", "squat", "--sets", "40"], 1, "give 1 to 20 sets"),
            (["--exercise", "squat", "--rest", "2h"], 1, "rest 7200 s is refused"),
            (["--exercise", "squat", "--weight", "heavy"], 1, "weight 'heavy' is refused"),
            (["--exercise", "no such lift", "--sets", "3"], 1, "no such lift"),
        ])
    func refusals(extra: [String], status: Int32, words: String) throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        #expect(try cli.run(["template", "create", "Seed", "--exercise", "squat"]).status == 0)
        let before = try cli.eventCount()
        let out = try cli.run(["template", "create", "Legs"] + extra)
        #expect(out.status == status && out.stderr.contains(words), "\(out.stderr)")
        #expect(out.stderr.split(separator: "\n").count == 1, "\(out.stderr)")
        #expect(try cli.eventCount() == before)
    }
}
