import Foundation
import Hummingbird
import NIOCore
import RepLedgerCore

/// The coach dashboard under `/coach` (SERVER.md §8): sign in with a coach
/// token, the roster, a client's page, notes, offers and invites. Sessions
/// and CSRF tokens are `CoachWebSessions`'; authorization is the API's own
/// (`LedgerAPI.authorize`, the Coach product, the client's grant), checked
/// on every request. Forms post and redirect (303), so nothing needs
/// JavaScript; a refused form shows one line and records nothing.
struct CoachWeb: Sendable {
    let api: LedgerAPI
    let sessions = CoachWebSessions()
    /// Cookies carry `Secure` unless the server listens on loopback only (plain HTTP there).
    let secureCookies: Bool
    let blocking: @Sendable (@escaping @Sendable () throws -> Response) async throws -> Response

    static let sessionCookie = "rl_session"
    static let signInCookie = "rl_signin"
    /// Pages may load the one stylesheet and post forms to this server; nothing else (no script runs at all).
    static let contentSecurityPolicy =
        "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
    static let maximumFormBytes = 64 << 10

    func route(_ request: Request, _ segments: [String]) async throws -> Response {
        let method = request.method
        let path = Array(segments.dropFirst())
        let cookies = Self.cookies(request)
        if path == ["style.css"] {
            guard method == .get else { return methodNotAllowed() }
            return Response(
                status: .ok, headers: [.contentType: "text/css; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(string: CoachPages.css)))
        }
        if path == ["sign-in"] {
            if method == .get { return signInPage() }
            guard method == .post else { return methodNotAllowed() }
            let form = try await Self.form(request)
            return try await signIn(form, cookies: cookies)
        }
        // Everything else needs a session; a browser without one goes to the sign-in page.
        guard let id = cookies[Self.sessionCookie], let session = sessions.session(id) else {
            return Self.redirect("/coach/sign-in")
        }
        let form: [String: String]
        if method == .post {
            form = try await Self.form(request)
            guard let csrf = form["csrf"], CoachWebSessions.same(csrf, session.csrf) else {
                return html(
                    CoachPages.message("Form expired", "This form has expired: go back, reload the page and send it again.", csrf: session.csrf),
                    status: 403)
            }
        } else {
            guard method == .get else { return methodNotAllowed() }
            form = [:]
        }
        if path == ["sign-out"] {
            guard method == .post else { return methodNotAllowed() }
            sessions.close(id)
            var response = Self.redirect("/coach/sign-in")
            response.headers.append(.init(name: .setCookie, value: cookie(Self.sessionCookie, "", maxAge: 0)))
            return response
        }
        let csrf = session.csrf, api = self.api
        return try await blocking {
            // The token that signed in must still be valid, and still a coach's with the product.
            guard let caller = try api.accounts.caller(tokenHash: session.tokenHash) else {
                sessions.close(id)
                return Self.redirect("/coach/sign-in")
            }
            do {
                let client = path.count >= 2 && path[0] == "clients" ? path[1].lowercased() : ""
                switch (method, path.count == 2 ? "clients/_" : path.count == 3 ? "clients/_/" + path[2] : path.joined(separator: "/")) {
                case (.get, ""):
                    let rows = try api.roster(caller)
                    return html(CoachPages.roster(coach: api.accounts.name(of: caller.account), rows: rows, csrf: csrf))
                case (.post, "invites"):
                    let made = try api.makeInvite(caller, note: form["note"] ?? "")
                    let (code, until) = (made.code, made.expiresAt.iso8601)
                    // Shown in this answer only (never in a URL or a redirect): the code is a secret until used.
                    return html(
                        CoachPages.roster(
                            coach: api.accounts.name(of: caller.account), rows: try api.roster(caller), csrf: csrf, newInvite: (code, until)))
                case (.get, "clients/_") where path[0] == "clients":
                    return html(CoachPages.client(try api.clientPage(caller, client: client), csrf: csrf))
                case (.post, "clients/_/notes") where path[0] == "clients":
                    _ = try api.authorize(caller, account: client, write: false)  // the grant, as for reading the page
                    _ = try api.recordOwn(caller, device: Self.device) { try $0.addCoachNote(about: client, text: form["text"] ?? "") }
                    return Self.redirect("/coach/clients/\(client)#notes")
                case (.post, "clients/_/assignments") where path[0] == "clients":
                    _ = try api.authorize(caller, account: client, write: false)
                    let what = form["what"] ?? ""
                    let parts = what.split(separator: ":", maxSplits: 1).map(String.init)
                    guard parts.count == 2, ["program", "template"].contains(parts[0]) else {
                        throw Refusal.invalidName("choose a program or a template to offer")
                    }
                    _ = try api.recordOwn(caller, device: Self.device) { session in
                        parts[0] == "program" ? try session.offerProgram(parts[1], to: client) : try session.offerTemplate(parts[1], to: client)
                    }
                    return Self.redirect("/coach/clients/\(client)#assign")
                default:
                    return html(CoachPages.message("Not found", "There is no such page.", csrf: csrf), status: 404)
                }
            } catch {
                let e = APIError.from(error)
                let title = e.status == 403 ? "Not yours to see" : e.status >= 500 ? "Try again" : "Not recorded"
                return html(CoachPages.message(title, e.message, csrf: csrf), status: e.status)
            }
        }
    }

    /// The `device` of what a coach records from the dashboard.
    static let device = "coach dashboard"

    func signInPage(error: String? = nil, status: Int = 200) -> Response {
        // A fresh sign-in token in a cookie and in the form: a post without both (another site's form) is refused.
        let token = CoachWebSessions.random()
        var response = html(CoachPages.signIn(csrf: token, error: error), status: status)
        response.headers.append(.init(name: .setCookie, value: cookie(Self.signInCookie, token, path: "/coach/sign-in", maxAge: 3600)))
        return response
    }

    func signIn(_ form: [String: String], cookies: [String: String]) async throws -> Response {
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
                return signInPage(error: "This account has no active Coach product.", status: 403)
            }
            let (id, _) = sessions.open(tokenHash: AccountDirectory.hash(token))
            var response = Self.redirect("/coach")
            response.headers.append(.init(name: .setCookie, value: cookie(Self.sessionCookie, id, maxAge: 12 * 3600)))
            response.headers.append(.init(name: .setCookie, value: cookie(Self.signInCookie, "", path: "/coach/sign-in", maxAge: 0)))
            return response
        }
    }

    func cookie(_ name: String, _ value: String, path: String = "/coach", maxAge: Int) -> String {
        "\(name)=\(value); Path=\(path); Max-Age=\(maxAge); HttpOnly; SameSite=Strict\(secureCookies ? "; Secure" : "")"
    }

    func html(_ text: String, status: Int = 200) -> Response {
        Response(
            status: HTTPResponse.Status(code: status),
            headers: [.contentType: "text/html; charset=utf-8", .contentSecurityPolicy: Self.contentSecurityPolicy],
            body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    func methodNotAllowed() -> Response { html(CoachPages.message("Not allowed", "This page takes no such request.", csrf: nil), status: 405) }

    static func redirect(_ location: String) -> Response {
        Response(status: .seeOther, headers: [.location: location, .contentType: "text/plain; charset=utf-8"])
    }

    static func cookies(_ request: Request) -> [String: String] {
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
    static func form(_ request: Request) async throws -> [String: String] {
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
