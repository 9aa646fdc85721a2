import Foundation
import LedgerTestSupport
import Testing

/// The lifter's changes to the exercise library (issue 31 point 5): rename,
/// edit (muscles, equipment, kind, notes, unilateral), archive and
/// unarchive, favourites and recents; history follows the exercise's id.
@Suite("ledger exercise: rename, edit, archive, favourites, recents")
struct ExerciseLibraryCLITests {
    static let day = "2026-11-"

    func workout(_ cli: LedgerProcess, on day: String, _ sets: [(String, String)]) throws -> String {
        let w = try cli.json(["workout", "start", "--at", Self.day + day + "T09:00:00Z"])["workoutId"] as! String
        for (i, (exercise, weight)) in sets.enumerated() {
            let at = Self.day + day + "T09:\(10 + i):00Z"
            #expect(try cli.run(["workout", "log", w, exercise, "--reps", "8", "--weight", weight, "--at", at]).status == 0)
        }
        #expect(try cli.run(["workout", "finish", w, "--at", Self.day + day + "T10:00:00Z"]).status == 0)
        return w
    }

    @Test("rename: the history follows; a name another exercise has is refused, nothing appended")
    func rename() throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        _ = try workout(cli, on: "02", [("Squat (Barbell)", "100")])
        let renamed = try cli.json(["exercise", "rename", "Squat (Barbell)", "Back Squat"])
        #expect(renamed["name"] as? String == "Back Squat" && renamed["exerciseId"] as? String == "back-squat")
        let history = try cli.json(["exercise", "history", "Back Squat"])
        #expect((history["workouts"] as? [Any])?.count == 1)
        #expect(try cli.run(["history"]).stdout.contains("Back Squat"))

        let before = try cli.eventCount()
        let taken = try cli.run(["exercise", "rename", "Back Squat", "Bench Press (Barbell)"])
        #expect(taken.status == 1 && taken.stderr.contains("Bench Press (Barbell)"), "\(taken.stderr)")
        let empty = try cli.run(["exercise", "rename", "Back Squat", " "])
        #expect(empty.status == 1 && empty.stderr.split(separator: "\n").count == 1, "\(empty.stderr)")
        #expect(try cli.eventCount() == before)
    }

    @Test("edit: a unilateral exercise's volume counts each side once (20 kg × 8 is 320 kg), its records stay per side; notes and kind")
    func unilateral() throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        #expect(try cli.run(["exercise", "add", "Single-Arm Row", "--muscle", "back", "--equipment", "dumbbell"]).status == 0)
        let w = try workout(cli, on: "03", [("Single-Arm Row", "20")])
        #expect(try cli.json(["workout", "summary", w])["workout"].flatMap { ($0 as? [String: Any])?["tonnageKg"] as? Double } == 160)

        let edited = try cli.json(["exercise", "edit", "Single-Arm Row", "--unilateral", "on", "--notes", "bench height 3"])
        #expect(edited["unilateral"] as? Bool == true && edited["notes"] as? String == "bench height 3")
        let summary = try cli.json(["workout", "summary", w])
        #expect((summary["workout"] as? [String: Any])?["tonnageKg"] as? Double == 320)
        #expect((summary["exercises"] as? [[String: Any]])?.first?["tonnageKg"] as? Double == 320)
        let prs = try #require((try cli.json(["prs", "Single-Arm Row"])["exercises"] as? [[String: Any]])?.first)
        #expect(prs["heaviestKg"] as? Double == 20 && prs["bestSetVolumeKg"] as? Double == 320, "\(prs)")
        // The same answers from a snapshot of the fold: the library's edits are in its encoding.
        #expect(try cli.run(["snapshot", "create"]).status == 0)
        let again = try cli.json(["workout", "summary", w])
        #expect((again["workout"] as? [String: Any])?["tonnageKg"] as? Double == 320)
        let shown = try cli.run(["exercise", "show", "Single-Arm Row"]).stdout
        #expect(shown.contains("unilateral") && shown.contains("notes: bench height 3"), "\(shown)")

        let kind = try cli.json(["exercise", "edit", "Single-Arm Row", "--kind", "isometric", "--notes", ""])
        #expect(kind["kind"] as? String == "isometric" && kind["notes"] is NSNull && kind["unilateral"] as? Bool == true)

        let before = try cli.eventCount()
        for bad in [
            ["exercise", "edit", "Single-Arm Row"], ["exercise", "edit", "Single-Arm Row", "--muscle", "wings"],
            ["exercise", "edit", "Single-Arm Row", "--unilateral", "maybe"], ["exercise", "edit", "Single-Arm Row", "--kind", "isometric"],
            ["exercise", "edit", "no such lift", "--notes", "x"],
        ] {
            let out = try cli.run(bad)
            #expect(out.status == 1 && out.stderr.split(separator: "\n").count == 1, "\(bad): \(out.stderr)")
        }
        #expect(try cli.eventCount() == before)
    }

    @Test("archive: kept in history, out of the list and refused for new sets; unarchive brings it back")
    func archive() throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        _ = try workout(cli, on: "04", [("Upright Row (Barbell)", "30")])
        #expect(try cli.json(["exercise", "archive", "Upright Row (Barbell)"])["archived"] as? Bool == true)
        func listed(_ extra: [String] = []) throws -> [String] {
            (try cli.json(["exercise", "list"] + extra)["exercises"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
        }
        #expect(try !listed().contains("Upright Row (Barbell)") && listed(["--all"]).contains("Upright Row (Barbell)"))
        #expect((try cli.json(["exercise", "history", "Upright Row (Barbell)"])["workouts"] as? [Any])?.count == 1)
        let w = try cli.json(["workout", "start"])["workoutId"] as! String
        let before = try cli.eventCount()
        let refused = try cli.run(["workout", "log", w, "Upright Row (Barbell)", "--reps", "8"])
        #expect(refused.status == 1 && refused.stderr.contains("archived"), "\(refused.stderr)")
        #expect(try cli.run(["exercise", "archive", "Upright Row (Barbell)"]).status == 1)
        #expect(try cli.eventCount() == before)

        #expect(try cli.json(["exercise", "unarchive", "Upright Row (Barbell)"])["archived"] as? Bool == false)
        #expect(try listed().contains("Upright Row (Barbell)"))
        #expect(try cli.run(["workout", "log", w, "Upright Row (Barbell)", "--reps", "8"]).status == 0)
    }

    @Test("favourites and recents")
    func favouritesAndRecents() throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        _ = try workout(cli, on: "05", [("Squat (Barbell)", "100"), ("Deadlift (Barbell)", "140")])
        _ = try workout(cli, on: "07", [("Bench Press (Barbell)", "80")])
        _ = try workout(cli, on: "09", [("Squat (Barbell)", "102.5")])
        let recent = try #require(try cli.json(["exercise", "list", "--recent"])["exercises"] as? [[String: Any]])
        #expect(recent.compactMap { $0["name"] as? String } == ["Squat (Barbell)", "Bench Press (Barbell)", "Deadlift (Barbell)"])
        #expect(recent.first?["lastDone"] as? String == "2026-11-09T09:10:00Z")
        #expect((try cli.json(["exercise", "list", "--recent", "--limit", "1"])["exercises"] as? [Any])?.count == 1)

        for name in ["Bench Press (Barbell)", "Pull Up"] { #expect(try cli.run(["exercise", "favourite", name]).status == 0) }
        func favourites() throws -> [String] {
            (try cli.json(["exercise", "list", "--favourites"])["exercises"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
        }
        #expect(try favourites() == ["Bench Press (Barbell)", "Pull Up"])
        let before = try cli.eventCount()
        #expect(try cli.run(["exercise", "favourite", "Pull Up"]).status == 1, "a favourite already")
        #expect(try cli.eventCount() == before)
        #expect(try cli.run(["exercise", "favourite", "Pull Up", "--off"]).status == 0)
        #expect(try favourites() == ["Bench Press (Barbell)"])
        #expect(try cli.run(["exercise", "list", "--favourites"]).stdout.contains("★ Bench Press (Barbell)"))
    }
}
