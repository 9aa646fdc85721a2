import Foundation
import Hummingbird
import NIOCore
import RepLedgerAccounts
import RepLedgerCore
import RepLedgerService

/// The coach dashboard under `/coach` (SERVER-CONTRACT.md §8): sign in with a coach
/// token (or open it from `/account`, which signs in by email or Apple), the
/// roster, a client's page, notes, offers and invites. Sessions
/// and CSRF tokens are `CoachWebSessions`'; authorization is the API's own
/// (`LedgerAPI.authorize`, the Coach product, the client's grant), checked
/// on every request. Forms post and redirect (303), so nothing needs
/// JavaScript; a refused form shows one line and records nothing.
package struct CoachWeb: Sendable {
    package let api: LedgerAPI
    package let sessions = CoachWebSessions()
    /// Cookies carry `Secure` unless the server listens on loopback only (plain HTTP there).
    package let secureCookies: Bool
    package let blocking: @Sendable (@escaping @Sendable () throws -> Response) async throws -> Response
    /// The bounds a signed-in page (the dashboard's, the account page's) is held to: `ledger serve`'s per-account ones.
    package let bound: PageBound?

    package init(
        api: LedgerAPI, secureCookies: Bool, blocking: @escaping @Sendable (@escaping @Sendable () throws -> Response) async throws -> Response,
        bound: PageBound? = nil
    ) {
        self.api = api
        self.secureCookies = secureCookies
        self.blocking = blocking
        self.bound = bound
    }

    package static let sessionCookie = "rl_session"
    static let signInCookie = "rl_signin"
    /// Pages may load the one stylesheet and post forms to this server; nothing else (no script runs at all).
    package static let contentSecurityPolicy =
        "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
    static let maximumFormBytes = 64 << 10

    /// The dashboard's routes under `group` (the server mounts it at `/coach`). Every page but the
    /// stylesheet and the sign-in sits behind `SignedIn`: a session, and on a post its CSRF token.
    package func addRoutes<Context: CoachWebContext>(to group: RouterGroup<Context>) {
        group.get("style.css") { _, _ in
            Response(status: .ok, headers: [.contentType: "text/css; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(string: CoachPages.css)))
        }
        group.get("sign-in") { _, _ in signInPage() }
        group.post("sign-in") { request, _ in try await signIn(try await Self.form(request), cookies: Self.cookies(request)) }

        let signedIn = group.group().add(middleware: SignedIn<Context>(web: self))
        signedIn.post("sign-out") { _, context in
            sessions.close(context.coachWeb.sessionId)
            var response = Self.redirect("/coach/sign-in")
            response.headers.append(.init(name: .setCookie, value: cookie(Self.sessionCookie, "", maxAge: 0)))
            return response
        }
        signedIn.get("") { _, context in
            try await page(context) { api, caller, csrf in
                html(CoachPages.roster(coach: api.accounts.name(of: caller.account), rows: try api.roster(caller), csrf: csrf))
            }
        }
        signedIn.post("invites") { _, context in
            let note = context.coachWeb.form["note"] ?? ""
            return try await page(context) { api, caller, csrf in
                let made = try api.makeInvite(caller, note: note)
                // Shown in this answer only (never in a URL or a redirect): the code is a secret until used.
                return html(
                    CoachPages.roster(
                        coach: api.accounts.name(of: caller.account), rows: try api.roster(caller), csrf: csrf,
                        newInvite: (made.code, made.expiresAt.iso8601)))
            }
        }
        signedIn.get("clients/:client") { _, context in
            let client = Self.client(context)
            return try await page(context) { api, caller, csrf in html(CoachPages.client(try api.clientPage(caller, client: client), csrf: csrf)) }
        }
        signedIn.post("clients/:client/notes") { _, context in
            let client = Self.client(context), text = context.coachWeb.form["text"] ?? ""
            return try await page(context) { api, caller, _ in
                _ = try api.authorize(caller, account: client, write: false)  // the grant, as for reading the page
                _ = try api.recordOwn(caller, device: Self.device) { try $0.addCoachNote(about: client, text: text) }
                return Self.redirect("/coach/clients/\(client)#notes")
            }
        }
        signedIn.post("clients/:client/assignments") { _, context in
            let client = Self.client(context), what = context.coachWeb.form["what"] ?? ""
            return try await page(context) { api, caller, _ in
                _ = try api.authorize(caller, account: client, write: false)
                let parts = what.split(separator: ":", maxSplits: 1).map(String.init)
                guard parts.count == 2, ["program", "template"].contains(parts[0]) else {
                    throw Refusal.invalidInput("choose a program or a template to offer")
                }
                _ = try api.recordOwn(caller, device: Self.device) { session in
                    parts[0] == "program" ? try session.offerProgram(parts[1], to: client) : try session.offerTemplate(parts[1], to: client)
                }
                return Self.redirect("/coach/clients/\(client)#assign")
            }
        }
    }

    /// A request under `/coach` that no route takes, answered as a page: the stylesheet and the
    /// sign-in take no other method; elsewhere a browser signs in first, then learns there is no such page.
    package func unrouted<Context: CoachWebContext>(_ request: Request, context: Context, path: [String]) async throws -> Response {
        if path == ["style.css"] || path == ["sign-in"] { return methodNotAllowed() }
        return try await SignedIn<Context>(web: self).handle(request, context: context) { _, context in
            if path == ["sign-out"] { return methodNotAllowed() }
            return html(CoachPages.message("Not found", "There is no such page.", csrf: context.coachWeb.session?.csrf), status: 404)
        }
    }

    /// A signed-in page: off the event loop, with the coach the session's token still speaks for (a
    /// revoked token ends the session); a refusal shows as a page with one line and records nothing.
    func page<Context: CoachWebContext>(
        _ context: Context, _ body: @escaping @Sendable (LedgerAPI, AccountDirectory.Caller, String) throws -> Response
    ) async throws -> Response {
        guard let session = context.coachWeb.session else { return Self.redirect("/coach/sign-in") }
        let id = context.coachWeb.sessionId, api = self.api
        return try await blocking {
            // The token that signed in must still be valid, and still a coach's with the product.
            guard let caller = try api.accounts.caller(tokenHash: session.tokenHash) else {
                sessions.close(id)
                return Self.redirect("/coach/sign-in")
            }
            do {
                return try body(api, caller, session.csrf)
            } catch {
                let e = APIError.from(error)
                let title = e.status == 403 ? "Not yours to see" : e.status >= 500 ? "Try again" : "Not recorded"
                return html(CoachPages.message(title, e.message, csrf: session.csrf), status: e.status)
            }
        }
    }

    /// The client of a `clients/:client` page, as the log names accounts (lowercased).
    static func client<Context: CoachWebContext>(_ context: Context) -> String {
        let raw = context.parameters.get("client") ?? ""
        return (raw.removingPercentEncoding ?? raw).lowercased()
    }

    /// The `device` of what a coach records from the dashboard.
    package static let device = "coach dashboard"

    func signInPage(error: String? = nil, status: Int = 200) -> Response {
        // A fresh sign-in token in a cookie and in the form: a post without both (another site's form) is refused.
        let token = CoachWebSessions.random()
        var response = html(CoachPages.signIn(csrf: token, error: error), status: status)
        response.headers.append(.init(name: .setCookie, value: cookie(Self.signInCookie, token, path: "/coach/sign-in", maxAge: 3600)))
        return response
    }

    package func signIn(_ form: [String: String], cookies: [String: String]) async throws -> Response {
        guard let sent = form["csrf"], let expected = cookies[Self.signInCookie], CoachWebSessions.same(sent, expected) else {
            return signInPage(error: "This form has expired: sign in again.", status: 403)
        }
        let token = (form["token"] ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        let api = self.api
        return try await blocking { [self] in
            guard !token.isEmpty, token.utf8.count < 512, let caller = try api.accounts.caller(token: token) else {
                return signInPage(error: "That token is not valid on this server.", status: 401)
            }
            guard try api.hasCoachProduct(caller.account.accountId) else {
                return signInPage(
                    error: "This account has no active Coach product: \(LedgerAPI.howToGetCoach(caller.account.accountId)).", status: 403)
            }
            let (id, _) = sessions.open(tokenHash: AccountDirectory.hash(token), account: caller.account.accountId)
            var response = Self.redirect("/coach")
            response.headers.append(.init(name: .setCookie, value: cookie(Self.sessionCookie, id, maxAge: 12 * 3600)))
            response.headers.append(.init(name: .setCookie, value: cookie(Self.signInCookie, "", path: "/coach/sign-in", maxAge: 0)))
            return response
        }
    }

    package func cookie(_ name: String, _ value: String, path: String = "/coach", maxAge: Int) -> String {
        "\(name)=\(value); Path=\(path); Max-Age=\(maxAge); HttpOnly; SameSite=Strict\(secureCookies ? "; Secure" : "")"
    }

    package func html(_ text: String, status: Int = 200) -> Response {
        Response(
            status: HTTPResponse.Status(code: status),
            headers: [.contentType: "text/html; charset=utf-8", .contentSecurityPolicy: Self.contentSecurityPolicy],
            body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    package func methodNotAllowed() -> Response {
        html(CoachPages.message("Not allowed", "This page takes no such request.", csrf: nil), status: 405)
    }

    package static func redirect(_ location: String) -> Response {
        Response(status: .seeOther, headers: [.location: location, .contentType: "text/plain; charset=utf-8"])
    }

    package static func cookies(_ request: Request) -> [String: String] {
        var out: [String: String] = [:]
        for header in request.headers[values: .cookie] {
            for pair in header.split(separator: ";") {
                let kv = pair.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                if kv.count == 2, out[kv[0]] == nil { out[kv[0]] = kv[1] }
            }
        }
        return out
    }

    /// An `application/x-www-form-urlencoded` body (at most 64 KiB).
    package static func form(_ request: Request) async throws -> [String: String] {
        let body: ByteBuffer
        do {
            body = try await request.body.collect(upTo: maximumFormBytes)
        } catch is NIOTooManyBytesError {
            throw APIError(status: 413, code: "tooLarge", message: "a form takes at most 64 KiB")
        } catch {
            throw APIError.badRequest("the form could not be read")
        }
        let text = String(buffer: body)
        var out: [String: String] = [:]
        for pair in text.split(separator: "&") {
            let kv = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map {
                String($0).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? ""
            }
            if kv.count == 2, out[kv[0]] == nil { out[kv[0]] = kv[1] }
        }
        return out
    }
}
