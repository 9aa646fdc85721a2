import Foundation
import LedgerTestSupport
import Testing

/// A server's `/mcp` driven by a real MCP client (Python's `mcp`, Streamable HTTP) with scoped keys,
/// on the account's log a phone synced: the same documents the phone's CLI prints, writes through
/// the account's lock that a phone's sync then pulls, a read key offered reads only, a revoked key
/// refused on its next call, and no browser page let in.
@Suite(.enabled(if: McpClient.available || McpClient.required, "the Python mcp package is not installed (pip install mcp)"))
struct McpHttpTests {
    @Test func anAssistantReadsAndLogsThroughAScopedKey() async throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let server = try ServerProcess(cli: cli)
        let (alice, phone) = try server.accountWithDemo()
        let key = try ScopedKeyTests.key(server, alice.id, ["--scope", "log", "--name", "Chat assistant"])
        let client = try McpClient(url: server.base + "/mcp", token: key.token, folder: cli.folder)
        defer { client.close() }

        // The documents the phone prints for the same log.
        for (tool, args, command) in [
            ("records", [:] as [String: Any], ["prs"]), ("volume", ["by": "muscle"], ["volume", "--by", "muscle"]),
            ("history", ["limit": 5], ["history", "--limit", "5"]),
        ] {
            let answer = try client.call(tool, args)
            let printed = try phone.run(command + ["--json"]).stdout.trimmingCharacters(in: .newlines)
            #expect(!answer.isError && answer.text == printed, "\(tool)")
        }

        // A set logged 100 times with one requestId lands once, stamped with the key's name, and the phone pulls it.
        let workout = try phone.id(["workout", "start", "--name", "Assisted"], "workoutId")
        #expect(try phone.sync().status == 0)
        let head = try client.head()
        let set: [String: Any] = [
            "workout": workout, "exercise": "squat", "reps": 5, "weightKg": 120, "expectedPosition": head, "requestId": "squat-1",
        ]
        var answers = Set<String>()
        for _ in 0..<100 { answers.insert(try client.call("log_set", set).text) }
        #expect(answers.count == 1 && !answers.first!.contains("error"))
        #expect(try client.head() > head)
        #expect(try phone.sync().status == 0)
        let logged = phone.log.split(separator: "\n").filter { $0.contains("\"type\":\"SetLogged\"") && $0.contains(workout) }
        #expect(logged.count == 1 && logged.first?.contains("\"device\":\"Chat assistant\"") == true)

        // The phone appends meanwhile: the assistant's write on the head it read is refused with the head now.
        let before = try client.head()
        #expect(try phone.run(["workout", "log", workout, "squat", "--reps", "5", "--weight", "120kg"]).status == 0)
        #expect(try phone.sync().status == 0)
        let stale = try client.call("log_set", set.merging(["expectedPosition": before, "requestId": "squat-2"]) { $1 })
        let error = stale.structured["error"] as? [String: Any]
        #expect(stale.isError && error?["code"] as? String == "stalePosition")
        let moved = try client.head()
        #expect((error?["head"] as? [String: Any])?["position"] as? Int == moved)
        #expect(
            (error?["since"] as? [[String: Any]])?.contains { $0["type"] as? String == "SetLogged" && $0["device"] as? String != "Chat assistant" }
                == true)

        // A read key: the read tools only, a write refused with its scope, nothing appended.
        let reader = try ScopedKeyTests.key(server, alice.id, ["--scope", "read", "--name", "Weekly review"])
        let readOnly = try McpClient(url: server.base + "/mcp", token: reader.token, folder: cli.folder)
        defer { readOnly.close() }
        let tools = (try readOnly.send(["op": "list_tools"])["tools"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
        #expect(Set(tools) == McpStdioTests.reads)
        let headNow = try readOnly.head()
        let refused = try readOnly.call("log_bodyweight", ["weightKg": 80, "expectedPosition": headNow, "requestId": "w"])
        #expect(refused.isError && (refused.structured["error"] as? [String: Any])?["code"] as? String == "scope")
        #expect(try readOnly.head() == headNow)

        // Every read and every write answers over HTTP too.
        let args: [String: [String: Any]] = [
            "e1rm_trend": ["exercise": "squat"], "last_time": ["exercise": "squat"], "search_exercises": ["text": "row"],
            "workout": ["workout": workout],
        ]
        for tool in McpStdioTests.reads.sorted() {
            let r = try client.call(tool, args[tool] ?? [:])
            #expect(!r.isError, "\(tool): \(r.text)")
        }
        let setId = try #require(
            (try JSONSerialization.jsonObject(with: Data(answers.first!.utf8)) as? [String: Any])?["setId"] as? String)
        for (tool, given) in [
            ("edit_set", ["workout": workout, "set": setId, "reps": 6] as [String: Any]), ("add_note", ["workout": workout, "text": "Deep squats"]),
            ("log_bodyweight", ["weightKg": 81.2]), ("finish_workout", ["workout": workout, "feeling": 5]),
            ("start_workout", ["name": "Evening"]),
        ] {
            let r = try client.call(tool, given.merging(["expectedPosition": try client.head(), "requestId": "\(tool)-http"]) { $1 })
            #expect(!r.isError, "\(tool): \(r.text)")
        }

        let settled = try readOnly.head()

        // Revoked: refused at its next call.
        #expect(try cli.run(["server", "token", "revoke", key.id] + server.storage, useDbFlag: false).status == 0)
        #expect(try client.send(["op": "call", "tool": "verify", "args": [:]])["error"] != nil)
        #expect(try readOnly.call("verify").isError == false)

        // No page in a browser may call it, and a body that is no JSON-RPC is refused; the server serves on.
        let fromPage = try await server.request(
            .POST, "/mcp", token: reader.token, body: #"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#,
            headers: [("Content-Type", "application/json"), ("Accept", "application/json"), ("Origin", "https://evil.example")])
        #expect(fromPage.status == 403)
        let junk = try await server.request(
            .POST, "/mcp", token: reader.token, body: "{not json", headers: [("Content-Type", "application/json"), ("Accept", "application/json")])
        #expect(junk.status == 400)
        #expect(try await server.request(.POST, "/mcp", token: nil, body: "{}").status == 401)
        #expect(try readOnly.head() == settled)
    }
}
