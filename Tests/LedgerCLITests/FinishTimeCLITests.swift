import Foundation
import LedgerTestSupport
import RepLedgerCore
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

/// `workout log` into a workout idle for days: a one-line refusal with the
/// `--at` to give (or `--at now`), nothing appended.
@Suite("ledger workout log, backfilled")
struct SetTimeCLITests {
    @Test("a set logged now into a workout started days ago is refused without --at; --at its time or --at now is taken")
    func backfill() throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let started = Timestamp.now().adding(seconds: -3 * 86_400)
        #expect(try cli.run(["workout", "start", "--name", "Legs", "--at", started.iso8601]).status == 0)
        let events = try cli.eventCount()
        let refused = try cli.run(["workout", "log", "last", "Squat (Barbell)", "--reps", "5", "--weight", "100"])
        #expect(refused.status == 1, "\(refused.stderr)")
        #expect(refused.stderr.contains("a set logged now would count them in it"), "\(refused.stderr)")
        #expect(refused.stderr.contains("repeat with --at the time you did the set (its last activity: \(started.iso8601))"))
        #expect(refused.stderr.contains("--at now if you are training now"))
        #expect(refused.stderr.split(separator: "\n").count == 1)
        #expect(try cli.eventCount() == events)
        let at = started.adding(seconds: 20 * 60).iso8601
        #expect(try cli.run(["workout", "log", "last", "Squat (Barbell)", "--reps", "5", "--weight", "100", "--at", at]).status == 0)
        let finished = try cli.run(["workout", "finish", "last", "--at", started.adding(seconds: 45 * 60).iso8601])
        #expect(finished.status == 0 && finished.stdout.contains("after 45 min"), "\(finished.stdout)")

        // A session picked up again hours later, said so with --at now.
        let other = try LedgerProcess()
        defer { other.cleanUp() }
        #expect(try other.run(["workout", "start", "--at", Timestamp.now().adding(seconds: -5 * 3600).iso8601]).status == 0)
        #expect(try other.run(["workout", "log", "last", "Plank", "--duration", "60"]).status == 1)
        let now = try other.run(["workout", "log", "last", "Plank", "--duration", "60", "--at", "now"])
        #expect(now.status == 0, "\(now.stderr)")
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
