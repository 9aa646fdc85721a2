import Foundation
import LedgerTestSupport
import Testing

@testable import RepLedgerCore
@testable import RepLedgerSQLite

@Suite("SQLiteEventStore")
struct SQLiteEventStoreTests {
    /// Far into a long log, the replay decodes on its reader thread: the failure
    /// must still reach the caller as that row's error, after every event before it,
    /// as it does in the part read on the caller's thread.
    @Test("an unreadable payload in a long log stops the replay at its position, after every event before it", arguments: [3000, 9000])
    func unreadableInALongLog(_ bad: Int64) throws {
        let t = try TempLedger(seeded: false)
        for _ in 0..<2 { try t.store.append((0..<5000).map { _ in proposed(started(UUID())) }) }
        let s = try t.raw().statement("UPDATE events SET payload = ? WHERE position = ?")
        try s.bind(1, [UInt8](repeating: 0xFF, count: 3))
        try s.bind(2, bad)
        try s.run()
        var seen: Int64 = 0
        do {
            try t.store.replay { seen = $0.position }
            Issue.record("the replay read past an unreadable payload")
        } catch StoreError.unreadableEvent(let position, _) {
            #expect(position == bad)
        }
        #expect(seen == bad - 1)
    }

    @Test("events read back exactly as appended, with gapless positions and stream versions")
    func roundTrip() throws {
        let t = try TempLedger(seeded: false)
        let w = UUID()
        let events = [proposed(started(w)), proposed(finished(w), at: "2026-11-02T08:31:15.250+01:00", device: "watch")]
        let result = try t.store.append(events, expecting: [.workout(w): .exactly(0)])
        #expect(result.appended == [1, 2])
        let read = try t.store.read(stream: .workout(w))
        #expect(read.map(\.position) == [1, 2])
        #expect(read.map(\.version) == [1, 2])
        #expect(read.map(\.eventId) == events.map(\.eventId))
        #expect(read.map(\.event) == events.map(\.event))
        #expect(read[1].occurredAt == .at("2026-11-02T08:31:15.250+01:00"))
        #expect(read[1].occurredAt.offsetMinutes == 60)
        #expect(read[1].device == "watch")
        #expect(read.allSatisfy { $0.hash.count == 32 })
    }

    @Test("a stale expected version is a typed conflict and appends nothing")
    func expectedVersionConflict() throws {
        let t = try TempLedger(seeded: false)
        let w = UUID()
        try t.store.append([proposed(started(w))], expecting: [.workout(w): .exactly(0)])
        #expect {
            try t.store.append([proposed(finished(w))], expecting: [.workout(w): .exactly(0)])
        } throws: { error in
            guard case StoreError.wrongExpectedVersion(let stream, let expected, let actual) = error else { return false }
            return stream == .workout(w) && expected == .exactly(0) && actual == 1
        }
        #expect(try t.count() == 1)
        // The right version goes through.
        try t.store.append([proposed(finished(w))], expecting: [.workout(w): .exactly(1)])
        #expect(try t.count() == 2)
    }

    @Test("re-appending the same event id with the same content is a no-op")
    func idempotentReappend() throws {
        let t = try TempLedger(seeded: false)
        let w = UUID()
        let batch = [proposed(started(w)), proposed(finished(w))]
        try t.store.append(batch)
        let again = try t.store.append(batch, expecting: [.workout(w): .exactly(0)])  // stale, yet all duplicates
        #expect(again.appended.isEmpty)
        #expect(again.alreadyStored == 2)
        #expect(try t.count() == 2)
        #expect(try t.store.verify().ok)
    }

    @Test("the same event id with different content is refused, and the batch with it")
    func conflictingId() throws {
        let t = try TempLedger(seeded: false)
        let w = UUID()
        let id = UUID()
        try t.store.append([proposed(started(w, name: "Upper A"), id: id)])
        let other = UUID()
        #expect {
            try t.store.append([proposed(started(other)), proposed(started(w, name: "Upper B"), id: id)])
        } throws: { error in
            guard case StoreError.eventIdConflict(let eventId, let position) = error else { return false }
            return eventId == id && position == 1
        }
        #expect(try t.count() == 1)
        #expect(try t.store.version(of: .workout(other)) == 0)
    }

    @Test("a command's events land together or not at all")
    func atomicMultiEventAppend() throws {
        let t = try TempLedger(seeded: false)
        let a = UUID(), b = UUID()
        try t.store.append([proposed(started(b))])
        // Three good events for stream a, then one whose expectation fails on stream b.
        let batch = [proposed(started(a)), proposed(finished(a)), proposed(started(UUID())), proposed(finished(b))]
        #expect(throws: StoreError.self) {
            try t.store.append(batch, expecting: [.workout(b): .exactly(5)])
        }
        #expect(try t.count() == 1)
        #expect(try t.store.version(of: .workout(a)) == 0)
        // The log continues gaplessly after the rolled-back attempt.
        let ok = try t.store.append([proposed(started(a))])
        #expect(ok.appended == [2])
        #expect(try t.store.verify().ok)
    }

    @Test("the database itself refuses UPDATE and DELETE on events")
    func immutableRows() throws {
        let t = try TempLedger(seeded: false)
        try t.store.append([proposed(started(UUID()))])
        let db = try SQLiteDatabase(path: t.path)
        #expect(throws: SQLiteError.self) { try db.execute("UPDATE events SET device = 'evil'") }
        #expect(throws: SQLiteError.self) { try db.execute("DELETE FROM events") }
        #expect(try t.count() == 1)
    }

    @Test("reads by position range and by stream stream in order")
    func rangeReads() throws {
        let t = try TempLedger(seeded: false)
        let a = UUID(), b = UUID()
        try t.store.append([proposed(started(a)), proposed(started(b)), proposed(finished(a)), proposed(finished(b))])
        var positions: [Int64] = []
        try t.store.read(EventQuery(from: 2, through: 3)) { positions.append($0.position) }
        #expect(positions == [2, 3])
        #expect(try t.store.read(stream: .workout(b)).map(\.position) == [2, 4])
        var types: [String] = []
        try t.store.read(EventQuery(types: ["WorkoutFinished"])) { types.append($0.type.name) }
        #expect(types == ["WorkoutFinished", "WorkoutFinished"])
    }

    @Test("recordedAt never goes backwards, so 'as of a time' is a prefix of the log")
    func recordedAtMonotonic() throws {
        let t = try TempLedger(seeded: false)
        try t.store.append([proposed(started(UUID()))], expecting: [:], now: .at("2026-11-02T10:00:00Z"))
        // A device clock behind the ledger's: recordedAt is held at the previous value.
        try t.store.append([proposed(started(UUID()))], expecting: [:], now: .at("2026-11-02T09:00:00Z"))
        try t.store.append([proposed(started(UUID()))], expecting: [:], now: .at("2026-11-02T11:00:00Z"))
        var recorded: [Int64] = []
        try t.store.read { recorded.append($0.recordedAt.millis) }
        #expect(recorded == recorded.sorted())
        #expect(try t.store.position(recordedAtOrBefore: .at("2026-11-02T10:30:00Z")) == 2)
        #expect(try t.store.position(recordedAtOrBefore: .at("2026-11-01T00:00:00Z")) == 0)
    }

    @Test("two connections to one file interleave their appends safely")
    func twoWriters() throws {
        let t = try TempLedger(seeded: false)
        let second = try SQLiteEventStore(path: t.path)
        for i in 0..<20 {
            try (i.isMultiple(of: 2) ? t.store : second).append([proposed(started(UUID()))])
        }
        #expect(try t.count() == 20)
        #expect(try second.verify().ok)
    }

    @Test("a file from a newer schema is refused, not misread")
    func newerSchemaRefused() throws {
        let t = try TempLedger(seeded: false)
        try SQLiteDatabase(path: t.path).execute("PRAGMA user_version = 99")
        #expect {
            _ = try SQLiteEventStore(path: t.path)
        } throws: { error in
            guard case StoreError.newerSchema(let found, _) = error else { return false }
            return found == 99
        }
    }

    @Test("a file that is not a database is refused as not a ledger, and left as it was")
    func notADatabase() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("repledger-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("junk.sqlite").path
        try Data(repeating: 0x42, count: 4096).write(to: URL(fileURLWithPath: path))
        #expect {
            _ = try SQLiteEventStore(path: path)
        } throws: { error in
            guard case StoreError.foreignDatabase(let p, let reason) = error else { return false }
            return p == path && reason.contains("not a SQLite database")
        }
    }
}

@Suite("SQLiteEventStore connections")
struct SQLiteConnectionTests {
    @Test("a read nested inside the same read sees every row (statements are re-entrant)")
    func nestedReads() throws {
        let t = try TempLedger(seeded: false)
        for _ in 0..<3 { try t.store.append([proposed(started(UUID()))]) }
        var pairs = 0
        try t.store.read { _ in try t.store.read { _ in pairs += 1 } }
        #expect(pairs == 9)
    }

    @Test("a connection sees what another connection committed after its own reads")
    func noStaleSnapshot() throws {
        let t = try TempLedger(seeded: false)
        try t.store.append([proposed(started(UUID()))])
        #expect(try t.store.count() == 1)
        #expect(try t.store.version(of: .library) == 0)
        let other = try SQLiteEventStore(path: t.path)
        try other.append([proposed(started(UUID()))])
        #expect(try t.store.count() == 2)
        #expect(try t.store.verify().events == 2)
    }

    @Test("a full disk fails the append with one plain line and writes nothing")
    func diskFull() throws {
        let t = try TempLedger()
        let before = try t.count()
        // SQLite's page limit gives the same SQLITE_FULL as a disk with no space left.
        let pages = try t.store.database.scalarInt("PRAGMA page_count")
        try t.store.database.execute("PRAGMA max_page_count = \(pages + 2)")
        let big = (0..<4).map { _ in proposed(started(UUID(), name: String(repeating: "x", count: 64 * 1024))) }
        #expect {
            try t.store.append(big)
        } throws: { error in
            guard case StoreError.engine(let e as SQLiteError) = error else { return false }
            return e.isDiskFull && "\(error)" == "the disk is full: free space and retry; nothing was written"
        }
        #expect(try t.count() == before)
        #expect(try t.store.verify().ok)
    }

    @Test("an unstamped file with RepLedger's tables (written before stamping) opens and is stamped; it stays readable")
    func unstampedLedgerIsAccepted() throws {
        let t = try TempLedger(seeded: false)
        let copy = t.folder.appendingPathComponent("old.sqlite").path
        // The first stored fixture, written before files were stamped (its bytes never change).
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("RepLedgerCoreTests/Fixtures/v1-log.sqlite")
        try FileManager.default.copyItem(atPath: fixture.path, toPath: copy)
        #expect(try SQLiteDatabase(path: copy).scalarInt("PRAGMA application_id") == 0)
        let store = try SQLiteEventStore(path: copy)
        #expect(try store.verify().ok)
        #expect(try store.database.scalarInt("PRAGMA application_id") == LedgerFileIdentity.applicationId)
        #expect(try store.database.scalarInt("PRAGMA user_version") == Schema.currentVersion)
    }
}
