import HTTPTypes
import Hummingbird
import NIOCore
import RepLedgerAccounts
import RepLedgerService

/// What the dashboard's routes need of a request's context: where `SignedIn`
/// leaves the session and the posted form.
package protocol CoachWebContext: RequestContext {
    var coachWeb: CoachWebRequest { get set }
    /// The caller's address, as sign-in attempts are counted.
    var callerAddress: String { get }
    /// The address this connection reached the server at, from its socket (never from a header): what a
    /// server listening on loopback only calls itself.
    var serverAddress: String? { get }
}

/// The dashboard's part of a request: its session and, on a post, its form.
package struct CoachWebRequest: Sendable {
    package var sessionId = ""
    package var session: CoachWebSessions.Session?
    package var form: [String: String] = [:]
    package init() {}
}

/// The signed-in pages (the coach dashboard's, the account page's) need a
/// session: a browser without one goes to the sign-in page; a post must carry
/// the session's CSRF token (another site's form cannot), or it is refused
/// with a page and nothing is recorded; a page takes no method but GET and POST.
struct SignedIn<Context: CoachWebContext>: RouterMiddleware {
    let sessions: CoachWebSessions
    let cookie: String
    let signInPath: String
    /// The page for a post whose form has expired (its CSRF token is not the session's).
    let expired: @Sendable (_ csrf: String) -> Response
    let methodNotAllowed: @Sendable () -> Response
    /// The per-account bounds (requests a minute, requests in progress) and the page for a request past them.
    let bound: PageBound?
    let refused: @Sendable (APIError) -> Response

    init(web: CoachWeb) {
        sessions = web.sessions
        cookie = CoachWeb.sessionCookie
        signInPath = "/coach/sign-in"
        expired = { csrf in
            web.html(
                CoachPages.message("Form expired", "This form has expired: go back, reload the page and send it again.", csrf: csrf), status: 403)
        }
        methodNotAllowed = { web.methodNotAllowed() }
        bound = web.bound
        refused = { e in Self.refusal(web.html(CoachPages.message("Too many requests", e.message, csrf: nil), status: e.status), e) }
    }

    init(account web: AccountWeb) {
        sessions = web.sessions
        cookie = AccountWeb.sessionCookie
        signInPath = AccountWeb.root + "/sign-in"
        expired = { csrf in
            web.coach.html(
                AccountPages.message("Form expired", "This form has expired: go back, reload the page and send it again.", csrf: csrf), status: 403)
        }
        methodNotAllowed = { web.coach.html(AccountPages.message("Not allowed", "This page takes no such request.", csrf: nil), status: 405) }
        bound = web.coach.bound
        refused = { e in Self.refusal(web.coach.html(AccountPages.message("Too many requests", e.message, csrf: nil), status: e.status), e) }
    }

    /// A refusal's page with its `Retry-After` and rate headers.
    static func refusal(_ page: Response, _ e: APIError) -> Response {
        var page = page
        if let wait = e.retryAfterSeconds { page.headers[.retryAfter] = String(wait) }
        for (name, value) in e.headers { if let field = HTTPField.Name(name) { page.headers[field] = value } }
        return page
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let id = CoachWeb.cookies(request)[cookie], let session = sessions.session(id) else {
            return CoachWeb.redirect(signInPath)
        }
        var context = context
        context.coachWeb.sessionId = id
        context.coachWeb.session = session
        if request.method == .post {
            let form = try await CoachWeb.form(request)
            guard let csrf = form["csrf"], CoachWebSessions.same(csrf, session.csrf) else { return expired(session.csrf) }
            context.coachWeb.form = form
        } else if request.method != .get {
            return methodNotAllowed()
        }
        // Under the account's bounds where the server sets them (they run the work in its share of the workers), else
        // within its share alone.
        guard let bound else { return try await WorkerShares.$account.withValue(session.account) { try await next(request, context) } }
        do {
            return try await bound(PageReader(account: session.account, key: StoredToken.id(of: session.tokenHash))) {
                try await next(request, context)
            }
        } catch let e as APIError where e.status == 429 {
            return refused(e)
        }
    }
}
