import Foundation
import RepLedgerService
import Testing

/// The published limits' counting, on a clock of the test's own: each key's and account's window
/// begins with its first request and ends a minute later, when counting begins again.
@Suite struct RateLimiterTests {
    @Test func aWindowEndsAMinuteAfterItsFirstRequestAndCountingBeginsAgain() {
        var limits = RateLimits()
        (limits.requestsPerKey, limits.requestsPerAccount) = (2, 3)
        let rates = RateLimiter(limits: limits)
        let t0 = Date(timeIntervalSince1970: 1_800_000_000.25)
        #expect(rates.charge(.requests, key: "k1", account: "a", now: t0).allowed)
        let second = rates.charge(.requests, key: "k1", account: "a", now: t0.addingTimeInterval(10))
        #expect(second.allowed && second.standings.map(\.remaining) == [0, 1] && second.standings.map(\.resetSeconds) == [50, 50])
        let third = rates.charge(.requests, key: "k1", account: "a", now: t0.addingTimeInterval(20))
        #expect(!third.allowed && third.retryAfterSeconds == 40)
        // Another key of the account: its own window, the account's shared; refused, it counts nothing.
        #expect(rates.charge(.requests, key: "k2", account: "a", now: t0.addingTimeInterval(30)).allowed)
        let shared = rates.charge(.requests, key: "k2", account: "a", now: t0.addingTimeInterval(31))
        #expect(!shared.allowed && shared.standings.map(\.remaining) == [1, 0])
        // A minute after the first request, the first key and the account count from nothing.
        let next = rates.charge(.requests, key: "k1", account: "a", now: t0.addingTimeInterval(60))
        #expect(next.allowed && next.standings.map(\.remaining) == [1, 2] && next.standings.map(\.resetSeconds) == [60, 60])
        // Appends are counted apart, and a limit of 0 is none.
        #expect(rates.charge(.appends, key: "k1", account: "a", now: t0).standings.map(\.policy) == ["appends-key", "appends-account"])
        #expect(RateLimiter(limits: .off).charge(.requests, key: "k", account: "a").standings.isEmpty)
    }
}
