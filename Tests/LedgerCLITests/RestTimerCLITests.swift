import Foundation
import LedgerTestSupport
import Testing

/// The rest timer (issue 31 point 3): its settings, `workout rest`, the
/// start after a completed set when auto-start is on (not between a
/// superset's members), and the rest planned and taken in `summary`.
@Suite("ledger rest timer")
struct RestTimerCLITests {
    static let day = "2026-11-20T"

    @Test("settings rest 90s --auto on, on a new ledger (90 s is the default already), turns auto-start on")
    func theDefaultRestWithAutoOnANewLedger() throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let on = try cli.json(["settings", "rest", "90s", "--auto", "on"])
        #expect(on["restSeconds"] as? Int == 90 && on["autoStart"] as? Bool == true)
        let w = try cli.json(["workout", "start"])["workoutId"] as! String
        #expect(try cli.json(["workout", "log", w, "squat", "--reps", "5", "--weight", "100"])["restSeconds"] as? Int == 90)
    }

    @Test("settings: the default, an exercise's own rest and auto-start; off until chosen, so a set starts no rest")
    func settings() throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let fresh = try cli.json(["settings", "rest"])
        #expect(fresh["restSeconds"] as? Int == 90 && fresh["autoStart"] as? Bool == false)
        #expect(!FileManager.default.fileExists(atPath: cli.db), "showing the settings creates no ledger")

        let w = try cli.json(["workout", "start", "--at", Self.day + "09:00:00Z"])["workoutId"] as! String
        let set = try cli.json(["workout", "log", w, "squat", "--reps", "5", "--weight", "100", "--at", Self.day + "09:05:00Z"])
        #expect(set["restSeconds"] is NSNull, "auto-start is off until the lifter turns it on")

        #expect(try cli.run(["settings", "rest", "2m"]).status == 0)
        #expect(try cli.run(["settings", "rest", "3m", "--exercise", "Squat (Barbell)"]).status == 0)
        let on = try cli.json(["settings", "rest", "--auto", "on"])
        #expect(on["restSeconds"] as? Int == 120 && on["autoStart"] as? Bool == true)
        let own = try #require(on["exercises"] as? [[String: Any]])
        #expect(own.count == 1 && own.first?["exercise"] as? String == "Squat (Barbell)" && own.first?["restSeconds"] as? Int == 180)

        // 0 removes the exercise's own rest; the default applies again.
        #expect(try cli.run(["settings", "rest", "0", "--exercise", "squat"]).status == 0)
        #expect((try cli.json(["settings", "rest"])["exercises"] as? [Any])?.isEmpty == true)
    }

    @Test("a session: auto-start after each set, ±15 s, dismiss, none between a superset's members; summary shows planned against taken")
    func session() throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        for args in [["settings", "rest", "2m"], ["settings", "rest", "3m", "--exercise", "squat"], ["settings", "rest", "--auto", "on"]] {
            #expect(try cli.run(args).status == 0)
        }
        let w = try cli.json(["workout", "start", "--at", Self.day + "10:00:00Z"])["workoutId"] as! String
        func log(_ exercise: String, _ at: String) throws -> [String: Any] {
            try cli.json(["workout", "log", w, exercise, "--reps", "5", "--weight", "60", "--at", Self.day + at])
        }
        #expect(try log("squat", "10:05:00Z")["restSeconds"] as? Int == 180, "the exercise's own rest")
        let longer = try cli.json(["workout", "rest", w, "+15s", "--at", Self.day + "10:05:30Z"])
        #expect((longer["rest"] as? [String: Any])?["plannedSeconds"] as? Int == 195)
        let squat = (try cli.json(["workout", "show", w])["exercises"] as? [[String: Any]])?.first
        #expect(squat?["restSeconds"] as? Int == 180 && squat?["restSource"] as? String == "exercise")

        #expect(try log("squat", "10:09:00Z")["restSeconds"] as? Int == 180)
        #expect(try cli.run(["workout", "rest", w, "dismiss", "--at", Self.day + "10:10:00Z"]).status == 0)
        #expect(try log("bench", "10:12:00Z")["restSeconds"] as? Int == 120, "the default")
        #expect(try cli.run(["workout", "rest", w, "-15s", "--at", Self.day + "10:12:10Z"]).status == 0)

        // A superset of rows and curls: no rest after the row, the rest after the curl.
        for name in ["Bent Over Row (Barbell)", "Bicep Curl (Barbell)"] { #expect(try cli.run(["workout", "add", w, name]).status == 0) }
        #expect(try cli.run(["workout", "superset", w, "Bent Over Row (Barbell)", "Bicep Curl (Barbell)"]).status == 0)
        #expect(try log("Bent Over Row (Barbell)", "10:15:00Z")["restSeconds"] is NSNull)
        #expect(try log("Bicep Curl (Barbell)", "10:16:00Z")["restSeconds"] as? Int == 120)
        #expect(try log("Bent Over Row (Barbell)", "10:18:30Z")["restSeconds"] is NSNull)

        let summary = try cli.json(["workout", "summary", w])
        let rests = try #require(summary["rests"] as? [[String: Any]])
        // After each set a rest follows: planned (with its ±15 s) and taken, to the next set's completion; the row's are not rests.
        #expect(rests.map { $0["plannedSeconds"] as? Int } == [195, 180, 105, 120])
        #expect(rests.map { $0["takenSeconds"] as? Int } == [240, 180, 180, 150])
        let lines = try #require(summary["exercises"] as? [[String: Any]])
        func line(_ id: String) -> [String: Any]? { lines.first { $0["exerciseId"] as? String == id } }
        #expect(line("back-squat")?["restPlannedSeconds"] as? Int == 188 && line("back-squat")?["restTakenSeconds"] as? Int == 210)
        #expect(line("barbell-bench-press")?["restPlannedSeconds"] as? Int == 105)
        #expect(line("barbell-bench-press")?["restTakenSeconds"] as? Int == 180)
        let text = try cli.run(["workout", "summary", w]).stdout
        #expect(text.contains("Squat (Barbell): 2 sets, 600 kg  rest 3:08 planned, 3:30 taken"), "\(text)")
    }

    @Test("a rest started now counts down in `workout show`, and is gone from it once dismissed")
    func countingDown() throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let w = try cli.json(["workout", "start"])["workoutId"] as! String
        #expect(try cli.run(["workout", "rest", w, "start", "10m"]).status == 0)
        let counting = try #require(try cli.json(["workout", "show", w])["rest"] as? [String: Any])
        let left = try #require(counting["secondsLeft"] as? Int)
        #expect(counting["plannedSeconds"] as? Int == 600 && (540...600).contains(left), "\(counting)")
        #expect(try cli.run(["workout", "show", w]).stdout.contains("resting: "))
        #expect(try cli.run(["workout", "rest", w, "dismiss"]).status == 0)
        #expect(try cli.json(["workout", "show", w])["rest"] is NSNull)
    }

    @Test("a program day rests as the program says")
    func programRest() throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        #expect(try cli.run(["settings", "rest", "--auto", "on"]).status == 0)
        #expect(
            try cli.run([
                "program", "questionnaire", "--days", "3", "--minutes", "60", "--experience", "beginner", "--equipment", "barbell",
                "--at", Self.day + "07:59:00Z",
            ]).status == 0)
        let program = try cli.json(["program", "generate", "--seed", "4", "--at", Self.day + "08:00:00Z"])
        let first = try #require(((program["sessions"] as? [[String: Any]])?.first?["exercises"] as? [[String: Any]])?.first)
        let w = try cli.json(["workout", "start", "--program", "active", "--day", "1", "--at", Self.day + "09:00:00Z"])["workoutId"] as! String
        let shown = try cli.json(["workout", "show", w])
        let planned = (shown["exercises"] as? [[String: Any]])?.first { $0["exerciseId"] as? String == first["exerciseId"] as? String }
        #expect(planned?["restSeconds"] as? Int == first["restSeconds"] as? Int && planned?["restSource"] as? String == "program")
        let done = try cli.json([
            "workout", "log", w, first["exerciseId"] as! String, "--reps", "8", "--weight", "40", "--at", Self.day + "09:05:00Z",
        ])
        #expect(done["restSeconds"] as? Int == first["restSeconds"] as? Int)
    }

    @Test(
        "bad input: one line, nothing appended",
        arguments: [
            (["workout", "rest", "last", "+15s"], Int32(1), "no rest timer is counting down"),
            (["workout", "rest", "last", "dismiss"], 1, "no rest timer is counting down"),
            (["workout", "rest", "last", "later"], 2, "give start [LENGTH], +15s, -15s, pause, resume or dismiss"),
            (["workout", "rest", "last", "start", "2h"], 1, "rest 7200 s is refused"),
            (["workout", "rest", "last", "start", "soon"], 1, "duration 'soon'"),
            (["settings", "rest", "2h"], 1, "rest 7200 s is refused"),
            (["settings", "rest", "--auto", "maybe"], 1, "auto-start"),
            (["settings", "rest", "--exercise", "squat"], 1, "give the exercise's rest"),
            (["settings", "rest", "1m", "--exercise", "no such lift"], 1, "no such lift"),
        ])
    func refusals(args: [String], status: Int32, words: String) throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        #expect(try cli.run(["workout", "start"]).status == 0)
        let before = try cli.eventCount()
        let out = try cli.run(args)
        #expect(out.status == status && out.stderr.contains(words), "\(out.stderr)")
        #expect(out.stderr.split(separator: "\n").count == 1, "\(out.stderr)")
        #expect(try cli.eventCount() == before)
    }

    @Test("a finished workout's timer is history: refused")
    func finished() throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let w = try cli.json(["workout", "start", "--at", Self.day + "09:00:00Z"])["workoutId"] as! String
        #expect(try cli.run(["workout", "log", w, "squat", "--reps", "5", "--at", Self.day + "09:05:00Z"]).status == 0)
        #expect(try cli.run(["workout", "finish", w, "--at", Self.day + "09:30:00Z"]).status == 0)
        let before = try cli.eventCount()
        let out = try cli.run(["workout", "rest", w, "start"])
        #expect(out.status == 1 && out.stderr.contains("finished"), "\(out.stderr)")
        #expect(try cli.eventCount() == before)
    }
}
