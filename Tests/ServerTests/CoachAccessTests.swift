import Foundation
import LedgerTestSupport
import RepLedgerCore
import RepLedgerSQLite
import StoreKitTestSupport
import Testing

/// Coach access (SERVER-CONTRACT.md §4): a grant in the lifter's log and a Coach
/// product in the coach's, both checked at request time.
@Suite(.serialized) struct CoachAccessTests {
    @Test func beforeGrantWithoutProductWithBothAndAfterRevoke() async throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        // Coach products count on the server only with the store's signed transaction, verified against its root.
        let chain = try StoreKitTestChain()
        let server = try ServerProcess(
            cli: cli,
            serveFlags: [
                "--storekit-root", try chain.writeRoot(in: cli.folder),
                "--bundle-id", StoreKitTestChain.bundleId,
            ])
        let lifter = try server.createAccount("lina")
        let coach = try server.createAccount("coach carl", coach: true)
        let phone = try Device("lina", cli: cli, token: lifter.token)
        let carl = try Device("carl", cli: cli, token: coach.token)
        let w = try phone.id(["workout", "start", "--name", "Legs"], "workoutId")
        try phone.run(["workout", "log", w, "Squat (Barbell)", "--reps", "5", "--weight", "120kg"])
        try phone.run(["workout", "finish", w])
        #expect(try phone.sync(server, account: lifter.id).status == 0)
        #expect(try carl.sync(server, account: coach.id).status == 0)
        let prs = "/v1/accounts/\(lifter.id)/prs"
        let events = "/v1/accounts/\(lifter.id)/events"

        // Before any grant: 403, and the roster needs the product first.
        #expect(try await server.get(prs, token: coach.token).errorCode == "forbidden")
        #expect(try await server.get("/v1/coach/clients", token: coach.token).status == 403)

        // Granted, but the coach has no Coach product: still 403.
        #expect(try phone.run(["coach", "grant", coach.id]).status == 0)
        #expect(try phone.sync().status == 0)
        #expect(try await server.get(prs, token: coach.token).status == 403)

        // A Pro product is not enough; a Coach product is.
        try carl.run([
            "purchase", "repledger_pro_monthly", "--transaction", "t-pro", "--purchased", "2026-01-01T00:00:00Z", "--expires", "2099-01-01T00:00:00Z",
        ])
        #expect(try carl.sync().status == 0)
        #expect(try await server.get(prs, token: coach.token).status == 403)
        try carl.run([
            "purchase", "repledger_coach_monthly", "--transaction", "t-coach", "--purchased", "2026-01-01T00:00:00Z", "--expires",
            "2099-01-01T00:00:00Z",
            "--signed-transaction", try chain.signedTransaction(id: "t-coach", product: "repledger_coach_monthly"),
        ])
        #expect(try carl.sync().status == 0)
        let served = try await server.get(prs, token: coach.token)
        #expect(served.status == 200)
        let printed = try phone.run(["prs", "--json"]).stdout.trimmingCharacters(in: .newlines)
        #expect(served.body == printed)
        #expect(try await server.get(events, token: coach.token).status == 200)
        #expect(try await server.get("/v1/accounts/\(lifter.id)/verify", token: coach.token).status == 200)
        // Coaches never write into a client's log.
        let write = try await server.post(events, token: coach.token, body: PushBodies.batch([PushBodies.started(UUID())]))
        #expect(write.errorCode == "forbidden")

        let roster = try await server.get("/v1/coach/clients", token: coach.token)
        #expect(roster.status == 200)
        let clients = try #require(roster.json?["clients"] as? [[String: Any]])
        #expect(clients.count == 1)
        #expect(clients.first?["accountId"] as? String == lifter.id)
        #expect(clients.first?["name"] as? String == "lina")
        #expect(clients.first?["workoutsLast7Days"] as? Int == 1)
        #expect((clients.first?["recordsLast7Days"] as? Int ?? 0) > 0)
        #expect(clients.first?["lastWorkoutAt"] is String)
        // A lifter's token is not a coach's: its roster is refused (no Coach product).
        #expect(try await server.get("/v1/coach/clients", token: lifter.token).status == 403)

        // Revoked: 403 again, and the roster is empty. The grant history stays in the log.
        #expect(try phone.run(["coach", "revoke", coach.id]).status == 0)
        #expect(try phone.sync().status == 0)
        #expect(try await server.get(prs, token: coach.token).status == 403)
        #expect((try await server.get("/v1/coach/clients", token: coach.token)).json?["clients"] as? [Any] != nil)
        #expect(((try await server.get("/v1/coach/clients", token: coach.token)).json?["clients"] as? [Any])?.count == 0)
        #expect(phone.log.contains("\"type\":\"CoachAccessGranted\"") && phone.log.contains("\"type\":\"CoachAccessRevoked\""))
        // A grant names an account id.
        #expect(try phone.run(["coach", "grant", "carl"]).status == 1)
        #expect(try phone.run(["coach", "revoke", coach.id]).status == 1)
    }

    /// The roster reads the clients its index names (each checked against its
    /// log): grants pushed, grants in a restored backup, and grants in logs
    /// written before the index existed, indexed at the next start; an erased
    /// client leaves it.
    @Test func theRosterFindsEveryClientThroughItsIndex() async throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let chain = try StoreKitTestChain()
        let server = try ServerProcess(
            cli: cli,
            serveFlags: [
                "--storekit-root", try chain.writeRoot(in: cli.folder),
                "--bundle-id", StoreKitTestChain.bundleId,
            ])
        let coach = try server.createAccount("coach carl", coach: true)
        let carl = try Device("carl", cli: cli, token: coach.token)
        try carl.run([
            "purchase", "repledger_coach_monthly", "--transaction", "t-coach", "--purchased", "2026-01-01T00:00:00Z", "--expires",
            "2099-01-01T00:00:00Z",
            "--signed-transaction", try chain.signedTransaction(id: "t-coach", product: "repledger_coach_monthly"),
        ])
        #expect(try carl.sync(server, account: coach.id).status == 0)

        // Lina grants over sync; Bob syncs but grants nothing; Rita's grant arrives in a restored backup.
        let lina = try server.createAccount("lina"), bob = try server.createAccount("bob")
        let phone = try Device("lina", cli: cli, token: lina.token), bobs = try Device("bob", cli: cli, token: bob.token)
        #expect(try phone.run(["coach", "grant", coach.id]).status == 0)
        #expect(try phone.sync(server, account: lina.id).status == 0)
        try bobs.run(["body", "log", "--weight", "80kg"])
        #expect(try bobs.sync(server, account: bob.id).status == 0)
        let ritas = try Device("rita", cli: cli, token: "")
        #expect(try ritas.run(["coach", "grant", coach.id]).status == 0)
        let backup = cli.folder.appendingPathComponent("rita.jsonl").path
        #expect(try ritas.run(["export", "jsonl", backup]).status == 0)
        let imported = try cli.run(["server", "account", "import", "rita", backup, "--json"] + server.storage, useDbFlag: false)
        let rita = try #require(imported.json?["accountId"] as? String)

        func roster() async throws -> [String] {
            let reply = try await server.get("/v1/coach/clients", token: coach.token)
            return try #require(reply.json?["clients"] as? [[String: Any]]).compactMap { $0["accountId"] as? String }
        }
        #expect(try await roster() == [lina.id, rita])

        // Logs written before the index existed: its rows and its mark gone, as an older server left them.
        #expect(server.stop() == 0)
        try indexRows(server, "DELETE FROM coach_clients; DELETE FROM backfills")
        try server.start()
        #expect(try await roster() == [lina.id, rita])
        #expect(server.log.contains("indexed the coach grants of 4 accounts' logs"))

        // Erasing a client removes it from the roster and its row from the index.
        #expect(try await server.request(.DELETE, "/v1/accounts/\(lina.id)", token: lina.token).status == 200)
        #expect(try await roster() == [rita])
        #expect(try indexRows(server, "SELECT count(*) FROM coach_clients") == "1")
    }

    /// Runs SQL on the server's account table → the first column of the first row.
    @discardableResult
    func indexRows(_ server: ServerProcess, _ sql: String) throws -> String {
        if ServerProcess.onPostgres {
            let url = try #require(server.storage.firstIndex(of: "--postgres").map { server.storage[$0 + 1] })
            let database = try #require(URL(string: url)?.lastPathComponent)
            return try #require(PostgresCluster.shared).psql(database, sql).trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let db = try SQLiteDatabase(path: server.data + "/accounts.sqlite")
        if sql.hasPrefix("SELECT") { return String(try db.scalarInt(sql)) }
        try db.execute(sql)
        return ""
    }
}
