import Foundation
import LedgerTestSupport
import Testing

/// `ledger serve` through pgbouncer in the pool mode docs/OPERATIONS.md names
/// (session): a live stream on one server wakes for a push through another,
/// and PostgreSQL's `NOTIFY` is what told it (`repledger_append_notifications`
/// in `/metrics`; a stream would otherwise only notice at its next second's
/// recheck). A transaction-mode pool lends the `LISTEN`ing connection to
/// others, and no notification comes.
@Suite(.enabled(if: ServerProcess.onPostgres, "pgbouncer runs in the PostgreSQL pass (REPLEDGER_TEST_BACKEND=postgres)"))
struct PgBouncerTests {
    /// The pool mode the operators' guide documents for RepLedger.
    static let documentedMode = "session"

    @Test func liveStreamsWakeThroughPgBouncerInTheDocumentedMode() async throws {
        let cluster = try #require(PostgresCluster.shared, "\(PostgresCluster.unavailableReason)")
        let bouncer = try PgBouncer(before: cluster, poolMode: Self.documentedMode)
        defer { bouncer.stop() }
        let database = try cluster.createDatabase()
        let name = String(database.split(separator: "/").last ?? "")
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let reader = try ServerProcess(cli: cli, storage: ["--postgres", bouncer.url(name)])
        defer { reader.kill() }
        let writer = try ServerProcess(cli: cli, storage: ["--postgres", bouncer.url(name)])
        defer { writer.kill() }
        let alice = try reader.createAccount("alice")
        #expect(try await Self.notifications(reader) == 0, "nothing announced yet")
        let stream = StreamRevocationTests.Stream(reader, account: alice.id, token: alice.token)
        defer { stream.cancel() }
        #expect(await stream.wait(60) { $0.received.contains(": live after 0") }, "the stream opened through pgbouncer")
        for round in 1...3 {
            let pushed = try await writer.post(
                "/v1/accounts/\(alice.id)/events", token: alice.token, body: PushBodies.batch((0..<2).map { _ in PushBodies.started(UUID()) }))
            #expect(pushed.status == 200, "\(pushed.body)")
            #expect(
                await stream.wait(30) { $0.ids.count >= 2 * round },
                "the stream on the other server woke for push \(round): \(stream.ids)\(stream.failure.map { "; \($0)" } ?? "")")
        }
        #expect(stream.ids == Array(1...6), "every position once, in order")
        #expect(try await Self.notifications(reader) >= 3, "PostgreSQL's NOTIFY reached the other server through pgbouncer")
    }

    /// `repledger_append_notifications` from a server's `GET /metrics`.
    static func notifications(_ server: ServerProcess) async throws -> Int {
        let text = try await server.get("/metrics", token: nil).body
        let line = text.split(separator: "\n").first { $0.hasPrefix("repledger_append_notifications ") }
        return line.flatMap { $0.split(separator: " ").last }.flatMap { Double($0) }.map { Int($0) } ?? -1
    }
}
