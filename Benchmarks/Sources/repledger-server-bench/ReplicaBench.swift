import AsyncHTTPClient
import Foundation
import NIOCore

/// Hot standbys serving reads (`replicas.sh`): one account of `catchUp`
/// events pushed to the primary (its WAL bytes per event measured), then
/// `readers` devices catching up at once, each pulling the whole account
/// in pages of 10,000, through a server with the replicas of
/// `--postgres-read` (none, one, two). The catch-up's events per second in
/// all, and what the server's metrics say served them.
struct ReplicaBench: ServerWorkload {
    let options: Options
    let work: String

    var serveStorage: [String] { storage + options.replicas.flatMap { ["--postgres-read", $0] } }

    /// A psql query on the primary → its one value.
    func primary(_ sql: String) throws -> String {
        try repledger_server_bench.run("/usr/bin/psql", [options.postgres ?? "", "-Atqc", sql]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Pulls the account from position 0 in pages of 10,000 → events read.
    func catchUp(_ base: String, _ account: Account) async throws -> Int {
        var after = 0, pulled = 0
        while true {
            var request = HTTPClientRequest(url: "\(base)/v1/accounts/\(account.id)/events?after=\(after)&limit=10000")
            request.headers.add(name: "Authorization", value: "Bearer \(account.token)")
            let response = try await HTTPClient.shared.execute(request, timeout: .seconds(300))
            let body = try await response.body.collect(upTo: 1 << 28)
            guard response.status.code == 200 else {
                throw NSError(domain: "pull \(response.status.code): \(String(buffer: body).prefix(200))", code: 1)
            }
            let n = envelopes(in: body)
            pulled += n
            after += n
            if n < 10000 { return pulled }
        }
    }

    /// Lifters logging as they train: `devices` accounts each pushing one set
    /// per request for `seconds` (the primary's commit rate for live logging),
    /// and the WAL such a push writes.
    func liveLogging(_ base: String) async throws {
        let lifters = try (0..<options.devices).map { try account("live-\($0)") }
        let walBefore = try primary("SELECT pg_current_wal_lsn()")
        let deadline = ContinuousClock.now + .milliseconds(Int(options.seconds * 1000))
        let pushes = try await withThrowingTaskGroup(of: Int.self) { group in
            for a in lifters {
                group.addTask {
                    let w = UUID().uuidString.lowercased()
                    _ = try await post(base, a, Bodies.batch([Bodies.started(w)]))
                    var n = 1
                    while ContinuousClock.now < deadline {
                        _ = try await post(base, a, Bodies.batch([Bodies.set(w, n)]))
                        n += 1
                    }
                    return n
                }
            }
            return try await group.reduce(0, +)
        }
        let walBytes = Double(try primary("SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), '\(walBefore)')")) ?? 0
        report(
            "live logging: \(options.devices) lifters, one set a push, for \(Int(options.seconds)) s",
            String(format: "%.0f pushes/s; %.0f WAL bytes a push", Double(pushes) / options.seconds, walBytes / Double(pushes)))
    }

    func run() async throws {
        say(
            "repledger-server-bench --replicas: \(options.readers) devices catching up on \(options.catchUp) events, \(options.replicas.count) replica(s)"
        )
        let lifter = try account("lifter")
        let server = try Server(ledger: options.ledger, data: data, storage: serveStorage)
        let base = "http://127.0.0.1:\(server.port)"

        // The account, pushed 500 a request; the primary's WAL grows by what the events cost it.
        let walBefore = try primary("SELECT pg_current_wal_lsn()")
        let fillStart = ContinuousClock.now
        try await fill(base, [lifter], events: options.catchUp, inFlight: 1)
        let fillSeconds = (ContinuousClock.now - fillStart).seconds
        let walBytes = Double(try primary("SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), '\(walBefore)')")) ?? 0
        report("push: \(options.catchUp) events, 500 a request", String(format: "%.0f events/s", Double(options.catchUp) / fillSeconds))
        report("WAL written per event (table, indexes, head row)", String(format: "%.0f bytes", walBytes / Double(options.catchUp)))
        let stored = Double(try primary("SELECT pg_total_relation_size('events')")) ?? 0
        report("disk per event (events table with its indexes and TOAST)", String(format: "%.0f bytes", stored / Double(options.catchUp)))

        // One catch-up first (warms the caches of every host alike), then the measured round.
        _ = try await catchUp(base, lifter)
        let start = ContinuousClock.now
        let pulled = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<options.readers { group.addTask { try await catchUp(base, lifter) } }
            return try await group.reduce(0, +)
        }
        let seconds = (ContinuousClock.now - start).seconds
        report(
            "catch-up: \(options.readers) devices at once, \(options.replicas.count) replica(s)",
            String(format: "%.0f events/s in all (%.2f s for %d events)", Double(pulled) / seconds, seconds, pulled))
        if options.replicas.isEmpty { try await liveLogging(base) }
        let metrics = try await HTTPClient.shared.execute(HTTPClientRequest(url: "\(base)/metrics"), timeout: .seconds(10))
        let text = String(buffer: try await metrics.body.collect(upTo: 1 << 24))
        let served = text.split(separator: "\n").filter { $0.hasPrefix("repledger_replica_reads{") }.joined(separator: ", ")
        if !served.isEmpty { report("range reads", served) }
        server.stop()
    }
}
