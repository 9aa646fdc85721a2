import Crypto
import Foundation
import LedgerTestSupport
import Testing

@testable import RepLedgerCore

/// Tampering is done with raw SQL after dropping the immutability triggers,
/// as someone with write access to the file could.
@Suite("Hash chain")
struct HashChainTests {
    /// A log of ten workout events at positions 1…10.
    func tenEvents() throws -> TempLedger {
        let t = try TempLedger(seeded: false)
        for _ in 0..<5 {
            let w = UUID()
            try t.store.append([proposed(started(w)), proposed(finished(w))])
        }
        return t
    }

    @Test("a clean log verifies")
    func cleanLogVerifies() throws {
        let t = try tenEvents()
        let report = try t.store.verify()
        #expect(report.ok)
        #expect(report.events == 10)
        #expect(report.firstBadPosition == nil)
        let head = try t.store.event(at: 10)!
        #expect(report.headHash == head.hash.hex)
    }

    @Test("a modified payload is caught at its position")
    func modifiedPayload() throws {
        let t = try tenEvents()
        // Rename workout at position 5 by rewriting its payload bytes (same length, other name).
        let original = try t.store.event(at: 5)!
        guard case .workoutStarted(var e) = original.event else { Issue.record("position 5 is not a start"); return }
        e.name = "Upper B"
        let bytes = LedgerEvent.workoutStarted(e).encodedPayload
        let db = try t.raw()
        let s = try db.statement("UPDATE events SET payload = ? WHERE position = 5")
        try s.bind(1, bytes)
        try s.run()
        let report = try t.store.verify()
        #expect(report.firstBadPosition == 5)
        #expect(report.events == 4)
    }

    @Test("a changed envelope field (device) is caught")
    func modifiedDevice() throws {
        let t = try tenEvents()
        try t.raw().execute("UPDATE events SET device = 'web' WHERE position = 8")
        #expect(try t.store.verify().firstBadPosition == 8)
    }

    @Test("a deleted event is caught at the gap")
    func deletedEvent() throws {
        let t = try tenEvents()
        try t.raw().execute("DELETE FROM events WHERE position = 4")
        let report = try t.store.verify()
        #expect(report.firstBadPosition == 4)
        #expect(report.reason?.contains("missing") == true)
    }

    @Test("a deleted event with the rest renumbered is caught by the chain")
    func deletedAndRenumbered() throws {
        let t = try tenEvents()
        let db = try t.raw()
        try db.execute("DELETE FROM events WHERE position = 4; UPDATE events SET position = position - 1 WHERE position > 4;")
        #expect(try t.store.verify().firstBadPosition == 4)
    }

    @Test("two swapped events are caught at the first of them")
    func swappedEvents() throws {
        let t = try tenEvents()
        // Swap positions 3 and 6 wholesale (hashes travel with their rows).
        try t.raw().execute(
            """
            UPDATE events SET position = -3 WHERE position = 3;
            UPDATE events SET position = 3 WHERE position = 6;
            UPDATE events SET position = 6 WHERE position = -3;
            """)
        #expect(try t.store.verify().firstBadPosition == 3)
    }

    @Test("a rewritten hash cannot hide an edit: the next event no longer chains")
    func recomputedHashIsStillCaught() throws {
        let t = try tenEvents()
        let db = try t.raw()
        try db.execute("UPDATE events SET device = 'forged' WHERE position = 2")
        // Forge position 2's hash consistently; position 3 was chained on the old one.
        let row = try t.store.event(at: 1)!
        let forged = try t.store.event(at: 2)!
        var content = CanonicalBytes.content(
            eventId: forged.eventId, stream: forged.stream, type: forged.type,
            occurredAt: forged.occurredAt, device: "forged", causationId: forged.causationId,
            correlationId: forged.correlationId, payload: forged.event.encodedPayload)
        content = CanonicalBytes.chained(
            previousHash: row.hash, position: 2, version: forged.version,
            recordedAt: forged.recordedAt, content: content)
        let s = try db.statement("UPDATE events SET hash = ? WHERE position = 2")
        try s.bind(1, sha256(content))
        try s.run()
        #expect(try t.store.verify().firstBadPosition == 3)
    }
}

func sha256(_ bytes: [UInt8]) -> [UInt8] { Array(SHA256.hash(data: bytes)) }
