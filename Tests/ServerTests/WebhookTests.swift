import Foundation
import LedgerTestSupport
import Testing

/// Webhooks against a real receiver (`Tests/Clients/webhook_receiver.py`, which checks each
/// signature as a receiver would): a phone's workout delivered as its events and the records it set,
/// retried after the receiver's 500 under the same delivery id, and delivered after a server killed
/// while the receiver was failing; pushes never wait for the receiver.
@Suite struct WebhookTests {
    final class Receiver {
        let folder: URL
        let process = Process()
        let port: Int

        init(_ parent: URL) throws {
            folder = parent.appendingPathComponent("receiver-\(UUID().uuidString.prefix(8))")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["python3", McpClient.driver.replacingOccurrences(of: "mcp_driver.py", with: "webhook_receiver.py"), folder.path]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            let deadline = Date().addingTimeInterval(60)
            var found: Int?
            while found == nil, Date() < deadline {
                found = (try? String(contentsOf: folder.appendingPathComponent("port"), encoding: .utf8)).flatMap { Int($0) }
                if found == nil { usleep(50_000) }
            }
            guard let found else { throw ServerFailure.didNotStart("the webhook receiver did not start") }
            port = found
        }

        /// Ends the receiver with the test: SIGTERM, then SIGKILL if it is still there a few seconds later.
        deinit {
            guard process.isRunning else { return }
            process.terminate()
            let deadline = Date().addingTimeInterval(5)
            while process.isRunning, Date() < deadline { usleep(20_000) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
        }

        var url: String { "http://127.0.0.1:\(port)/hooks/repledger" }

        func answer(_ status: Int?) throws {
            let file = folder.appendingPathComponent("answer")
            if let status {
                try String(status).write(to: file, atomically: true, encoding: .utf8)
            } else {
                try? FileManager.default.removeItem(at: file)
            }
        }

        /// `hang` or `huge` (see the receiver's description).
        func answer(_ mode: String) throws { try mode.write(to: folder.appendingPathComponent("answer"), atomically: true, encoding: .utf8) }

        func secret(_ text: String) throws { try text.write(to: folder.appendingPathComponent("secret"), atomically: true, encoding: .utf8) }

        var received: [[String: Any]] {
            let text = (try? String(contentsOf: folder.appendingPathComponent("received.jsonl"), encoding: .utf8)) ?? ""
            return text.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        }

        /// Waits for `condition` of what arrived, ten minutes at most: a delivery that failed is tried again
        /// within five (the longest backoff), however late a loaded machine let this test see the failure.
        /// The polling runs on a thread of its own, never held up by the tests that share the task pool.
        func wait(_ condition: @escaping @Sendable ([[String: Any]]) -> Bool) async throws -> Bool {
            let receiver = UncheckedReceiver(self)
            return try await onOwnThread {
                let deadline = Date().addingTimeInterval(600)
                while Date() < deadline {
                    if condition(receiver.value.received) { return true }
                    usleep(100_000)
                }
                return condition(receiver.value.received)
            }
        }
    }

    /// The receiver, read from the polling thread (it only reads the receiver's file).
    struct UncheckedReceiver: @unchecked Sendable {
        let value: Receiver
        init(_ value: Receiver) { self.value = value }
    }

    static func delivered(_ received: [[String: Any]], _ event: String) -> [[String: Any]] {
        received.filter { $0["event"] as? String == event && $0["answered"] as? Int == 200 }
    }

    @Test func deliveriesAreSignedRetriedAndSurviveARestart() async throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let server = try ServerProcess(cli: cli)
        let receiver = try Receiver(cli.folder)
        let alice = try server.createAccount("alice")
        let phone = try Device("phone", cli: cli, token: alice.token)

        // Refused: a URL no one can be posted to, an event there is not.
        let bad = try cli.run(
            ["server", "webhook", "add", alice.id, "ftp://example.com", "--events", "WorkoutFinished"] + server.storage, useDbFlag: false)
        #expect(bad.status != 0 && bad.stderr.contains("not an http:// or https:// URL"))
        let unknown = try cli.run(["server", "webhook", "add", alice.id, receiver.url, "--events", "WorkoutDone"] + server.storage, useDbFlag: false)
        #expect(unknown.status != 0 && unknown.stderr.contains("no event 'WorkoutDone'"))

        let added = try cli.run(
            ["server", "webhook", "add", alice.id, receiver.url, "--events", "SetLogged,WorkoutFinished,RecordSet", "--json"] + server.storage,
            useDbFlag: false)
        let hookId = try #require(added.json?["hookId"] as? String), secret = try #require(added.json?["secret"] as? String)
        #expect(secret.hasPrefix("whsec_") && !server.log.contains(secret))
        try receiver.secret(secret)

        // The receiver fails at first: the phone's sync is not held up by it.
        try receiver.answer(500)
        try phone.run(["workout", "start", "--name", "Push"])
        try phone.run(["workout", "log", "last", "bench", "--reps", "5", "--weight", "100kg"])
        try phone.run(["workout", "finish", "last"])
        #expect(try phone.sync(server, account: alice.id).status == 0)
        #expect(try await receiver.wait { $0.contains { $0["answered"] as? Int == 500 } }, "no delivery was tried")

        // It recovers: every delivery arrives, signed, the failed one again under its own id.
        try receiver.answer(nil)
        #expect(try await receiver.wait { !Self.delivered($0, "RecordSet").isEmpty }, "the deliveries did not arrive")
        let received = receiver.received
        #expect(received.allSatisfy { $0["valid"] as? Bool == true }, "a signature did not check")
        for event in ["SetLogged", "WorkoutFinished", "RecordSet"] { #expect(Self.delivered(received, event).count == 1, "\(event)") }
        let failed = try #require(received.first { $0["answered"] as? Int == 500 })
        #expect(received.filter { $0["delivery"] as? String == failed["delivery"] as? String }.count >= 2)
        let recordSet = try #require(Self.delivered(received, "RecordSet").first?["body"] as? String)
        #expect(recordSet.contains("\"exerciseId\":\"barbell-bench-press\"") && recordSet.contains("\"kind\":\"heaviest\""))

        // Failing again when the server is killed: after the restart the pending deliveries still arrive.
        try receiver.answer(503)
        try phone.run(["workout", "start", "--name", "Pull"])
        try phone.run(["workout", "log", "last", "pull-up", "--reps", "8"])
        #expect(try phone.sync().status == 0)
        let before = receiver.received.count
        #expect(try await receiver.wait { $0.count > before && $0.last?["answered"] as? Int == 503 })
        server.kill()
        try receiver.answer(nil)
        try server.start()
        #expect(try await receiver.wait { Self.delivered($0, "SetLogged").count == 2 }, "a delivery was lost across the restart")
        #expect(receiver.received.allSatisfy { $0["valid"] as? Bool == true })

        // The delivery log says what happened, and the hook can be removed.
        let log = try cli.run(["server", "webhook", "log", hookId, "--json"] + server.storage, useDbFlag: false)
        let statuses = (log.json?["attempts"] as? [[String: Any]] ?? []).compactMap { $0["status"] as? Int }
        #expect(statuses.contains(500) && statuses.contains(503) && statuses.contains(200))
        let listed = try cli.run(["server", "webhook", "list", alice.id, "--json"] + server.storage, useDbFlag: false)
        #expect((listed.json?["webhooks"] as? [[String: Any]])?.first?["hookId"] as? String == hookId)
        #expect(try cli.run(["server", "webhook", "remove", hookId] + server.storage, useDbFlag: false).status == 0)
        #expect(try cli.run(["server", "webhook", "list", alice.id, "--json"] + server.storage, useDbFlag: false).stdout.contains(hookId) == false)
    }

    /// A hook for `events` of `account` delivering to `url` → its id and secret.
    static func addHook(
        _ cli: LedgerProcess, _ server: ServerProcess, _ account: String, _ url: String, events: String = "WorkoutStarted"
    ) throws
        -> (id: String, secret: String)
    {
        let added = try cli.run(["server", "webhook", "add", account, url, "--events", events, "--json"] + server.storage, useDbFlag: false)
        guard let id = added.json?["hookId"] as? String, let secret = added.json?["secret"] as? String else { throw ServerFailure.cli(added.stderr) }
        return (id, secret)
    }

    @Test func receiversThatHangHoldUpOnlyTheirOwnAccountsDeliveries() async throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let server = try ServerProcess(cli: cli)
        let hanging = try Receiver(cli.folder), good = try Receiver(cli.folder)
        try hanging.answer("hang")
        // Six accounts whose receiver takes each delivery and never answers (each attempt waits out the 10 s timeout)…
        var others: [ServerProcess.Account] = []
        for i in 0..<6 {
            let account = try server.createAccount("other\(i)")
            _ = try Self.addHook(cli, server, account.id, hanging.url)
            others.append(account)
        }
        // …and alice, whose hook was added last, with a receiver that answers.
        let alice = try server.createAccount("alice")
        try good.secret(try Self.addHook(cli, server, alice.id, good.url).secret)
        for account in others + [alice] {
            #expect(
                try await server.post("/v1/accounts/\(account.id)/events", token: account.token, body: PushBodies.batch([PushBodies.started(UUID())]))
                    .status == 200)
        }
        let pushed = Date()
        #expect(try await good.wait { !Self.delivered($0, "WorkoutStarted").isEmpty }, "alice's delivery never arrived")
        // One after another, alice's would wait out six timeouts (60 s); on their own tasks, it does not wait for them.
        let waited = Date().timeIntervalSince(pushed)
        #expect(waited < 30, "alice's delivery waited \(waited) s behind the hanging receivers")
        #expect(hanging.received.count >= 1)
    }

    @Test func aReceiversAnswerIsReadNoFurtherThanItsFirstKilobytes() async throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let server = try ServerProcess(cli: cli)
        let receiver = try Receiver(cli.folder)
        let alice = try server.createAccount("alice")
        try receiver.secret(try Self.addHook(cli, server, alice.id, receiver.url).secret)
        // Each answer is 200 and 2 GiB long: both deliveries are acknowledged, and the server holds none of it.
        try receiver.answer("huge")
        let body = PushBodies.batch([PushBodies.started(UUID()), PushBodies.started(UUID())])
        #expect(try await server.post("/v1/accounts/\(alice.id)/events", token: alice.token, body: body).status == 200)
        #expect(try await receiver.wait { Self.delivered($0, "WorkoutStarted").count >= 2 }, "the deliveries were not both made")
        let peak = try #require(server.peakMemory)
        #expect(peak < 256 << 20, "the server held \(peak >> 20) MiB")

        // And an account's hooks are bounded: twenty, then a clear refusal.
        for _ in 1..<20 { _ = try Self.addHook(cli, server, alice.id, receiver.url) }
        let refused = try cli.run(
            ["server", "webhook", "add", alice.id, receiver.url, "--events", "WorkoutStarted"] + server.storage, useDbFlag: false)
        #expect(refused.status != 0 && refused.stderr.contains("20 webhooks, the most it may have"), "\(refused.stderr)")
    }
}
