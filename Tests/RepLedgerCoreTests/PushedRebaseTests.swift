import Foundation
import LedgerTestSupport
import RepLedgerProjections
import RepLedgerSnapshots
import Testing

@testable import RepLedgerCore
@testable import RepLedgerSQLite

/// A device confirms what it pushed from the push answers (the time and
/// device the server stamped, the head it reached) instead of pulling its own
/// events back: the result must be the server's log byte for byte, or nothing.
@Suite("Confirming a push without pulling it back")
struct PushedRebaseTests {
    /// The device's whole log, as `ledger log` prints it.
    static func lines(_ store: SQLiteEventStore) throws -> [String] {
        var out: [String] = []
        try store.read { out.append($0.canonicalJSON) }
        return out
    }

    /// A server's log holding the device's events from `range`, appended in
    /// batches of `size` as `POST …/events` appends them (the token's device,
    /// one time per batch), and the batches as the push answers describe them.
    static func serve(_ device: TempLedger, _ range: Range<Int>, size: Int) throws -> (server: TempLedger, batches: [PushedBatch]) {
        let server = try TempLedger(seeded: false)
        var pending: [EventEnvelope] = []
        try device.store.read { pending.append($0) }
        var batches: [PushedBatch] = []
        var time = Timestamp.at("2026-11-25T18:00:00Z")
        for start in stride(from: range.lowerBound, to: range.upperBound, by: size) {
            let events = pending[start..<min(start + size, range.upperBound)].map { e -> ProposedEvent in
                var p = ProposedEvent(e)
                p.device = "phone"
                return p
            }
            let result = try server.store.append(events, expecting: [:], now: time)
            #expect(result.appended.count == events.count && result.recordedAt == time)
            let head = try server.store.head()
            batches.append(PushedBatch(events: events, recordedAt: time, headPosition: head.position, headHash: head.hash.hex))
            time = time.adding(milliseconds: 37)
        }
        return (server, batches)
    }

    @Test("the pushed events restamped in place are the server's log, line for line, and verify")
    func restampedIsTheServersLog() throws {
        let device = try TempLedger.demo()
        let all = Int(try device.count())
        let (server, batches) = try Self.serve(device, 0..<all, size: 500)
        #expect(batches.count > 2)

        let confirmed = try device.store.rebase(confirmed: 0, pushed: batches, pulled: [], rejected: [])
        #expect(confirmed == Int64(all))
        #expect(try Self.lines(device.store) == Self.lines(server.store))
        #expect(try device.store.verify().ok)
    }

    @Test("an answer whose head the device's own chain does not reach applies nothing")
    func aDifferentHeadAppliesNothing() throws {
        let device = try TempLedger.demo()
        let all = Int(try device.count())
        var (_, batches) = try Self.serve(device, 0..<all, size: 500)
        let before = try Self.lines(device.store)

        batches[1].headHash = String(repeating: "0", count: 64)
        #expect(throws: PushedCopyDiffers.self) { try device.store.rebase(confirmed: 0, pushed: batches, pulled: [], rejected: []) }
        #expect(try Self.lines(device.store) == before, "the transaction is undone")

        // Another device's event between two batches: the device's events are not where the answer says.
        var (_, shifted) = try Self.serve(device, 0..<all, size: 500)
        shifted[1].headPosition += 1
        #expect(throws: PushedCopyDiffers.self) { try device.store.rebase(confirmed: 0, pushed: shifted, pulled: [], rejected: []) }
        #expect(try Self.lines(device.store) == before)
        #expect(try device.store.verify().ok)
    }

    @Test("events recorded during the sync, after the pushed ones, stay pending and chain after the server's")
    func eventsRecordedMeanwhileStayPending() throws {
        let device = try TempLedger.demo()
        let all = Int(try device.count())
        let pushed = all - 40
        let (server, batches) = try Self.serve(device, 0..<pushed, size: 500)
        var tail: [String] = []
        var index = 0
        try device.store.read {
            if index >= pushed { tail.append($0.eventId.uuidString) }
            index += 1
        }

        let confirmed = try device.store.rebase(confirmed: 0, pushed: batches, pulled: [], rejected: [])
        #expect(confirmed == Int64(pushed))
        let lines = try Self.lines(device.store)
        #expect(lines.count == all)
        #expect(Array(lines.prefix(pushed)) == (try Self.lines(server.store)))
        var after: [String] = []
        try device.store.read(EventQuery(from: Int64(pushed) + 1)) { after.append($0.eventId.uuidString) }
        #expect(after == tail, "the same events, in the same order, still pending")
        #expect(try device.store.verify().ok)
    }

    @Test("a snapshot on a pushed event is linked to its new hash and answers as the fold from the start does")
    func snapshotsOnPushedEventsStay() throws {
        let device = try TempLedger.demo()
        let all = Int(try device.count())
        let inside = try TrainingLogSnapshots.create(device.store, at: Int64(all - 700))
        _ = try TrainingLogSnapshots.create(device.store)
        let (_, batches) = try Self.serve(device, 0..<(all - 300), size: 500)

        _ = try device.store.rebase(confirmed: 0, pushed: batches, pulled: [], rejected: [])
        #expect(try SnapshotStore(device.store).list().map(\.position) == [inside.position], "the one past the push is dropped")
        let (loaded, report) = try TrainingLogSnapshots.load(device.store)
        #expect(report.snapshot?.position == inside.position, "used, its link to the restamped event checked: \(report.ignored)")
        var scratch = TrainingLogProjection()
        try device.store.replay(from: 1, through: .max) { scratch.apply($0) }
        #expect(loaded.snapshotBytes == scratch.snapshotBytes)
    }
}
