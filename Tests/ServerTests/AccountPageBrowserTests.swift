import Foundation
import LedgerTestSupport
import Testing

/// The account page under a real `ledger serve` in a real browser (headless
/// Chromium through chromedriver), for a person with no operator: sign up by
/// a code from a real mail command, add a device and revoke it, rename the
/// account, accept a coach's invite, export the log, and erase the account
/// behind a typed confirmation, after which its devices answer 410.
@Suite(
    .serialized, .enabled(if: Browser.available || Browser.required, "chromium and chromedriver are not installed"),
    .disabled(if: ServerProcess.onPostgres, "sign-in and devices run on PostgreSQL in SignInTests; page sessions are in memory"))
struct AccountPageBrowserTests {
    @Test func aPersonSignsUpAddsAndRevokesADeviceAndErasesTheAccount() async throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let mail = try CapturedMail(in: cli.folder)
        let server = try ServerProcess(cli: cli, serveFlags: ["--mail-command", mail.command])
        // A coach (granted by the operator) with an invite for the person.
        let coach = try server.createAccount("Sam", coach: true)
        let granted = try cli.run(["server", "account", "grant-coach", coach.id, "--until", "2099-01-01"] + server.storage, useDbFlag: false)
        #expect(granted.status == 0, "\(granted.stderr)")
        let invite = try await server.post("/v1/coach/invites", token: coach.token, body: #"{"note":"Lina"}"#)
        let code = try #require(invite.json?["code"] as? String, "\(invite.body)")

        let browser = try await Browser()
        do {
            try await walkThrough(browser, server: server, mail: mail, coach: coach, invite: code)
        } catch {
            await browser.quit()
            throw error
        }
        await browser.quit()
    }

    func walkThrough(_ browser: Browser, server: ServerProcess, mail: CapturedMail, coach: ServerProcess.Account, invite: String) async throws {
        let base = server.base + "/account"
        // Signed out, the page sends the browser to sign in; a code is mailed and typed.
        try await browser.open(base)
        #expect(try await browser.url(becoming: base + "/sign-in") == base + "/sign-in")
        try await browser.find("#email").type("lina@example.org")
        try await browser.find("#send-code").click()
        _ = try await browser.await("#code")
        let code = try #require(try mail.code(to: "lina@example.org"), "no code was mailed")
        try await browser.find("#code").type(code == "000000" ? "000001" : "000000")
        try await browser.find("#verify").click()
        #expect(try await browser.await("[role=alert]").text.contains("not valid"))
        try await browser.find("#code").type(code)
        try await browser.find("#verify").click()
        #expect(try await browser.url(becoming: base) == base)
        let session = try #require(try await browser.cookies().first { $0["name"] as? String == "rl_account" })
        #expect(session["httpOnly"] as? Bool == true && session["sameSite"] as? String == "Strict")
        let account = try await browser.await("#account-id").text
        #expect(try await browser.find("#devices tbody").text.contains("this browser"))

        // A device is added: its token is shown once and writes; revoked, it is refused at once.
        try await browser.find("#device").type("Lina's phone")
        try await browser.find("#add-device").click()
        let phoneToken = try await browser.await("#new-token").text
        if let shots = ProcessInfo.processInfo.environment["REPLEDGER_SCREENSHOTS"] {
            try await browser.screenshot(to: "\(shots)/account.png", maxHeight: 1600)
        }
        let events = "/v1/accounts/\(account)/events"
        #expect(try await server.post(events, token: phoneToken, body: PushBodies.batch([PushBodies.started(UUID())])).status == 200)
        try await browser.open(base)
        #expect(try await browser.all("#new-token").isEmpty)
        let rows = try await browser.all("#devices tbody tr")
        #expect(rows.count == 2)
        let phoneRow = try #require(try await browser.all("#devices tbody tr").last)
        let phoneId = try #require(try await phoneRow.attribute("data-device"))
        try await browser.find("#revoke-\(phoneId)").click()
        #expect(try await browser.await("#notice").text.contains("Lina's phone is revoked"))
        #expect(try await server.get(events, token: phoneToken).errorCode == "unauthorized")

        // The name, and a coach's invite accepted: the coach now reads this log.
        try await browser.find("#new-name").clear()
        try await browser.find("#new-name").type("Lina")
        try await browser.find("#rename").click()
        #expect(try await browser.await("h1").text == "Lina")
        try await browser.find("#invite").type(invite)
        try await browser.find("#accept").click()
        #expect(try await browser.await("#notice").text.contains("Invite accepted"))
        let clients = try await server.get("/v1/coach/clients", token: coach.token)
        #expect(clients.body.contains(account), "\(clients.body)")

        // The export is the log, every event a line, the grant last (fetched with the browser's session: no script runs on the pages).
        let cookie = try #require(try await browser.cookies().first { $0["name"] as? String == "rl_account" }?["value"] as? String)
        let export = try await server.request(.GET, "/account/export", token: nil, headers: [("Cookie", "rl_account=\(cookie)")])
        let lines = export.body.split(separator: "\n")
        #expect(export.status == 200 && export.headers["content-disposition"]?.hasPrefix("attachment") == true)
        #expect(lines.count > 2 && lines.last?.contains("CoachAccessGranted") == true, "\(export.body.suffix(300))")
        // Without the session the export is the sign-in page (the client follows the redirect), never the log.
        let signedOut = try await server.request(.GET, "/account/export", token: nil)
        #expect(signedOut.body.contains("id=\"send-code\"") && !signedOut.body.contains("CoachAccessGranted"))

        // Erasure needs the typed words; then every device of the account hears 410.
        try await browser.find("#device").type("laptop")
        try await browser.find("#add-device").click()
        let laptop = try await browser.await("#new-token").text
        try await browser.find("#confirm").type("erase")
        try await browser.find("#erase-account").click()
        #expect(try await browser.await("[role=alert]").text.contains("nothing was erased"))
        #expect(try await server.get(events, token: laptop).status == 200)
        try await browser.open(base)
        try await browser.await("#confirm").type("erase my account")
        try await browser.find("#erase-account").click()
        #expect(try await browser.await("#erased").text.contains(account))
        #expect(try await server.get(events, token: laptop).errorCode == "erased")
        try await browser.open(base)
        #expect(try await browser.url(becoming: base + "/sign-in") == base + "/sign-in")
    }

    /// Apple's part is played by the test: the browser goes to a stand-in address (nothing listens there),
    /// the test reads the state and nonce it was sent with, signs a token for them, and posts it back from
    /// a page of another origin, as Apple's form post does.
    @Test func aPersonSignsInWithAppleAndAnotherBrowserCannotFinishTheirSignIn() async throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let apple = try TestApple()
        let standIn = "http://127.0.0.1:9/auth/authorize"
        let server = try ServerProcess(
            cli: cli,
            serveFlags: [
                "--apple-keys", try apple.writeJWKS(in: cli.folder), "--apple-client-id", TestApple.clientId, "--apple-authorize-url", standIn,
            ])
        let browser = try await Browser()
        do {
            let base = server.base + "/account"
            func startAtApple() async throws -> (state: String, nonce: String) {
                try await browser.open(base + "/sign-in")
                try await browser.await("#apple").click()
                let sent = try #require(URLComponents(string: try await browser.url(becoming: standIn + "?", prefix: true)))
                #expect(sent.queryItems?.first { $0.name == "client_id" }?.value == TestApple.clientId)
                #expect(sent.queryItems?.first { $0.name == "redirect_uri" }?.value == base + "/sign-in/apple")
                return (
                    try #require(sent.queryItems?.first { $0.name == "state" }?.value),
                    try #require(sent.queryItems?.first { $0.name == "nonce" }?.value)
                )
            }
            func postBack(_ token: String, state: String) async throws {
                let page = cli.folder.appendingPathComponent("apple-\(UUID().uuidString.prefix(8)).html")
                let user = #"{"name":{"firstName":"Ana","lastName":"Lima"}}"#.replacingOccurrences(of: "\"", with: "&quot;")
                try """
                <form method="post" action="\(base)/sign-in/apple"><input type="hidden" name="id_token" value="\(token)">
                <input type="hidden" name="state" value="\(state)"><input type="hidden" name="user" value="\(user)">
                <button id="apple-post" type="submit">post</button></form>
                """.write(to: page, atomically: true, encoding: .utf8)
                try await browser.open(page.absoluteString)
                try await browser.await("#apple-post").click()
                _ = try await browser.await("#continue")
            }

            // A browser that did not start the sign-in (its cookie gone) cannot finish it: nothing is made.
            let first = try await startAtApple()
            let token = try apple.token(subject: "ana.apple", nonceClaim: first.nonce)
            try await postBack(token, state: first.state)
            try await browser.deleteCookie("rl_account_apple")
            try await browser.find("#continue").click()
            #expect(try await browser.await("[role=alert]").text.contains("not started in this browser"))

            // The browser that started it finishes it: the account is made, named as Apple said.
            let second = try await startAtApple()
            try await postBack(try apple.token(subject: "ana.apple", nonceClaim: second.nonce), state: second.state)
            try await browser.find("#continue").click()
            #expect(try await browser.url(becoming: base) == base)
            #expect(try await browser.await("h1").text == "Ana Lima")
            // The same token (its nonce not this sign-in's) is refused on the next try.
            let third = try await startAtApple()
            try await postBack(token, state: third.state)
            try await browser.find("#continue").click()
            #expect(try await browser.await("[role=alert]").text.contains("nonce"))
        } catch {
            await browser.quit()
            throw error
        }
        await browser.quit()
    }
}
