import Foundation
import LedgerTestSupport
import RepLedgerCore
import Testing

/// Issue 52, point 9: a self-hosted server's operator grants Coach without the
/// App Store (`ledger server account grant-coach ACCOUNT --until DATE`); the
/// grant is in the account's log, its devices name it in `entitlements`, and
/// no device can push one. Through the CLI and a real server.
@Suite(.serialized) struct OperatorGrantTests {
    @Test func anOperatorGrantsCoachAndNoDeviceCan() async throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let server = try ServerProcess(cli: cli)  // no --storekit-root: no store purchase can grant Coach here
        let sam = try server.createAccount("Sam", coach: true), lina = try server.createAccount("Lina")
        let coach = try Device("sam", cli: cli, token: sam.token), phone = try Device("lina", cli: cli, token: lina.token)
        #expect(try coach.sync(server, account: sam.id).status == 0)
        #expect(try phone.sync(server, account: lina.id).status == 0)
        #expect(try await server.get("/v1/coach/clients", token: sam.token).status == 403)

        // A grant that ends before now is one line, and nothing is appended.
        func grant(_ until: String) throws -> LedgerProcess.Output {
            try cli.run(["server", "account", "grant-coach", sam.id, "--until", until, "--json"] + server.storage, useDbFlag: false)
        }
        func head() async throws -> Int? {
            try await server.get("/v1/accounts/\(sam.id)/events", token: sam.token).body.components(separatedBy: "\"position\":").count
        }
        let before = try await head()
        let past = try grant("2020-01-01")
        #expect(past.status == 1 && past.stderr.split(separator: "\n").count == 1, "\(past.stderr)")
        #expect(try await head() == before)
        #expect(try grant("next year").status != 0)

        let granted = try grant("2099-01-01")
        #expect(granted.status == 0, "\(granted.stderr)")
        #expect(granted.json?["until"] as? String == "2099-01-01T00:00:00Z")
        #expect(try await server.get("/v1/coach/clients", token: sam.token).status == 200)
        // The same grant again changes nothing.
        #expect(try grant("2099-01-01").status == 1)

        // The coach's device sees the grant after a sync, named as the operator's.
        #expect(try coach.sync().status == 0)
        let plan = try #require(try coach.run(["entitlements", "--json"]).json)
        #expect(plan["isCoach"] as? Bool == true && (plan["activeProducts"] as? [Any])?.isEmpty == true)
        #expect((plan["operatorGrant"] as? [String: Any])?["until"] as? String == "2099-01-01T00:00:00Z")
        #expect(try coach.run(["entitlements"]).stdout.contains("Coach granted by the server's operator, until 2099-01-01"))
        #expect(coach.log.contains("\"type\":\"OperatorCoachGranted\""))
        let words = try coach.run(["entitlements"]).stdout
        #expect(words.hasPrefix("Coach as of"), "\(words)")
        // The grant counts in the account stream's version: the coach's next setting is not a conflict.
        let setting = try coach.run(["settings", "unit", "lb"])
        #expect(setting.status == 0, "\(setting.stderr)")
        #expect(try coach.sync().status == 0)

        // Lina's device cannot grant itself Coach: the push is refused whole, nothing of it kept.
        let path = "/v1/accounts/\(lina.id)/events"
        let workout = UUID()
        let forged = PushBodies.event("OperatorCoachGranted", stream: "account", payload: #"{"until":"2099-01-01T00:00:00.000Z"}"#)
        let refused = try await server.post(path, token: lina.token, body: PushBodies.batch([PushBodies.started(workout), forged]))
        #expect(refused.status == 403 && refused.errorCode == "operatorOnly", "\(refused.body)")
        let after = try await server.get(path, token: lina.token)
        #expect(!after.body.contains("OperatorCoachGranted") && !after.body.contains(workout.uuidString.lowercased()))
        #expect(try await server.get("/v1/coach/clients", token: lina.token).status == 403)

        // Granted, Sam coaches as with a bought product: Lina accepts his invite and is on his roster.
        let code = try #require(try coach.run(["coach", "invite", "--json"]).json?["code"] as? String)
        #expect(try phone.run(["coach", "accept", code]).stdout == "Coach Sam may now read this log (synced)\n")
        let roster = try #require(try await server.get("/v1/coach/clients", token: sam.token).json?["clients"] as? [[String: Any]])
        #expect(roster.map { $0["accountId"] as? String } == [lina.id])

        // The coach's CLI lists clients and takes a client's name where it took the id.
        #expect(try coach.run(["coach", "clients"]).stdout.contains("Lina  \(lina.id)"))
        let noted = try coach.run(["coach", "note", "lina", "Brace harder", "--json"])
        #expect(noted.status == 0, "\(noted.stderr)")
        #expect(coach.log.contains("\"clientAccountId\":\"\(lina.id)\"") && coach.log.contains("Brace harder"))
        let unknown = try coach.run(["coach", "note", "Bob", "Who?"])
        #expect(unknown.status != 0 && unknown.stderr.contains("no client named 'Bob' (your clients: Lina)"), "\(unknown.stderr)")
        #expect(!coach.log.contains("Who?"))
    }
}
