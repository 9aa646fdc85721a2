import AsyncHTTPClient
import Foundation
import LedgerTestSupport
import NIOCore
import NIOHTTP1
import Testing

/// The fault run against the real processes (docs/RELIABILITY.md): `ledger
/// serve` (two processes over one database on PostgreSQL, one over SQLite)
/// killed with SIGKILL and started again, again and again, while raw HTTP
/// writers push and read and a real device (`ledger`, its clock skewed by
/// `faketime`) records sets and syncs, all through fault proxies that delay
/// requests, drop them, or drop answers after the server acted. Every request
/// and answer is recorded as a JSON line, and `FaultHistoryChecker` reads the
/// history. A writer whose push got no answer sends it again with the same
/// ids, as a device does. Then the device syncs and must hold the server's log.
///
/// `REPLEDGER_FAULT_SECONDS` sets how long faults are injected (CI: 12), and
/// `REPLEDGER_FAULT_HISTORY=FILE` keeps the history; with `REPLEDGER_REQUIRE_FAKETIME=1`
/// a machine without `faketime` fails the run instead of running the device on its own clock.
@Suite(.serialized) struct FaultRunTests {
    static let writers = 3

    @Test func killedServersLoseNoAcknowledgedAppendAndReadsNeverGoBack() async throws { try await Self.run(on: nil) }

    /// The same run with the servers on a pg_auto_failover formation (a monitor and two nodes), the primary
    /// switched over again and again while the servers are killed and the clients' connections faulted.
    /// Asked for (`REPLEDGER_FAULT_SWITCHOVERS=1`, on PostgreSQL), not run by CI: beside `AutoFailoverTests` it doubled the
    /// pass's formations, and in CI that drill's server crashed once while it ran.
    @Test(
        .enabled(
            if: ServerProcess.onPostgres && ProcessInfo.processInfo.environment["REPLEDGER_FAULT_SWITCHOVERS"] == "1",
            "switchovers in the fault run: REPLEDGER_FAULT_SWITCHOVERS=1 REPLEDGER_TEST_BACKEND=postgres"))
    func switchoversOfThePrimaryLoseNoAcknowledgedAppendEither() async throws {
        let formation = try await ThreadRun.value { try AutoFailoverFormation() }
        defer { formation.remove() }
        try await Self.run(on: formation)
    }

    /// One fault run: on `formation` when given, else on the pass's storage (PostgreSQL through a fault proxy).
    static func run(on formation: AutoFailoverFormation?) async throws {
        let environment = ProcessInfo.processInfo.environment
        let seconds = environment["REPLEDGER_FAULT_SECONDS"].flatMap(Double.init) ?? 12
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        // On PostgreSQL the servers reach the database through a fault proxy too, which cuts connections.
        let database = formation == nil ? try Self.databaseBehindProxy() : nil
        defer { database?.proxy.stop() }
        let storage = try formation.map { ["--postgres", try $0.uri(user: "postgres")] } ?? database.map { ["--postgres", $0.url] }
        let first = try storage.map { try ServerProcess(cli: cli, storage: $0) } ?? ServerProcess(cli: cli)
        let servers = ServerProcess.onPostgres ? [first, try ServerProcess(cli: cli, storage: first.storage)] : [first]
        defer { for s in servers { s.stop() } }
        let account = try first.createAccount("lifter")
        // Every token first: a CLI run takes seconds on a loaded machine, and the faults' time starts after them.
        let tokens = try (0..<Self.writers).map { try first.createToken(account.id, device: "writer-\($0)") }
        let device = try Device("phone", cli: cli, token: try first.createToken(account.id, device: "phone"))
        let clock = try Self.skewedClock()
        let proxies = try servers.map { try FaultProxy(to: $0.port, choose: Self.fate) }
        defer { for p in proxies { p.stop() } }
        let history = FaultHistory()
        let until = history.now + seconds
        /// Every kind of fault has met the clients at least once.
        let met: @Sendable () -> Bool = {
            history.count("kill") >= 3 && history.acknowledged >= 10 && history.unanswered >= 1
                && proxies.contains { $0.counts[.answerDropped] != nil } && history.count("sync", outcome: "ok") >= 1
                && (database.map { $0.proxy.counts[.cutLater] != nil } ?? true)
                && (formation == nil || history.count("switchover") >= 1)
        }
        database?.proxy.harm()
        // A live stream follows the log throughout, from the servers themselves (their kills cut it), until it
        // has sent the final log's head, or a minute after that head was read.
        let follower = StreamFollower(client: "stream", ports: servers.map(\.port), account: account.id, token: tokens[0], history: history)
        let followed = ThreadRun {
            var deadline: Double?
            _ = follower.follow { last in
                guard let head = history.finalHead else { return false }
                deadline = deadline ?? history.now + 60
                return last >= head || history.now > deadline!
            }
        }
        // Whatever the outcome, the follower stops (a head of 0 is reached at once) before it is awaited.
        defer { history.finalHead = history.finalHead ?? 0 }

        // The faults: one server at a time killed, then started on its port again. They go on past
        // `until` until they have met the writers, a request left unanswered (a loaded machine may
        // run neither for seconds at first).
        // The follower, every writer and the faults run on threads of their own, started here and now:
        // the suite's CLI runs hold the cooperative pool's two threads for seconds at a time, and a child
        // task waited minutes for one to start (a 12-second run once did nothing for 431 s).
        let faults = ThreadRun {
            defer { history.stop() }
            var n = 0
            while history.now < until + 120, history.now < until || !met() {
                Thread.sleep(forTimeInterval: Double.random(in: 0.3...1.2))
                let index = n % servers.count
                n += 1
                let start = history.now
                servers[index].kill()
                history.record(["client": "faults", "op": "kill", "server": index, "start": start, "end": history.now])
                Thread.sleep(forTimeInterval: Double.random(in: 0.05...0.4))
                let restart = history.now
                try Self.start(servers[index], whilePromoting: formation != nil)
                history.record(["client": "faults", "op": "start", "server": index, "start": restart, "end": history.now])
            }
        }
        // On a formation, the primary is switched over (the monitor promotes the standby) while the rest goes on.
        let switchovers = ThreadRun {
            guard let formation else { return }
            while !history.stopped {
                Thread.sleep(forTimeInterval: Double.random(in: 1...3))
                let start = history.now
                try formation.switchover()
                history.record(["client": "faults", "op": "switchover", "start": start, "end": history.now])
                let deadline = history.now + 120
                while !formation.settled, history.now < deadline { Thread.sleep(forTimeInterval: 0.2) }
            }
        }
        let clients =
            tokens.enumerated().map { w, token in
                ThreadRun { Self.write(as: "writer-\(w)", through: proxies.map(\.base), account: account.id, token: token, history: history) }
            } + [ThreadRun { try Self.train(device, through: proxies[0].base, account: account.id, clock: clock, history: history) }]
        try await ThreadRun.waitForAll(clients + [faults, switchovers])

        // The device once the faults have stopped: every event it holds, then a sync through its healed proxy.
        let held = try Self.eventIds(device.log)
        history.record(["client": device.name, "op": "recorded", "ids": held, "start": history.now, "end": history.now])
        for p in proxies { p.heal() }
        database?.proxy.heal()
        let finalSync = try device.run(["sync", "--json"], under: clock)
        #expect(finalSync.status == 0, "\(finalSync.stderr)")

        // The whole log once the faults have stopped, and the server's own check of its chain.
        let (ids, positions) = try Self.wholeLog(servers[0].base, account: account)
        history.finalHead = positions.last ?? 0
        try await followed.value()
        history.record(["client": "final", "op": "read", "outcome": "ok", "ids": ids, "positions": positions, "head": positions.last ?? 0])
        let lines = history.jsonLines
        if let file = environment["REPLEDGER_FAULT_HISTORY"] { try lines.write(toFile: file, atomically: true, encoding: .utf8) }
        let anomalies = FaultHistoryChecker.anomalies(jsonLines: lines)
        #expect(anomalies.isEmpty, "\(anomalies.prefix(10).joined(separator: "; "))")
        // The checker bites on this very history: an acknowledged event dropped from the final log, a read gone back.
        let lastAcked = history.lines.last { $0["op"] as? String == "push" && $0["outcome"] as? String == "ok" }?["ids"] as? [String]
        let dropped = Self.edited(history.lines) { Self.drop(lastAcked?.first, fromFinal: &$0) }
        #expect(FaultHistoryChecker.anomalies(jsonLines: dropped).contains { $0.contains("is not in the final log") })
        let lostFromDevice = Self.edited(history.lines) { Self.drop(held.last, fromFinal: &$0) }
        #expect(FaultHistoryChecker.anomalies(jsonLines: lostFromDevice).contains { $0.contains("held \(held.last ?? "")") })
        var skipped = false
        let streamSkipped = Self.edited(history.lines) { line in
            guard !skipped, line["op"] as? String == "event" else { return }
            skipped = true
            line["op"] = "skipped"
        }
        #expect(FaultHistoryChecker.anomalies(jsonLines: streamSkipped).contains { $0.contains("stream sent") })
        var backwards = false
        let wentBack = Self.edited(history.lines) { line in
            guard !backwards, line["op"] as? String == "read", line["client"] as? String != "final", let head = line["head"] as? Int, head > 1
            else { return }
            backwards = true
            line["head"] = 0
        }
        #expect(FaultHistoryChecker.anomalies(jsonLines: wentBack).contains { $0.contains("went backwards") || $0.contains("after its write") })
        let kills = history.count("kill"), acked = history.acknowledged, unanswered = history.unanswered
        var fates: [FaultProxy.Fate: Int] = [:]
        for p in proxies { fates.merge(p.counts, uniquingKeysWith: +) }
        let syncs = history.count("sync"), synced = history.count("sync", outcome: "ok")
        let streamed = history.count("event"), reconnects = history.count("reconnect")
        #expect(streamed > 0)
        #expect(met(), "kills \(kills), acknowledged pushes \(acked), unanswered \(unanswered), proxies \(fates), device syncs ok \(synced)")
        print(
            "fault run: \(servers.count) servers, \(String(format: "%.0f", history.stoppedAt)) s of faults, \(kills) kills, \(acked) pushes acknowledged, "
                + "\(unanswered) requests unanswered, \(syncs) device syncs (\(synced) ok, clock \(clock.last ?? "unskewed")), at the proxies "
                + FaultProxy.Fate.allCases.filter { $0 != .cutLater }.map { "\(fates[$0] ?? 0) \($0.rawValue)" }.joined(separator: ", ")
                + (formation.map { _ in ", \(history.count("switchover")) switchovers of the primary" } ?? "")
                + (database.map { ", database connections \($0.proxy.counts[.passed] ?? 0) passed and \($0.proxy.counts[.cutLater] ?? 0) cut" } ?? "")
                + ", a live stream sent \(streamed) events over \(reconnects) connections, \(ids.count) events, \(anomalies.count) anomalies")
        let verified = try await servers[0].get("/v1/accounts/\(account.id)/verify", token: account.token)
        #expect(verified.body.contains(#""ok":true"#), "\(verified.body)")

        // The device holds the server's log, each event once.
        #expect(try Self.eventIds(device.log) == ids)
    }

    /// On PostgreSQL, a database of the test cluster and its URL through a fault proxy (healed until
    /// the faults start) that cuts a fifth of the servers' connections within three seconds of opening.
    static func databaseBehindProxy() throws -> (url: String, proxy: FaultProxy)? {
        guard ServerProcess.onPostgres else { return nil }
        guard let cluster = PostgresCluster.shared else { throw ServerFailure.didNotStart("no PostgreSQL: \(PostgresCluster.unavailableReason)") }
        let url = try cluster.createDatabase()
        let proxy = try FaultProxy(to: cluster.port, healed: true) { Int.random(in: 0..<5) == 0 ? .cutLater : .passed }
        let proxied = url.replacingOccurrences(of: "127.0.0.1:\(cluster.port)/", with: "127.0.0.1:\(proxy.port)/")
        guard proxied != url else { throw ServerFailure.cli("the test cluster's URL names no loopback port: \(url)") }
        return (proxied, proxy)
    }

    /// Starts a killed server again. During a switchover no host accepts writes for some seconds, and a
    /// server refuses to start then (as it should): it is started again, as a supervisor would, for a minute.
    static func start(_ server: ServerProcess, whilePromoting: Bool) throws {
        let deadline = Date().addingTimeInterval(60)
        while true {
            do {
                return try server.start()
            } catch ServerFailure.didNotStart(let why) where whilePromoting && why.contains("accepts writes now") && Date() < deadline {
                Thread.sleep(forTimeInterval: 0.5)
            }
        }
    }

    /// A connection's fate at the proxies: most pass; some wait, some never reach the server, and some
    /// reach it and lose their answer.
    @Sendable static func fate() -> FaultProxy.Fate {
        switch Int.random(in: 0..<100) {
        case 0..<5: .delayed
        case 5..<10: .requestDropped
        case 10..<20: .answerDropped
        default: .passed
        }
    }

    /// `faketime` with the device's clock up to two hours off, or nothing on a machine without it.
    static func skewedClock() throws -> [String] {
        let found = ["/usr/bin/faketime", "/usr/local/bin/faketime"].first { FileManager.default.isExecutableFile(atPath: $0) }
        guard let found else {
            if ProcessInfo.processInfo.environment["REPLEDGER_REQUIRE_FAKETIME"] == "1" {
                throw ServerFailure.cli("faketime is not installed (apt-get install faketime)")
            }
            print("fault run: faketime is not installed; the device runs on the machine's clock")
            return []
        }
        // The wall clock only: with the monotonic clock moved too, a timer set by it (a sync's wait before a
        // retry) fires as late as the skew ahead, and the device hung for minutes at its first retry.
        // Ahead only: under a negative offset libfaketime still moves Swift's timers (`Task.sleep(for: .seconds(1))`
        // did not return within 8 s under `faketime -f -60m`), and a device waiting out a 503 hung for the
        // offset's length. A clock behind is the simulation's (`SyncSimulation`), on its test clock.
        return ["FAKETIME_DONT_FAKE_MONOTONIC=1", found, "-f", "+\(Int.random(in: 1...120))m"]
    }

    /// A real device while the faults last: it records a set, then syncs through a proxy, again and again.
    static func train(_ device: Device, through base: String, account: String, clock: [String], history: FaultHistory) throws {
        let started = try device.run(["workout", "start", "--json"], under: clock)
        guard started.status == 0, let workout = started.json?["workoutId"] as? String else {
            throw ServerFailure.cli("the device could not start a workout: \(started.stderr)")
        }
        while !history.stopped {
            // Into its own workout by id: `last` may be a writer's, pulled by a sync.
            let set = ["workout", "log", workout, "Bench Press (Barbell)", "--reps", "\(Int.random(in: 3...12))", "--weight", "80kg"]
            let logged = try device.run(set, under: clock)
            guard logged.status == 0 else { throw ServerFailure.cli("the device could not log a set: \(logged.stderr)") }
            let start = history.now
            let synced = try device.run(["sync", base, "--account", account, "--token-file", device.tokenFile, "--json"], under: clock)
            var line: [String: Any] = ["client": device.name, "op": "sync", "start": start, "end": history.now]
            line["outcome"] = synced.status == 0 ? "ok" : "no answer"
            if synced.status != 0 { line["error"] = synced.stderr.split(separator: "\n").first.map(String.init) ?? "exit \(synced.status)" }
            history.record(line)
        }
    }

    /// The event ids of `ledger log --json`, in order.
    static func eventIds(_ log: String) throws -> [String] {
        log.split(separator: "\n").compactMap { line in
            line.range(of: #""eventId":"[^"]+""#, options: .regularExpression).map { String(line[$0].dropFirst(11).dropLast()) }
        }
    }

    /// One writer: pushes a workout of 1 to 4 events, sends it again with the same ids until it is
    /// answered, and reads the log's tail after each push; until the faults stop.
    static func write(as client: String, through bases: [String], account: String, token: String, history: FaultHistory) {
        var n = 0
        while !history.stopped {
            let server = bases[n % bases.count]
            n += 1
            let workout = UUID()
            var events = [PushBodies.started(workout, name: "\(client) \(n)")]
            for _ in 0..<Int.random(in: 0...3) { events.append(PushBodies.set(workout)) }
            let ids = events.map { String($0.dropFirst(#"{"eventId":""#.count).prefix(36)) }
            let body = PushBodies.batch(events)
            var attempt = 0
            var acknowledged = false
            // After the faults stop, a push still unanswered has a minute more to be answered.
            while !acknowledged, !history.stopped || history.now < history.stoppedAt + 60 {
                attempt += 1
                let start = history.now
                var line: [String: Any] = ["client": client, "op": "push", "attempt": attempt, "ids": ids, "start": start]
                do {
                    let (status, answer) = try request(.POST, server, "/v1/accounts/\(account)/events", token: token, body: body)
                    line["end"] = history.now
                    if status == 200, let positions = answer?["appended"] as? [Int],
                        let head = (answer?["head"] as? [String: Any])?["position"] as? Int
                    {
                        let stored = answer?["alreadyStored"] as? Int ?? 0
                        line["outcome"] = "ok"
                        // Ids stored by an earlier, unanswered attempt: where they are is read back below.
                        line["positions"] = stored == 0 ? positions : []
                        line["head"] = head
                        acknowledged = true
                    } else if status == 503 {
                        line["outcome"] = "no answer"
                        line["error"] = "503"
                    } else {
                        line["outcome"] = "refused"
                        line["status"] = status
                        acknowledged = true
                    }
                } catch {
                    line["end"] = history.now
                    line["outcome"] = "no answer"
                    line["error"] = "\(error)"
                }
                history.record(line)
                if !acknowledged { Thread.sleep(forTimeInterval: 0.05) }
            }
            try? read(as: client, server, account: account, token: token, history: history)
        }
    }

    /// The tail of the log (the last 50 events), recorded with the head it was read at.
    static func read(as client: String, _ server: String, account: String, token: String, history: FaultHistory) throws {
        let start = history.now
        let (status, head) = try request(.GET, server, "/v1/accounts/\(account)/events?after=0&limit=1", token: token)
        guard status == 200, let position = (head?["head"] as? [String: Any])?["position"] as? Int else { return }
        let after = max(0, position - 50)
        let (pageStatus, page) = try request(.GET, server, "/v1/accounts/\(account)/events?after=\(after)&limit=100", token: token)
        guard pageStatus == 200, let events = page?["events"] as? [[String: Any]],
            let pageHead = (page?["head"] as? [String: Any])?["position"] as? Int
        else { return }
        history.record([
            "client": client, "op": "read", "after": after, "start": start, "end": history.now, "outcome": "ok",
            "ids": events.compactMap { $0["eventId"] as? String }, "positions": events.compactMap { $0["position"] as? Int }, "head": pageHead,
        ])
    }

    static func wholeLog(_ server: String, account: ServerProcess.Account) throws -> ([String], [Int]) {
        var ids: [String] = [], positions: [Int] = []
        while true {
            let (status, page) = try request(
                .GET, server, "/v1/accounts/\(account.id)/events?after=\(positions.last ?? 0)&limit=1000", token: account.token)
            guard status == 200, let events = page?["events"] as? [[String: Any]] else {
                throw ServerFailure.cli("the final read answered \(status)")
            }
            ids += events.compactMap { $0["eventId"] as? String }
            positions += events.compactMap { $0["position"] as? Int }
            if events.count < 1000 { return (ids, positions) }
        }
    }

    /// The final read's line without the event `id` (its positions one shorter, as a log that lost it).
    static func drop(_ id: String?, fromFinal line: inout [String: Any]) {
        guard line["client"] as? String == "final", let id, var ids = line["ids"] as? [String],
            var positions = line["positions"] as? [Int], let i = ids.firstIndex(of: id)
        else { return }
        ids.remove(at: i)
        positions.removeLast()
        line["ids"] = ids
        line["positions"] = positions
    }

    /// The history's lines with `change` applied to each, as JSON lines.
    static func edited(_ lines: [[String: Any]], _ change: (inout [String: Any]) -> Void) -> String {
        lines.map { line in
            var copy = line
            change(&copy)
            return String(decoding: (try? JSONSerialization.data(withJSONObject: copy, options: [.sortedKeys])) ?? Data(), as: UTF8.self)
        }.joined(separator: "\n")
    }

    /// One request by the suite's client to the server (or proxy) at `base`, on a connection of its own
    /// (a proxy's fault is then this request's), waited for on the calling thread (never the cooperative
    /// pool's) → its status and JSON answer (nil for a body that is not JSON).
    static func request(
        _ method: HTTPMethod, _ base: String, _ path: String, token: String, body: String? = nil
    ) throws -> (Int, [String: Any]?) {
        var request = try HTTPClient.Request(url: base + path, method: method)
        request.headers.add(name: "Authorization", value: "Bearer \(token)")
        request.headers.add(name: "Connection", value: "close")
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .string(body)
        }
        let response = try TestHTTP.client.execute(request: request, deadline: NIODeadline.now() + .seconds(10)).wait()
        let text = response.body.map { String(buffer: $0) } ?? ""
        return (Int(response.status.code), (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any])
    }
}
