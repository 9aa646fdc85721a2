import Foundation
import LedgerTestSupport
import Testing

/// Security round four, item 1: sign-in mail runs off the request path. With a mail command that takes 45 s, code
/// requests are answered at once and an account's reads and pushes are served while the mail is still being sent.
@Suite struct SignInMailTests {
    /// Waits (20 s at most) until a send is running.
    static func waitForSleeping(_ seconds: String) -> Bool {
        let deadline = Date().addingTimeInterval(20)
        while RunningSleeps.count(seconds) == 0 {
            if Date() > deadline { return false }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return true
    }

    @Test("a slow mail command holds no request: codes are answered 202 while it runs, and every tenant is served")
    func slowMailStallsNobody() async throws {
        let seconds = "45.\(Int.random(in: 100...999))"
        defer { _ = try? Process.run(URL(fileURLWithPath: "/usr/bin/pkill"), arguments: ["-f", "sleep \(seconds)"]) }
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let server = try ServerProcess(cli: cli, serveFlags: ["--mail-command", "cat > /dev/null; sleep \(seconds)"])
        let alice = try server.createAccount("alice")
        for i in 0..<6 {
            let sent = try await server.post("/v1/auth/email/start", token: nil, body: SignInTests.body(["email": "person\(i)@example.org"]))
            #expect(sent.status == 202, "\(sent.body)")
        }
        // The mail is still on its way (each send sleeps 45 s) once the answers have come: had they waited for it, no
        // send would be running now, nor ever again.
        #expect(Self.waitForSleeping(seconds), "the codes were answered only after their mail was sent")
        #expect(try await server.get("/v1/accounts/\(alice.id)/verify", token: alice.token).status == 200)
        let push = try await server.post("/v1/accounts/\(alice.id)/events", token: alice.token, body: PushBodies.batch([PushBodies.started(UUID())]))
        #expect(push.status == 200)
        #expect(Self.waitForSleeping(seconds), "the account was served only after the mail was sent")
    }
}
