import Foundation
import LedgerTestSupport
import Testing

/// Notes (issue 31 point 2): a workout's, an exercise's and a set's, recorded
/// once and shown in every view that shows the workout.
@Suite("workout, exercise and set notes")
struct NotesCLITests {
    @Test("notes show in history, exercise history, summary, workout show, the report and the CSV export")
    func notesEverywhere() throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let w = try #require(
            try cli.run(["workout", "start", "--name", "Legs", "--at", "2026-11-20T18:00:00Z", "--json"]).json?["workoutId"] as? String)
        #expect(
            try cli.run([
                "workout", "log", w, "Squat (Barbell)", "--reps", "5", "--weight", "100kg", "--notes", "grindy last rep", "--at",
                "2026-11-20T18:05:00Z",
            ]).status == 0)
        #expect(try cli.run(["workout", "note", w, "Slept badly; kept it light"]).status == 0)
        #expect(try cli.run(["workout", "note", w, "Belt from the third set", "--exercise", "squat"]).status == 0)
        #expect(try cli.run(["workout", "finish", w, "--at", "2026-11-20T19:00:00Z"]).status == 0)

        let history = try #require(try cli.run(["history", "--json"]).json?["workouts"] as? [[String: Any]])
        #expect(history[0]["notes"] as? String == "Slept badly; kept it light")
        let squat = try #require((history[0]["exercises"] as? [[String: Any]])?.first)
        #expect(squat["note"] as? String == "Belt from the third set")
        #expect((squat["sets"] as? [[String: Any]])?.first?["notes"] as? String == "grindy last rep")
        let text = try cli.run(["history"]).stdout
        #expect(text.contains("note: Slept badly; kept it light") && text.contains("— Belt from the third set") && text.contains("“grindy last rep”"))

        let perExercise = try #require(try cli.run(["exercise", "history", "squat", "--json"]).json)
        #expect(perExercise.description.contains("grindy last rep"))
        // The exercise's note in the workout, and the exercise's own standing note.
        #expect((perExercise["workouts"] as? [[String: Any]])?.first?["note"] as? String == "Belt from the third set")
        #expect(try cli.run(["exercise", "edit", "squat", "--notes", "Safety pins at 9"]).status == 0)
        let perExerciseText = try cli.run(["exercise", "history", "squat"]).stdout
        #expect(
            perExerciseText.contains("notes: Safety pins at 9") && perExerciseText.contains("note: Belt from the third set"), "\(perExerciseText)")
        let summary = try #require(try cli.run(["workout", "summary", w, "--json"]).json)
        #expect(summary.description.contains("Slept badly") && summary.description.contains("Belt from the third set"))
        let summaryText = try cli.run(["workout", "summary", w]).stdout
        #expect(summaryText.contains("note: Slept badly") && summaryText.contains("— Belt from the third set"))
        let shown = try cli.run(["workout", "show", w]).stdout
        #expect(shown.contains("note: Slept badly") && shown.contains("note: Belt from the third set") && shown.contains("“grindy last rep”"))
        #expect(try cli.run(["workout", "show", w, "--json"]).json?["note"] as? String == "Slept badly; kept it light")

        let html = cli.folder.appendingPathComponent("report.html").path
        #expect(try cli.run(["report", "--html", html]).status == 0)
        #expect(try String(contentsOfFile: html, encoding: .utf8).contains("Slept badly; kept it light"))
        let csv = cli.folder.appendingPathComponent("history.csv").path
        #expect(try cli.run(["export", "csv", csv]).status == 0)
        let exported = try String(contentsOfFile: csv, encoding: .utf8)
        #expect(exported.contains("grindy last rep") && exported.contains("Slept badly; kept it light"))
        #expect(
            exported.contains("\"Belt from the third set\",\"grindy last rep\""),
            "the exercise's note in Strong's Notes column, the set's in Set Notes beside it")

        // Refusals: one line, exit 1, nothing appended. An empty note clears.
        let before = try cli.run(["log", "--json"]).stdout
        let notThere = try cli.run(["workout", "note", w, "x", "--exercise", "deadlift"])
        #expect(notThere.status == 1 && notThere.stderr.split(separator: "\n").count == 1, "\(notThere.stderr)")
        #expect(try cli.run(["workout", "note", w, String(repeating: "a", count: 10_001)]).status == 1)
        #expect(try cli.run(["log", "--json"]).stdout == before)
        #expect(try cli.run(["workout", "note", w, ""]).status == 0)
        #expect(try cli.run(["history", "--json"]).json.map { (($0["workouts"] as? [[String: Any]])?.first?["notes"]) is NSNull } == true)
    }
}
