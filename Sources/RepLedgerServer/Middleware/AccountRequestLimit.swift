import Hummingbird
import RepLedgerService
import RepLedgerWeb

/// At most `ConnectionLimits.maximumRequestsPerAccount` requests of one
/// account in progress (429 past it, retry in a second), so one account
/// cannot hold every worker. Behind `Authentication`: the account is the caller's.
struct AccountRequestLimit: RouterMiddleware {
    typealias Context = LedgerRequestContext
    let routes: LedgerRoutes

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        try await Self.within(try context.authenticated().account.accountId, routes.accountRequests, limit: routes.limits.maximumRequestsPerAccount) {
            try await next(request, context)
        }
    }

    /// Runs `work` as one of the account's requests in progress (429 past the limit, without running it).
    static func within<T>(_ account: String, _ inProgress: CountsByKey, limit: Int, _ work: () async throws -> T) async throws -> T {
        guard inProgress.admit(account, limit: limit) else {
            throw APIError(
                status: 429, code: "tooManyRequests", message: "this account has \(limit) requests in progress; retry in a moment",
                retryAfterSeconds: 1)
        }
        defer { inProgress.release(account) }
        return try await work()
    }
}

/// The API's per-account bounds held on a page too (the inspector's, the dashboard's and the account page's, under
/// `ledger serve`): the
/// reader's key and account count their requests a minute, the account's requests in progress are
/// capped as the API's are (one count for both), and the page's blocking work runs in the account's
/// share of the workers.
struct PageBounds: Sendable {
    let rates: RateLimiter
    let inProgress: CountsByKey
    let maximumRequestsPerAccount: Int

    func run(_ reader: PageReader, _ work: () async throws -> Response) async throws -> Response {
        let standings = try RateHeaders.charge(rates, .requests, key: reader.key, account: reader.account)
        var response = try await AccountRequestLimit.within(reader.account, inProgress, limit: maximumRequestsPerAccount) {
            try await WorkerShares.$account.withValue(reader.account) { try await work() }
        }
        RateHeaders.add(standings, of: rates, to: &response.headers)
        return response
    }
}
