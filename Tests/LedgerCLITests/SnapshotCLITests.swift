import Foundation
import Testing
import RepLedgerCore

@Suite("ledger snapshot", .serialized)
struct SnapshotCLITests {
    @Test("create, list, prune; answers are byte-identical with and without snapshots; --verbose reports what was used")
    func snapshots() throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        #expect(try cli.run(["demo"]).status == 0)
        let queries = [["prs"], ["history"], ["volume", "--by", "muscle"], ["prs", "--as-of", "500"], ["history", "--as-of", "300"]]
        let before = try queries.map { try cli.run($0 + ["--json"]).stdout }

        let created = try #require(try cli.run(["snapshot", "create", "--json"]).json)
        #expect(created["projection"] as? String == "training-log")
        #expect(created["position"] as? Int == (try cli.eventCount()))
        #expect(try cli.run(["snapshot", "create", "--position", "400"]).status == 0)
        let list = try #require(try cli.run(["snapshot", "list", "--json"]).json?["snapshots"] as? [[String: Any]])
        #expect(list.map { $0["position"] as? Int } == [created["position"] as? Int, 400])
        #expect(list.allSatisfy { ($0["size"] as? Int ?? 0) > 0 && ($0["checksum"] as? String)?.count == 64 })

        #expect(try queries.map { try cli.run($0 + ["--json"]).stdout } == before)
        let verbose = try cli.run(["prs", "--as-of", "500", "--verbose"])
        #expect(verbose.stderr.contains("answered from snapshot") && verbose.stderr.contains("at #400 plus 100 events"))

        let db = try SQLiteDatabase(path: cli.db)
        try db.execute("UPDATE snapshots SET checksum = zeroblob(32) WHERE position = 400")
        let damaged = try cli.run(["prs", "--as-of", "500", "--verbose", "--json"])
        #expect(damaged.stderr.contains("checksum mismatch"))
        #expect(damaged.stdout == before[3])

        #expect(try cli.run(["snapshot", "prune", "--keep", "1", "--json"]).json?["deleted"] as? Int == 1)
        #expect((try cli.run(["snapshot", "list", "--json"]).json?["snapshots"] as? [Any])?.count == 1)
        #expect(try cli.run(["verify"]).status == 0) // snapshots never touch the chain
    }
}
