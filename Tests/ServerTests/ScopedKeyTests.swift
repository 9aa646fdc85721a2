import Foundation
import LedgerTestSupport
import Testing

/// Keys made for an assistant or an integration (`ledger server token create --scope`), against a real
/// server: a `read` key appends nothing, a `log` key appends training and nothing else, a revoked key is
/// refused at once and an expired one from its end on; what a refused write carries appends nothing.
@Suite struct ScopedKeyTests {
    struct Key {
        var token: String
        var id: String
    }

    static func key(_ server: ServerProcess, _ account: String, _ flags: [String]) throws -> Key {
        let out = try server.cli.run(["server", "token", "create", account, "--json"] + flags + server.storage, useDbFlag: false)
        guard let token = out.json?["token"] as? String, let id = out.json?["id"] as? String else { throw ServerFailure.cli(out.stderr) }
        return Key(token: token, id: id)
    }

    @Test func scopesHoldOnEveryWriteAndReadsStayOpen() async throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let server = try ServerProcess(cli: cli)
        let alice = try server.createAccount("alice")
        let path = "/v1/accounts/\(alice.id)/events"
        let w = UUID()
        #expect(try await server.post(path, token: alice.token, body: PushBodies.batch([PushBodies.started(w)])).status == 200)
        func head() async throws -> Int {
            try #require(((try await server.get(path, token: alice.token)).json?["head"] as? [String: Any])?["position"] as? Int)
        }

        let reader = try Self.key(server, alice.id, ["--scope", "read", "--name", "Weekly review"])
        let logger = try Self.key(server, alice.id, ["--scope", "log", "--name", "Chat assistant"])
        // Reads are open to both.
        #expect(try await server.get(path, token: reader.token).status == 200)
        #expect(try await server.get("/v1/accounts/\(alice.id)/prs", token: logger.token).status == 200)

        // A read key appends nothing, even a set.
        let before = try await head()
        let refused = try await server.post(path, token: reader.token, body: PushBodies.batch([PushBodies.set(w)]))
        #expect(refused.status == 403 && refused.errorCode == "scope", "\(refused.body)")
        #expect(try await head() == before)

        // A log key appends the lifter's sets, stamped with its name as the device.
        let logged = try await server.post(path, token: logger.token, body: PushBodies.batch([PushBodies.set(w)]))
        #expect(logged.status == 200, "\(logged.body)")
        #expect(try await head() == before + 1)
        let last = try #require(try await server.get(path, token: alice.token).json?["events"] as? [[String: Any]]).last
        #expect(last?["device"] as? String == "Chat assistant")

        // …and nothing outside training: a batch holding a template is refused whole, naming the event.
        let templateId = UUID()
        let mixed = try await server.post(
            path, token: logger.token,
            body: PushBodies.batch([PushBodies.set(w), PushBodies.template("Push day", id: templateId)]))
        #expect(mixed.status == 403 && mixed.errorCode == "scope", "\(mixed.body)")
        #expect(((mixed.json?["error"] as? [String: Any])?["eventId"] as? String) == templateId.uuidString.lowercased())
        #expect(try await head() == before + 1)

        // Invites and erasure are the account's own business: a key below `full` is refused before anything else is asked.
        #expect(try await server.post("/v1/coach/invites", token: logger.token, body: #"{"note":"x"}"#).errorCode == "scope")
        #expect(try await server.post("/v1/coach/invites/accept", token: reader.token, body: #"{"code":"AAAA-BBBB-CCCC"}"#).errorCode == "scope")
        #expect(try await server.post("/v1/coach/invites", token: alice.token, body: #"{"note":"x"}"#).errorCode == "forbidden")
        #expect(try await server.request(.DELETE, "/v1/accounts/\(alice.id)", token: reader.token).errorCode == "scope")
        #expect(try await server.request(.DELETE, "/v1/accounts/\(alice.id)", token: logger.token).errorCode == "scope")
        #expect(try await head() == before + 1)

        // Listed with their names and scopes; revoked by the listed id, refused on the next request.
        let listed = try cli.run(["server", "token", "list", alice.id, "--json"] + server.storage, useDbFlag: false)
        let rows = try #require(listed.json?["tokens"] as? [[String: Any]])
        #expect(rows.map { $0["scope"] as? String } == ["full", "read", "log"])
        #expect(rows.compactMap { $0["name"] as? String } == ["Weekly review", "Chat assistant"])
        #expect(!listed.stdout.contains(logger.token))
        #expect(try cli.run(["server", "token", "revoke", logger.id] + server.storage, useDbFlag: false).status == 0)
        #expect(try await server.get(path, token: logger.token).errorCode == "unauthorized")
        #expect(try await server.get(path, token: reader.token).status == 200)
        let after = try cli.run(["server", "token", "list", alice.id, "--json"] + server.storage, useDbFlag: false)
        #expect((after.json?["tokens"] as? [[String: Any]])?.map { $0["state"] as? String } == ["active", "active", "revoked"])
        #expect(!server.log.contains(reader.token) && !server.log.contains(logger.token))
    }

    @Test func aKeyEndsAtItsExpiry() async throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let server = try ServerProcess(cli: cli)
        let alice = try server.createAccount("alice")
        let path = "/v1/accounts/\(alice.id)/verify"
        let end = Date().addingTimeInterval(8)
        let iso = ISO8601DateFormatter()
        iso.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let key = try Self.key(server, alice.id, ["--scope", "read", "--name", "trial", "--expires", iso.string(from: end)])
        let first = try await server.get(path, token: key.token)
        // On a slow machine the key may be past its end already; before it, it answers.
        if Date() < end.addingTimeInterval(-1) { #expect(first.status == 200, "\(first.body)") }
        var status = first.status
        let deadline = Date().addingTimeInterval(120)
        while status != 401, Date() < deadline {
            try await Task.sleep(for: .milliseconds(250))
            status = try await server.get(path, token: key.token).status
        }
        #expect(status == 401, "the key still answered after its end")
        #expect(Date() >= end.addingTimeInterval(-0.5), "the key ended before its time")
        #expect(try await server.get(path, token: alice.token).status == 200)
        // A past end is refused when the key is made.
        let past = try cli.run(["server", "token", "create", alice.id, "--name", "x", "--expires", "2020-01-01"] + server.storage, useDbFlag: false)
        #expect(past.status != 0 && past.stderr.contains("in the future"))
    }
}
