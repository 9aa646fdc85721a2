import Hummingbird
import RepLedgerService

/// At most `ConnectionLimits.maximumRequestsPerAccount` requests of one
/// account in progress (429 past it, retry in a second), so one account
/// cannot hold every worker. Behind `Authentication`: the account is the caller's.
struct AccountRequestLimit: RouterMiddleware {
    typealias Context = LedgerRequestContext
    let routes: LedgerRoutes

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let key = try context.authenticated().account.accountId, limit = routes.limits.maximumRequestsPerAccount
        guard routes.accountRequests.admit(key, limit: limit) else {
            throw APIError(
                status: 429, code: "tooManyRequests", message: "this account has \(limit) requests in progress; retry in a moment",
                retryAfterSeconds: 1)
        }
        defer { routes.accountRequests.release(key) }
        return try await next(request, context)
    }
}
