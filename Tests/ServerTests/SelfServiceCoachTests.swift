import Foundation
import LedgerTestSupport
import Testing

/// A coach who signed up by an emailed code, against a real `ledger serve` with a real mail command,
/// through the pages as a browser posts them: refused Coach, every page and answer names the ways to
/// it (the store, or the operator's `grant-coach`); granted, the account page opens the coach's
/// dashboard and the inspector with its own sign-in, no token typed; signed out there, both end.
@Suite(.serialized, .disabled(if: ServerProcess.onPostgres, "page sessions are in memory; sign-in runs on PostgreSQL in SignInTests"))
struct SelfServiceCoachTests {
    /// Signs `email` up at `/account` with the code the mail command received → the `rl_account` cookie.
    static func signUp(_ pages: PageClient, mail: CapturedMail, email: String) async throws -> String {
        let form = try await pages.get("/account/sign-in")
        let signInCookie = try #require(form.cookie("rl_account_signin")), csrf = try #require(form.csrf)
        let cookie = "rl_account_signin=\(signInCookie)"
        let sent = try await pages.post("/account/sign-in/email", cookie: cookie, form: [("csrf", csrf), ("email", email)])
        #expect(sent.status == 200, "\(sent.body.prefix(300))")
        let code = try #require(try mail.code(to: email), "no code was mailed")
        let verified = try await pages.post("/account/sign-in/code", cookie: cookie, form: [("csrf", csrf), ("email", email), ("code", code)])
        #expect(verified.status == 303 && verified.location == "/account", "\(verified.status) \(verified.body.prefix(300))")
        return "rl_account=\(try #require(verified.cookie("rl_account")))"
    }

    @Test func aCoachWhoSignedUpByEmailIsToldHowToGetCoachThenOpensTheDashboardAndTheInspector() async throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let mail = try CapturedMail(in: cli.folder)
        let server = try ServerProcess(cli: cli, serveFlags: ["--mail-command", mail.command])
        let pages = PageClient(base: server.base)
        let account = try await Self.signUp(pages, mail: mail, email: "sam@example.org")

        // Without Coach: the account page says how to get it, and the dashboard's door refuses saying the same.
        let page = try await pages.get("/account", cookie: account)
        let accountId = try #require(
            page.body.range(of: #"id="account-id">[0-9a-f-]+<"#, options: .regularExpression).map {
                String(page.body[$0].dropFirst(#"id="account-id">"#.count).dropLast())
            })
        let csrf = try #require(page.csrf)
        #expect(page.body.contains(#"id="coach-how""#) && page.body.contains("grant-coach \(accountId)"), "\(page.body.prefix(2000))")
        #expect(!page.body.contains(#"id="open-coach""#))
        let refused = try await pages.post("/account/open/coach", cookie: account, form: [("csrf", csrf)])
        #expect(refused.status == 403 && refused.body.contains("grant-coach \(accountId)") && refused.cookie("rl_session") == nil)

        // The same words over the API, for a device of this account: an invite needs Coach, and says how.
        let verifyToken = try await server.post("/v1/auth/email/start", token: nil, body: SignInTests.body(["email": "sam@example.org"]))
        #expect(verifyToken.status == 202)
        let code = try #require(try mail.code(to: "sam@example.org", message: 2))
        let device = try await server.post(
            "/v1/auth/email/verify", token: nil, body: SignInTests.body(["email": "sam@example.org", "code": code, "device": "laptop"]))
        let token = try #require(device.json?["token"] as? String, "\(device.body)")
        let invite = try await server.post("/v1/coach/invites", token: token, body: "{}")
        #expect(
            invite.status == 403 && invite.body.contains("grant-coach \(accountId)") && invite.body.contains("repledger_coach_monthly"),
            "\(invite.body)")

        // The token sign-in pages point a self-made account to its own sign-in.
        #expect(try await pages.get("/coach/sign-in").body.contains(#"href="/account/sign-in""#))
        #expect(try await pages.get("/inspect/sign-in").body.contains(#"href="/account/sign-in""#))

        // Granted by the operator: the account page opens the dashboard with its own sign-in.
        let granted = try cli.run(["server", "account", "grant-coach", accountId, "--until", "2099-01-01"] + server.storage, useDbFlag: false)
        #expect(granted.status == 0, "\(granted.stderr)")
        let coachPage = try await pages.get("/account", cookie: account)
        #expect(coachPage.body.contains(#"id="open-coach""#) && !coachPage.body.contains(#"id="coach-how""#))
        let opened = try await pages.post("/account/open/coach", cookie: account, form: [("csrf", try #require(coachPage.csrf))])
        #expect(opened.status == 303 && opened.location == "/coach", "\(opened.status) \(opened.body.prefix(300))")
        let coachCookie = "rl_session=\(try #require(opened.cookie("rl_session")))"
        #expect(opened.headers["Set-Cookie"].contains { $0.contains("HttpOnly") && $0.contains("SameSite=Strict") && $0.contains("Path=/coach") })
        let roster = try await pages.get("/coach", cookie: coachCookie)
        #expect(roster.status == 200 && roster.body.contains("Sign out"), "\(roster.status) \(roster.body.prefix(500))")

        // And the inspector, on this account's own log.
        let inspect = try await pages.post("/account/open/inspect", cookie: account, form: [("csrf", try #require(coachPage.csrf))])
        #expect(inspect.status == 303 && inspect.location == "/inspect/log", "\(inspect.status) \(inspect.body.prefix(300))")
        let inspectCookie = "rl_inspect=\(try #require(inspect.cookie("rl_inspect")))"
        let log = try await pages.get("/inspect/log", cookie: inspectCookie)
        #expect(log.status == 200 && log.body.contains("’s log"), "\(log.status) \(log.body.prefix(500))")

        // A forged post (no CSRF token) opens nothing.
        let forged = try await pages.post("/account/open/coach", cookie: account, form: [])
        #expect(forged.status == 403 && forged.cookie("rl_session") == nil)

        // Signing out of the account ends the sessions it opened: its browser token is revoked.
        let out = try await pages.post("/account/sign-out", cookie: account, form: [("csrf", try #require(coachPage.csrf))])
        #expect(out.status == 303)
        #expect(try await pages.get("/coach", cookie: coachCookie).location == "/coach/sign-in")
        #expect(try await pages.get("/inspect/log", cookie: inspectCookie).status != 200)
    }
}
