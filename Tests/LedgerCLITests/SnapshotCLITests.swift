import Foundation
import LedgerTestSupport
import RepLedgerCore
import RepLedgerSQLite
import Testing

@Suite("ledger snapshot", .serialized)
struct SnapshotCLITests {
    @Test("create, list, prune; answers are byte-identical with and without snapshots; --verbose reports what was used")
    func snapshots() throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        #expect(try cli.run(["demo"]).status == 0)
        let queries = [
            ["prs"], ["history"], ["volume", "--by", "muscle"], ["volume", "--by", "week"], ["volume", "--by", "workout"], ["prs", "--as-of", "500"],
            ["history", "--as-of", "300"],
        ]
        let before = try queries.map { try cli.run($0 + ["--json"]).stdout }

        let created = try #require(try cli.run(["snapshot", "create", "--json"]).json)
        #expect(created["projection"] as? String == "training-log")
        #expect(created["position"] as? Int == (try cli.eventCount()))
        #expect(try cli.run(["snapshot", "create", "--position", "400"]).status == 0)
        let list = try #require(try cli.run(["snapshot", "list", "--json"]).json?["snapshots"] as? [[String: Any]])
        let folds = list.filter { $0["projection"] as? String == "training-log" }
        #expect(folds.map { $0["position"] as? Int } == [created["position"] as? Int, 400])
        #expect(
            Set(list.compactMap { $0["projection"] as? String }) == [
                "training-log", "personal-records-bests", "hint-index", "records-milestone", "entitlement-inputs", "history-head", "volume-head",
            ])
        #expect(list.allSatisfy { ($0["size"] as? Int ?? 0) > 0 && ($0["checksum"] as? String)?.count == 64 })

        #expect(try queries.map { try cli.run($0 + ["--json"]).stdout } == before)
        let verbose = try cli.run(["volume", "--as-of", "500", "--verbose"])
        #expect(verbose.stderr.contains("answered from snapshot") && verbose.stderr.contains("at #400 plus 100 events"))
        let records = try cli.run(["prs", "--as-of", "500", "--verbose"])
        #expect(records.stderr.contains("answered from the records milestone at #400 plus 100 events"))

        let db = try SQLiteDatabase(path: cli.db)
        try db.execute("UPDATE snapshots SET checksum = zeroblob(32) WHERE position = 400")
        let damaged = try cli.run(["prs", "--as-of", "500", "--verbose", "--json"])
        #expect(damaged.stderr.contains("checksum mismatch"))
        #expect(damaged.stdout == before[5])  // prs --as-of 500

        #expect((try cli.run(["snapshot", "prune", "--keep", "1", "--json"]).json?["deleted"] as? Int ?? 0) >= 1)
        let kept = try #require(try cli.run(["snapshot", "list", "--json"]).json?["snapshots"] as? [[String: Any]])
        let keys = kept.map { "\($0["projection"] ?? "")|\($0["rulesId"] ?? "")|\($0["rulesVersion"] ?? "")" }
        #expect(Set(keys).count == keys.count)  // one per key
        #expect(try cli.run(["verify"]).status == 0)  // snapshots never touch the chain
    }

    @Test("view snapshots answer head queries exactly as a rebuild would, and never when stale or under other rules")
    func viewSnapshots() throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        #expect(try cli.run(["demo"]).status == 0)
        let computed = try cli.run(["prs", "--json", "--verbose"])
        #expect(computed.stderr.contains("answered from snapshot") == false)  // nothing stored yet: folded
        let hintArgs = ["hint", "deadlift", "--at", "2026-11-20T18:00:00+01:00", "--json", "--verbose"]
        let hintComputed = try cli.run(hintArgs)
        let entitlementArgs = ["entitlements", "--at", "2026-09-01T00:00:00Z", "--json", "--verbose"]
        let entitlementsComputed = try cli.run(entitlementArgs)
        #expect(!entitlementsComputed.stderr.contains("stored entitlement inputs"))
        #expect(try cli.run(["snapshot", "create"]).status == 0)
        let fastEntitlements = try cli.run(entitlementArgs)
        #expect(fastEntitlements.stderr.contains("answered from the stored entitlement inputs"))
        #expect(fastEntitlements.stdout == entitlementsComputed.stdout)
        #expect(fastEntitlements.json?["completedWorkouts"] as? Int ?? 0 > 0)

        let fast = try cli.run(["prs", "--json", "--verbose"])
        #expect(fast.stderr.contains("answered from the records snapshot"))
        #expect(fast.stdout == computed.stdout)
        let fastHint = try cli.run(hintArgs)
        #expect(fastHint.stderr.contains("answered from the hint index"))
        #expect(fastHint.stdout == hintComputed.stdout)
        // A time before the last deadlift session: the index cannot answer; computed instead.
        let past = try cli.run(["hint", "deadlift", "--at", "2026-11-10T00:00:00+01:00", "--json", "--verbose"])
        #expect(!past.stderr.contains("hint index"))
        #expect(past.json?["date"] as? String == "2026-11-06T17:45:00+01:00")

        // Other rules: the stored default-rules result is not used.
        let rules = cli.folder.appendingPathComponent("b.json")
        try #"{"id":"default","version":1,"e1rmFormula":"brzycki"}"#.write(to: rules, atomically: true, encoding: .utf8)
        let other = try cli.run(["prs", "--json", "--verbose", "--rules", rules.path])
        #expect(!other.stderr.contains("records snapshot"))
        #expect(other.stdout != computed.stdout)

        // A new set moves the head: the old results are stale and not used.
        #expect(try cli.run(["workout", "start", "--at", "2026-11-21T09:00:00+01:00"]).status == 0)
        #expect(
            try cli.run(["workout", "log", "last", "deadlift", "--reps", "1", "--weight", "180", "--at", "2026-11-21T09:20:00+01:00"]).status == 0)
        #expect(!(try cli.run(entitlementArgs)).stderr.contains("stored entitlement inputs"))
        let moved = try cli.run(["prs", "deadlift", "--json", "--verbose"])
        #expect(!moved.stderr.contains("records snapshot"))
        #expect(((moved.json?["exercises"] as? [[String: Any]])?.first?["heaviestKg"] as? Double) == 180)
        // ...and that query stored the new head's result for the next one.
        #expect(try cli.run(["prs", "--json", "--verbose"]).stderr.contains("answered from the records snapshot"))
    }
}
