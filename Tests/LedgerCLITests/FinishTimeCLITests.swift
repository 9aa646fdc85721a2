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
