import Foundation
import LedgerTestSupport
import Testing

/// Inside a workout, a name means the workout's own exercise first (issue 52,
/// point 2): on a lifter's real history, through the CLI.
@Suite("ledger workout: the workout is the context for names", .needsSharedData(.realExports))
struct WorkoutContextCLITests {
    @Test("log, note and swap find the workout's own pushdown and shoulder press; an exercise the workout lacks is added and said so")
    func namesMeanTheWorkoutsExercises() throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let history = RealExports.folder.appendingPathComponent("hevy_NathanN-275_Lifting-stats.csv").path
        #expect(try cli.run(["import", "hevy", history, "--timezone", "UTC"]).status == 0)
        let w = try #require(try cli.run(["workout", "start", "--name", "Arms", "--json"]).json?["workoutId"] as? String)
        for exercise in ["Triceps Pushdown - Rope Attachment", "Seated Shoulder Press (Dumbbell)"] {
            #expect(try cli.run(["workout", "add", w, exercise]).status == 0)
        }
        let pushdown = try cli.run(["workout", "log", w, "pushdown", "--reps", "12", "--weight", "20", "--json"])
        #expect(pushdown.status == 0, "\(pushdown.stderr)")
        #expect(pushdown.json?["addedExercise"] == nil)
        let press = try cli.run(["workout", "log", w, "shoulder press", "--reps", "10", "--weight", "16"])
        #expect(press.status == 0, "\(press.stderr)")
        #expect(press.stdout.contains("Seated Shoulder Press (Dumbbell)") && !press.stdout.contains("added"), "\(press.stdout)")
        #expect(try cli.run(["workout", "note", w, "rope to the hips", "--exercise", "pushdown"]).status == 0)

        let show = try #require(try cli.run(["workout", "show", w, "--json"]).json)
        let exercises = try #require(show["exercises"] as? [[String: Any]])
        #expect(exercises.map { $0["exerciseId"] as? String } == ["triceps-pushdown-rope-attachment", "dumbbell-shoulder-press"])
        #expect(exercises.map { ($0["sets"] as? [Any])?.count } == [1, 1])
        #expect(exercises.first?["note"] as? String == "rope to the hips")

        // One the workout lacks: added, and the answer says so in words and in JSON.
        let squat = try cli.run(["workout", "log", w, "Squat (Barbell)", "--reps", "5", "--weight", "100"])
        #expect(squat.stdout.contains("not in the workout until now: added to it"), "\(squat.stdout)")
        let curl = try #require(try cli.run(["workout", "log", w, "Bicep Curl (Dumbbell)", "--reps", "10", "--weight", "12", "--json"]).json)
        #expect(curl["addedExercise"] as? String != nil)
        // Two of the workout's own presses now: a bare "press" is listed, never picked.
        #expect(try cli.run(["workout", "add", w, "Bench Press (Barbell)"]).status == 0)
        let ambiguous = try cli.run(["workout", "log", w, "press", "--reps", "5"])
        #expect(ambiguous.status == 1)
        #expect(ambiguous.stderr.contains("Seated Shoulder Press (Dumbbell)") && ambiguous.stderr.contains("Bench Press (Barbell)"))
        // swap takes its first name from the workout too.
        #expect(try cli.run(["workout", "swap", w, "pushdown", "Triceps Pushdown (Cable)"]).status == 0)

        // A typo suggests what this lifter does first: their bench presses, not Bench Dips or Bench Jump.
        let typo = try cli.run(["workout", "log", w, "benhc", "--reps", "5"])
        #expect(typo.status == 1)
        #expect(typo.stderr.contains("did you mean Bench Press (Barbell), Bench Press (Dumbbell)"), "\(typo.stderr)")
        let fresh = try LedgerProcess()
        defer { fresh.cleanUp() }
        #expect(try fresh.run(["workout", "start"]).status == 0)
        #expect(try fresh.run(["workout", "log", "last", "benhc", "--reps", "5"]).stderr.contains("did you mean Bench Dips"))
    }
}

/// `workout swap` (issue 52, point 3): the answer names the exercises as
/// resolved, and planned sets follow the new exercise without the old one's load.
@Suite("ledger workout swap: what it swapped, and no borrowed load")
struct WorkoutSwapCLITests {
    @Test("a lat pulldown planned at 90 lb × 10, swapped for pull-ups: the answer names both; the pull-ups are planned × 10, no load")
    func swapKeepsRepsNotLoad() throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        #expect(
            try cli.run([
                "template", "create", "Back", "--exercise", "Lat Pulldown (Cable)", "--sets", "3", "--reps", "10", "--weight", "90lb",
            ]).status == 0)
        let w = try #require(try cli.run(["workout", "start", "--template", "Back", "--json"]).json?["workoutId"] as? String)
        #expect(try cli.run(["workout", "log", w, "pulldown", "--reps", "10", "--weight", "90lb"]).status == 0)
        let swap = try cli.run(["workout", "swap", w, "pulldown", "pull up"])
        #expect(swap.status == 0, "\(swap.stderr)")
        #expect(
            swap.stdout.contains("Swapped Lat Pulldown (Cable) for Pull Up; its 2 planned sets follow without Lat Pulldown (Cable)'s load"),
            "\(swap.stdout)")
        let show = try #require(try cli.run(["workout", "show", w, "--json"]).json)
        let entry = try #require((show["exercises"] as? [[String: Any]])?.first)
        #expect(entry["exerciseId"] as? String == "pull-up")
        let sets = try #require(entry["sets"] as? [[String: Any]])
        let planned = sets.filter { $0["state"] as? String == "planned" }
        #expect(planned.count == 2)
        #expect(planned.allSatisfy { $0["weightKg"] is NSNull || $0["weightKg"] == nil })
        #expect(planned.allSatisfy { $0["reps"] as? Int == 10 })
        // The set done before the swap keeps its exercise and its load.
        let before = try #require((entry["swappedOut"] as? [[String: Any]])?.first)
        #expect(before["exerciseId"] as? String == "lat-pulldown")
        let doneSet = try #require((before["sets"] as? [[String: Any]])?.first)
        #expect(abs((doneSet["weightKg"] as? Double ?? 0) - 90 * 0.45359237) < 0.01)
    }
}
