import Foundation
import Testing
@testable import RepLedgerCore

/// The schema-evolution guard: a log written by schema v1 of every event type
/// is stored under Fixtures/ and must stay readable, byte for byte, by every
/// later build. Changing a payload's layout without a new schema version and
/// an upcaster breaks this test.
///
/// To write the fixture anew (only when adding event types):
/// `REPLEDGER_WRITE_FIXTURES=1 swift test --filter StoredFixture`.
@Suite("Stored v1 log fixture")
struct StoredFixtureTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
    static let database = folder.appendingPathComponent("v1-log.sqlite")
    static let expected = folder.appendingPathComponent("v1-log.jsonl")

    @Test("the stored v1 log decodes to the same canonical JSON and verifies")
    func storedLogStaysReadable() throws {
        if ProcessInfo.processInfo.environment["REPLEDGER_WRITE_FIXTURES"] == "1" { try Self.write() }
        // Read a copy: opening in WAL mode may touch the file.
        let t = try TempLedger(seeded: false)
        let copy = t.folder.appendingPathComponent("fixture.sqlite")
        try FileManager.default.copyItem(at: Self.database, to: copy)
        let store = try SQLiteEventStore(path: copy.path)
        var lines: [String] = []
        try store.read { lines.append($0.canonicalJSON) }
        let expected = try String(contentsOf: Self.expected, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(lines.count == EventCatalog.entries.count)
        #expect(lines == expected)
        #expect(try store.verify().ok)
        // Every type in the catalog is present in the stored log.
        var types = Set<String>()
        try store.read { types.insert($0.type.name) }
        #expect(types == Set(EventCatalog.entries.map(\.type.name)))
    }

    static func write() throws {
        try? FileManager.default.removeItem(at: database)
        let store = try SQLiteEventStore(path: database.path)
        for (i, e) in EventSamples.proposed.enumerated() {
            try store.append([e], now: EventSamples.t0.adding(seconds: Int64(i)))
        }
        // Fold the WAL into the main file so the fixture is one self-contained file.
        try store.db.execute("PRAGMA wal_checkpoint(TRUNCATE); PRAGMA journal_mode = DELETE;")
        var lines: [String] = []
        try store.read { lines.append($0.canonicalJSON) }
        try (lines.joined(separator: "\n") + "\n").write(to: expected, atomically: true, encoding: .utf8)
    }
}
