import Foundation
import LedgerTestSupport
import RepLedgerQueries
import Testing

@testable import RepLedgerCore

/// A kept fold advances only over the log it was folded from.
struct WarmFoldContinuityTests {
    @Test func aLogThatLostItsTailAndGrewAgainIsFoldedAfresh() throws {
        let first = try MemoryLedger(seeded: false), other = try MemoryLedger(seeded: false)
        try first.store.append([proposed(started(UUID(), name: "Kept then lost"))])
        // Another history, longer than what the fold holds: what a promoted standby that missed the
        // last unacknowledged commit holds once new pushes land on it.
        try other.store.append([proposed(started(UUID(), name: "On the standby"))])
        try other.store.append([proposed(started(UUID(), name: "Pushed after the failover"))])

        let fold = WarmFold()
        _ = try fold.current(first.store)
        let advanced = try fold.current(other.store)
        #expect(advanced == (try WarmFold().current(other.store)), "the same fold as a cold load of that log")
        #expect(advanced.position == 2)
    }

    @Test func theSameLogGrowingIsFoldedOnlyForItsNewEvents() throws {
        let ledger = try MemoryLedger(seeded: false)
        try ledger.store.append([proposed(started(UUID()))])
        final class Seen: @unchecked Sendable {
            let lock = NSLock()
            var upkeep: [WarmFold.Upkeep] = []
        }
        let seen = Seen()
        let fold = WarmFold(observe: { u in seen.lock.withLock { seen.upkeep.append(u) } })
        _ = try fold.current(ledger.store)
        try ledger.store.append([proposed(started(UUID())), proposed(started(UUID()))])
        #expect(try fold.current(ledger.store) == (try WarmFold().current(ledger.store)))
        let last = seen.lock.withLock { seen.upkeep.last }
        #expect(last?.caughtUpEvents == 2 && last?.loads == 0, "caught up by the two new events, not loaded again")
    }
}
