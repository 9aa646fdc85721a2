import AsyncHTTPClient
import Foundation
import LedgerTestSupport
import NIOCore
import Testing

/// `ledger serve --postgres`: several server processes on one database.
/// (The whole HTTP suite also runs on PostgreSQL: `.ci/run` runs ServerTests
/// again with `REPLEDGER_TEST_BACKEND=postgres`.)
@Suite(
    .serialized, .enabled(if: PostgresCluster.available, "no PostgreSQL can be started here"),
    .disabled(if: ServerProcess.onPostgres, "on PostgreSQL in either pass: the main pass runs it"))
struct PostgresServerTests {
    /// Pushes `batches` batches of `size` new workouts → the ids of each
    /// acknowledged batch. A server that cannot be reached ends the writer (a
    /// client retries a dead address until its deadline: 30 s here, which a
    /// push of 500 to a live server on a loaded machine stays well within).
    static func write(
        _ server: ServerProcess, account: ServerProcess.Account, batches: Int, size: Int,
        acknowledged counter: AckCounter? = nil
    ) async -> [[String]] {
        var acknowledged: [[String]] = []
        for _ in 0..<batches {
            let ids = (0..<size).map { _ in UUID() }
            let body = PushBodies.batch(ids.map { PushBodies.started(UUID(), id: $0) })
            let reply: ServerProcess.Reply
            do {
                reply = try await server.request(
                    .POST, "/v1/accounts/\(account.id)/events", token: account.token, body: body,
                    headers: [("Content-Type", "application/json")], timeout: 30)
            } catch { break }
            guard reply.status == 200 else { continue }
            acknowledged.append(ids.map { $0.uuidString.lowercased() })
            counter?.add()
        }
        return acknowledged
    }

    /// Every stored event: (position, eventId), read through `server`.
    static func stored(_ server: ServerProcess, _ account: ServerProcess.Account) async throws -> [(Int, String)] {
        let reply = try await server.get("/v1/accounts/\(account.id)/events?limit=10000", token: account.token)
        let events = try #require(reply.json?["events"] as? [[String: Any]], "\(reply.body.prefix(300))")
        return events.map { ($0["position"] as? Int ?? -1, $0["eventId"] as? String ?? "") }
    }

    @Test func eightWritersOverTwoServerProcessesOnOneAccount() async throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let url = try #require(PostgresCluster.shared).createDatabase()
        let a = try ServerProcess(cli: cli, storage: ["--postgres", url])
        let b = try ServerProcess(cli: cli, storage: ["--postgres", url])
        let alice = try a.createAccount("alice")
        let acknowledged = await withTaskGroup(of: [[String]].self) { group in
            for writer in 0..<8 {
                group.addTask { await Self.write(writer % 2 == 0 ? a : b, account: alice, batches: 10, size: 5) }
            }
            return await group.reduce(into: []) { $0 += $1 }
        }
        #expect(acknowledged.count == 80, "every writer's batches acknowledged")
        for server in [a, b] {
            let stored = try await Self.stored(server, alice)
            #expect(firstDifference(stored.map(\.0), Array(1...400)) == nil, "positions 1…n, none missing, none twice")
            #expect(Set(stored.map(\.1)) == Set(acknowledged.flatMap { $0 }))
            // One batch's events are consecutive: appends to one account never interleave.
            let position = Dictionary(uniqueKeysWithValues: stored.map { ($0.1, $0.0) })
            for batch in acknowledged {
                let positions = batch.compactMap { position[$0] }
                #expect(positions == Array(positions[0]..<positions[0] + 5))
            }
            #expect(try await server.get("/v1/accounts/\(alice.id)/verify", token: alice.token).json?["ok"] as? Bool == true)
        }
    }

    @Test func aServerKilledMidLoadLeavesNoGapAndNoPartialBatch() async throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let url = try #require(PostgresCluster.shared).createDatabase()
        let doomed = try ServerProcess(cli: cli, storage: ["--postgres", url])
        let survivor = try ServerProcess(cli: cli, storage: ["--postgres", url])
        let alice = try survivor.createAccount("alice")
        // Large batches through the doomed server, small ones through the survivor; the doomed one is killed mid-load.
        // Killed while a batch is in flight: the writer sends the next batch as soon as one is acknowledged, so a
        // kill the moment the second, third or fourth is acknowledged falls while the next is on its way or stored.
        let counter = AckCounter()
        let acknowledgedBeforeKill = Int.random(in: 2...4)
        let killer = Task {
            let deadline = Date().addingTimeInterval(120)
            while counter.count < acknowledgedBeforeKill, Date() < deadline { try await Task.sleep(for: .milliseconds(1)) }
            doomed.kill()
        }
        async let doomedAcks = Self.write(doomed, account: alice, batches: 40, size: 500, acknowledged: counter)
        async let survivorAcks = Self.write(survivor, account: alice, batches: 30, size: 3)
        let (lost, kept) = await (doomedAcks, survivorAcks)
        try await killer.value
        let sent = lost + kept
        #expect(kept.count == 30)
        #expect(lost.count >= 2 && lost.count < 40)
        let stored = try await Self.stored(survivor, alice)
        #expect(firstDifference(stored.map(\.0), stored.indices.map { $0 + 1 }) == nil, "positions 1…n, none missing")
        let ids = Set(stored.map(\.1))
        #expect(ids.count == stored.count, "no event twice")
        for batch in sent { #expect(batch.allSatisfy(ids.contains), "an acknowledged batch is stored whole") }
        // Whatever the kill interrupted is all there or not at all: stored ids group into whole batches of 500 or 3.
        #expect((stored.count - kept.count * 3) % 500 == 0)
        #expect(try await survivor.get("/v1/accounts/\(alice.id)/verify", token: alice.token).json?["ok"] as? Bool == true)
    }

    @Test func aLiveSubscriberOnOneProcessSeesAppendsThroughAnother() async throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let url = try #require(PostgresCluster.shared).createDatabase()
        let writer = try ServerProcess(cli: cli, storage: ["--postgres", url])
        let reader = try ServerProcess(cli: cli, storage: ["--postgres", url], keepAlive: 0.2)
        let alice = try writer.createAccount("alice")
        var request = HTTPClientRequest(url: reader.base + "/v1/accounts/\(alice.id)/events/live?after=0")
        request.headers.add(name: "Authorization", value: "Bearer \(alice.token)")
        let response = try await TestHTTP.client.execute(request, timeout: .seconds(30))
        #expect(response.status.code == 200)
        let pushes = Task { await Self.write(writer, account: alice, batches: 12, size: 2) }
        var text = ""
        var ids: [Int] = []
        for try await chunk in response.body {
            text += String(buffer: chunk)
            ids = text.split(separator: "\n").filter { $0.hasPrefix("id: ") }.compactMap { Int($0.dropFirst(4)) }
            if ids.count >= 24 { break }
        }
        #expect(await pushes.value.count == 12)
        #expect(firstDifference(ids, Array(1...24)) == nil, "every event once, in order, from the other process")
    }

    @Test func aDatabaseRestartMidLoadAnswers503ThenRecoversLosingNothing() async throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        // A cluster of its own: the shared one must not restart under other tests.
        let cluster = try PostgresCluster()
        defer { cluster.remove() }
        let server = try ServerProcess(cli: cli, storage: ["--postgres", try cluster.createDatabase()])
        let alice = try server.createAccount("alice")
        let first = await Self.write(server, account: alice, batches: 5, size: 4)
        #expect(first.count == 5)
        try cluster.stop()
        let down = try await server.post(
            "/v1/accounts/\(alice.id)/events", token: alice.token,
            body: PushBodies.batch([PushBodies.started(UUID())]))
        #expect(down.status == 503 && down.errorCode == "storage", "\(down.body)")
        #expect(!down.body.contains("postgres://"))
        #expect(server.isRunning)
        try cluster.start()
        var second: [[String]] = []
        let deadline = Date().addingTimeInterval(60)
        while second.count < 5, Date() < deadline {
            second += await Self.write(server, account: alice, batches: 1, size: 4)
            if second.isEmpty { try await Task.sleep(nanoseconds: 200_000_000) }
        }
        #expect(second.count == 5)
        let stored = try await Self.stored(server, alice)
        #expect(firstDifference(stored.map(\.0), Array(1...40)) == nil)
        #expect(Set(stored.map(\.1)) == Set((first + second).flatMap { $0 }))
        #expect(server.log.contains("storage") || server.log.contains("503"))
    }

    /// README's PostgreSQL set-up: the URL's user owns its database and has no
    /// CREATEROLE. Without the administrator's two statements it is refused in
    /// one line naming them, and nothing is created; with them, it serves.
    @Test func aUserWithoutCreateRoleGetsTheDocumentedGrantsAndThenServes() async throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        // A cluster of its own: roles belong to the cluster, and the shared one has the app role already.
        let cluster = try PostgresCluster()
        defer { cluster.remove() }
        try cluster.psql("postgres", "CREATE ROLE lifter LOGIN NOCREATEROLE NOSUPERUSER")
        try cluster.psql("postgres", "CREATE DATABASE repledger OWNER lifter")
        let url = cluster.url("repledger", user: "lifter")
        let keys = ["--keys", cli.folder.appendingPathComponent("keys").path]
        let refused = try cli.run(["server", "account", "create", "alice", "--postgres", url] + keys, useDbFlag: false)
        #expect(refused.status == 4)
        #expect(
            refused.stderr
                == "error: the PostgreSQL user lifter may not create the role repledger_app; an administrator runs once: CREATE ROLE repledger_app NOLOGIN; GRANT repledger_app TO lifter;\n",
            "\(refused.stderr)")
        #expect(try cluster.psql("repledger", "SELECT count(*) FROM pg_tables WHERE schemaname = 'public'") == "0\n")

        // The README's administrator statements, exactly.
        try cluster.psql("postgres", "CREATE ROLE repledger_app NOLOGIN; GRANT repledger_app TO lifter;")
        let server = try ServerProcess(cli: cli, storage: ["--postgres", url] + keys)
        let alice = try server.createAccount("alice")
        let written = await Self.write(server, account: alice, batches: 2, size: 3)
        #expect(written.count == 2)
        #expect(try await Self.stored(server, alice).map(\.0) == Array(1...6))
        #expect(try cluster.psql("postgres", "SELECT rolcreaterole FROM pg_roles WHERE rolname = 'lifter'") == "f\n")
    }
}

/// Acknowledged batches, counted across tasks.
final class AckCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var n = 0
    var count: Int { lock.withLock { n } }
    func add() { lock.withLock { n += 1 } }
}
