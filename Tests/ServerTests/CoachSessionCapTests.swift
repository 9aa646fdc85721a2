import Foundation
import LedgerTestSupport
import StoreKitTestSupport
import Testing

/// The dashboard's sessions are capped per account: a coach signing in again
/// and again ends its own oldest session, and nobody else's.
@Suite(.serialized, .disabled(if: ServerProcess.onPostgres, "sessions are in memory, the same over either store")) struct CoachSessionCapTests {
    /// One whole exchange on its own connection → the response's text.
    static func exchange(_ server: ServerProcess, _ request: String) throws -> String {
        let socket = try RawSocket(port: server.port)
        socket.send(request)
        return socket.read(for: 60, until: RawSocket.wholeResponse).text
    }

    /// The value a response sets for `cookie`.
    static func cookie(_ name: String, in response: String) -> String? {
        guard let range = response.range(of: "Set-Cookie: \(name)=", options: .caseInsensitive) else { return nil }
        return String(response[range.upperBound...].prefix { $0 != ";" && $0 != "\r" })
    }

    /// Signs in through the form with `token` → the session cookie's value.
    static func signIn(_ server: ServerProcess, token: String) throws -> String? {
        let form = try exchange(server, "GET /coach/sign-in HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        guard let signIn = cookie("rl_signin", in: form), let range = form.range(of: #"name="csrf" value=""#) else { return nil }
        let csrf = form[range.upperBound...].prefix { $0 != "\"" }
        let body = "csrf=\(csrf)&token=\(token)"
        let answer = try exchange(
            server,
            "POST /coach/sign-in HTTP/1.1\r\nHost: x\r\nConnection: close\r\nCookie: rl_signin=\(signIn)\r\n"
                + "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
        return cookie("rl_session", in: answer)
    }

    /// Whether the session cookie still opens the dashboard.
    static func signedIn(_ server: ServerProcess, _ session: String) throws -> Bool {
        try exchange(server, "GET /coach HTTP/1.1\r\nHost: x\r\nConnection: close\r\nCookie: rl_session=\(session)\r\n\r\n").hasPrefix("HTTP/1.1 200")
    }

    @Test func oneCoachSigningInAgainAndAgainSignsOutOnlyItself() async throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let chain = try StoreKitTestChain()
        let server = try ServerProcess(
            cli: cli, serveFlags: ["--storekit-root", try chain.writeRoot(in: cli.folder), "--bundle-id", StoreKitTestChain.bundleId])
        let ann = try server.createAccount("Coach Ann", coach: true), ben = try server.createAccount("Coach Ben", coach: true)
        for (coach, id) in [(ann, "t-ann"), (ben, "t-ben")] {
            let jws = try chain.signedTransaction(id: id, product: "repledger_coach_monthly")
            #expect(try await PurchaseVerificationTests.pushPurchase(server, coach, id: id, jws: jws).status == 200)
        }
        let bens = try #require(try Self.signIn(server, token: ben.token), "Ben could not sign in")
        let anns = try #require(try Self.signIn(server, token: ann.token), "Ann could not sign in")
        #expect(try Self.signedIn(server, bens) && Self.signedIn(server, anns))
        // Ann signs in 16 more times: her first session ends; Ben's stays.
        for _ in 0..<16 { #expect(try Self.signIn(server, token: ann.token) != nil) }
        #expect(try !Self.signedIn(server, anns), "a coach's sessions are not capped")
        #expect(try Self.signedIn(server, bens), "another coach was signed out")
    }
}
