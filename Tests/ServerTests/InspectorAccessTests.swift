import Foundation
import LedgerTestSupport
import Testing

/// The inspector under a real `ledger serve`, over a real export synced to an
/// account: its owner signs in with the account's token, a coach reads the
/// client's log while the grant is in force and nobody else's, every answer
/// equal to the API's on the same log, and reading appends nothing.
@Suite(.serialized, .needsSharedData(.realExports))
struct InspectorAccessTests {
    static let marta = SharedData.url(.realExports).appendingPathComponent("strong_mlahoz_strong.csv").path

    /// The sign-in form, sent as a browser sends it → the session's `Cookie` value.
    static func signIn(_ pages: PageClient, token: String) async throws -> (cookie: String, setCookie: String) {
        let form = try await pages.get("/inspect/sign-in")
        let formCookie = try #require(form.cookie("rl_inspect_signin"), "the sign-in page sets its form's cookie")
        let sent = try await pages.post(
            "/inspect/sign-in", cookie: "rl_inspect_signin=\(formCookie)", form: [("csrf", form.csrf ?? ""), ("token", token)])
        try #require(sent.status == 303 && sent.location == "/inspect/log", "sign-in answered \(sent.status): \(sent.body.prefix(200))")
        let session = try #require(sent.cookie("rl_inspect"))
        return ("rl_inspect=\(session)", sent.headers["Set-Cookie"].first { $0.hasPrefix("rl_inspect=") } ?? "")
    }

    /// A server with a coach (Coach product), Marta (her real Strong export, synced, a grant to the coach)
    /// and Cy (nothing granted).
    struct Cast {
        var server: ServerProcess
        var coach: ServerProcess.Account
        var marta: ServerProcess.Account
        var cy: ServerProcess.Account
        var phone: Device
    }

    static func cast(_ cli: LedgerProcess) throws -> Cast {
        let (server, coach, _) = try CoachProductTests.coachedServer(cli)
        let marta = try server.createAccount("Marta"), cy = try server.createAccount("Cy")
        let phone = try Device("marta", cli: cli, token: marta.token)
        let imported = try phone.run(["import", "strong", Self.marta, "--timezone", "UTC"])
        guard imported.status == 0 else { throw ServerFailure.cli(imported.stderr) }
        try phone.run(["coach", "grant", coach.id])
        guard try phone.sync(server, account: marta.id).status == 0 else { throw ServerFailure.cli("Marta's phone did not sync") }
        return Cast(server: server, coach: coach, marta: marta, cy: cy, phone: phone)
    }

    @Test func theOwnerAndACoachWithAGrantReadTheLogAsTheAPIAnswersAndNobodyElse() async throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let cast = try Self.cast(cli)
        let (server, coach, marta, cy, phone) = (cast.server, cast.coach, cast.marta, cast.cy, cast.phone)
        let pages = PageClient(base: server.base)
        let api = "/v1/accounts/\(marta.id)"

        // Signed out: a browser is sent to sign in; JSON is refused.
        let away = try await pages.get("/inspect/log")
        #expect(away.status == 303 && away.location == "/inspect/sign-in")
        #expect(try await pages.get("/inspect/log", json: true).status == 401)
        // A wrong token, and a form without its cookie (another site's), sign nobody in.
        let form = try await pages.get("/inspect/sign-in")
        let wrong = try await pages.post(
            "/inspect/sign-in", cookie: "rl_inspect_signin=\(form.cookie("rl_inspect_signin") ?? "")",
            form: [("csrf", form.csrf ?? ""), ("token", "rl_not-a-token")])
        #expect(wrong.status == 401 && wrong.body.contains("That token is not valid on this server.") && wrong.cookie("rl_inspect") == nil)
        let forged = try await pages.post("/inspect/sign-in", cookie: nil, form: [("csrf", form.csrf ?? ""), ("token", marta.token)])
        #expect(forged.status == 403 && forged.cookie("rl_inspect") == nil)

        // The owner: the session cookie's flags, and the pages equal to the API on the same log.
        let (owner, flags) = try await Self.signIn(pages, token: marta.token)
        #expect(flags.contains("HttpOnly") && flags.contains("SameSite=Strict") && flags.contains("Path=/inspect"))
        let verified = try #require(try await server.get(api + "/verify", token: marta.token).json)
        let head = try #require(verified["events"] as? Int)
        #expect(sameJSON(try await pages.get("/inspect/verify", cookie: owner, json: true).json, verified))
        for n in [head / 2, head] {
            let at = try #require(try await pages.get("/inspect/at/\(n)", cookie: owner, json: true).object)
            #expect(sameJSON(at["records"], try await server.get(api + "/prs?asOf=\(n)", token: marta.token).json), "records as of #\(n)")
        }
        let logPage = try await pages.get("/inspect/log", cookie: owner)
        #expect(logPage.status == 200 && logPage.body.contains("Marta’s log") && logPage.body.contains("data-position=\"1\""))
        // An owner without the Coach product reads no other account.
        let notHers = try await pages.get("/inspect/clients/\(cy.id)/log", cookie: owner, json: true)
        #expect(notHers.status == 403 && notHers.errorCode == "forbidden")

        // The coach: the client's pages under clients/ID, equal to the owner's; nobody else's.
        let (coached, _) = try await Self.signIn(pages, token: coach.token)
        let client = "/inspect/clients/\(marta.id)"
        let asOwner = try await pages.get("/inspect/at/\(head / 3)", cookie: owner, json: true)
        let asCoach = try await pages.get(client + "/at/\(head / 3)", cookie: coached, json: true)
        #expect(asCoach.status == 200 && sameJSON(asCoach.json, asOwner.json))
        let clientLog = try await pages.get(client + "/log?from=\(head - 3)", cookie: coached)
        #expect(clientLog.body.contains("Marta’s log, by grant") && clientLog.body.contains("href=\"\(client)/at/\(head)\""))
        #expect(try await pages.get("/inspect/log", cookie: coached, json: true).object?["headPosition"] as? Int != head, "the coach's own log")
        for other in [cy.id, UUID().uuidString.lowercased()] {
            let refused = try await pages.get("/inspect/clients/\(other)/log", cookie: coached)
            #expect(refused.status == 403 && refused.body.contains("Not yours to see") && !refused.body.contains("data-position"))
        }
        // The Rules form needs the session's CSRF token; with it, a preview over the client's log.
        let rules = try await pages.get(client + "/rules", cookie: coached)
        let csrf = try #require(rules.csrf)
        let ruleFile = #"{"id":"brzycki-10","version":1,"e1rmFormula":"brzycki","e1rmRepCap":10}"#
        #expect(try await pages.post(client + "/rules", cookie: coached, form: [("rules", ruleFile)]).status == 403)
        let preview = try await pages.post(client + "/rules", cookie: coached, form: [("csrf", csrf), ("rules", ruleFile)], json: true)
        let ownerCSRF = try #require(try await pages.get("/inspect/rules", cookie: owner).csrf)
        let ownPreview = try await pages.post("/inspect/rules", cookie: owner, form: [("csrf", ownerCSRF), ("rules", ruleFile)], json: true)
        #expect(
            preview.status == 200 && (preview.object?["diff"] as? [Any])?.isEmpty == false
                && sameJSON(preview.object?["diff"], ownPreview.object?["diff"]), "\(preview.body.prefix(200))")
        // Reading appended nothing.
        #expect(try await server.get(api + "/verify", token: marta.token).json?["events"] as? Int == head)

        // The grant revoked: the coach is refused at once.
        try phone.run(["coach", "revoke", coach.id])
        try #require(try phone.sync().status == 0)
        #expect(try await pages.get(client + "/log", cookie: coached, json: true).status == 403)

        // Signing out ends the session (the form needs its CSRF token).
        #expect(try await pages.post("/inspect/sign-out", cookie: owner, form: []).status == 403)
        let out = try await pages.post("/inspect/sign-out", cookie: owner, form: [("csrf", ownerCSRF)])
        #expect(out.status == 303 && out.location == "/inspect/sign-in" && out.cookie("rl_inspect") == "")
        #expect(try await pages.get("/inspect/log", cookie: owner).location == "/inspect/sign-in")
    }
}
