import Foundation
import LedgerTestSupport
import Testing

/// Clients that send a request a byte at a time: each request has a
/// deadline for its whole head and body, a connection answered early is
/// closed rather than drained, and connections still reading a request
/// cannot take every connection the server has.
@Suite(.serialized, .disabled(if: ServerProcess.onPostgres, "the connection layer is the same over either store")) struct SlowClientTests {
    static let hugeBody = "Content-Length: 1000000000000\r\n\r\n"

    /// Sends one byte every `every` seconds until the server closes the connection or `seconds` pass → whether it closed.
    static func trickle(_ socket: RawSocket, every: Double, for seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            socket.send("x")
            if socket.read(for: every).closed { return true }
        }
        return false
    }

    @Test func aRequestTricklingFasterThanTheIdleTimeoutIsCutAtItsDeadline() async throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let server = try ServerProcess(cli: cli, serveFlags: ["--idle-timeout", "2", "--request-timeout", "3"])
        let alice = try server.createAccount("alice")
        // A body: each byte comes well within the idle timeout, so only the request's deadline can end it.
        let body = try RawSocket(port: server.port)
        body.send(
            "POST /v1/accounts/\(alice.id)/events HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(alice.token)\r\nContent-Length: 100000\r\n\r\n")
        #expect(Self.trickle(body, every: 0.5, for: 60), "a trickling body was never cut")
        // A head that never ends.
        let head = try RawSocket(port: server.port)
        head.send("GET /v1/health HTTP/1.1\r\nX-Slow: ")
        #expect(Self.trickle(head, every: 0.5, for: 60), "a trickling head was never cut")
        #expect(try await server.get("/v1/health", token: nil).status == 200)
    }

    @Test func anEarlyAnswerClosesTheConnectionInsteadOfDrainingTheBody() async throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        // An idle timeout longer than the test waits: only the early answer may close these connections.
        let server = try ServerProcess(cli: cli, serveFlags: ["--idle-timeout", "600"])
        let alice = try server.createAccount("alice")
        let cases: [(String, String)] = [
            ("401", "POST /v1/accounts/\(alice.id)/events HTTP/1.1\r\nHost: x\r\n\(Self.hugeBody)"),
            ("405", "PUT /v1/health HTTP/1.1\r\nHost: x\r\n\(Self.hugeBody)"),
            ("413", "POST /v1/accounts/\(alice.id)/events HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(alice.token)\r\n\(Self.hugeBody)"),
        ]
        for (status, request) in cases {
            let socket = try RawSocket(port: server.port)
            socket.send(request + "{")
            let answer = socket.read(for: 30)
            #expect(answer.text.hasPrefix("HTTP/1.1 \(status)"), "\(status): \(answer.text.prefix(120))")
            #expect(answer.text.lowercased().contains("\r\nconnection: close\r\n"), "\(status) does not say the connection ends")
            #expect(answer.closed, "after an early \(status) the connection stayed open, draining the body")
        }
        // A request read whole keeps its connection for the next one.
        let kept = try RawSocket(port: server.port)
        for _ in 0..<2 {
            kept.send("GET /v1/health HTTP/1.1\r\nHost: x\r\n\r\n")
            let answer = kept.read(for: 60, until: RawSocket.wholeResponse)
            #expect(answer.text.hasPrefix("HTTP/1.1 200") && !answer.closed)
        }
    }

    @Test func aSlowUploadOutlastsConnectionsThatSendNothingUnderTheReadingBudget() async throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let server = try ServerProcess(
            cli: cli,
            serveFlags: [
                "--max-connections", "64", "--max-reading-connections", "4", "--request-timeout", "600", "--idle-timeout", "600",
                "--max-requests-per-account", "1",
            ])
        let alice = try server.createAccount("alice")
        // A real push on a slow line: its head and the first 5 KB of its body, the rest to come.
        let length = 20_000
        let body = "{\"events\":[" + String(repeating: " ", count: length - 13) + "]}"
        func startUpload() throws -> RawSocket {
            let socket = try RawSocket(port: server.port)
            socket.send(
                "POST /v1/accounts/\(alice.id)/events HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(alice.token)\r\n"
                    + "Content-Type: application/json\r\nContent-Length: \(length)\r\n\r\n" + body.prefix(5000))
            return socket
        }
        // The server has read its head once the push holds alice's one request in progress (another is refused);
        // if the probe took the place first, the push was the one refused: start it again.
        var upload = try startUpload()
        let deadline = Date().addingTimeInterval(60)
        var held = false
        while !held, Date() < deadline {
            let probe = try RawSocket(port: server.port, from: "127.0.0.29")
            probe.send("GET /v1/accounts/\(alice.id)/verify HTTP/1.1\r\nHost: x\r\nConnection: close\r\nAuthorization: Bearer \(alice.token)\r\n\r\n")
            held = probe.read(for: 30, until: RawSocket.wholeResponse).text.hasPrefix("HTTP/1.1 429")
            if !held, upload.hasAnswer { upload = try startUpload() }
        }
        #expect(held, "the push never began")
        // Then six connections that send half a head and nothing more: past the budget of four, someone is closed.
        var tricklers: [RawSocket] = []
        for i in 0..<6 {
            let socket = try RawSocket(port: server.port, from: "127.0.0.\(30 + i)")
            socket.send("GET /v1/health HTTP/1.1\r\nX-Slow: ")
            tricklers.append(socket)
        }
        // The ones sending nothing went, not the upload (the oldest): it finishes and is answered.
        let closing = Date().addingTimeInterval(30)
        while tricklers.filter(\.hasAnswer).count < 3, Date() < closing { usleep(20_000) }
        #expect(tricklers.filter(\.hasAnswer).count == 3, "connections sending nothing stayed open")
        upload.send(String(body.dropFirst(5000)))
        let answer = upload.read(for: 60, until: RawSocket.wholeResponse)
        #expect(answer.text.hasPrefix("HTTP/1.1 "), "the slow upload was cut: \(answer.text.prefix(120))")
    }

    @Test func tricklingConnectionsFromManyAddressesLeaveRoomForOthers() async throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let server = try ServerProcess(
            cli: cli,
            serveFlags: ["--max-connections", "32", "--max-reading-connections", "8", "--request-timeout", "600", "--idle-timeout", "600"])
        let alice = try server.createAccount("alice")
        // 32 connections from 4 addresses, each inside a request it never finishes: before, they held every connection.
        var slow: [RawSocket] = []
        for i in 0..<32 {
            let socket = try RawSocket(port: server.port, from: "127.0.0.\(10 + i % 4)")
            socket.send("POST /v1/accounts/\(alice.id)/events HTTP/1.1\r\nHost: x\r\n\(Self.hugeBody)")
            slow.append(socket)
        }
        // Someone else is answered, and most slow connections were closed to make room (the longest-reading first).
        let other = try RawSocket(port: server.port, from: "127.0.0.99")
        other.send("GET /v1/health HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(other.read(for: 60, until: RawSocket.wholeResponse).text.hasPrefix("HTTP/1.1 200"), "nobody else was answered")
        #expect(slow.prefix(8).allSatisfy { $0.read(for: 30).closed }, "the longest-reading connections stayed open")
        #expect(try await server.get("/v1/health", token: nil).status == 200)
    }
}

/// A connection cap above the open-file limit is lowered to fit under it at
/// start, so idle connections cannot leave the server unable to accept.
@Suite(.serialized) struct FileLimitTests {
    @Test func theConnectionCapFitsUnderTheFileLimit() async throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let server = try ServerProcess(cli: cli, serveFlags: ["--max-connections", "1024", "--idle-timeout", "600"], fileLimit: 256)
        #expect(server.log.contains("--max-connections 1024 lowered to 192"), "\(server.log.suffix(300))")
        // 250 idle connections from five addresses: more than the process may open, with its own files.
        var idle: [RawSocket] = []
        for i in 0..<250 { idle.append(try RawSocket(port: server.port, from: "127.0.0.\(20 + i % 5)")) }
        let other = try RawSocket(port: server.port, from: "127.0.0.99")
        other.send("GET /v1/health HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(other.read(for: 60, until: RawSocket.wholeResponse).text.hasPrefix("HTTP/1.1 200"), "the server stopped answering")
        #expect(try await server.get("/v1/health", token: nil).status == 200)
        _ = idle
    }
}
