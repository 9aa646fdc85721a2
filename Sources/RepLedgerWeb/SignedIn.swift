import Hummingbird
import NIOCore
import RepLedgerService

/// What the dashboard's routes need of a request's context: where `SignedIn`
/// leaves the session and the posted form.
package protocol CoachWebContext: RequestContext {
    var coachWeb: CoachWebRequest { get set }
}

/// The dashboard's part of a request: its session and, on a post, its form.
package struct CoachWebRequest: Sendable {
    package var sessionId = ""
    package var session: CoachWebSessions.Session?
    package var form: [String: String] = [:]
    package init() {}
}

/// The dashboard's pages need a session: a browser without one goes to the
/// sign-in page; a post must carry the session's CSRF token (another site's
/// form cannot), or it is refused with a page and nothing is recorded; a page
/// takes no method but GET and POST.
struct SignedIn<Context: CoachWebContext>: RouterMiddleware {
    let web: CoachWeb

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let id = CoachWeb.cookies(request)[CoachWeb.sessionCookie], let session = web.sessions.session(id) else {
            return CoachWeb.redirect("/coach/sign-in")
        }
        var context = context
        context.coachWeb.sessionId = id
        context.coachWeb.session = session
        if request.method == .post {
            let form = try await CoachWeb.form(request)
            guard let csrf = form["csrf"], CoachWebSessions.same(csrf, session.csrf) else {
                return web.html(
                    CoachPages.message("Form expired", "This form has expired: go back, reload the page and send it again.", csrf: session.csrf),
                    status: 403)
            }
            context.coachWeb.form = form
        } else if request.method != .get {
            return web.methodNotAllowed()
        }
        // The coach's blocking work within the coach's share of the workers.
        return try await WorkerShares.$account.withValue(session.account) { try await next(request, context) }
    }
}
