import Foundation
import LedgerTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The server's kept state: warm folds that never answer behind the head,
/// snapshots on both stores, the memory budget, `/metrics`, and a refused
/// body answered at once.
@Suite struct WarmFoldTests {
    /// The documents of the queries a device and a coach make, as one string per query.
    static func answers(_ server: ServerProcess, _ account: ServerProcess.Account) async throws -> [String: String] {
        var out: [String: String] = [:]
        for q in [
            "prs", "prs?timeline=true", "history", "history?limit=2&offset=1", "volume?by=week", "volume?by=muscle",
            "e1rm/barbell-bench-press", "entitlements?at=2026-11-20T00:00:00Z", "hint/barbell-bench-press",
        ] {
            let reply = try await server.get("/v1/accounts/\(account.id)/\(q)", token: account.token)
            #expect(reply.status == 200, "\(q): \(reply.body.prefix(200))")
            out[q] = reply.body
        }
        return out
    }

    /// A workout with one bench set of `kg`, pushed in one batch → the head position after it.
    @discardableResult
    static func pushWorkout(_ server: ServerProcess, _ account: ServerProcess.Account, kg: Double, day: Int) async throws -> Int {
        let w = UUID()
        let at = String(format: "2026-10-%02dT10:00:00.000Z", day)
        let reply = try await server.post(
            "/v1/accounts/\(account.id)/events", token: account.token,
            body: PushBodies.batch([PushBodies.started(w, at: at), PushBodies.set(w, reps: 5, kg: kg, at: at)]))
        #expect(reply.status == 200, "\(reply.body.prefix(300))")
        return (reply.json?["head"] as? [String: Any])?["position"] as? Int ?? -1
    }

    @Test func aWarmFoldNeverAnswersBehindTheHeadAnotherProcessMoved() async throws {
        guard let cluster = PostgresCluster.shared else {
            if ProcessInfo.processInfo.environment["REPLEDGER_REQUIRE_POSTGRES"] == "1" {
                Issue.record("no PostgreSQL: \(PostgresCluster.unavailableReason)")
            }
            return
        }
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let url = try cluster.createDatabase()
        let writer = try ServerProcess(cli: cli, storage: ["--postgres", url])
        let reader = try ServerProcess(cli: cli, storage: ["--postgres", url])
        let (alice, _) = try writer.accountWithDemo("alice")
        // The reader's fold is warm from here on; every push below lands through the other process.
        let first = try await reader.get("/v1/accounts/\(alice.id)/history", token: alice.token)
        let workouts = try #require((first.json?["workouts"] as? [Any])?.count)
        for i in 1...12 {
            try await Self.pushWorkout(writer, alice, kg: 200 + Double(i), day: 1 + i)
            let history = try await reader.get("/v1/accounts/\(alice.id)/history", token: alice.token)
            #expect((history.json?["workouts"] as? [Any])?.count == workouts + i, "push \(i): the reader answered behind the head")
            let prs = try await reader.get("/v1/accounts/\(alice.id)/prs?exercise=barbell-bench-press", token: alice.token)
            let bench = (prs.json?["exercises"] as? [[String: Any]])?.first
            #expect(bench?["heaviestKg"] as? Double == 200 + Double(i), "push \(i): the records view answered behind the head")
        }
        // Both processes give the same documents, and so does a process that never kept a fold.
        let cold = try ServerProcess(cli: cli, storage: ["--postgres", url], serveFlags: ["--warm-memory", "0"])
        let expected = try await Self.answers(writer, alice)
        #expect(try await Self.answers(reader, alice) == expected)
        #expect(try await Self.answers(cold, alice) == expected)
    }

    @Test func snapshotsOnTheServersStoreServeTheFirstReadAfterARestartAndGoWithTheAccount() async throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let server = try ServerProcess(cli: cli, serveFlags: ["--snapshot-every", "20"])
        let (alice, _) = try server.accountWithDemo("alice")
        for day in 1...15 { try await Self.pushWorkout(server, alice, kg: 40 + Double(day), day: day) }
        let before = try await Self.answers(server, alice)
        let taken = try Self.metric(await server.metrics(), "repledger_snapshots_taken_total")
        #expect(taken >= 1, "30 events pushed with a snapshot due every 20")

        server.kill()
        try server.start()
        let after = try await Self.answers(server, alice)
        #expect(after == before, "the same documents from a snapshot plus its tail")
        let metrics = try await server.metrics()
        #expect(try Self.metric(metrics, "repledger_snapshot_hits_total") == 1, "the first read after the restart loaded the snapshot")
        #expect(try Self.metric(metrics, "repledger_fold_loads_total") == 1, "later reads used the warm fold")
        #expect(try Self.metric(metrics, "repledger_fold_load_events_total") < 20, "only the tail after the snapshot was folded")

        let erased = try await server.request(.DELETE, "/v1/accounts/\(alice.id)", token: alice.token)
        #expect(erased.status == 200)
        #expect((erased.json?["snapshots"] as? Int ?? 0) >= 1, "the account's snapshots are erased with it: \(erased.body)")
    }

    @Test func aPushIsConfirmedFromItsAnswersWithoutPullingItBack() async throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let server = try ServerProcess(cli: cli)
        let (alice, phone) = try server.accountWithDemo("alice")
        let pushed = try #require(try phone.sync().json, "a second sync with nothing new")
        #expect(pushed["pushed"] as? Int == 0)
        // The demo's first sync pushed it in several batches and confirmed them from the answers; its
        // second round and the second sync each pulled one empty page.
        let text = try await server.metrics()
        let pulls = try Self.metric(
            text, #"repledger_request_duration_seconds_count{route="/v1/accounts/{account}/events",method="GET",status="200"}"#)
        let pushes = try Self.metric(
            text, #"repledger_request_duration_seconds_count{route="/v1/accounts/{account}/events",method="POST",status="200"}"#)
        #expect(pushes >= 3, "the demo is several batches of 500")
        #expect(pulls == 2, "none of the pushed events pulled back")
        // And the device's log is the server's, byte for byte.
        let served = try await server.get("/v1/accounts/\(alice.id)/events?limit=10000", token: alice.token)
        let events = try #require(served.json?["events"] as? [[String: Any]])
        #expect(phone.log.split(separator: "\n").count == events.count)
        #expect(try phone.run(["verify", "--json"]).json?["headHash"] as? String == (served.json?["head"] as? [String: Any])?["hash"] as? String)
    }

    @Test func aBudgetOfNothingKeepsNoFoldAndAnswersTheSame() async throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let warm = try ServerProcess(cli: cli)
        let (alice, _) = try warm.accountWithDemo("alice")
        let (bob, _) = try warm.accountWithDemo("bob", device: "tablet")
        for day in 1...4 {
            try await Self.pushWorkout(warm, alice, kg: 60 + Double(day), day: day)
            try await Self.pushWorkout(warm, bob, kg: 70 + Double(day), day: day)
        }
        let expected = (try await Self.answers(warm, alice), try await Self.answers(warm, bob))
        var metrics = try await warm.metrics()
        #expect(try Self.metric(metrics, "repledger_warm_accounts") == 2)
        warm.kill()

        let cold = try ServerProcess(cli: cli, storage: warm.storage, serveFlags: ["--warm-memory", "0"])
        #expect(try await Self.answers(cold, alice) == expected.0)
        #expect(try await Self.answers(cold, bob) == expected.1)
        metrics = try await cold.metrics()
        #expect(try Self.metric(metrics, "repledger_warm_accounts") == 0)
        #expect(try Self.metric(metrics, "repledger_fold_loads_total") >= 12, "each read of the fold loaded it again")
    }

    @Test func metricsAreServedToLoopbackAndToTheTokenOnly() async throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let tokenFile = cli.folder.appendingPathComponent("metrics.token").path
        try "metrics-secret-0123456789".write(toFile: tokenFile, atomically: true, encoding: .utf8)
        let server = try ServerProcess(cli: cli, serveFlags: ["--metrics-token-file", tokenFile])
        let alice = try server.createAccount("alice")
        try await Self.pushWorkout(server, alice, kg: 80, day: 3)
        let head = try await Self.pushWorkout(server, alice, kg: 85, day: 4)
        _ = try await server.get("/v1/accounts/\(alice.id)/prs", token: alice.token)
        let text = try await server.metrics()
        #expect(try Self.metric(text, "repledger_events_appended_total") == Double(head), "every event appended, counted once")
        #expect(
            text.contains(#"repledger_request_duration_seconds_bucket{route="/v1/accounts/{account}/prs",method="GET",status="200""#),
            "per-route latency histograms, ids never in a label")
        #expect(!text.contains(alice.id), "no account id in any series")
        #expect(try await server.get("/metrics", token: "wrong-token-0123456789").status == 401)
        #expect(try await server.get("/metrics", token: "metrics-secret-0123456789").status == 200)
        #expect(try await server.request(.POST, "/metrics", token: nil, body: "").status == 405)
    }

    @Test func aBodyOverTheLimitWrittenInFullGets413AtOnceAndTheConnectionCloses() async throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let server = try ServerProcess(cli: cli)
        let alice = try server.createAccount("alice")
        // As Python's urllib does: the whole body is written before the answer is read.
        let socket = try RawSocket(port: server.port)
        var limit = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(socket.fd, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        let body = "{\"events\":[" + String(repeating: " ", count: 6_000_000) + "]}"
        let started = ContinuousClock.now
        socket.send(
            "POST /v1/accounts/\(alice.id)/events HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(alice.token)\r\n"
                + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n" + body)
        let (answer, closed) = socket.read(for: 20)
        #expect(answer.hasPrefix("HTTP/1.1 413"), "\(answer.prefix(200))")
        #expect(answer.contains("\"tooLarge\""))
        #expect(closed, "the connection closes after the answer")
        #expect(ContinuousClock.now - started < .seconds(20), "not held until the idle timeout (30 s)")
        #expect(try await server.get("/v1/accounts/\(alice.id)/verify", token: alice.token).json?["ok"] as? Bool == true)
    }

    /// The value of an unlabelled series in Prometheus text.
    static func metric(_ text: String, _ name: String) throws -> Double {
        let line = try #require(text.split(separator: "\n").first { $0.hasPrefix(name + " ") }, "no \(name) in:\n\(text.prefix(2000))")
        return try #require(Double(line.split(separator: " ").last ?? ""))
    }
}

extension ServerProcess {
    func metrics() async throws -> String {
        let reply = try await get("/metrics", token: nil)
        #expect(reply.status == 200, "\(reply.body.prefix(300))")
        return reply.body
    }
}
