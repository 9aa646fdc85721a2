import Foundation
import LedgerTestSupport
import Testing

/// Every endpoint of SERVER-CONTRACT.md §3 on a real `ledger serve`, with every error code.
@Suite(.serialized) struct EndpointTests {
    @Test func healthOpenAPIAndTheSameEnvelopesAsTheDevicesLog() async throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let server = try ServerProcess(cli: cli)
        let alice = try server.createAccount("alice")
        let health = try await server.get("/v1/health", token: nil)
        #expect(health.status == 200)
        #expect(health.json?["ok"] as? Bool == true)
        // One version everywhere: the server's health, its OpenAPI document, and both binaries' --version.
        let version = try #require(health.json?["version"] as? String)
        #expect(try cli.run(["--version"], useDbFlag: false).stdout == version + "\n")
        #expect(((try await server.get("/v1/openapi.json", token: nil).json?["info"] as? [String: Any])?["version"] as? String) == version)
        let openapi = try await server.get("/v1/openapi.json", token: nil)
        #expect((openapi.json?["openapi"] as? String) == "3.1.0")

        let phone = try Device("phone", cli: cli, token: alice.token)
        let w = try phone.id(["workout", "start", "--name", "Push", "--at", "2026-11-02T10:00:00Z"], "workoutId")
        try phone.run(["workout", "log", w, "Bench Press (Barbell)", "--reps", "8", "--weight", "80kg", "--at", "2026-11-02T10:05:00Z"])
        #expect(try phone.sync(server, account: alice.id).status == 0)

        // GET …/events is `{"events":[lines of ledger log --json],"head":…}`, byte for byte.
        let lines = phone.log.split(separator: "\n").map(String.init)
        let events = try await server.get("/v1/accounts/\(alice.id)/events", token: alice.token)
        #expect(events.status == 200)
        let head = try #require(lines.last.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] })
        let expected = #"{"events":[\#(lines.joined(separator: ","))],"head":{"position":\#(head["position"]!),"hash":"\#(head["hash"]!)"}}"#
        #expect(events.body == expected)

        // after and limit page through the log.
        let page = try await server.get("/v1/accounts/\(alice.id)/events?after=2&limit=3", token: alice.token)
        let positions = (page.json?["events"] as? [[String: Any]])?.compactMap { $0["position"] as? Int }
        #expect(positions == [3, 4, 5])
        #expect(try await server.get("/v1/accounts/\(alice.id)/events?limit=0", token: alice.token).errorCode == "badRequest")
        #expect(try await server.get("/v1/accounts/\(alice.id)/events?limit=10001", token: alice.token).errorCode == "badRequest")
        #expect(try await server.get("/v1/accounts/\(alice.id)/events?after=-1", token: alice.token).errorCode == "badRequest")

        let verify = try await server.get("/v1/accounts/\(alice.id)/verify", token: alice.token)
        let printed = try phone.run(["verify", "--json"]).stdout.trimmingCharacters(in: .newlines)
        #expect(verify.body == printed)
    }

    @Test func everyQueryAnswersTheCLIsDocumentForTheSameLog() async throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let server = try ServerProcess(cli: cli)
        let (alice, phone) = try server.accountWithDemo()
        let history = try #require(phone.run(["history", "--json", "--limit", "2"]).json?["workouts"] as? [[String: Any]])
        let w = try #require(history.first?["workoutId"] as? String)
        let bench = "Bench Press (Barbell)"
        let escaped = bench.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed)!
        let pairs: [(path: String, cli: [String])] = [
            ("prs", ["prs"]),
            ("prs?asOf=200", ["prs", "--as-of", "200"]),
            ("history?limit=3&offset=1", ["history", "--limit", "3", "--offset", "1"]),
            ("history?month=2026-10", ["history", "--month", "2026-10"]),
            ("volume?by=muscle", ["volume", "--by", "muscle"]),
            ("volume", ["volume"]),
            ("entitlements?at=2026-11-01T00:00:00Z", ["entitlements", "--at", "2026-11-01T00:00:00Z"]),
            ("body", ["body", "history"]),
            ("next", ["next"]),
            ("settings", ["settings", "show"]),
            ("plates/102.5", ["plates", "102.5"]),
            ("plates/61kg", ["plates", "61kg"]),
            ("body?site=waist", ["body", "history", "--site", "waist"]),
            ("hint/\(escaped)?at=2026-11-01T00:00:00Z", ["hint", bench, "--at", "2026-11-01T00:00:00Z"]),
            ("e1rm/\(escaped)?formula=brzycki", ["e1rm", bench, "--formula", "brzycki"]),
            ("summary/\(w)", ["workout", "summary", w]),
            ("workout/\(w)", ["workout", "show", w]),
            ("prompt/\(w)/\(escaped)?range=8-12", ["prompt", w, bench, "--range", "8-12"]),
            ("repcount/\(w)/\(escaped)", ["repcount", w, bench]),
        ]
        for (path, args) in pairs {
            let served = try await server.get("/v1/accounts/\(alice.id)/\(path)", token: alice.token)
            let printed = try phone.run(args + ["--json"])
            #expect(served.status == 200, "\(path): \(served.body)")
            #expect(served.body == printed.stdout.trimmingCharacters(in: .newlines), "\(path)")
        }
        // Unknown workout or exercise in a query: 404; a bad parameter: 400.
        #expect(try await server.get("/v1/accounts/\(alice.id)/summary/ffffffff", token: alice.token).errorCode == "notFound")
        #expect(try await server.get("/v1/accounts/\(alice.id)/hint/no-such-lift", token: alice.token).errorCode == "notFound")
        #expect(try await server.get("/v1/accounts/\(alice.id)/volume?by=planet", token: alice.token).errorCode == "badRequest")
        #expect(try await server.get("/v1/accounts/\(alice.id)/plates/heavy", token: alice.token).errorCode == "badRequest")
        #expect(try await server.get("/v1/accounts/\(alice.id)/body?site=elbow", token: alice.token).errorCode == "badRequest")
        #expect(try await server.get("/v1/accounts/\(alice.id)/history?month=13", token: alice.token).errorCode == "badRequest")
        #expect(try await server.get("/v1/accounts/\(alice.id)/nothing", token: alice.token).errorCode == "notFound")
        #expect(try await server.get("/v2/health", token: nil).errorCode == "notFound")
        #expect(try await server.request(.PUT, "/v1/accounts/\(alice.id)/prs", token: alice.token).status == 405)
    }

    @Test func tokensAndAccounts() async throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let server = try ServerProcess(cli: cli)
        let alice = try server.createAccount("alice")
        let bob = try server.createAccount("bob")
        let path = "/v1/accounts/\(alice.id)/events"
        #expect(try await server.get(path, token: nil).errorCode == "unauthorized")
        #expect(try await server.get(path, token: "rl_" + String(repeating: "0", count: 64)).errorCode == "unauthorized")
        #expect(try await server.request(.GET, path, token: nil, headers: [("Authorization", "Basic abc")]).status == 401)
        // A token of another account: 403, reading or writing; an unknown account: 403 too.
        #expect(try await server.get(path, token: bob.token).errorCode == "forbidden")
        #expect(try await server.post(path, token: bob.token, body: PushBodies.batch([PushBodies.started(UUID())])).errorCode == "forbidden")
        #expect(try await server.get("/v1/accounts/\(UUID().uuidString.lowercased())/events", token: bob.token).status == 403)
        #expect(try await server.get("/v1/accounts/not-a-uuid/prs", token: bob.token).status == 403)
        // The same answer whether the account exists or not.
        let existing = try await server.get("/v1/accounts/\(alice.id)/prs", token: bob.token)
        let missing = try await server.get("/v1/accounts/\(UUID().uuidString.lowercased())/prs", token: bob.token)
        #expect(existing.status == missing.status && existing.body == missing.body)
        // A device's token stamps its events; a revoked token is refused from then on.
        let watch = try server.createToken(alice.id, device: "watch")
        let pushed = try await server.post(path, token: watch, body: PushBodies.batch([PushBodies.started(UUID())]))
        #expect(pushed.status == 200)
        let events = try await server.get(path, token: alice.token)
        #expect(((events.json?["events"] as? [[String: Any]])?.last?["device"] as? String) == "watch")
        #expect(try cli.run(["server", "token", "revoke", watch, "--json"] + server.storage, useDbFlag: false).stdout == "{}\n")
        #expect(try await server.get(path, token: watch).errorCode == "unauthorized")
        #expect(try cli.run(["server", "token", "revoke", watch] + server.storage, useDbFlag: false).status != 0)
        // The data directory never holds a token, only hashes.
        let files = ServerProcess.onPostgres ? [] : try FileManager.default.subpathsOfDirectory(atPath: server.data)
        for file in files {
            let bytes = (try? Data(contentsOf: URL(fileURLWithPath: server.data + "/" + file))) ?? Data()
            #expect(bytes.range(of: Data(alice.token.utf8)) == nil, "\(file) holds a token")
        }
        #expect(!server.log.contains(alice.token))
    }

    @Test func appendingIsValidatedAtomicAndIdempotent() async throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let server = try ServerProcess(cli: cli)
        let alice = try server.createAccount("alice")
        let path = "/v1/accounts/\(alice.id)/events"
        func head() async throws -> Int {
            try #require(((try await server.get(path, token: alice.token)).json?["head"] as? [String: Any])?["position"] as? Int)
        }
        let w = UUID()
        let startedId = UUID()
        let first = try await server.post(
            path, token: alice.token, body: PushBodies.batch([PushBodies.started(w, id: startedId), PushBodies.set(w)]))
        #expect(first.status == 200)
        #expect(first.json?["appended"] as? [Int] == [1, 2])
        #expect(first.json?["alreadyStored"] as? Int == 0)
        // The answer says what the server stamped on the batch: what a device needs to chain its own copies.
        let stored = try #require(try await server.get(path, token: alice.token).json?["events"] as? [[String: Any]])
        #expect(stored.count == 2 && stored.allSatisfy { $0["recordedAt"] as? String == first.json?["recordedAt"] as? String })
        #expect(stored.allSatisfy { $0["device"] as? String == first.json?["device"] as? String })
        #expect((first.json?["head"] as? [String: Any])?["hash"] as? String == stored.last?["hash"] as? String)
        // A retried event is skipped and counted; the same id with other content is a conflict.
        let retry = try await server.post(path, token: alice.token, body: PushBodies.batch([PushBodies.started(w, id: startedId)]))
        #expect(retry.json?["appended"] as? [Int] == [])
        #expect(retry.json?["alreadyStored"] as? Int == 1)
        #expect(retry.json?["recordedAt"] == nil, "nothing appended, nothing stamped")
        let conflict = try await server.post(path, token: alice.token, body: PushBodies.batch([PushBodies.started(w, name: "Other", id: startedId)]))
        #expect(conflict.status == 409)
        #expect(conflict.errorCode == "eventIdConflict")
        // Expected versions.
        let stream = "workout-\(w.uuidString.lowercased())"
        let stale = try await server.post(path, token: alice.token, body: PushBodies.batch([PushBodies.set(w)], expected: #"{"\#(stream)":1}"#))
        #expect(stale.status == 409)
        #expect(stale.errorCode == "wrongExpectedVersion")
        let detail = stale.json?["error"] as? [String: Any]
        #expect(detail?["stream"] as? String == stream)
        #expect(detail?["expected"] as? Int == 1)
        #expect(detail?["actual"] as? Int == 2)
        #expect(
            try await server.post(path, token: alice.token, body: PushBodies.batch([PushBodies.set(w)], expected: #"{"\#(stream)":2}"#)).status == 200
        )
        #expect(try await head() == 3)

        // 422 with the core's refusal names; a refused batch appends nothing, the good events before it included.
        let refusals: [(String, String)] = [
            (PushBodies.batch([PushBodies.set(w), PushBodies.set(w, reps: 5000)]), "repsOutOfRange"),
            (PushBodies.batch([PushBodies.set(w, kg: -5)]), "invalidWeight"),
            (PushBodies.batch([PushBodies.set(UUID())]), "unknownWorkout"),
            (PushBodies.batch([PushBodies.discarded(w), PushBodies.set(w)]), "workoutDiscarded"),
            (PushBodies.batch((1...4).map { PushBodies.template("T\($0)") }), "templateLimit"),
        ]
        for (body, code) in refusals {
            let answer = try await server.post(path, token: alice.token, body: body)
            #expect(answer.status == 422, "\(code): \(answer.body)")
            #expect(answer.errorCode == code)
            #expect((answer.json?["error"] as? [String: Any])?["eventId"] is String)
        }
        #expect(try await head() == 3)
        // A workout started in the same batch takes sets.
        let w2 = UUID()
        #expect(try await server.post(path, token: alice.token, body: PushBodies.batch([PushBodies.started(w2), PushBodies.set(w2)])).status == 200)
        #expect(try await head() == 5)
    }

    @Test func malformedOversizedAndHostileBodiesAppendNothingAndTheServerKeepsServing() async throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let server = try ServerProcess(cli: cli)
        let alice = try server.createAccount("alice")
        let path = "/v1/accounts/\(alice.id)/events"
        let w = UUID().uuidString.lowercased()
        let bodies: [(String, Int, String)] = [
            ("", 400, "badRequest"),
            ("not json", 400, "badRequest"),
            ("[]", 400, "badRequest"),
            (#"{"events":{}}"#, 400, "badRequest"),
            (#"{"events":[1]}"#, 400, "badRequest"),
            (#"{"events":[{"eventId":"x"}]}"#, 400, "badRequest"),
            (PushBodies.batch([PushBodies.event("NoSuchType", stream: "account", payload: "{}")]), 400, "badRequest"),
            (
                PushBodies.batch([PushBodies.event("WorkoutStarted", stream: "workout-\(w)", payload: #"{"workoutId":"\#(w)"}"#, schema: 99)]), 400,
                "badRequest"
            ),
            (
                PushBodies.batch([
                    PushBodies.event(
                        "WorkoutStarted", stream: "account",
                        payload: #"{"workoutId":"\#(w)","name":"x","origin":"empty","templateId":null,"programId":null,"programDayIndex":null}"#)
                ]), 400, "badRequest"
            ),
            (
                PushBodies.batch([
                    PushBodies.event("WorkoutStarted", stream: "workout-\(w)", payload: #"{"workoutId":12,"name":[],"origin":"empty"}"#)
                ]), 400, "badRequest"
            ),
            (String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000), 400, "badRequest"),
            (#"{"events":[],"expectedVersions":{"account":-1}}"#, 400, "badRequest"),
            (#"{"events":[],"pad":""# + String(repeating: "x", count: 3 << 20) + #""}"#, 200, ""),
            (#"{"events":[],"pad":""# + String(repeating: "x", count: 5 << 20) + #""}"#, 413, "tooLarge"),
            (PushBodies.batch(Array(repeating: PushBodies.started(UUID()), count: 5001)), 413, "tooLarge"),
            (
                PushBodies.batch([
                    PushBodies.event(
                        "WorkoutStarted", stream: "workout-\(w)",
                        payload: #"{"workoutId":"\#(w)","name":""# + String(repeating: "é", count: 1 << 20)
                            + #"","origin":"empty","templateId":null,"programId":null,"programDayIndex":null}"#)
                ]), 422, "invalidName"
            ),
        ]
        for (body, status, code) in bodies {
            let answer = try await server.post(path, token: alice.token, body: body)
            #expect(answer.status == status, "\(body.prefix(60)): \(answer.body.prefix(200))")
            if !code.isEmpty { #expect(answer.errorCode == code) }
            #expect(!answer.body.contains("Swift/") && !answer.body.contains("Fatal"))
        }
        #expect(server.isRunning)
        let events = try await server.get(path, token: alice.token)
        #expect((events.json?["events"] as? [Any])?.count == 0)
        #expect(try await server.get("/v1/health", token: nil).status == 200)
    }

    @Test func anAccountImportedFromADevicesBackupIsByteExactAndSyncsOn() async throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let server = try ServerProcess(cli: cli)
        // A lifter's existing device ledger moves to the server.
        let old = try Device("old-phone", cli: cli, token: "unused")
        try old.run(["demo", "--json"])
        let backup = cli.folder.appendingPathComponent("backup.jsonl").path
        try old.run(["export", "jsonl", backup])
        let out = try cli.run(["server", "account", "import", "lina", backup, "--json"] + server.storage, useDbFlag: false)
        let json = try #require(out.json, "\(out.stderr)")
        let id = try #require(json["accountId"] as? String)
        let token = try #require(json["token"] as? String)
        let lines = try String(contentsOfFile: backup, encoding: .utf8).split(separator: "\n")
        #expect(json["events"] as? Int == lines.count)
        // (The export itself is recorded after the file is written: the backup ends one event earlier than the old ledger.)
        let lastHash = try #require(
            lines.last.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }?["hash"] as? String)
        #expect((json["head"] as? [String: Any])?["hash"] as? String == lastHash)
        let served = try await server.get("/v1/accounts/\(id)/events?limit=10000", token: token)
        #expect(served.body.hasPrefix(#"{"events":["# + lines.joined(separator: ",") + "]"))
        // A new device pulls it and holds the same log; the old backup, restored elsewhere, verifies to the same head.
        let phone = try Device("phone", cli: cli, token: token)
        #expect(try phone.sync(server, account: id).status == 0)
        #expect(phone.log == lines.joined(separator: "\n") + "\n")
        // A broken backup creates no account.
        try "{not json}\n".write(toFile: backup + ".bad", atomically: true, encoding: .utf8)
        #expect(try cli.run(["server", "account", "import", "bad", backup + ".bad"] + server.storage, useDbFlag: false).status != 0)
        if !ServerProcess.onPostgres {
            let files = try FileManager.default.contentsOfDirectory(atPath: server.data + "/accounts").filter { $0.hasSuffix(".sqlite") }
            #expect(files.count == 1)
        }
    }

    @Test func aCleanStopOnSIGTERM() async throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let server = try ServerProcess(cli: cli)
        let alice = try server.createAccount("alice")
        // A live stream is open: the stop still completes.
        let stream = Task { try await server.get("/v1/accounts/\(alice.id)/events/live", token: alice.token) }
        let line = "GET /v1/accounts/\(alice.id.prefix(8))…/events/live 200"  // the log shows an id by its first 8 characters
        let deadline = Date().addingTimeInterval(60)
        while !server.log.contains(line), Date() < deadline { try await Task.sleep(nanoseconds: 50_000_000) }
        #expect(server.log.contains(line))
        let status = server.stop()
        #expect(status == 0, "\(server.log.suffix(2000))")
        let reply = try await stream.value
        #expect(reply.status == 200)
        #expect(reply.body.hasPrefix(": live after 0"))
    }
}
