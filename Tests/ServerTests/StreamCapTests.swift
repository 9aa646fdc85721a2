import Foundation
import LedgerTestSupport
import Testing

/// Live streams are capped per token, per account and in all (429 past
/// each), apart from the cap on requests in progress.
@Suite(.serialized, .disabled(if: ServerProcess.onPostgres, "the connection layer is the same over either store")) struct StreamCapTests {
    static func open(_ server: ServerProcess, account: String, token: String, from source: String? = nil) -> (socket: RawSocket?, text: String) {
        guard let socket = try? RawSocket(port: server.port, from: source) else { return (nil, "no connection") }
        socket.send("GET /v1/accounts/\(account)/events/live HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(token)\r\n\r\n")
        let head = socket.read(for: 60, until: RawSocket.responseHead).text
        // A refusal is whole: its JSON says which cap.
        let text =
            head.hasPrefix("HTTP/1.1 200") || RawSocket.wholeResponse(head)
            ? head : head + socket.read(for: 10, until: { RawSocket.wholeResponse(head + $0) }).text
        return (socket, text)
    }

    @Test func streamsAreCappedPerTokenPerAccountAndInAll() async throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let server = try ServerProcess(
            cli: cli, serveFlags: ["--max-streams-per-token", "2", "--max-streams-per-account", "3", "--max-streams", "6"])
        let alice = try server.createAccount("alice")
        let watch = try server.createToken(alice.id, device: "watch")
        let bob = try server.createAccount("bob"), carol = try server.createAccount("carol"), dave = try server.createAccount("dave")
        var open: [RawSocket] = []
        func expectOpens(_ account: String, _ token: String, _ why: Comment) {
            let (socket, text) = Self.open(server, account: account, token: token)
            #expect(text.hasPrefix("HTTP/1.1 200"), why)
            if let socket { open.append(socket) }
        }
        func expectRefused(_ account: String, _ token: String, _ why: Comment) {
            let text = Self.open(server, account: account, token: token).text
            #expect(text.hasPrefix("HTTP/1.1 429") && text.contains("live streams open"), "\(why): \(text.suffix(200))")
        }
        expectOpens(alice.id, alice.token, "the token's first stream")
        expectOpens(alice.id, alice.token, "the token's second stream")
        expectRefused(alice.id, alice.token, "a token's third stream")
        expectOpens(alice.id, watch, "another token of the account")
        expectRefused(alice.id, watch, "the account's fourth stream")
        // Ordinary requests of the account are not held up by its streams.
        #expect(try await server.get("/v1/accounts/\(alice.id)/verify", token: alice.token).status == 200)
        expectOpens(bob.id, bob.token, "another account")
        expectOpens(bob.id, bob.token, "another account's second")
        // Five of six are open: accounts already streaming have their share (six less a quarter, kept for first streams)…
        let bobWatch = try server.createToken(bob.id, device: "watch")
        expectRefused(bob.id, bobWatch, "a streaming account's stream past the shared part")
        // …and an account with none still opens its first, until the server holds its six.
        expectOpens(carol.id, carol.token, "an account's first stream, from the part kept for them")
        expectRefused(dave.id, dave.token, "the server's seventh stream")
        // A stream closed gives its place back: dave's first stream then opens.
        open.removeFirst()
        let deadline = Date().addingTimeInterval(60)
        var again = ""
        repeat { again = Self.open(server, account: dave.id, token: dave.token).text } while !again.hasPrefix("HTTP/1.1 200") && Date() < deadline
        #expect(again.hasPrefix("HTTP/1.1 200"), "a closed stream's place never came back")
    }

    @Test func streamsAreCappedPerAddressAndAClosedStreamGivesItsPlaceBackAtOnce() async throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        // Keep-alives 60 s apart: a dead stream is no longer found by a failed keep-alive.
        let server = try ServerProcess(cli: cli, keepAlive: 60, serveFlags: ["--max-streams-per-address", "2", "--max-streams-per-token", "1"])
        let alice = try server.createAccount("alice"), bob = try server.createAccount("bob"), carol = try server.createAccount("carol")
        var open: [RawSocket] = []
        for account in [alice, bob] {
            let (socket, text) = Self.open(server, account: account.id, token: account.token, from: "127.0.0.2")
            #expect(text.hasPrefix("HTTP/1.1 200"), "\(account.id)'s stream")
            if let socket { open.append(socket) }
        }
        let third = Self.open(server, account: carol.id, token: carol.token, from: "127.0.0.2").text
        #expect(third.hasPrefix("HTTP/1.1 429") && third.contains("this address"), "\(third.suffix(200))")
        #expect(Self.open(server, account: carol.id, token: carol.token, from: "127.0.0.3").text.hasPrefix("HTTP/1.1 200"))

        // Alice's device loses its connection and reconnects: the dead stream's place is free long before a keep-alive.
        open.removeFirst()
        let started = Date()
        var again = ""
        repeat {
            again = Self.open(server, account: alice.id, token: alice.token, from: "127.0.0.2").text
        } while !again.hasPrefix("HTTP/1.1 200")
            && Date().timeIntervalSince(started) < 30
        #expect(again.hasPrefix("HTTP/1.1 200"), "the closed stream still counted after \(Date().timeIntervalSince(started)) s")
    }
}
