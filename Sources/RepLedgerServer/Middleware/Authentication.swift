import HTTPTypes
import Hummingbird
import RepLedgerAccounts
import RepLedgerService
import RepLedgerWeb

/// Who the request's bearer token speaks for (401 without a valid one), left
/// in the context for the handler; without a bearer token, the lifter's app's
/// session cookie, which stands for the browser's own token (a write must
/// carry the session's CSRF token too). The token is read off the event loop
/// and compared by its hash; it is never logged. Erasure asks with `erasing`.
struct Authentication: RouterMiddleware {
    typealias Context = LedgerRequestContext
    let routes: LedgerRoutes
    var erasing = false

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let authorization = request.headers[.authorization], api = routes.api, erasing = self.erasing
        var context = context
        let caller: AccountDirectory.Caller
        if authorization == nil, let (id, session) = try appSession(request) {
            context.appSessionId = id
            // The lifter's app: its session cookie stands for the browser's token; a write carries the session's CSRF token.
            caller = try await routes.blocking {
                guard let caller = try api.accounts.caller(tokenHash: session.tokenHash), !api.accounts.keys.isErased(caller.account.accountId)
                else { throw APIError.unauthorized }
                return caller
            }
        } else {
            caller = try await routes.blocking { try api.authenticate(authorization, erasing: erasing) }
        }
        context.caller = caller
        // The request's blocking work from here on runs within the caller's share of the workers.
        return try await WorkerShares.$account.withValue(caller.account.accountId) { try await next(request, context) }
    }

    /// The app's session named by the request's cookie, if any; a request that changes anything must carry the
    /// session's CSRF token in `X-CSRF-Token` (another site can neither read it nor send the header).
    func appSession(_ request: Request) throws -> (id: String, session: CoachWebSessions.Session)? {
        guard let id = CoachWeb.cookies(request)[LifterApp.sessionCookie], let session = routes.lifterApp.sessions.session(id) else { return nil }
        if request.method != .get && request.method != .head {
            guard let sent = request.headers[HTTPField.Name(LifterApp.csrfHeader)!], CoachWebSessions.same(sent, session.csrf) else {
                throw APIError.forbidden("this request has no valid X-CSRF-Token for the app's session: reload the app")
            }
        }
        return (id, session)
    }
}
