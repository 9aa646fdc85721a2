import HTTPTypes
import Hummingbird
import RepLedgerService

/// The published limits on every authenticated route: each request counts against its key's and its
/// account's requests a minute, and a push (`POST …/events`) or a command (`POST …/commands`) against their appends too. Past one,
/// 429 `tooManyRequests` with `Retry-After`; every answer carries `RateLimit-Policy` and `RateLimit`
/// (IETF draft-ietf-httpapi-ratelimit-headers), so a client paces itself before it is refused.
struct RequestRate: RouterMiddleware {
    typealias Context = LedgerRequestContext
    let routes: LedgerRoutes

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let caller = try context.authenticated()
        var standings = try RateHeaders.charge(routes.rates, .requests, key: caller.tokenId, account: caller.account.accountId)
        if request.method == .post, request.uri.path.hasSuffix("/events") || request.uri.path.hasSuffix("/commands") {
            standings += try RateHeaders.charge(routes.rates, .appends, key: caller.tokenId, account: caller.account.accountId, before: standings)
        }
        var response = try await next(request, context)
        RateHeaders.add(standings, of: routes.rates, to: &response.headers)
        return response
    }
}

/// `RateLimit-Policy: "requests-key";q=600;w=60, …` and `RateLimit: "requests-key";r=599;t=42, …`.
enum RateHeaders {
    static let policy = HTTPField.Name("RateLimit-Policy")!
    static let rateLimit = HTTPField.Name("RateLimit")!

    /// Counts one; refused, throws the 429 with both headers (`before`: what this request counted already).
    static func charge(
        _ rates: RateLimiter, _ kind: RateLimiter.Kind, key: String, account: String, before: [RateLimiter.Standing] = []
    ) throws -> [RateLimiter.Standing] {
        let charge = rates.charge(kind, key: key, account: account)
        guard charge.allowed else {
            let exhausted = charge.standings.first { $0.remaining == 0 }
            let who = exhausted?.policy.hasSuffix("account") == true ? "this account (its keys together)" : "this key"
            let wait = charge.retryAfterSeconds ?? rates.limits.windowSeconds
            throw APIError(
                status: 429, code: "tooManyRequests",
                message: "\(who) made \(exhausted?.quota ?? 0) \(kind.rawValue) \(span(rates)), its limit; retry in \(wait) s",
                retryAfterSeconds: wait,
                headers: [policy.rawName: policyValue(rates), rateLimit.rawName: value(before + charge.standings)])
        }
        return charge.standings
    }

    static func add(_ standings: [RateLimiter.Standing], of rates: RateLimiter, to headers: inout HTTPFields) {
        guard !rates.policies.isEmpty else { return }
        headers[policy] = policyValue(rates)
        let mine = value(standings)
        guard !mine.isEmpty else { return }
        headers[rateLimit] = headers[rateLimit].map { $0 + ", " + mine } ?? mine
    }

    /// "this minute", or the window a test set.
    static func span(_ rates: RateLimiter) -> String {
        rates.limits.windowSeconds == 60 ? "this minute" : "in \(rates.limits.windowSeconds) s"
    }

    static func policyValue(_ rates: RateLimiter) -> String {
        rates.policies.map { "\"\($0.name)\";q=\($0.quota);w=\(rates.limits.windowSeconds)" }.joined(separator: ", ")
    }

    static func value(_ standings: [RateLimiter.Standing]) -> String {
        standings.map { "\"\($0.policy)\";r=\($0.remaining);t=\($0.resetSeconds)" }.joined(separator: ", ")
    }
}
