import Foundation
import LedgerTestSupport
import Testing

/// Editing a workout (issue 31 point 1): add, remove and reorder exercises,
/// duplicate and move sets; a finished workout only with --history-edit.
@Suite("editing a workout")
struct WorkoutEditingCLITests {
    @Test("add, reorder, duplicate, move and remove, as the plan and the history show them; refusals append nothing")
    func editing() throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        func json(_ args: [String]) throws -> [String: Any] {
            let out = try cli.run(args + ["--json"])
            #expect(out.status == 0, "\(args): \(out.stderr)")
            return out.json ?? [:]
        }
        func exercises(_ w: String) throws -> [(name: String, sets: [[String: Any]])] {
            try (json(["workout", "show", w])["exercises"] as? [[String: Any]] ?? []).map {
                ($0["exercise"] as? String ?? "", $0["sets"] as? [[String: Any]] ?? [])
            }
        }
        let w = try #require(try json(["workout", "start", "--name", "Mixed", "--at", "2026-11-20T18:00:00Z"])["workoutId"] as? String)
        let bench = try #require(
            try json(["workout", "log", w, "Bench Press (Barbell)", "--reps", "8", "--weight", "80kg", "--at", "2026-11-20T18:05:00Z"])["setId"]
                as? String)
        let squat = try #require(
            try json(["workout", "log", w, "Squat (Barbell)", "--reps", "5", "--weight", "120kg", "--at", "2026-11-20T18:10:00Z"])["setId"] as? String
        )

        // Added mid-workout, then the order changed.
        #expect(try json(["workout", "add", w, "Face Pull (Cable)", "--at", "2026-11-20T18:12:00Z"])["entryId"] is String)
        #expect(try exercises(w).map(\.name) == ["Bench Press (Barbell)", "Squat (Barbell)", "Face Pull (Cable)"])
        #expect(try cli.run(["workout", "reorder", w, "Squat (Barbell)", "Face Pull (Cable)", "Bench Press (Barbell)"]).status == 0)
        #expect(try exercises(w).map(\.name) == ["Squat (Barbell)", "Face Pull (Cable)", "Bench Press (Barbell)"])

        // A set duplicated: the same values in the same exercise, done.
        let copy = try #require(try json(["workout", "duplicate-set", w, String(bench.prefix(8))])["setId"] as? String)
        let benchSets = try #require(try exercises(w).first { $0.name == "Bench Press (Barbell)" }?.sets)
        #expect(
            benchSets.count == 2
                && benchSets.allSatisfy { $0["weightKg"] as? Double == 80 && $0["reps"] as? Int == 8 && $0["state"] as? String == "done" })
        #expect(benchSets.contains { $0["setId"] as? String == copy })

        // A set moved to the exercise it belonged to: gone from squat, under front squat with its values.
        let moved = try #require(try json(["workout", "move-set", w, squat, "Front Squat (Barbell)"])["setId"] as? String)
        let after = try exercises(w)
        #expect(after.first { $0.name == "Squat (Barbell)" }?.sets.isEmpty == true)
        let front = try #require(after.first { $0.name == "Front Squat (Barbell)" }?.sets)
        #expect(front.count == 1 && front[0]["setId"] as? String == moved && front[0]["weightKg"] as? Double == 120 && front[0]["reps"] as? Int == 5)

        // Removed, with its sets.
        #expect(try cli.run(["workout", "remove", w, "Face Pull (Cable)"]).status == 0)
        #expect(try !exercises(w).map(\.name).contains("Face Pull (Cable)"))

        // Refusals: one line, exit 1, nothing appended.
        let before = try cli.run(["log", "--json"]).stdout
        for bad in [
            ["workout", "reorder", w, "Bench Press (Barbell)"],  // not every exercise
            ["workout", "reorder", w, "Deadlift (Barbell)", "Squat (Barbell)", "Front Squat (Barbell)"],  // not in the workout
            ["workout", "remove", w, "Deadlift (Barbell)"], ["workout", "duplicate-set", w, "ffffffff"],
            ["workout", "move-set", w, moved, "Front Squat (Barbell)"],  // the same exercise
            ["workout", "move-set", w, moved, "Running"],  // a set of reps cannot become a run
        ] {
            let out = try cli.run(bad)
            #expect(out.status == 1 && out.stderr.split(separator: "\n").count == 1, "\(bad): \(out.stderr)")
        }
        #expect(try cli.run(["log", "--json"]).stdout == before)

        // Finished: only with --history-edit; the history shows the edited workout.
        #expect(try cli.run(["workout", "finish", w, "--at", "2026-11-20T19:00:00Z"]).status == 0)
        #expect(try cli.run(["workout", "duplicate-set", w, moved]).status == 1)
        #expect(try cli.run(["workout", "duplicate-set", w, moved, "--history-edit"]).status == 0)
        let history = try #require((try json(["history"])["workouts"] as? [[String: Any]])?.first)
        let names = (history["exercises"] as? [[String: Any]] ?? []).compactMap { $0["exercise"] as? String }
        #expect(names == ["Bench Press (Barbell)", "Front Squat (Barbell)"])  // in the workout's order: the moved set's exercise was added last
        #expect(history["sets"] as? Int == 4)
    }
}

/// Supersets (issue 31 point 4): linked and unlinked by command, shown as one
/// group in workout show, summary and history, as imported supersets are.
@Suite("supersets")
struct SupersetCLITests {
    @Test("superset and unlink: the group shows as [A] in show, summary and history; refusals append nothing")
    func linkAndUnlink() throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let w = try #require(try cli.run(["workout", "start", "--name", "Upper", "--json"]).json?["workoutId"] as? String)
        for x in ["Bench Press (Barbell)", "Bent Over Row (Barbell)", "Triceps Pushdown (Cable)"] {
            #expect(try cli.run(["workout", "log", w, x, "--reps", "10", "--weight", "40kg"]).status == 0)
        }
        let linked = try cli.run(["workout", "superset", w, "Bench Press (Barbell)", "Bent Over Row (Barbell)", "--json"])
        #expect(linked.status == 0, "\(linked.stderr)")
        let superset = try #require(linked.json?["supersetId"] as? String)
        let plan = try #require(try cli.run(["workout", "show", w, "--json"]).json?["exercises"] as? [[String: Any]])
        #expect(plan.map { $0["supersetId"] as? String } == [superset, superset, nil])
        let shown = try cli.run(["workout", "show", w]).stdout
        #expect(shown.contains("1. [A] Bench Press (Barbell)") && shown.contains("2. [A] Bent Over Row (Barbell)") && shown.contains("3. Triceps"))
        #expect(try cli.run(["workout", "summary", w]).stdout.contains("[A] Bent Over Row (Barbell)"))
        let history = try #require(
            (try cli.run(["history", "--json"]).json?["workouts"] as? [[String: Any]])?.first?["exercises"] as? [[String: Any]])
        #expect(history.map { $0["supersetId"] as? String } == [superset, superset, nil])
        #expect(try cli.run(["history"]).stdout.contains("[A] Bench Press (Barbell)"))

        let before = try cli.run(["log", "--json"]).stdout
        for bad in [
            ["workout", "superset", w, "Bench Press (Barbell)"],  // one exercise
            ["workout", "superset", w, "Bench Press (Barbell)", "Deadlift (Barbell)"],  // not in the workout
            ["workout", "superset", w, "Bench Press (Barbell)", "Bent Over Row (Barbell)"],  // linked already
            ["workout", "unlink", w, "Triceps Pushdown (Cable)"],  // in no superset
        ] {
            let out = try cli.run(bad)
            #expect(out.status == 1 && out.stderr.split(separator: "\n").count == 1, "\(bad): \(out.stderr)")
        }
        #expect(try cli.run(["log", "--json"]).stdout == before)
        #expect(try cli.run(["workout", "unlink", w, "Bent Over Row (Barbell)"]).status == 0)
        #expect(!(try cli.run(["workout", "show", w]).stdout.contains("[A]")))
    }

    @Test("a real Hevy export's supersets show the same way", .needsSharedData(.realExports))
    func importedSupersets() throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let file = RealExports.folder.appendingPathComponent("hevy_NathanN-275_Lifting-stats.csv").path
        #expect(try cli.run(["import", "hevy", file, "--timezone", "UTC"]).status == 0)
        let workouts = try #require(try cli.run(["history", "--json"]).json?["workouts"] as? [[String: Any]])
        let grouped = workouts.first { w in
            let ids = (w["exercises"] as? [[String: Any]] ?? []).compactMap { $0["supersetId"] as? String }
            return ids.count >= 2 && Set(ids).count < ids.count
        }
        let workout = try #require(grouped?["workoutId"] as? String)
        #expect(try cli.run(["workout", "show", workout]).stdout.contains("[A] "))
    }
}
