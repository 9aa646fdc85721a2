import Foundation
import LedgerTestSupport
import Testing

@testable import RepLedgerCore
@testable import RepLedgerSQLite

/// Every read checks the chain over what was appended since the last one
/// (`checkChain`), from the mark the file keeps.
@Suite("The chain checked on every read")
struct ChainCheckTests {
    @Test("a read keeps the head it verified in the file; the next one walks only what was appended since")
    func theMarkIsKept() throws {
        let t = try TempLedger.demo()
        #expect(try t.store.verifiedMark() == .genesis)
        try t.store.checkChain()
        let head = try t.store.head()
        #expect(try t.store.verifiedMark() == ChainMark(position: head.position, hash: head.hash))
        // Another connection (the next process) reads the same mark.
        let again = try SQLiteEventStore(path: t.path, access: .existing)
        #expect(try again.verifiedMark().position == head.position)
        try t.store.append([proposed(started(UUID()))])
        try again.checkChain()
        #expect(try t.store.verifiedMark().position == head.position + 1)
    }

    @Test("an event changed after the last read is caught at its position, on a writable file and a read-only one")
    func aChangedEventIsCaught() throws {
        let t = try TempLedger.demo()
        try t.store.checkChain()
        let kept = try t.store.verifiedMark()
        try t.store.append([proposed(started(UUID())), proposed(started(UUID()))])
        let changed = kept.position + 1
        try t.raw().execute("UPDATE events SET device = 'elsewhere' WHERE position = \(changed)")
        for store in [t.store, try SQLiteEventStore(path: t.path, access: .readOnly)] {
            #expect(throws: ChainDamage.self) { try store.checkChain() }
            do { try store.checkChain() } catch let damage as ChainDamage { #expect(damage.position == changed) }
        }
        #expect(try t.store.verifiedMark() == kept, "a damaged chain moves no mark")
    }

    @Test("an event edited through SQLite below the mark is caught: dropping the triggers that refuse edits moves the schema cookie")
    func anEditBelowTheMarkIsCaught() throws {
        let t = try TempLedger.demo()
        try t.store.checkChain()
        try t.raw().execute("UPDATE events SET device = 'elsewhere' WHERE position = 10")
        do {
            try t.store.checkChain()
            Issue.record("an edit below the mark passed")
        } catch let damage as ChainDamage {
            #expect(damage.position == 10)
        }
    }

    @Test("a tail cut off, or a log rewritten under the mark with every hash recomputed, is damage a chain alone cannot show")
    func cutAndRewrittenLogsAreCaught() throws {
        let t = try TempLedger.demo()
        try t.store.checkChain()
        let head = try t.store.headPosition()
        try t.raw().execute("DELETE FROM events WHERE position > \(head - 3)")
        do {
            try t.store.checkChain()
            Issue.record("a cut tail passed")
        } catch let damage as ChainDamage {
            #expect(damage.position == head - 2 && damage.reason.contains("removed from its end"))
        }

        // Rewritten: the last event dropped and another appended in its place, its hash chained properly.
        let u = try TempLedger.demo()
        try u.store.checkChain()
        let top = try u.store.headPosition()
        try u.raw().execute("DELETE FROM events WHERE position = \(top)")
        try u.store.append([proposed(started(UUID()))])
        #expect(try u.store.verify().ok, "the rewritten chain holds on its own")
        do {
            try u.store.checkChain()
            Issue.record("a rewritten log passed")
        } catch let damage as ChainDamage {
            #expect(damage.position == top && damage.reason.contains("rewritten"))
        }
        // Where a failover may replace a tail (the server), a chain that holds is sound.
        #expect(try u.store.verifiedHead(since: try u.store.verifiedMark(), headMayMoveBack: true).position == top)
    }
}
