import Hummingbird
import RepLedgerService

/// Who the request's bearer token speaks for (401 without a valid one), left
/// in the context for the handler. The token is read off the event loop and
/// compared by its hash; it is never logged. Erasure asks with `erasing`.
struct Authentication: RouterMiddleware {
    typealias Context = LedgerRequestContext
    let routes: LedgerRoutes
    var erasing = false

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let authorization = request.headers[.authorization], api = routes.api, erasing = self.erasing
        var context = context
        let caller = try await routes.blocking { try api.authenticate(authorization, erasing: erasing) }
        context.caller = caller
        // The request's blocking work from here on runs within the caller's share of the workers.
        return try await WorkerShares.$account.withValue(caller.account.accountId) { try await next(request, context) }
    }
}
