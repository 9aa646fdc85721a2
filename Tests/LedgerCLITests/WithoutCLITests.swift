import Foundation
import LedgerTestSupport
import Testing

/// Issue 74's `--without POSITION[,POSITION…]` on every query: the views as
/// if those events had never happened, and nothing written.
@Suite("--without: every view as if some events had never happened")
struct WithoutCLITests {
    @Test("leaving out the head is the log as of the event before it; leaving out a workout's start drops the workout; nothing is written")
    func leftOutEventsAreNotFolded() throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        #expect(try cli.run(["demo"]).status == 0)
        let queries = [["prs"], ["history"], ["volume"], ["e1rm", "Deadlift (Barbell)"], ["hint", "Deadlift (Barbell)"]]
        for q in queries { #expect(try cli.run(q).status == 0) }
        let before = try Data(contentsOf: URL(fileURLWithPath: cli.db))
        let head = try cli.eventCount()

        for q in queries {
            let without = try cli.run(q + ["--without", "\(head)", "--json"])
            let asOf = try cli.run(q + ["--as-of", "\(head - 1)", "--json"])
            #expect(without.status == 0 && without.stdout == asOf.stdout, "\(q): \(without.stderr)")
        }

        // The newest workout's start left out: the workout is gone from history, and its sets from the records.
        let started = try #require(
            try cli.run(["log", "--type", "WorkoutStarted", "--json"]).stdout.split(separator: "\n").last.flatMap {
                try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
            })
        let position = try #require(started["position"] as? Int)
        let workout = try #require((started["payload"] as? [String: Any])?["workoutId"] as? String)
        let history = try cli.run(["history", "--json"]).stdout
        let without = try cli.run(["history", "--json", "--without", "\(position)"])
        #expect(history.contains(workout) && without.status == 0 && !without.stdout.contains(workout))
        let prs = try cli.run(["prs", "--json", "--without", "\(position),\(head)"])
        let all = try cli.run(["prs", "--json"]).stdout
        #expect(prs.status == 0 && !prs.stdout.contains(workout) && prs.stdout != all)
        #expect(try Data(contentsOf: URL(fileURLWithPath: cli.db)) == before, "a query with events left out wrote to the file")

        for (args, words) in [
            (["prs", "--without", "0"], "--without takes positions of the log (1 or more), not '0'"),
            (["prs", "--without", "3,x"], "not 'x'"),
            (["history", "--without", "\(head + 1)"], "--without takes positions of the log (1 to \(head)), not \(head + 1)"),
        ] {
            let out = try cli.run(args)
            #expect(out.status == 2 && (out.stderr.split(separator: "\n").first ?? "").contains(words), "\(args): \(out.stderr)")
        }
    }
}
