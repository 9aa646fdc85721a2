import Foundation
import LedgerTestSupport
import Testing

/// Nobody can keep another person from signing in by email: codes are bound to the source that
/// asked for them, wrong tries count per source, the address's ceilings let a source that did
/// nothing wrong through, and six digits cannot be guessed without end. Each source here is a
/// loopback address of its own (127.0.0.0/8 is all this machine's), against a real server.
@Suite struct SignInLockoutTests {
    static let lina = "lina@example.org"

    /// One JSON request from `source` → its status and its body.
    static func post(_ server: ServerProcess, from source: String, _ path: String, _ pairs: [String: String]) throws -> (status: Int, body: String) {
        let body = SignInTests.body(pairs)
        let socket = try RawSocket(port: server.port, from: source)
        socket.send(
            "POST \(path) HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)"
        )
        let text = socket.read(for: 60, until: RawSocket.wholeResponse).text
        let status = text.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        return (status, text.components(separatedBy: "\r\n\r\n").dropFirst().joined(separator: "\r\n\r\n"))
    }

    static func wrong(_ code: String) -> String { code == "000000" ? "000001" : "000000" }

    @Test func wrongCodesAndCodeRequestsFromElsewhereLeaveTheOwnersCodeWorking() async throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let mail = try CapturedMail(in: cli.folder)
        let server = try ServerProcess(cli: cli, serveFlags: ["--mail-command", mail.command])

        // The owner asks for a code from their own source.
        #expect(try Self.post(server, from: "127.0.0.1", "/v1/auth/email/start", ["email": Self.lina]).status == 202)
        let code = try #require(try mail.code(to: Self.lina), "no code was mailed")

        // Someone elsewhere asks for codes until refused, and tries wrong ones until refused.
        var sent = 0
        while try Self.post(server, from: "127.0.0.2", "/v1/auth/email/start", ["email": Self.lina]).status == 202 { sent += 1 }
        #expect(sent == 5)
        var tried = 0
        while try Self.post(
            server, from: "127.0.0.2", "/v1/auth/email/verify", ["email": Self.lina, "code": Self.wrong(code), "device": "x"]
        ).status == 401 {
            tried += 1
        }
        #expect(tried == 10)
        // Their refusals are theirs: the owner's code was neither replaced nor spent, and the owner signs in.
        #expect(try mail.waitForMessages(to: Self.lina, count: 1 + sent) == 1 + sent)
        let owner = try Self.post(server, from: "127.0.0.1", "/v1/auth/email/verify", ["email": Self.lina, "code": code, "device": "phone"])
        #expect(owner.status == 200 && owner.body.contains("\"created\":true"), "\(owner.status) \(owner.body)")
        // The right code from the wrong source opens nothing either: a code works only where it was asked for.
        #expect(try Self.post(server, from: "127.0.0.1", "/v1/auth/email/start", ["email": Self.lina]).status == 202)
        let second = try #require(try mail.code(to: Self.lina, message: 2 + sent))
        let stolen = try Self.post(server, from: "127.0.0.3", "/v1/auth/email/verify", ["email": Self.lina, "code": second, "device": "x"])
        #expect(stolen.status == 401, "\(stolen.body)")
    }

    @Test func theAddressCeilingsStopFloodsAndGuessesButNotAFreshSource() async throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let mail = try CapturedMail(in: cli.folder)
        let server = try ServerProcess(cli: cli, serveFlags: ["--mail-command", mail.command])

        // Four sources send five codes each: the address's ceiling of twenty is reached, and a source
        // that asked before is refused…
        for source in 2...5 {
            for _ in 0..<5 { #expect(try Self.post(server, from: "127.0.0.\(source)", "/v1/auth/email/start", ["email": Self.lina]).status == 202) }
        }
        #expect(try mail.waitForMessages(to: Self.lina, count: 20) == 20)
        let sixth = try Self.post(server, from: "127.0.0.6", "/v1/auth/email/start", ["email": Self.lina])
        #expect(sixth.status == 202, "a source asking for the first time is heard: \(sixth.body)")
        #expect(try mail.waitForMessages(to: Self.lina, count: 21) == 21)
        let again = try Self.post(server, from: "127.0.0.6", "/v1/auth/email/start", ["email": Self.lina])
        #expect(again.status == 429 && again.body.contains("tooManyRequests"), "\(again.body)")

        // Fifty wrong codes in a day from six sources: a source that already tried one is then refused,
        // though its own window has room…
        #expect(
            try Self.post(server, from: "127.0.0.7", "/v1/auth/email/verify", ["email": Self.lina, "code": "123456", "device": "x"]).status == 401)
        for source in 2...6 {
            for _ in 0..<(source == 6 ? 9 : 10) {
                let tried = try Self.post(
                    server, from: "127.0.0.\(source)", "/v1/auth/email/verify", ["email": Self.lina, "code": "123456", "device": "x"])
                #expect(tried.status == 401, "\(tried.body)")
            }
        }
        let seventh = try Self.post(server, from: "127.0.0.7", "/v1/auth/email/verify", ["email": Self.lina, "code": "123456", "device": "x"])
        #expect(seventh.status == 429, "\(seventh.status) \(seventh.body)")

        // …and the owner, who did nothing wrong today, asks for a code and signs in.
        #expect(try Self.post(server, from: "127.0.0.1", "/v1/auth/email/start", ["email": Self.lina]).status == 202)
        let code = try #require(try mail.code(to: Self.lina, message: 22))
        let owner = try Self.post(server, from: "127.0.0.1", "/v1/auth/email/verify", ["email": Self.lina, "code": code, "device": "phone"])
        #expect(owner.status == 200, "\(owner.status) \(owner.body)")
    }
}

/// Where Sign in with Apple sends a browser back is the server's own configured address, never one
/// taken from the request's `Host` (which whoever sends the request writes).
@Suite struct AppleRedirectTests {
    static func redirectURI(_ server: ServerProcess, host: String) throws -> String? {
        let socket = try RawSocket(port: server.port)
        socket.send("GET /account/sign-in/apple HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n\r\n")
        let text = socket.read(for: 60, until: RawSocket.wholeResponse).text
        guard let line = text.split(separator: "\r\n").first(where: { $0.lowercased().hasPrefix("location:") }) else { return nil }
        let location = line.dropFirst("location:".count).trimmingCharacters(in: .whitespaces)
        return URLComponents(string: location)?.queryItems?.first { $0.name == "redirect_uri" }?.value
    }

    @Test func theRedirectAddressComesFromConfigurationNotTheHostHeader() async throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let apple = try TestApple()
        let keys = try apple.writeJWKS(in: cli.folder)
        let flags = ["--apple-keys", keys, "--apple-client-id", TestApple.clientId, "--apple-authorize-url", "http://127.0.0.1:9/auth/authorize"]
        // On loopback, without --public-url: the address the socket was reached at.
        let local = try ServerProcess(cli: cli, serveFlags: flags)
        #expect(try Self.redirectURI(local, host: "evil.example") == local.base + "/account/sign-in/apple")
        local.stop()
        // With --public-url: that address, whatever the request says.
        let configured = try ServerProcess(cli: cli, serveFlags: flags + ["--public-url", "https://ledger.example.org/"])
        #expect(try Self.redirectURI(configured, host: "evil.example") == "https://ledger.example.org/account/sign-in/apple")
    }
}
