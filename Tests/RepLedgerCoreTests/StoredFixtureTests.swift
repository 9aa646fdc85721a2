import Foundation
import LedgerTestSupport
import Testing

@testable import RepLedgerCore
@testable import RepLedgerSQLite

/// The schema-evolution guard: a log written with every event type of its
/// day is stored under Fixtures/ and must stay readable, byte for byte, by
/// every later build. Changing a payload's layout without a new schema
/// version and an upcaster breaks this test. A stored fixture is never
/// written again: types added later go into a fixture of their own (v2: the
/// types added in the second release; v3: coach access, with the server; v5: the coach's offers, answers and notes; v6 to v8: the logger's vocabulary; v9: exercise merges; v10: a server operator's Coach grant; v11: held rests, a session's feeling and activity, a set's equipment, a template offer's targets, a workout's analysis, modules; v12: modules in program days and workouts; v13: a tested one-rep max; v14: a shared document's import; v15: a deload workout; v16: a program's planned weeks and a percentage target; v17: a program's style), so
/// the old bytes stay the old bytes.
///
/// To write a new generation's fixture (only when adding event types):
/// `REPLEDGER_WRITE_FIXTURES=v2 swift test --filter StoredFixture`.
@Suite("Stored log fixtures")
struct StoredFixtureTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
    static let database = folder.appendingPathComponent("v1-log.sqlite")

    /// Each generation: its name and the samples it stores.
    static var generations: [(name: String, samples: () -> [ProposedEvent])] {
        [
            ("v1", { EventSamples.proposed }), ("v2", { EventSamples.proposed(EventSamples.v2, generation: "v2/") }),
            ("v3", { EventSamples.proposed(EventSamples.v3, generation: "v3/") }),
            ("v4", { EventSamples.proposed(EventSamples.v4, generation: "v4/") }),
            ("v5", { EventSamples.proposed(EventSamples.v5, generation: "v5/") }),
            ("v6", { EventSamples.proposed(EventSamples.v6, generation: "v6/") }),
            ("v7", { EventSamples.proposed(EventSamples.v7, generation: "v7/") }),
            ("v8", { EventSamples.proposed(EventSamples.v8, generation: "v8/") }),
            ("v9", { EventSamples.proposed(EventSamples.v9, generation: "v9/") }),
            ("v10", { EventSamples.proposed(EventSamples.v10, generation: "v10/") }),
            ("v11", { EventSamples.proposed(EventSamples.v11, generation: "v11/") }),
            ("v12", { EventSamples.proposed(EventSamples.v12, generation: "v12/") }),
            ("v13", { EventSamples.proposed(EventSamples.v13, generation: "v13/") }),
            ("v14", { EventSamples.proposed(EventSamples.v14, generation: "v14/") }),
            ("v15", { EventSamples.proposed(EventSamples.v15, generation: "v15/") }),
            ("v16", { EventSamples.proposed(EventSamples.v16, generation: "v16/") }),
            ("v17", { EventSamples.proposed(EventSamples.v17, generation: "v17/") }),
        ]
    }

    @Test("every stored fixture decodes to the same canonical JSON and verifies; together they hold every type")
    func storedLogsStayReadable() throws {
        if let g = ProcessInfo.processInfo.environment["REPLEDGER_WRITE_FIXTURES"],
            let generation = Self.generations.first(where: { $0.name == g })
        {
            try Self.write(generation.name, generation.samples())
        }
        var types = Set<String>()
        for (name, samples) in Self.generations {
            // Read a copy: opening in WAL mode may touch the file.
            let t = try TempLedger(seeded: false)
            let copy = t.folder.appendingPathComponent("fixture.sqlite")
            try FileManager.default.copyItem(at: Self.folder.appendingPathComponent("\(name)-log.sqlite"), to: copy)
            let store = try SQLiteEventStore(path: copy.path)
            var lines: [String] = []
            try store.read {
                lines.append($0.canonicalJSON); types.insert($0.type.name)
            }
            let expected = try String(contentsOf: Self.folder.appendingPathComponent("\(name)-log.jsonl"), encoding: .utf8)
                .split(separator: "\n").map(String.init)
            #expect(lines.count == samples().count, "\(name)")
            #expect(lines == expected, "\(name)")
            #expect(try store.verify().ok, "\(name)")
        }
        #expect(types == Set(EventCatalog.entries.map(\.type.name)))
    }

    static func write(_ name: String, _ samples: [ProposedEvent]) throws {
        let database = folder.appendingPathComponent("\(name)-log.sqlite")
        try? FileManager.default.removeItem(at: database)
        let store = try SQLiteEventStore(path: database.path)
        for (i, e) in samples.enumerated() {
            try store.append([e], expecting: [:], now: EventSamples.t0.adding(seconds: Int64(i)))
        }
        // Fold the WAL into the main file so the fixture is one self-contained file.
        try store.db.execute("PRAGMA wal_checkpoint(TRUNCATE); PRAGMA journal_mode = DELETE;")
        var lines: [String] = []
        try store.read { lines.append($0.canonicalJSON) }
        try (lines.joined(separator: "\n") + "\n").write(to: folder.appendingPathComponent("\(name)-log.jsonl"), atomically: true, encoding: .utf8)
    }
}
