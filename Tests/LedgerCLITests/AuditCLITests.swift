import Foundation
import LedgerTestSupport
import RepLedgerCore
import Testing

@Suite("ledger audit commands", .serialized)
struct AuditCLITests {
    /// A workout with a set logged on the phone and corrected on the web; returns (workout, set, edit position).
    func session(_ cli: LedgerProcess) throws -> (String, String, Int) {
        let w = try #require(
            try cli.run(["workout", "start", "--name", "Legs", "--at", "2026-11-02T07:00:00Z", "--json"]).json?["workoutId"] as? String)
        let set = try #require(
            try cli.run([
                "workout", "log", w, "back-squat", "--reps", "5", "--weight", "140",
                "--at", "2026-11-02T07:10:00Z", "--json",
            ]).json?["setId"] as? String)
        #expect(try cli.run(["workout", "log", w, "back-squat", "--reps", "5", "--weight", "140", "--at", "2026-11-02T07:13:00Z"]).status == 0)
        #expect(try cli.run(["workout", "finish", w, "--at", "2026-11-02T08:00:00Z"]).status == 0)
        #expect(try cli.run(["workout", "edit-set", w, set, "--weight", "145", "--history-edit", "--at", "2026-11-02T20:00:00Z"]).status == 0)
        return (w, set, try cli.eventCount())
    }

    @Test("replay shows each step, and --json gives position, event and state; --until stops early")
    func replay() throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let (w, _, last) = try session(cli)
        let human = try cli.run(["replay", w])
        #expect(human.status == 0)
        #expect(human.stdout.contains("weight edited from 140 kg to 145 kg [history edit]"))
        // --states: the workout after each step, down to its sets.
        let states = try cli.run(["replay", w, "--states"]).stdout.split(separator: "\n").map(String.init)
        #expect(states.filter { $0.hasPrefix("    = ") }.count == 6, "\(states)")
        #expect(states.suffix(2).first == "      Squat (Barbell): 145 kg × 5, 140 kg × 5", "\(states)")
        #expect(states.contains("    = finished, 1 exercise, 2 completed sets") && states.contains("    = running, 1 exercise, 1 completed set"))
        let steps = try #require(try JSONSerialization.jsonObject(with: Data(try cli.run(["replay", w, "--json"]).stdout.utf8)) as? [[String: Any]])
        #expect(steps.count == 6)  // started, exercise added, 2 sets, finished, edited
        #expect(steps.map { $0["position"] as? Int } == Array(last - 5...last).map { Optional($0) })
        let finalState = try #require(steps.last?["state"] as? [String: Any])
        #expect(finalState["status"] as? String == "finished")
        #expect((finalState["sets"] as? [[String: Any]])?.first?["weightKg"] as? Double == 145)
        #expect((steps.last?["event"] as? [String: Any])?["type"] as? String == "SetEdited")
        let early = try #require(
            try JSONSerialization.jsonObject(with: Data(try cli.run(["replay", w, "--json", "--until", "\(last - 2)"]).stdout.utf8))
                as? [[String: Any]])
        #expect(early.count == 4)
        #expect((early.last?["state"] as? [String: Any])?["status"] as? String == "running")
    }

    @Test("blame lists every event that touched a set; show prints one event by position or id")
    func blameAndShow() throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let (w, set, last) = try session(cli)
        let blame = try #require(try cli.run(["blame", w, String(set.prefix(8)), "--json"]).json)
        let events = try #require(blame["events"] as? [[String: Any]])
        #expect(events.map { $0["type"] as? String } == ["SetLogged", "SetEdited"])
        #expect(events.map { $0["occurredAt"] as? String } == ["2026-11-02T07:10:00Z", "2026-11-02T20:00:00Z"])
        #expect(events.allSatisfy { $0["device"] as? String == "cli" })

        let byPosition = try cli.run(["show", "\(last)", "--json"])
        #expect(byPosition.status == 0)
        let event = try #require(byPosition.json)
        #expect(event["type"] as? String == "SetEdited")
        let id = try #require(event["eventId"] as? String)
        #expect(try cli.run(["show", id, "--json"]).stdout == byPosition.stdout)
        #expect(try cli.run(["show", "\(last + 100)"]).status == 1)
        #expect(try cli.run(["show", "yesterday"]).status == 2)
    }

    @Test("blame words an edit of a hold's duration or a distance, not \"nothing changed\"")
    func blameNamesDurationAndDistanceEdits() throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let w = try #require(try cli.run(["workout", "start", "--name", "Core", "--json"]).json?["workoutId"] as? String)
        let plank = try #require(try cli.run(["workout", "log", w, "Plank", "--duration", "60s", "--json"]).json?["setId"] as? String)
        #expect(try cli.run(["workout", "edit-set", w, String(plank.prefix(8)), "--duration", "1:30"]).status == 0)
        let run = try #require(try cli.run(["workout", "log", w, "Running", "--distance", "400m", "--json"]).json?["setId"] as? String)
        #expect(try cli.run(["workout", "edit-set", w, String(run.prefix(8)), "--distance", "1km"]).status == 0)
        let hold = try cli.run(["blame", w, String(plank.prefix(8))]).stdout
        #expect(hold.contains("duration edited from 60 s to 90 s") && !hold.contains("nothing changed"), "\(hold)")
        let distance = try cli.run(["blame", w, String(run.prefix(8))]).stdout
        #expect(distance.contains("distance edited from 400 m to 1000 m"), "\(distance)")
    }

    @Test("diff reports what changed in history and records between two points")
    func diff() throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let (_, _, last) = try session(cli)
        let changes = try #require(try cli.run(["diff", "--from", "\(last - 1)", "--to", "\(last)", "--json"]).json?["changes"] as? [[String: Any]])
        #expect(changes.map { $0["area"] as? String } == ["history", "records"])
        #expect((changes[1]["detail"] as? String)?.contains("heaviest 140 kg → 145 kg") == true)
        // The rep maxes that moved are among the records: the 5RM the edited set of five set.
        #expect((changes[1]["detail"] as? String)?.contains("5RM 140 kg → 145 kg") == true, "\(changes[1])")
        let all = try #require(try cli.run(["diff", "--from", "0", "--json"]).json?["changes"] as? [[String: Any]])
        #expect(all.first?["change"] as? String == "added")
        #expect(try #require(try cli.run(["diff", "--from", "\(last)", "--to", "\(last)", "--json"]).json?["changes"] as? [Any]).isEmpty)
        // In the lifter's unit, as every other view: 140 kg and 145 kg in pounds.
        #expect(try cli.run(["settings", "unit", "lb"]).status == 0)
        let inPounds = try cli.run(["diff", "--from", "\(last - 1)", "--to", "\(last)"]).stdout
        #expect(
            inPounds.contains("heaviest 308.65 lb → 319.67 lb") && inPounds.contains("5RM 308.65 lb → 319.67 lb") && !inPounds.contains(" kg"),
            "\(inPounds)")
    }
}
