import Foundation
import Hummingbird
import NIOCore
import RepLedgerAccounts
import RepLedgerCore
import RepLedgerService

/// The account page under `/account`, for a person with no operator: sign in
/// (or up) by an email code, then the account's devices (add one, its token
/// shown once; revoke one), its name, a coach's invite to accept, the export,
/// and erasure behind a typed confirmation. Sessions are the coach
/// dashboard's kind (`CoachWebSessions`), kept apart; a session holds the
/// hash of a token made for this browser that ends with it (12 hours), so it
/// is listed among the devices and revoking it there signs the browser out.
/// The rules are the API's own (`SignInDesk`, `LedgerAPI`).
package struct AccountWeb: Sendable {
    package let coach: CoachWeb
    /// The inspector's door under `ledger serve`, whose sessions the account page opens.
    package let inspector: InspectorAccountDoor
    /// The lifter's app, whose sessions the account page opens too.
    package let app: LifterApp
    package let sessions = CoachWebSessions()
    var api: LedgerAPI { coach.api }

    package init(coach: CoachWeb, inspector: InspectorAccountDoor, app: LifterApp) {
        self.coach = coach
        self.inspector = inspector
        self.app = app
    }

    package static let root = "/account"
    package static let sessionCookie = "rl_account"
    static let signInCookie = "rl_account_signin"
    /// The device name of a browser's session token.
    package static let browserDevice = "Browser (account page)"
    static let sessionSeconds = 12 * 3600

    package func addRoutes<Context: CoachWebContext>(to group: RouterGroup<Context>) {
        group.get("sign-in") { _, _ in signInPage() }
        group.post("sign-in/email") { request, context in
            let form = try await CoachWeb.form(request)
            guard let csrf = checkedSignIn(form, request) else { return signInPage(error: "This form has expired: sign in again.", status: 403) }
            let email = form["email"] ?? "", address = context.callerAddress, desk = api.signIn
            return try await coach.blocking { [self] in
                do {
                    try desk.startEmail(email, address: address)
                } catch {
                    // A refusal, or the storage failing: one line on the page either way.
                    let e = APIError.from(error)
                    return signInPage(error: e.message, status: e.status)
                }
                return coach.html(AccountPages.code(csrf: csrf, email: email.trimmingCharacters(in: .whitespaces)))
            }
        }
        group.post("sign-in/code") { request, context in
            let form = try await CoachWeb.form(request)
            guard let csrf = checkedSignIn(form, request) else { return signInPage(error: "This form has expired: sign in again.", status: 403) }
            let email = form["email"] ?? "", code = form["code"] ?? "", address = context.callerAddress, desk = api.signIn
            return try await coach.blocking { [self] in
                let signedIn: SignInDesk.SignedIn
                do {
                    let ends = Timestamp(millis: Timestamp.now().millis + Int64(Self.sessionSeconds) * 1000)
                    signedIn = try desk.verifyEmail(
                        email, code: code, device: Self.browserDevice, name: nil, address: address, tokenExpiresAt: ends)
                } catch {
                    let e = APIError.from(error)
                    return coach.html(AccountPages.code(csrf: csrf, email: email, error: e.message), status: e.status)
                }
                return session(for: signedIn)
            }
        }

        addAppleRoutes(to: group)

        let signedIn = group.group().add(middleware: SignedIn<Context>(account: self))
        signedIn.get("") { _, context in
            try await page(context) { api, caller, csrf in coach.html(try accountPage(api, caller, csrf: csrf)) }
        }
        signedIn.post("sign-out") { _, context in
            let id = context.coachWeb.sessionId, hash = context.coachWeb.session?.tokenHash
            return try await coach.blocking { [self] in
                sessions.close(id)
                // The browser's token ends with its session, not 12 hours later.
                if let hash { _ = try api.accounts.table.revokeToken(hash: hash, at: Timestamp.now().millis) }
                return signedOut(CoachWeb.redirect(Self.root + "/sign-in"))
            }
        }
        // The coach's dashboard, the inspector and the app, opened with this browser's own sign-in (an emailed code or
        // Apple): the session each opens holds the same token's hash, so signing out here ends them too.
        signedIn.post("open/coach") { _, context in
            let hash = context.coachWeb.session?.tokenHash ?? []
            return try await page(context) { api, caller, _ in
                guard try api.hasCoachProduct(caller.account.accountId) else {
                    throw APIError.forbidden(
                        "the coach's dashboard needs an active Coach product: \(LedgerAPI.howToGetCoach(caller.account.accountId))")
                }
                let (id, _) = coach.sessions.open(tokenHash: hash, account: caller.account.accountId)
                var response = CoachWeb.redirect("/coach")
                response.headers.append(.init(name: .setCookie, value: coach.cookie(CoachWeb.sessionCookie, id, maxAge: Self.sessionSeconds)))
                return response
            }
        }
        signedIn.post("open/app") { _, context in
            let hash = context.coachWeb.session?.tokenHash ?? []
            return try await page(context) { _, caller, _ in
                var response = CoachWeb.redirect(LifterApp.root)
                for cookie in app.open(tokenHash: hash, account: caller.account.accountId) {
                    response.headers.append(.init(name: .setCookie, value: cookie))
                }
                return response
            }
        }
        signedIn.post("open/inspect") { _, context in
            let hash = context.coachWeb.session?.tokenHash ?? []
            return try await page(context) { _, caller, _ in
                let (id, _) = inspector.sessions.open(tokenHash: hash, account: caller.account.accountId)
                var response = CoachWeb.redirect(InspectorWeb.root + "/log")
                response.headers.append(
                    .init(name: .setCookie, value: coach.cookie(InspectorWeb.sessionCookie, id, path: InspectorWeb.root, maxAge: Self.sessionSeconds))
                )
                return response
            }
        }
        signedIn.post("devices") { _, context in
            let device = context.coachWeb.form["device"] ?? ""
            return try await page(context) { api, caller, csrf in
                let made = try api.addDevice(caller, body: JSONValue.object([("device", .string(device))]).rendered)
                guard case .string(let token)? = Self.field(made, "token"), case .string(let name)? = Self.field(made, "device") else {
                    throw APIError.storage("the device could not be added; try again")
                }
                // Shown in this answer only (never in a URL or a redirect).
                return coach.html(try accountPage(api, caller, csrf: csrf, newDevice: (name, token)))
            }
        }
        signedIn.post("devices/revoke") { _, context in
            let id = context.coachWeb.form["id"] ?? "", sessionId = context.coachWeb.sessionId
            return try await page(context) { api, caller, csrf in
                let revoked = try api.revokeDevice(caller, id: id)
                // Revoking this browser signs it out.
                guard id.lowercased() != caller.tokenId else {
                    sessions.close(sessionId)
                    return signedOut(CoachWeb.redirect(Self.root + "/sign-in"))
                }
                var notice = "Revoked."
                if case .string(let name)? = Self.field(revoked, "device") { notice = "\(name) is revoked: it is refused from its next request." }
                return coach.html(try accountPage(api, caller, csrf: csrf, notice: notice))
            }
        }
        signedIn.post("name") { _, context in
            let name = context.coachWeb.form["name"] ?? ""
            return try await page(context) { api, caller, _ in
                do { try api.accounts.rename(caller.account.accountId, to: name) } catch let f as AccountDirectory.Failure {
                    throw APIError.badRequest(f.description)
                }
                return CoachWeb.redirect(Self.root)
            }
        }
        signedIn.post("invites") { _, context in
            let code = (context.coachWeb.form["code"] ?? "").trimmingCharacters(in: .whitespaces)
            return try await page(context) { api, caller, csrf in
                _ = try api.acceptInviteAndGrant(caller, code: code, device: Self.browserDevice)
                return coach.html(try accountPage(api, caller, csrf: csrf, notice: "Invite accepted: your coach can now read your log."))
            }
        }
        signedIn.get("export") { _, context in
            try await page(context) { api, caller, _ in
                var lines = ""
                _ = try api.logs.log(caller.account.accountId).withLedger { ledger in
                    try JSONLBackup.export(ledger.store) { lines += $0 + "\n" }
                }
                return Response(
                    status: .ok,
                    headers: [
                        .contentType: "application/x-ndjson; charset=utf-8",
                        .contentDisposition: "attachment; filename=\"repledger-\(caller.account.accountId).jsonl\"",
                    ], body: .init(byteBuffer: ByteBuffer(string: lines)))
            }
        }
        signedIn.post("erase") { _, context in
            let confirm = (context.coachWeb.form["confirm"] ?? "").trimmingCharacters(in: .whitespaces).lowercased()
            let sessionId = context.coachWeb.sessionId
            return try await page(context) { api, caller, _ in
                guard confirm == AccountPages.erasePhrase else {
                    throw APIError.badRequest("type “\(AccountPages.erasePhrase)” to confirm: nothing was erased")
                }
                let report = try api.erase(caller, account: caller.account.accountId)
                sessions.close(sessionId)
                var counts = ""
                if case .int(let events)? = Self.field(report, "events"), case .int(let tokens)? = Self.field(report, "tokens") {
                    counts = " \(events) events and \(tokens) device\(tokens == 1 ? "" : "s") were deleted, and the key is destroyed."
                }
                return signedOut(coach.html(AccountPages.erased("Account \(caller.account.accountId) is gone." + counts)))
            }
        }
    }

    /// A request under `/account` that no route takes, answered as a page: the sign-in pages take no
    /// other method; elsewhere a browser signs in first, then learns there is no such page.
    package func unrouted<Context: CoachWebContext>(_ request: Request, context: Context) async throws -> Response {
        let path = request.uri.path
        if path.hasPrefix(Self.root + "/sign-in") {
            return coach.html(AccountPages.message("Not found", "There is no such page.", csrf: nil), status: request.method == .get ? 404 : 405)
        }
        return try await SignedIn<Context>(account: self).handle(request, context: context) { _, context in
            coach.html(AccountPages.message("Not found", "There is no such page.", csrf: context.coachWeb.session?.csrf), status: 404)
        }
    }

    /// The page as the account stands: its name, its devices in use.
    func accountPage(
        _ api: LedgerAPI, _ caller: AccountDirectory.Caller, csrf: String, newDevice: (name: String, token: String)? = nil, notice: String? = nil
    ) throws -> String {
        AccountPages.account(
            name: api.accounts.name(of: caller.account), accountId: caller.account.accountId, devices: try api.deviceList(caller), csrf: csrf,
            isCoach: try api.hasCoachProduct(caller.account.accountId), newDevice: newDevice, notice: notice)
    }

    /// A signed-in page off the event loop, for the account the session's token still speaks for
    /// (a revoked or expired token ends the session); a refusal is a page of one line, recording nothing.
    func page<Context: CoachWebContext>(
        _ context: Context, _ body: @escaping @Sendable (LedgerAPI, AccountDirectory.Caller, String) throws -> Response
    ) async throws -> Response {
        guard let session = context.coachWeb.session else { return CoachWeb.redirect(Self.root + "/sign-in") }
        let id = context.coachWeb.sessionId, api = self.api
        return try await coach.blocking { [self] in
            guard let caller = try api.accounts.caller(tokenHash: session.tokenHash), !api.accounts.keys.isErased(caller.account.accountId) else {
                sessions.close(id)
                return signedOut(CoachWeb.redirect(Self.root + "/sign-in"))
            }
            do {
                return try body(api, caller, session.csrf)
            } catch {
                let e = APIError.from(error)
                let title = e.status >= 500 ? "Try again" : "Not done"
                return coach.html(AccountPages.message(title, e.message, csrf: session.csrf), status: e.status)
            }
        }
    }

    /// A session for the browser's new token → to the account page.
    func session(for signedIn: SignInDesk.SignedIn) -> Response {
        let (id, _) = sessions.open(tokenHash: AccountDirectory.hash(signedIn.token), account: signedIn.accountId)
        var response = CoachWeb.redirect(Self.root)
        response.headers.append(.init(name: .setCookie, value: coach.cookie(Self.sessionCookie, id, path: Self.root, maxAge: Self.sessionSeconds)))
        response.headers.append(.init(name: .setCookie, value: coach.cookie(Self.signInCookie, "", path: Self.root + "/sign-in", maxAge: 0)))
        return response
    }

    /// A field of an answer the API built.
    static func field(_ value: JSONValue, _ key: String) -> JSONValue? {
        guard case .object(let pairs) = value else { return nil }
        return pairs.first { $0.0 == key }?.1
    }

    /// The answer with the session's cookie cleared.
    func signedOut(_ response: Response) -> Response {
        var response = response
        response.headers.append(.init(name: .setCookie, value: coach.cookie(Self.sessionCookie, "", path: Self.root, maxAge: 0)))
        return response
    }

    /// The sign-in form's CSRF token when it matches the browser's sign-in cookie (another site's form has neither).
    func checkedSignIn(_ form: [String: String], _ request: Request) -> String? {
        guard let sent = form["csrf"], let expected = CoachWeb.cookies(request)[Self.signInCookie], CoachWebSessions.same(sent, expected) else {
            return nil
        }
        return sent
    }

    func signInPage(error: String? = nil, status: Int = 200) -> Response {
        let token = CoachWebSessions.random()
        let offers = api.signIn.settings
        var response = coach.html(
            AccountPages.signIn(csrf: token, error: error, apple: offers.apple != nil, email: offers.mailCommand != nil), status: status)
        response.headers.append(.init(name: .setCookie, value: coach.cookie(Self.signInCookie, token, path: Self.root + "/sign-in", maxAge: 3600)))
        return response
    }
}
