import AsyncHTTPClient
import Foundation
import NIOCore
import StoreKitTestSupport

/// The coach roster benchmark (`server.sh --roster`): a coach with a verified
/// Coach product, `clients` lifters of `events` events each who granted the
/// coach access, and `others` small accounts that did not (a server holds
/// more lifters than one coach's clients). Then `GET /v1/coach/clients`:
/// the first answer, warm, and the first after a restart.
struct RosterBench: ServerWorkload {
    let options: Options
    let work: String

    /// The roster's time, and how many clients it listed.
    func roster(_ base: String, _ coach: Account) async throws -> (Double, Int) {
        var request = HTTPClientRequest(url: "\(base)/v1/coach/clients")
        request.headers.add(name: "Authorization", value: "Bearer \(coach.token)")
        let start = ContinuousClock.now
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(300))
        let body = try await response.body.collect(upTo: 1 << 26)
        let seconds = (ContinuousClock.now - start).seconds
        guard response.status.code == 200,
            let json = try JSONSerialization.jsonObject(with: Data(String(buffer: body).utf8)) as? [String: Any],
            let clients = json["clients"] as? [Any]
        else {
            throw NSError(domain: "roster \(response.status.code): \(String(buffer: body).prefix(300))", code: 1)
        }
        return (seconds, clients.count)
    }

    func run() async throws {
        say("repledger-server-bench --roster on \(backend): \(options.clients) clients × \(options.events) events, \(options.others) other accounts")
        let chain = try StoreKitTestChain(name: "RepLedger Bench Root CA")
        let root = try chain.writeRoot(in: URL(fileURLWithPath: work))
        let verification = ["--storekit-root", root, "--bundle-id", StoreKitTestChain.bundleId]

        let coach = try account("coach")
        let clients = try (0..<options.clients).map { try account("client-\($0)") }
        let others = try (0..<options.others).map { try account("other-\($0)") }
        var server = try Server(ledger: options.ledger, data: data, storage: storage + verification)
        var base = "http://127.0.0.1:\(server.port)"

        // The coach's Coach product, bought on the coach's device and synced.
        let device = work + "/coach.sqlite", tokenFile = work + "/coach.token"
        try coach.token.write(toFile: tokenFile, atomically: true, encoding: .utf8)
        let jws = try chain.signedTransaction(id: "bench-coach", product: "repledger_coach_monthly")
        _ = try ledger([
            "purchase", "repledger_coach_monthly", "--transaction", "bench-coach", "--purchased", "2026-01-01T00:00:00Z",
            "--expires", "2099-01-01T00:00:00Z", "--signed-transaction", jws, "--db", device,
        ])
        _ = try ledger(["sync", base, "--account", coach.id, "--token-file", tokenFile, "--db", device, "--json"])

        let fillStart = ContinuousClock.now
        let coachId = coach.id
        try await fill(base, clients, events: options.events, inFlight: 4) { _ in [Bodies.grant(coachId)] }
        try await fill(base, others, events: options.otherEvents, inFlight: 4)
        let filled = options.clients * (options.events + 1) + options.others * options.otherEvents
        let fillSeconds = (ContinuousClock.now - fillStart).seconds
        report(
            "\(backend): fill of \(options.clients) clients × \(options.events) and \(options.others) others × \(options.otherEvents) events",
            String(format: "%.0f events/s (%.1f s)", Double(filled) / fillSeconds, fillSeconds))

        func checked(_ answer: (Double, Int)) throws -> Double {
            guard answer.1 == options.clients else { throw NSError(domain: "the roster listed \(answer.1) of \(options.clients) clients", code: 1) }
            return answer.0
        }
        let first = try checked(try await roster(base, coach))
        var warm: [Double] = []
        for _ in 0..<options.runs { warm.append(try checked(try await roster(base, coach))) }
        report(
            "\(backend): GET /v1/coach/clients, \(options.clients) clients among \(options.clients + options.others + 1) accounts, warm median of \(options.runs) (first after the fill)",
            String(format: "%.1f ms (%.1f ms)", percentile(warm.sorted(), 0.5) * 1000, first * 1000))
        report("\(backend): server RSS with the roster warm", String(format: "%.0f MiB", server.rssMiB))

        server.stop()
        server = try Server(ledger: options.ledger, data: data, storage: storage + verification)
        base = "http://127.0.0.1:\(server.port)"
        let coldRSS = server.rssMiB
        let restarted = try checked(try await roster(base, coach))
        var after: [Double] = []
        for _ in 0..<options.runs { after.append(try checked(try await roster(base, coach))) }
        report(
            "\(backend): GET /v1/coach/clients, first after a restart (then warm median)",
            String(format: "%.1f ms (%.1f ms)", restarted * 1000, percentile(after.sorted(), 0.5) * 1000))
        // What the warm folds cost: the RSS they added over the events they hold (the /metrics gauge).
        let warmEvents = try await gauge(base, "repledger_warm_events")
        report(
            "\(backend): RSS of the warm folds after a restart",
            String(
                format: "%.0f → %.0f MiB for %.0f warm events: %.0f B/event",
                coldRSS, server.rssMiB, warmEvents, (server.rssMiB - coldRSS) * 1_048_576 / max(1, warmEvents)))
        server.stop()

        print("| workload | figure |\n| --- | --- |")
        for (name, value) in results { print("| \(name) | \(value) |") }
        try? FileManager.default.removeItem(atPath: work)
    }
}
