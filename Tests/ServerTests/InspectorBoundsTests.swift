import Foundation
import LedgerTestSupport
import Testing

/// The inspector's pages under `ledger serve` are held to the API's per-account bounds: its reader's
/// key and account count their requests a minute, and the account's requests in progress are one
/// count for the API and the pages, so one account's heavy pages cannot take what others need.
@Suite struct InspectorBoundsTests {
    @Test func inspectorPagesCountAgainstTheKeysRequestsAMinute() async throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let server = try ServerProcess(cli: cli, serveFlags: ["--key-requests-per-minute", "5", "--account-requests-per-minute", "100"])
        let alice = try server.createAccount("alice"), bob = try server.createAccount("bob")
        let pages = PageClient(base: server.base)
        let aliceSession = try await InspectorAccessTests.signIn(pages, token: alice.token).cookie
        let bobSession = try await InspectorAccessTests.signIn(pages, token: bob.token).cookie

        var answered = 0
        var refused: PageClient.Reply?
        for _ in 0..<10 {
            let page = try await pages.get("/inspect/log", cookie: aliceSession)
            if page.status == 429 {
                refused = page
                break
            }
            #expect(page.status == 200 && page.headers["RateLimit"].first?.contains("\"requests-key\";r=") == true, "\(page.status)")
            answered += 1
        }
        #expect(answered == 5)
        let limited = try #require(refused, "the sixth page in a minute was answered")
        #expect(limited.headers["Retry-After"].first != nil && limited.body.contains("its limit"), "\(limited.body.prefix(300))")
        // The same key's API requests share the count; another account's pages do not.
        #expect(try await server.get("/v1/accounts/\(alice.id)/verify", token: alice.token).status == 429)
        #expect(try await pages.get("/inspect/log", cookie: bobSession).status == 200)
    }

    @Test func inspectorPagesShareTheAccountsRequestsInProgressWithTheAPI() async throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let server = try ServerProcess(cli: cli, serveFlags: ["--max-requests-per-account", "1"])
        let alice = try server.createAccount("alice"), bob = try server.createAccount("bob")
        #expect(
            try await server.post("/v1/accounts/\(alice.id)/events", token: alice.token, body: PushBodies.batch([PushBodies.started(UUID())])).status
                == 200)
        let pages = PageClient(base: server.base)
        let aliceSession = try await InspectorAccessTests.signIn(pages, token: alice.token).cookie
        let bobSession = try await InspectorAccessTests.signIn(pages, token: bob.token).cookie

        // A push whose body never finishes holds alice's one request in progress (started again if a page
        // took the slot first and the push was the one refused).
        func slowPush() throws -> RawSocket { try RawSocket.unfinishedPush(server, account: alice) }
        var slow = try slowPush()
        var refused = PageClient.Reply(status: 0, headers: [:], body: "")
        let deadline = Date().addingTimeInterval(120)
        while Date() < deadline {
            refused = try await pages.get("/inspect/log", cookie: aliceSession)
            if refused.status == 429 { break }
            if slow.hasAnswer { slow = try slowPush() }
        }
        #expect(refused.status == 429 && refused.body.contains("requests in progress"), "\(refused.status) \(refused.body.prefix(300))")
        #expect(refused.headers["Retry-After"].first == "1")
        // Bob's pages are not held up; alice's come back once the push ends.
        #expect(try await pages.get("/inspect/log", cookie: bobSession).status == 200)
        slow.send(String(repeating: " ", count: 1000 - 11))
        _ = slow.read(for: 60, until: RawSocket.wholeResponse)
        let page = try await pages.get("/inspect/log", cookie: aliceSession)
        #expect(page.status == 200 && page.body.contains("WorkoutStarted"), "\(page.status)")
    }

    @Test func theAccountPageCountsAgainstTheBrowsersKeyAsTheAPIDoes() async throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let mail = try CapturedMail(in: cli.folder)
        let server = try ServerProcess(
            cli: cli, serveFlags: ["--mail-command", mail.command, "--key-requests-per-minute", "3", "--account-requests-per-minute", "100"])
        let pages = PageClient(base: server.base)
        // Signed in by an emailed code, through the page's own forms.
        let form = try await pages.get("/account/sign-in")
        let formCookie = "rl_account_signin=\(try #require(form.cookie("rl_account_signin")))", csrf = try #require(form.csrf)
        #expect(
            try await pages.post("/account/sign-in/email", cookie: formCookie, form: [("csrf", csrf), ("email", "lina@example.org")]).status == 200)
        let code = try #require(try mail.code(to: "lina@example.org"))
        let signedIn = try await pages.post(
            "/account/sign-in/code", cookie: formCookie, form: [("csrf", csrf), ("email", "lina@example.org"), ("code", code)])
        let session = "rl_account=\(try #require(signedIn.cookie("rl_account"), "\(signedIn.status) \(signedIn.body.prefix(200))"))"
        // Three pages in the minute, then a page saying so, with Retry-After.
        for _ in 0..<3 { #expect(try await pages.get("/account", cookie: session).status == 200) }
        let limited = try await pages.get("/account", cookie: session)
        #expect(
            limited.status == 429 && limited.headers["Retry-After"].first != nil && limited.body.contains("its limit"), "\(limited.body.prefix(300))")
    }
}
