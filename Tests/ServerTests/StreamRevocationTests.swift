import AsyncHTTPClient
import Foundation
import LedgerTestSupport
import NIOCore
import NIOHTTP1
import StoreKitTestSupport
import Testing

/// A live stream's right to read is checked for every page it sends, not
/// only when it opens: a client's revocation, a revoked token and erasure
/// end it with an SSE `error` event.
@Suite(.serialized) struct StreamRevocationTests {
    /// Opens a live stream and reads it until the server ends it (or `seconds` pass: then `ended` is false).
    /// The body is read on the HTTP client's event loop, not by a task: tests that wait for CLI processes
    /// hold the cooperative pool's two threads, and a reader there could be held up for minutes.
    final class Stream: HTTPClientResponseDelegate, @unchecked Sendable {
        typealias Response = Void
        private let lock = NSLock()
        private var text = ""
        private(set) var ended = false
        /// What the HTTP client threw, if it did.
        private(set) var failure: String?
        private var task: HTTPClient.Task<Void>?

        /// No deadline of its own: it lasts until the server ends it or `cancel()`, which every test
        /// calls on its way out. Each wait has its deadline; how long a test runs on a loaded machine
        /// varies, and a stream cut at a fixed age (300 s, before) stopped mid-test.
        init(_ server: ServerProcess, account: String, token: String) {
            do {
                var request = try HTTPClient.Request(url: server.base + "/v1/accounts/\(account)/events/live?after=0")
                request.headers.add(name: "Authorization", value: "Bearer \(token)")
                task = TestHTTP.client.execute(request: request, delegate: self, deadline: nil)
            } catch {
                failure = "\(error)"
            }
        }

        func didReceiveHead(task: HTTPClient.Task<Void>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
            lock.withLock { text += "HTTP \(head.status.code)\n" }
            return task.eventLoop.makeSucceededVoidFuture()
        }

        func didReceiveBodyPart(task: HTTPClient.Task<Void>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
            lock.withLock { text += String(buffer: buffer) }
            return task.eventLoop.makeSucceededVoidFuture()
        }

        func didFinishRequest(task: HTTPClient.Task<Void>) throws { lock.withLock { ended = true } }

        func didReceiveError(task: HTTPClient.Task<Void>, _ error: any Error) { lock.withLock { failure = "\(error)" } }

        var received: String { lock.withLock { text } }
        var ids: [Int] { received.split(separator: "\n").filter { $0.hasPrefix("id: ") }.compactMap { Int($0.dropFirst(4)) } }

        /// Waits until `condition` holds of what arrived, at most `seconds`. Generous on purpose: the suite runs
        /// tests side by side on two cores, and tests that wait for CLI processes hold the concurrency pool's
        /// threads, so this stream's reading can be held up for tens of seconds. A condition that holds returns at once.
        func wait(_ seconds: Double = 120, for condition: (Stream) -> Bool) async -> Bool {
            await eventually(within: seconds) { condition(self) }
        }

        func finish() async { _ = try? await task?.futureResult.get() }
        func cancel() { task?.cancel() }
    }

    /// The stream's last event: `event: error` with the JSON error's code.
    static func errorCode(_ text: String) -> String? {
        guard let range = text.range(of: "event: error\ndata: ") else { return nil }
        let line = text[range.upperBound...].prefix { $0 != "\n" }
        let json = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        return (json?["error"] as? [String: Any])?["code"] as? String
    }

    @Test func aCoachsStreamStopsAtTheClientsRevocationInLogOrder() async throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let chain = try StoreKitTestChain()
        let server = try ServerProcess(
            cli: cli, keepAlive: 0.3,
            serveFlags: [
                "--storekit-root", try chain.writeRoot(in: cli.folder),
                "--bundle-id", StoreKitTestChain.bundleId,
            ])
        let lifter = try server.createAccount("lina")
        let coach = try server.createAccount("coach carl", coach: true)
        let phone = try Device("lina", cli: cli, token: lifter.token)
        let carl = try Device("carl", cli: cli, token: coach.token)
        try carl.run([
            "purchase", "repledger_coach_monthly", "--transaction", "t-coach", "--purchased", "2026-01-01T00:00:00Z",
            "--expires", "2099-01-01T00:00:00Z",
            "--signed-transaction", try chain.signedTransaction(id: "t-coach", product: "repledger_coach_monthly"),
        ])
        #expect(try carl.sync(server, account: coach.id).status == 0)
        #expect(try phone.run(["coach", "grant", coach.id]).status == 0)
        #expect(try phone.sync(server, account: lifter.id).status == 0)

        let stream = Stream(server, account: lifter.id, token: coach.token)
        defer { stream.cancel() }
        let opened = await stream.wait { $0.received.contains(": live after 0") || $0.ended }
        #expect(
            opened && stream.received.contains(": live after 0"),
            "the coach's stream did not open: [\(stream.received.prefix(300))] ended \(stream.ended) error \(stream.failure ?? "none")")
        let before = try phone.id(["workout", "start", "--name", "Before"], "workoutId")
        try phone.run(["workout", "log", before, "Squat (Barbell)", "--reps", "5", "--weight", "100kg"])
        #expect(try phone.sync().status == 0)
        #expect(await stream.wait { $0.received.contains(before) }, "an event recorded while the grant stands arrives")

        // The revocation and a workout after it reach the server in one push.
        #expect(try phone.run(["coach", "revoke", coach.id]).status == 0)
        let after = try phone.id(["workout", "start", "--name", "After the revocation", "--also"], "workoutId")
        try phone.run(["workout", "log", after, "Bench Press (Barbell)", "--reps", "5", "--weight", "80kg"])
        #expect(try phone.sync().status == 0)
        #expect(await stream.wait { $0.ended }, "the stream ends")

        let events = try await server.get("/v1/accounts/\(lifter.id)/events", token: lifter.token)
        let stored = try #require(events.json?["events"] as? [[String: Any]])
        let revocation = try #require(stored.first { $0["type"] as? String == "CoachAccessRevoked" }?["position"] as? Int)
        #expect(firstDifference(stream.ids, Array(1..<revocation)) == nil, "every event before the revocation, in order, none from it on")
        #expect(!stream.received.contains(after))
        #expect(!stream.received.contains("\"CoachAccessRevoked\""))
        #expect(Self.errorCode(stream.received) == "forbidden", "\(stream.received.suffix(300))")
        #expect(try await server.get("/v1/accounts/\(lifter.id)/events/live", token: coach.token).status == 403)
    }

    @Test func revokingATokenEndsItsStreamsAtOnce() async throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let server = try ServerProcess(cli: cli, keepAlive: 60)  // keep-alives must not be what ends it
        let alice = try server.createAccount("alice")
        let tablet = try server.createToken(alice.id, device: "tablet")
        let w = UUID()
        #expect(
            try await server.post(
                "/v1/accounts/\(alice.id)/events", token: alice.token,
                body: PushBodies.batch([PushBodies.started(w)])
            ).status == 200)
        let stream = Stream(server, account: alice.id, token: tablet)
        defer { stream.cancel() }
        let other = Stream(server, account: alice.id, token: alice.token)
        defer { other.cancel() }
        #expect(await stream.wait { $0.ids == [1] })
        #expect(await other.wait { $0.ids == [1] })

        let revoked = try cli.run(["server", "token", "revoke", tablet] + server.storage, useDbFlag: false)
        #expect(revoked.status == 0, "\(revoked.stderr)")
        // Ended by the stream's own re-check (every second), long before its first keep-alive (60 s).
        #expect(await stream.wait { $0.ended }, "the revoked token's stream ends")
        #expect(Self.errorCode(stream.received) == "unauthorized", "\(stream.received.suffix(300))")
        // An event recorded afterwards reaches the other token's stream only.
        #expect(
            try await server.post(
                "/v1/accounts/\(alice.id)/events", token: alice.token,
                body: PushBodies.batch([PushBodies.set(w)])
            ).status == 200)
        #expect(await other.wait { $0.ids == [1, 2] })
        #expect(stream.ids == [1])
        #expect(!other.ended)
        other.cancel()
    }

    @Test func erasingTheAccountEndsItsStreams() async throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let server = try ServerProcess(cli: cli, keepAlive: 30)
        let alice = try server.createAccount("alice")
        #expect(
            try await server.post(
                "/v1/accounts/\(alice.id)/events", token: alice.token,
                body: PushBodies.batch([PushBodies.started(UUID())])
            ).status == 200)
        let stream = Stream(server, account: alice.id, token: alice.token)
        defer { stream.cancel() }
        #expect(await stream.wait { $0.ids == [1] })
        #expect(try await server.request(.DELETE, "/v1/accounts/\(alice.id)", token: alice.token).status == 200)
        #expect(await stream.wait { $0.ended })
        #expect(["erased", "unauthorized"].contains(Self.errorCode(stream.received) ?? ""), "[\(stream.received.suffix(300))]")
    }
}
