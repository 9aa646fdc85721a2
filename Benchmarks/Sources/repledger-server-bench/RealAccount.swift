import AsyncHTTPClient
import Foundation
import NIOCore

/// The real-account benchmark (`server.sh --real`): real exports imported into
/// one device ledger, pushed to `ledger serve` by `ledger sync` (batches of
/// 500), then the queries a device and a coach make, warm and after a restart,
/// on SQLite files or on PostgreSQL (`--postgres URL`).
struct RealAccountBench: ServerWorkload {
    let options: Options
    let work: String

    func json(_ text: String) throws -> [String: Any] {
        guard let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else {
            throw NSError(domain: "not a JSON object: \(text.prefix(200))", code: 1)
        }
        return object
    }

    /// A `ledger` command's JSON answer and its wall time (see `runTimed`).
    func timedLedger(_ args: [String]) throws -> ([String: Any], Double) {
        let (output, seconds) = try runTimed(options.ledger, args)
        return (try json(output), seconds)
    }

    func get(_ base: String, _ path: String, _ account: Account) async throws -> Double {
        var request = HTTPClientRequest(url: "\(base)/v1/accounts/\(account.id)/\(path)")
        request.headers.add(name: "Authorization", value: "Bearer \(account.token)")
        let start = ContinuousClock.now
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(120))
        let body = try await response.body.collect(upTo: 1 << 28)
        guard response.status.code == 200 else { throw NSError(domain: "GET \(path) \(response.status.code): \(String(buffer: body))", code: 1) }
        return (ContinuousClock.now - start).seconds
    }

    func median(_ values: [Double]) -> Double { percentile(values.sorted(), 0.5) }
    func ms(_ s: Double) -> String { String(format: "%.1f ms", s * 1000) }

    func run() async throws {
        let device = work + "/device.sqlite"
        for file in options.real {
            let name = URL(fileURLWithPath: file).lastPathComponent
            let kind = ["strong", "hevy", "fitnotes"].first { name.hasPrefix($0) } ?? "strong"
            _ = try ledger(["import", kind, file, "--db", device, "--timezone", "UTC", "--unit", "kg", "--json"])
        }
        let account = try json(try ledger(["server", "account", "create", "lifter", "--data", data] + storage + ["--json"]))
        let lifter = Account(id: account["accountId"] as! String, token: account["token"] as! String)
        let tokenFile = work + "/lifter.token"
        try lifter.token.write(toFile: tokenFile, atomically: true, encoding: .utf8)

        var server = try Server(ledger: options.ledger, data: data, storage: storage)
        var base = "http://127.0.0.1:\(server.port)"
        say("repledger-server-bench --real on \(backend): \(options.real.count) exports")

        // 1. The device's first sync pushes its whole log, 500 events a request.
        let (pushed, pushSeconds) = try timedLedger(["sync", base, "--account", lifter.id, "--token-file", tokenFile, "--db", device, "--json"])
        let events = (pushed["pushed"] as? Int) ?? 0
        report(
            "\(backend): push of a \(events)-event account, 500 events per request (ledger sync)",
            String(format: "%.0f events/s (%.1f s)", Double(events) / pushSeconds, pushSeconds))

        // The exercise with the most sets, for e1rm.
        let volume = try json(try ledger(["volume", "--by", "exercise", "--db", device, "--json"]))
        let rows = (volume["rows"] as? [[String: Any]]) ?? []
        let exercise = rows.max { ($0["sets"] as? Int ?? 0) < ($1["sets"] as? Int ?? 0) }?["key"] as? String ?? "barbell-bench-press"
        let queries = ["prs", "history?limit=20", "volume?by=week", "e1rm/\(exercise)", "entitlements"]

        // 2. Warm reads: the first after the push, then the median of `runs`.
        for q in queries {
            let first = try await get(base, q, lifter)
            var times: [Double] = []
            for _ in 0..<options.runs { times.append(try await get(base, q, lifter)) }
            report("\(backend): GET \(q) warm, median of \(options.runs) (first after the push)", "\(ms(median(times))) (\(ms(first)))")
        }

        // 3. The first query after a restart: each query on a server just started.
        for q in ["prs", "history?limit=20"] {
            server.stop()
            server = try Server(ledger: options.ledger, data: data, storage: storage)
            base = "http://127.0.0.1:\(server.port)"
            report("\(backend): GET \(q), first after a restart", ms(try await get(base, q, lifter)))
        }

        // 4. The device's own `history --limit 20` and `volume --by week`, a whole process each,
        // median of `runs`; the first of each stores the page the others answer from.
        for (name, args) in [("history --limit 20", ["history", "--limit", "20"]), ("volume --by week", ["volume", "--by", "week"])] {
            var times: [Double] = []
            for _ in 0..<options.runs { times.append(try timedLedger(args + ["--db", device, "--json"]).1) }
            report("device: ledger \(name) (whole process), median of \(options.runs)", ms(median(times)))
        }

        // 5. A fresh device's first sync: pull, chain check, rebase.
        let fresh = work + "/fresh.sqlite"
        let (pulled, pullSeconds) = try timedLedger(["sync", base, "--account", lifter.id, "--token-file", tokenFile, "--db", fresh, "--json"])
        let count = (pulled["pulled"] as? Int) ?? 0
        report(
            "\(backend): a fresh device's first ledger sync of the account",
            String(format: "%.0f events/s (%d events, %.1f s)", Double(count) / pullSeconds, count, pullSeconds))
        report("\(backend): server peak RSS", String(format: "%.0f MiB", server.peakRSSMiB))
        server.stop()

        print("| workload | figure |\n| --- | --- |")
        for (name, value) in results { print("| \(name) | \(value) |") }
        try? FileManager.default.removeItem(atPath: work)
    }
}
