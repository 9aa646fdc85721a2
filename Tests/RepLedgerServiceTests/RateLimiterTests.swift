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

    @Test func refusedChargesKeepNothingAndTheKeysStayBounded() {
        let rates = RateLimiter(limits: .off, maximumKeys: 100)
        let t0 = Date(timeIntervalSince1970: 1_800_000_000)
        // A source past its limit asks for a thousand new addresses: refused, and no key is kept for them.
        for _ in 0..<3 { _ = rates.charge([("address", "a:src", 3)], windowSeconds: 600, now: t0) }
        for i in 0..<1000 {
            #expect(!rates.charge([("address", "a:src", 3), ("email", "e:\(i)", 5)], windowSeconds: 600, now: t0).allowed)
        }
        #expect(rates.keyCount == 1)
        // Allowed ones past the bound: ended windows go first, then the oldest half; never more than the bound.
        for i in 0..<1000 { _ = rates.charge([("email", "e:\(i)", 5)], windowSeconds: 600, now: t0.addingTimeInterval(Double(i))) }
        #expect(rates.keyCount <= 100)
        #expect(rates.standing("e:999", now: t0.addingTimeInterval(999)).count == 1)
        // Windows of different lengths end each at its own time.
        _ = rates.charge([("day", "d:x", 5)], windowSeconds: 86_400, now: t0)
        let day = rates.standing("d:x", now: t0.addingTimeInterval(3600))
        #expect(day.count == 1 && day.resetSeconds == 82_800)
    }
}
