import Foundation
import LedgerTestSupport
import PropertyBased
import Testing

@testable import RepLedgerCore
@testable import RepLedgerProjections
@testable import RepLedgerSQLite
@testable import RepLedgerSnapshots

@Suite("Snapshots", .serialized)
struct SnapshotTests {
    @Test("the fold's snapshot decodes to the same state, and the same state gives the same bytes")
    func codecRoundTrip() throws {
        let t = try TempLedger.demo()
        let log = try TrainingLogProjection.build(from: t.store)
        let bytes = log.snapshotBytes
        #expect(try TrainingLogProjection(snapshot: bytes) == log)
        #expect(try TrainingLogProjection.build(from: t.store).snapshotBytes == bytes)
        #expect(throws: CodecError.self) { try TrainingLogProjection(snapshot: Array(bytes.dropLast(3))) }
    }

    @Test("a snapshot at P plus the fold of P…Q equals the full fold to Q")
    func snapshotPlusTail() async throws {
        let t = try TempLedger.demo()
        let head = try t.store.headPosition()
        await propertyCheck(count: 25, input: Gen.int(in: 0...Int(head)), Gen.int(in: 0...Int(head))) { a, b in
            do {
                let (p, q) = (Int64(min(a, b)), Int64(max(a, b)))
                try t.store.database.execute("DELETE FROM snapshots")
                let info = try TrainingLogSnapshots.create(t.store, at: p)
                #expect(info.position == p)
                let (fromSnapshot, report) = try TrainingLogSnapshots.load(t.store, through: q)
                #expect(report.snapshot?.id == info.id)
                #expect(report.tailEvents == Int(q - p))
                let full = try TrainingLogProjection.build(from: t.store, through: q)
                #expect(fromSnapshot == full)
                #expect(PersonalRecordsProjection.compute(fromSnapshot) == PersonalRecordsProjection.compute(full))
            } catch {
                Issue.record("unexpected error: \(error)")
            }
        }
    }

    @Test(
        "damaged, version-bumped and other-rules snapshots are ignored, reported, and the answer is still right",
        arguments: [
            ("UPDATE snapshots SET state = CAST(replace(CAST(state AS TEXT), 'deadlift', 'deadlifx') AS BLOB)", "checksum mismatch"),
            ("UPDATE snapshots SET position = position - 1", "checksum mismatch"),
            ("UPDATE snapshots SET projection_version = projection_version + 1", "this build folds version"),
            ("UPDATE snapshots SET rules_id = 'brzycki', rules_version = 2", "asked for none v0"),
        ])
    func untrustedSnapshots(tamper: String, reason: String) throws {
        let t = try TempLedger.demo()
        let full = try TrainingLogProjection.build(from: t.store)
        try TrainingLogSnapshots.create(t.store)
        try t.store.database.execute(tamper)
        let (log, report) = try TrainingLogSnapshots.load(t.store)
        #expect(report.snapshot == nil)
        #expect(report.ignored.count == 1)
        #expect(report.ignored.first?.contains(reason) == true, "\(report.ignored)")
        #expect(log == full)
    }

    @Test("the newest usable snapshot at or before the asked position is the one used")
    func newestAtOrBefore() throws {
        let t = try TempLedger.demo()
        let early = try TrainingLogSnapshots.create(t.store, at: 200)
        let late = try TrainingLogSnapshots.create(t.store, at: 600)
        #expect(try TrainingLogSnapshots.load(t.store, through: 599).1.snapshot?.id == early.id)
        #expect(try TrainingLogSnapshots.load(t.store, through: 600).1.snapshot?.id == late.id)
        #expect(try TrainingLogSnapshots.load(t.store, through: 100).1.snapshot == nil)
        // A damaged newer one falls back to the older, reported.
        try t.store.database.execute("UPDATE snapshots SET checksum = zeroblob(32) WHERE id = \(late.id)")
        let (_, report) = try TrainingLogSnapshots.load(t.store, through: 700)
        #expect(report.snapshot?.id == early.id)
        #expect(report.tailEvents == 500)
        #expect(report.ignored.count == 1)
    }

    @Test("prune keeps the newest K per key; the policy snapshots once enough events came")
    func pruneAndPolicy() throws {
        let t = try TempLedger.demo()
        for p in [100, 200, 300, 400] { try TrainingLogSnapshots.create(t.store, at: Int64(p)) }
        #expect(try SnapshotStore(t.store).prune(keep: 2) == 2)
        #expect(try SnapshotStore(t.store).list().map(\.position) == [400, 300])
        let head = try t.store.headPosition()
        #expect(try TrainingLogSnapshots.createIfDue(t.store, every: head - 400 + 1) == nil)
        #expect(try TrainingLogSnapshots.createIfDue(t.store, every: head - 400)?.position == head)
    }
}
