import Foundation
import LedgerTestSupport
import Testing

/// Reps in reserve and tempo (issue 31 point 6): stored as entered, the
/// other scale derived (RPE = 10 − RIR), shown in the lifter's chosen scale.
@Suite("ledger effort: RIR and tempo")
struct EffortCLITests {
    func sets(_ cli: LedgerProcess) throws -> [[String: Any]] {
        let workouts = try #require(try cli.json(["history"])["workouts"] as? [[String: Any]])
        return (workouts.first?["exercises"] as? [[String: Any]] ?? []).flatMap { $0["sets"] as? [[String: Any]] ?? [] }
    }

    @Test("--rir and --tempo: stored as entered, RPE derived; the chosen scale shows in history and workout show; edit-set changes them alone")
    func rirAndTempo() throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let w = try cli.json(["workout", "start", "--at", "2026-11-20T09:00:00Z"])["workoutId"] as! String
        let first = try cli.json([
            "workout", "log", w, "squat", "--reps", "5", "--weight", "100", "--rir", "2", "--tempo", "31X0", "--at", "2026-11-20T09:05:00Z",
        ])
        _ = try cli.json(["workout", "log", w, "squat", "--reps", "5", "--weight", "100", "--rpe", "9", "--at", "2026-11-20T09:09:00Z"])
        var rows = try sets(cli)
        #expect(rows.map { $0["rpe"] as? Double } == [8, 9] && rows.map { $0["rir"] as? Double } == [2, 1])
        #expect(rows.map { $0["effortEntered"] as? String } == ["rir", "rpe"] && rows.first?["tempo"] as? String == "3-1-X-0")
        #expect(try cli.run(["history"]).stdout.contains("100 kg × 5 @ RPE 8, tempo 3-1-X-0, 100 kg × 5 @ RPE 9"))

        #expect(try cli.json(["settings", "effort", "rir"])["effort"] as? String == "rir")
        #expect(try cli.run(["history"]).stdout.contains("100 kg × 5 @ RIR 2, tempo 3-1-X-0, 100 kg × 5 @ RIR 1"))
        let shown = try cli.run(["workout", "show", w]).stdout
        #expect(shown.contains("100 kg × 5 @ RIR 2, tempo 3-1-X-0"), "\(shown)")

        // Only the effort changes: no SetEdited, one SetEffortRecorded; the tempo stays.
        let setId = first["setId"] as! String
        let before = try cli.eventCount()
        #expect(try cli.run(["workout", "edit-set", w, String(setId.prefix(8)), "--rir", "1"]).status == 0)
        #expect(try cli.eventCount() == before + 1)
        rows = try sets(cli)
        #expect(rows.first?["rir"] as? Double == 1 && rows.first?["rpe"] as? Double == 9 && rows.first?["tempo"] as? String == "3-1-X-0")
        let planJSON = try cli.json(["workout", "show", w])
        let planned = (planJSON["exercises"] as? [[String: Any]])?.first?["sets"] as? [[String: Any]]
        #expect(planned?.first?["rir"] as? Double == 1 && planned?.first?["effortEntered"] as? String == "rir")

        // A duplicated or moved set keeps its reps in reserve and tempo.
        let copy = try cli.json(["workout", "duplicate-set", w, String(setId.prefix(8))])["setId"] as! String
        let moved = try cli.json(["workout", "move-set", w, copy, "Front Squat (Barbell)"])["setId"] as! String
        let movedRow = try sets(cli).first { $0["setId"] as? String == moved }
        #expect(movedRow?["rir"] as? Double == 1 && movedRow?["tempo"] as? String == "3-1-X-0", "\(String(describing: movedRow))")
        #expect(try sets(cli).filter { $0["tempo"] as? String == "3-1-X-0" }.count == 2, "the original and the moved copy")
    }

    @Test(
        "bad effort: one line, nothing appended",
        arguments: [
            (["--rpe", "8", "--rir", "2"], "give one: RPE is 10 − RIR"),
            (["--rir", "9.5"], "give reps in reserve from 0 to 9"),
            (["--rir", "1.3"], "in steps of 0.5"),
            (["--tempo", "3-1"], "give four phases"),
            (["--tempo", "3-1-1-10"], "give four phases"),
        ])
    func refusals(extra: [String], words: String) throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        #expect(try cli.run(["workout", "start"]).status == 0)
        let before = try cli.eventCount()
        let out = try cli.run(["workout", "log", "last", "squat", "--reps", "5", "--weight", "100"] + extra)
        #expect(out.status == 1 && out.stderr.contains(words), "\(out.stderr)")
        #expect(out.stderr.split(separator: "\n").count == 1)
        #expect(try cli.eventCount() == before)
    }
}
