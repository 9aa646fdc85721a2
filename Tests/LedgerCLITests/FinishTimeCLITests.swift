import Foundation
import LedgerTestSupport
import Testing

/// `workout finish` on a backfilled workout: a one-line refusal with the
/// `--at` to give, then finishing with it.
@Suite("ledger workout finish, backfilled")
struct FinishTimeCLITests {
    @Test("a workout started days ago is refused without --at, naming its last set; with that --at it finishes")
    func backfill() throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        #expect(try cli.run(["workout", "start", "--at", "2026-11-02T07:00:00+01:00"]).status == 0)
        #expect(
            try cli.run(["workout", "log", "last", "Squat (Barbell)", "--reps", "5", "--weight", "100", "--at", "2026-11-02T07:35:00+01:00"]).status
                == 0)
        let events = try cli.eventCount()
        let refused = try cli.run(["workout", "finish", "last"])
        #expect(refused.status == 1, "\(refused.stderr)")
        #expect(refused.stderr.contains("repeat with --at 2026-11-02T07:35:00+01:00"), "\(refused.stderr)")
        #expect(refused.stderr.split(separator: "\n").count == 1)
        #expect(try cli.eventCount() == events)
        let finished = try cli.run(["workout", "finish", "last", "--at", "2026-11-02T07:35:00+01:00"])
        #expect(finished.status == 0 && finished.stdout.contains("after 35 min"), "\(finished.stdout)")
    }
}

/// `workout start` while another is in progress: refused naming it, unless `--also`.
@Suite("ledger workout start, one at a time")
struct WorkoutInProgressCLITests {
    @Test("a second start is refused naming the one in progress; --also starts it; after finishing, a start needs nothing")
    func secondStart() throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let first = try #require(try cli.run(["workout", "start", "--name", "Upper A", "--json"]).json?["workoutId"] as? String)
        let events = try cli.eventCount()
        let refused = try cli.run(["workout", "start", "--name", "Lower A"])
        #expect(refused.status == 1 && refused.stderr.contains("workout 'Upper A' (\(first)) is in progress"), "\(refused.stderr)")
        #expect(refused.stderr.contains("--also") && refused.stderr.split(separator: "\n").count == 1)
        #expect(try cli.eventCount() == events)
        let second = try cli.run(["workout", "start", "--name", "Lower A", "--also", "--json"])
        #expect(second.status == 0, "\(second.stderr)")
        let secondId = try #require(second.json?["workoutId"] as? String)
        #expect(try cli.run(["workout", "finish", first]).status == 0)
        // The newest one in progress is named.
        #expect(try cli.run(["workout", "start"]).stderr.contains("(\(secondId))"))
        #expect(try cli.run(["workout", "discard", secondId]).status == 0)
        #expect(try cli.run(["workout", "start", "--name", "Push"]).status == 0)
    }
}
