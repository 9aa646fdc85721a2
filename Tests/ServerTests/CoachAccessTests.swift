import Foundation
import LedgerTestSupport
import StoreKitTestSupport
import Testing

/// Coach access (SERVER.md §4): a grant in the lifter's log and a Coach
/// product in the coach's, both checked at request time.
@Suite(.serialized) struct CoachAccessTests {
    @Test func beforeGrantWithoutProductWithBothAndAfterRevoke() async throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        // Coach products count on the server only with the store's signed transaction, verified against its root.
        let chain = try StoreKitTestChain()
        let server = try ServerProcess(cli: cli, serveFlags: ["--storekit-root", try chain.writeRoot(in: cli.folder),
                                                              "--bundle-id", StoreKitTestChain.bundleId])
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
        try carl.run(["purchase", "repledger_pro_monthly", "--transaction", "t-pro", "--purchased", "2026-01-01T00:00:00Z", "--expires", "2099-01-01T00:00:00Z"])
        #expect(try carl.sync().status == 0)
        #expect(try await server.get(prs, token: coach.token).status == 403)
        try carl.run(["purchase", "repledger_coach_monthly", "--transaction", "t-coach", "--purchased", "2026-01-01T00:00:00Z", "--expires", "2099-01-01T00:00:00Z",
                      "--signed-transaction", try chain.signedTransaction(id: "t-coach", product: "repledger_coach_monthly")])
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
}
