import Foundation
import LedgerTestSupport
import Testing

/// `ledger serve` on a pg_auto_failover formation (a monitor and two nodes,
/// real `pg_autoctl` keepers), given the connection string the monitor
/// gives. The manager fails over, rejoins and switches over by itself; the
/// tests only kill and start processes, under three writers, a live stream
/// and a coach reading the roster. Run in CI's PostgreSQL pass.
@Suite(.serialized, .enabled(if: ServerProcess.onPostgres, "pg_auto_failover runs in the PostgreSQL pass (REPLEDGER_TEST_BACKEND=postgres)"))
struct AutoFailoverTests {
    /// What every request of the load got: statuses, and any 503 that came without `Retry-After`.
    final class Answers: @unchecked Sendable {
        private let lock = NSLock()
        private var seen: [Int] = []
        private var bare = 0
        var statuses: Set<Int> { lock.withLock { Set(seen) } }
        var count: Int { lock.withLock { seen.count } }
        /// The statuses of the requests answered after the first `count`.
        func statuses(after count: Int) -> Set<Int> { lock.withLock { Set(seen.dropFirst(count)) } }
        var unavailableWithoutRetryAfter: Int { lock.withLock { bare } }
        func record(_ status: Int, retryAfter: String?) {
            lock.withLock {
                seen.append(status)
                if status == 503, retryAfter.flatMap(Int.init).map({ $0 > 0 }) != true { bare += 1 }
            }
        }
    }

    /// A formation, a server on the monitor's URI, Alice's demo log synced from her phone, a coach she granted,
    /// her live stream open; three writers pushing and the coach reading the roster, until `stop()`.
    final class Drill: @unchecked Sendable {
        let cli: LedgerProcess
        let formation: AutoFailoverFormation
        let server: ServerProcess
        let alice: ServerProcess.Account
        let phone: Device
        let coach: ServerProcess.Account
        let stream: StreamRevocationTests.Stream
        let load = PostgresFailoverTests.Load()
        let pushes = Answers()
        let roster = Answers()
        private var tasks: [Task<Void, Never>] = []

        init() throws {
            cli = try LedgerProcess()
            do {
                formation = try AutoFailoverFormation()
            } catch {
                cli.cleanUp()
                throw error
            }
            do {
                server = try ServerProcess(cli: cli, storage: ["--postgres", try formation.uri(user: "postgres")])
                (alice, phone) = try server.accountWithDemo()
                coach = try server.createAccount("coach", coach: true)
                let granted = try cli.run(
                    ["server", "account", "grant-coach", coach.id, "--until", "2099-01-01"] + server.storage, useDbFlag: false)
                guard granted.status == 0 else { throw ServerFailure.cli(granted.stderr) }
                guard try phone.run(["coach", "grant", coach.id]).status == 0, try phone.sync().status == 0 else {
                    throw ServerFailure.cli("the phone could not grant the coach")
                }
                stream = StreamRevocationTests.Stream(server, account: alice.id, token: alice.token)
            } catch {
                formation.remove()
                cli.cleanUp()
                throw error
            }
        }

        func start() {
            for _ in 0..<3 { tasks.append(Task { await AutoFailoverTests.write(self) }) }
            tasks.append(
                Task {
                    while !self.load.isStopped {
                        let answer = try? await PostgresFailoverTests.probe(self.server, "/v1/coach/clients", token: self.coach.token)
                        self.roster.record(answer?.status ?? -1, retryAfter: answer?.retryAfter)
                        try? await Task.sleep(nanoseconds: 100_000_000)
                    }
                })
        }

        func stop() async {
            load.stop()
            for task in tasks { await task.value }
        }

        func cleanUp() {
            stream.cancel()
            server.kill()
            formation.remove()
            cli.cleanUp()
        }

        /// What the server's log says last, for a failure's message.
        /// A crash's reason and first frames first, when the server crashed: its register dump fills the tail.
        var logTail: String {
            let lines = server.log.split(separator: "\n").filter { !$0.contains("live updates") }
            let crash = lines.firstIndex { $0.contains("crashed") || $0.contains("Fatal error") }.map { Array(lines[$0...].prefix(25)) } ?? []
            return (crash + ["…"] + lines.suffix(20)).joined(separator: "\n")
        }

        /// Everything a drill must leave true: only acknowledgements and 503s with Retry-After; every
        /// acknowledged batch stored once, whole, at gapless positions; the chain verifies; the live stream saw
        /// every position once, in order; the coach's roster was read throughout.
        func checkNothingLost() async throws {
            #expect(pushes.statuses.isSubset(of: [200, 503]), "pushes got only acknowledgements and 503s: \(pushes.statuses.sorted())")
            #expect(roster.statuses.isSubset(of: [200, 503]) && roster.statuses.contains(200), "the roster: \(roster.statuses.sorted())")
            #expect(pushes.unavailableWithoutRetryAfter + roster.unavailableWithoutRetryAfter == 0, "every 503 says when to retry")
            let stored = try await load.checkStored(server, alice)
            #expect(try await server.get("/v1/accounts/\(alice.id)/verify", token: alice.token).json?["ok"] as? Bool == true)
            #expect(
                await stream.wait(120) { $0.ids.count >= stored.count },
                "the stream caught up: \(stream.ids.count) of \(stored.count)\(stream.failure.map { "; the client: \($0)" } ?? "")")
            #expect(firstDifference(stream.ids, Array(1...stored.count)) == nil, "every position once, in order")
            #expect(StreamRevocationTests.errorCode(stream.received) == nil, "the stream was not ended")
        }
    }

    /// A drill begun: the stream open, the load running and fifteen batches acknowledged.
    static func begun() async throws -> Drill {
        // The formation and the server start in minutes of blocking work: on a thread of their own.
        let drill = try await onOwnThread { try Drill() }
        #expect(await drill.stream.wait(60) { $0.received.contains(": live after ") }, "the stream opened")
        drill.start()
        #expect(await drill.load.wait(forBatches: 15), "pushes acknowledged at first: \(drill.logTail)")
        return drill
    }

    /// Pushes batches of five new workouts until stopped; a refused batch is not sent again.
    static func write(_ drill: Drill) async {
        while !drill.load.isStopped {
            let ids = (0..<5).map { _ in UUID() }
            let body = PushBodies.batch(ids.map { PushBodies.started(UUID(), id: $0) })
            let answer = try? await PostgresFailoverTests.probe(
                drill.server, "/v1/accounts/\(drill.alice.id)/events", method: .POST, token: drill.alice.token, body: body)
            drill.pushes.record(answer?.status ?? -1, retryAfter: answer?.retryAfter)
            drill.load.answered(answer?.status ?? -1, ids.map { $0.uuidString.lowercased() })
            if answer?.status != 200 { try? await Task.sleep(nanoseconds: 100_000_000) }
        }
    }

    /// One push of a new workout, made by the test itself (never acknowledged unless it answers 200).
    static func push(_ drill: Drill) async throws -> (status: Int, retryAfter: String?, code: String?) {
        try await PostgresFailoverTests.probe(
            drill.server, "/v1/accounts/\(drill.alice.id)/events", method: .POST, token: drill.alice.token,
            body: PushBodies.batch([PushBodies.started(UUID())]))
    }

    @Test func thePrimaryLostUnderLoadIsReplacedByTheManagerAndRejoinsAsASecondary() async throws {
        let drill = try await Self.begun()
        defer { drill.cleanUp() }
        let formation = drill.formation

        // The primary's postmaster alone killed: its keeper starts it again in place, and the server carries on.
        let restarted = try #require(formation.primary(), "a primary: \((try? formation.state()) ?? [])")
        formation.killPostmaster(restarted)
        let killed = drill.load.acknowledged.count
        #expect(await drill.load.wait(forBatches: killed + 15, seconds: 180), "pushes acknowledged after the postmaster's restart: \(drill.logTail)")
        #expect(await formation.waitUntilSettled(), "settled: \((try? formation.state()) ?? [])")

        // The primary's machine lost: its keeper and its PostgreSQL killed together.
        let lost = try #require(formation.primary(), "a primary: \((try? formation.state()) ?? [])")
        formation.killNode(lost)
        // Asked at once, long before the monitor can promote the standby (seconds of health checks): no node takes
        // writes. Asked by the test itself, since the writers' tasks may not run at all while a loaded machine's
        // test pool is busy elsewhere.
        let outage = try await Self.push(drill)
        #expect(outage.status == 503 && outage.retryAfter != nil, "a push with the primary lost: \(outage)")

        // Nobody promotes anything: the monitor does, and the server finds the new primary by itself.
        let before = drill.load.acknowledged.count
        #expect(await drill.load.wait(forBatches: before + 15, seconds: 180), "pushes acknowledged after the failover: \(drill.logTail)")
        #expect(
            await formation.wait(seconds: 60) { formation.primary().map { $0 != lost } == true },
            "the monitor made the other node primary: \((try? formation.state()) ?? [])")

        // The lost node's keeper, started again, rejoins it as a secondary (pg_rewind is the manager's business).
        try formation.startNode(lost)
        #expect(
            await formation.wait(seconds: 180) {
                (try? formation.state())?.first { $0.name == formation.nodes[lost].name }.map {
                    $0.current == "secondary" && $0.assigned == "secondary"
                } == true
            },
            "the old primary rejoined as a secondary: \((try? formation.state()) ?? [])")
        let rejoined = drill.load.acknowledged.count
        #expect(await drill.load.wait(forBatches: rejoined + 5), "pushes go on once it rejoined")
        await drill.stop()
        try await drill.checkNothingLost()

        // The rejoined node replays every event, as a secondary does.
        let stored = try await PostgresServerTests.stored(drill.server, drill.alice).count
        let total = try Int(formation.psql(1 - lost, "ledger", "SELECT count(*) FROM events").trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(
            await formation.wait(seconds: 60) {
                (try? formation.psql(lost, "ledger", "SELECT count(*) FROM events").trimmingCharacters(in: .whitespacesAndNewlines))
                    == total.map(String.init)
            },
            "the rejoined node holds the log")
        #expect(total.map { $0 >= stored } == true)
    }

    @Test func aPlannedSwitchoverUnderLoadFailsNoRequestButWithRetryAfter() async throws {
        let drill = try await Self.begun()
        defer { drill.cleanUp() }
        let formation = drill.formation
        let before = try #require(formation.primary())
        try await onOwnThread { try formation.switchover() }
        #expect(await formation.waitUntilSettled(), "the formation settled: \((try? formation.state()) ?? [])")
        #expect(formation.primary().map { $0 != before } == true, "the other node is primary: \((try? formation.state()) ?? [])")
        let switched = drill.load.acknowledged.count
        #expect(await drill.load.wait(forBatches: switched + 15), "pushes acknowledged on the new primary: \(drill.logTail)")
        await drill.stop()
        try await drill.checkNothingLost()
    }

    @Test func theMonitorDownChangesNothingForTheServer() async throws {
        let drill = try await Self.begun()
        defer { drill.cleanUp() }
        let formation = drill.formation
        // The nodes keep serving and replicating, and the server keeps writing to the primary.
        formation.killMonitor()
        let answered = drill.pushes.count
        let acknowledged = drill.load.acknowledged.count
        #expect(await drill.load.wait(forBatches: acknowledged + 15), "pushes acknowledged without the monitor: \(drill.logTail)")
        #expect(drill.pushes.statuses(after: answered) == [200], "no push failed while the monitor was down")
        try formation.startMonitor()
        #expect(await formation.waitUntilSettled(), "the monitor is back: \((try? formation.state()) ?? []); \(formation.log("monitor"))")
        let back = drill.load.acknowledged.count
        #expect(await drill.load.wait(forBatches: back + 5), "pushes acknowledged with the monitor back")
        await drill.stop()
        try await drill.checkNothingLost()
    }

    @Test func bothNodesDownAnswer503AndThePrimarysReturnIsEnough() async throws {
        let drill = try await Self.begun()
        defer { drill.cleanUp() }
        let formation = drill.formation
        let primary = try #require(formation.primary())
        formation.killNode(1 - primary)
        formation.killNode(primary)
        let outage = try await PostgresFailoverTests.probe(
            drill.server, "/v1/accounts/\(drill.alice.id)/events?after=0&limit=1", token: drill.alice.token)
        #expect(outage.status == 503 && outage.retryAfter != nil, "with no node: \(outage)")
        let refused = try await Self.push(drill)
        #expect(refused.status == 503 && refused.retryAfter != nil, "a push with no node: \(refused)")
        try formation.startNode(primary)
        let back = drill.load.acknowledged.count
        #expect(
            await drill.load.wait(forBatches: back + 10, seconds: 180),
            "pushes acknowledged once the primary returned: \((try? formation.state()) ?? []); \(formation.log(formation.nodes[primary].name))")
        try formation.startNode(1 - primary)
        #expect(await formation.waitUntilSettled(), "both nodes back: \((try? formation.state()) ?? [])")
        await drill.stop()
        try await drill.checkNothingLost()
    }

    @Test func anOldPrimaryStartedWithoutRejoiningNeverGetsAWrite() async throws {
        let drill = try await Self.begun()
        defer { drill.cleanUp() }
        let formation = drill.formation
        // A failover, then the old primary's PostgreSQL started by hand, without its keeper: it takes writes on the
        // timeline it left. A server started now (the old primary first in its URL) must write to the new primary.
        let old = try #require(formation.primary())
        formation.killNode(old)
        #expect(
            await formation.wait(seconds: 180) { formation.primary().map { $0 != old } == true }, "failed over: \((try? formation.state()) ?? [])")
        let failedOver = drill.load.acknowledged.count
        #expect(await drill.load.wait(forBatches: failedOver + 5, seconds: 180), "pushes acknowledged after the failover: \(drill.logTail)")
        try formation.startPostgresAlone(old)
        #expect(try formation.psql(old, "ledger", "SHOW transaction_read_only").contains("off"), "the old primary takes writes")
        let onOld = try formation.psql(old, "ledger", "SELECT count(*) FROM events")
        let second = try ServerProcess(cli: drill.cli, storage: drill.server.storage)
        defer { second.kill() }
        for _ in 0..<5 {
            let body = PushBodies.batch((0..<5).map { _ in PushBodies.started(UUID()) })
            let answer = try await PostgresFailoverTests.probe(
                second, "/v1/accounts/\(drill.alice.id)/events", method: .POST, token: drill.alice.token, body: body)
            #expect(answer.status == 200, "a push through a server started beside the stale primary")
        }
        #expect(try formation.psql(old, "ledger", "SELECT count(*) FROM events") == onOld, "nothing was written to the old primary")
        await drill.stop()
        try await drill.checkNothingLost()
    }
}
