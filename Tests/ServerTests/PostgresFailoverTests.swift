import AsyncHTTPClient
import Foundation
import LedgerTestSupport
import NIOCore
import NIOHTTP1
import Testing

/// PostgreSQL beyond one machine, on real clusters: a primary with a
/// synchronous standby made by `pg_basebackup`, the primary's postmaster
/// killed under load, the standby promoted; and hot standbys serving reads.
@Suite(
    .serialized, .enabled(if: PostgresCluster.available, "no PostgreSQL can be started here"),
    .disabled(if: ServerProcess.onPostgres, "on PostgreSQL in either pass: the main pass runs it"))
struct PostgresFailoverTests {
    /// Writers' shared tally: batches acknowledged, every status answered, and when to stop.
    final class Load: @unchecked Sendable {
        private let lock = NSLock()
        private var batches: [[String]] = []
        private var seen: [Int] = []
        private var stopped = false
        var acknowledged: [[String]] { lock.withLock { batches } }
        var statuses: Set<Int> { lock.withLock { Set(seen) } }
        var isStopped: Bool { lock.withLock { stopped } }
        func stop() { lock.withLock { stopped = true } }
        func answered(_ status: Int, _ ids: [String]) {
            lock.withLock {
                seen.append(status)
                if status == 200 { batches.append(ids) }
            }
        }

        /// Reads the account's log back and checks it holds every acknowledged batch: positions 1…n with none
        /// missing or twice, no event stored twice, each batch whole and in one run → (position, event id) in order.
        @discardableResult
        func checkStored(_ server: ServerProcess, _ account: ServerProcess.Account) async throws -> [(Int, String)] {
            let stored = try await PostgresServerTests.stored(server, account)
            #expect(firstDifference(stored.map(\.0), Array(1...stored.count)) == nil, "positions 1…n, none missing, none twice")
            #expect(Set(stored.map(\.1)).count == stored.count, "no event stored twice")
            let position = Dictionary(uniqueKeysWithValues: stored.map { ($0.1, $0.0) })
            for batch in acknowledged {
                let positions = batch.compactMap { position[$0] }
                #expect(positions.count == batch.count, "an acknowledged batch is stored whole")
                #expect(positions == Array((positions.first ?? 0)..<(positions.first ?? 0) + positions.count), "and in one run")
            }
            return stored
        }

        /// Waits until `n` batches in all are acknowledged, at most `seconds`.
        func wait(forBatches n: Int, seconds: Double = 120) async -> Bool {
            await eventually(within: seconds, every: 0.02) { acknowledged.count >= n }
        }
    }

    /// Pushes batches of five new workouts until stopped; a refused batch is
    /// not sent again (its ids may or may not be stored: it was never acknowledged).
    static func write(_ server: ServerProcess, _ account: ServerProcess.Account, _ load: Load) async {
        while !load.isStopped {
            let ids = (0..<5).map { _ in UUID() }
            let body = PushBodies.batch(ids.map { PushBodies.started(UUID(), id: $0) })
            let status: Int
            do {
                status = try await server.request(
                    .POST, "/v1/accounts/\(account.id)/events", token: account.token, body: body,
                    headers: [("Content-Type", "application/json")], timeout: 30
                ).status
            } catch {
                status = -1
            }
            load.answered(status, ids.map { $0.uuidString.lowercased() })
            if status != 200 { try? await Task.sleep(nanoseconds: 100_000_000) }
        }
    }

    /// A request's status, `Retry-After` and error code, headers included.
    static func probe(
        _ server: ServerProcess, _ path: String, method: HTTPMethod = .GET, token: String, body: String? = nil
    ) async throws -> (status: Int, retryAfter: String?, code: String?) {
        var request = HTTPClientRequest(url: server.base + path)
        request.method = method
        request.headers.add(name: "Authorization", value: "Bearer \(token)")
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(string: body))
        }
        let response = try await TestHTTP.client.execute(request, timeout: .seconds(30))
        let text = String(buffer: try await response.body.collect(upTo: 1 << 20))
        let json = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
        return (Int(response.status.code), response.headers.first(name: "Retry-After"), (json?["error"] as? [String: Any])?["code"] as? String)
    }

    /// A new primary holding an empty database `ledger`, and a standby streaming from it.
    static func primaryAndStandby(synchronous: Bool) throws -> (primary: PostgresCluster, standby: PostgresCluster) {
        let primary = try PostgresCluster()
        do {
            try primary.psql("postgres", "CREATE DATABASE ledger")
            return (primary, try primary.standby(synchronous: synchronous))
        } catch {
            primary.remove()
            throw error
        }
    }

    @Test func aFailoverLosesNoAcknowledgedEventAndStreamsResume() async throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let (primary, standby) = try Self.primaryAndStandby(synchronous: true)
        defer { primary.remove(); standby.remove() }
        let url = "postgres://postgres@127.0.0.1:\(primary.port),127.0.0.1:\(standby.port)/ledger?target_session_attrs=read-write"
        let server = try ServerProcess(cli: cli, storage: ["--postgres", url])
        let (alice, phone) = try server.accountWithDemo()
        let stream = StreamRevocationTests.Stream(server, account: alice.id, token: alice.token)
        defer { stream.cancel() }
        #expect(await stream.wait(60) { $0.received.contains(": live after 0") }, "the stream opened: \(stream.received.prefix(200))")

        // Three devices pushing all along; the primary's machine is lost part-way.
        let load = Load()
        let writers = (0..<3).map { _ in Task { await Self.write(server, alice, load) } }
        #expect(await load.wait(forBatches: 15), "pushes acknowledged before the failover")
        try primary.killPostmaster()

        // Until a primary is back: 503 storage with Retry-After, never a 500.
        let during: (status: Int, retryAfter: String?, code: String?)
        do {
            during = try await Self.probe(server, "/v1/accounts/\(alice.id)/events?after=0&limit=1", token: alice.token)
        } catch {
            Issue.record(
                "no answer during the outage: \(error); the server's log ends: \(server.log.split(separator: "\n").filter { !$0.contains("live updates") }.suffix(40).joined(separator: "\n"))"
            )
            throw error
        }
        #expect(during.status == 503 && during.code == "storage", "\(during)")
        #expect(during.retryAfter.flatMap(Int.init).map { $0 > 0 } == true)

        // A device that syncs now waits out the 503s (Retry-After) and finishes once a primary is back. The standby
        // is promoted once the sync says it waits, on a thread of its own: the test's shared threads may be held
        // for many seconds by other tests on a loaded machine, and the sync's patience must not run out meanwhile.
        let beforePromotion = load.acknowledged.count
        let syncing = try phone.start(["sync", "--json"])
        let waited = try await onOwnThread { () throws -> Bool in
            let waiting = syncing.waitForStandardError(containing: "waits up to", seconds: 120)
            try standby.promote()
            return waiting
        }
        #expect(waited, "the sync begun during the outage said it waits for the storage: \(syncing.standardError)")
        #expect(await load.wait(forBatches: beforePromotion + 15), "pushes acknowledged on the promoted standby: \(server.log.suffix(500))")
        load.stop()
        for writer in writers { await writer.value }
        let outageSync = try await onOwnThread { syncing.finish() }
        #expect(outageSync.status == 0, "a sync begun during the outage completed: \(outageSync.stderr)")
        #expect(load.statuses.isSubset(of: [200, 503]), "only acknowledgements and 503s: \(load.statuses.sorted())")
        #expect(load.statuses.contains(503), "the writers saw the outage")

        // Every acknowledged event is on the new primary, once, at gapless positions; the chain verifies.
        let stored = try await load.checkStored(server, alice)
        let onStandby = try standby.psql("ledger", "SELECT count(*) FROM events")
        #expect(Int(onStandby.trimmingCharacters(in: .whitespacesAndNewlines)) == stored.count, "the promoted standby holds the log")
        #expect(try await server.get("/v1/accounts/\(alice.id)/verify", token: alice.token).json?["ok"] as? Bool == true)

        // The live stream waited out the failover and went on from its last position.
        #expect(
            await stream.wait(120) { $0.ids.count >= stored.count },
            "the stream caught up: \(stream.ids.count) of \(stored.count)\(stream.failure.map { "; the client: \($0)" } ?? "")")
        #expect(firstDifference(stream.ids, Array(1...stored.count)) == nil, "every position once, in order, across the failover")
        #expect(StreamRevocationTests.errorCode(stream.received) == nil, "the stream was not ended")

        // The devices' next sync converges on the same log, byte for byte.
        let laptop = try Device("laptop", cli: cli, token: try server.createToken(alice.id, device: "laptop"))
        #expect(try phone.sync().status == 0)
        #expect(try laptop.sync(server, account: alice.id).status == 0)
        func head(_ device: Device) throws -> (Int?, String?) {
            let head = try device.sync().json?["head"] as? [String: Any]
            return (head?["position"] as? Int, head?["hash"] as? String)
        }
        let phoneHead = try head(phone), laptopHead = try head(laptop)
        #expect(phoneHead.0 == stored.count && phoneHead.1 != nil)
        #expect(laptopHead.0 == phoneHead.0 && laptopHead.1 == phoneHead.1, "one head on both devices")
        #expect(phone.log == laptop.log && !phone.log.isEmpty, "the two devices hold the same log")
    }

    @Test func hotStandbysServeReadsAndNeverShowAHeadOlderThanAPush() async throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let (primary, replica) = try Self.primaryAndStandby(synchronous: false)
        defer { primary.remove(); replica.remove() }
        // The primary given as two URLs, the standby first: writes go to the one host that takes them.
        let server = try ServerProcess(
            cli: cli, storage: ["--postgres", replica.url("ledger"), "--postgres", primary.url("ledger")],
            serveFlags: ["--postgres-read", replica.url("ledger")])
        let alice = try server.createAccount("alice")
        let events = "/v1/accounts/\(alice.id)/events"

        /// Pushes one batch, then reads at once: the read must hold it.
        func pushThenRead(_ round: Int) async throws {
            let ids = (0..<5).map { _ in UUID() }
            let pushed = try await server.post(events, token: alice.token, body: PushBodies.batch(ids.map { PushBodies.started(UUID(), id: $0) }))
            #expect(pushed.status == 200, "\(pushed.body)")
            let read = try await PostgresServerTests.stored(server, alice)
            #expect(read.count == 5 * round, "a read right after a push holds it (round \(round))")
            let held = Set(read.map(\.1))
            #expect(ids.filter { !held.contains($0.uuidString.lowercased()) }.isEmpty, "the pushed events are read back")
        }
        for round in 1...20 { try await pushThenRead(round) }
        let (servedByReplica, _) = try await Self.replicaReads(server)
        #expect(servedByReplica > 0, "the standby served reads")

        // A standby that stops replaying (lag) is waited for briefly, then the primary reads: never an older head.
        try replica.psql("postgres", "SELECT pg_wal_replay_pause()")
        for round in 21...23 { try await pushThenRead(round) }
        let (_, servedByPrimary) = try await Self.replicaReads(server)
        #expect(servedByPrimary > 0, "the primary read what the paused standby had not replayed")
        try replica.psql("postgres", "SELECT pg_wal_replay_resume()")

        // A standby that goes away leaves the reads to the primary.
        try replica.killPostmaster()
        try await pushThenRead(24)
        #expect(try await server.get("/v1/accounts/\(alice.id)/verify", token: alice.token).json?["ok"] as? Bool == true)
    }

    /// `repledger_replica_reads` from `GET /metrics`: (served by a standby, served by the primary instead).
    static func replicaReads(_ server: ServerProcess) async throws -> (Int, Int) {
        let text = try await server.get("/metrics", token: nil).body
        func value(_ by: String) -> Int {
            let line = text.split(separator: "\n").first { $0.hasPrefix("repledger_replica_reads{served_by=\"\(by)\"}") }
            return line.flatMap { $0.split(separator: " ").last }.flatMap { Double($0) }.map { Int($0) } ?? -1
        }
        return (value("replica"), value("primary"))
    }
}
