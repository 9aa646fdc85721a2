import Foundation

@testable import RepLedgerCore
@testable import RepLedgerDemo
@testable import RepLedgerSQLite

/// A fresh database file in its own temporary folder, removed on deinit.
package final class TempLedger {
    package let folder: URL
    package let path: String
    package let store: SQLiteEventStore
    package let ledger: Ledger

    package init(seeded: Bool = true) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("repledger-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        path = folder.appendingPathComponent("test.sqlite").path
        store = try SQLiteEventStore(path: path)
        ledger = Ledger(store: store, device: "test", ids: .seeded(42))
        if seeded { try ledger.seedLibraryIfNeeded() }
    }

    deinit { try? FileManager.default.removeItem(at: folder) }

    /// A raw connection for tampering, as an attacker with file access would.
    package func raw() throws -> SQLiteDatabase {
        let db = try SQLiteDatabase(path: path)
        try db.execute("DROP TRIGGER IF EXISTS events_no_update; DROP TRIGGER IF EXISTS events_no_delete;")
        return db
    }

    package func count() throws -> Int64 { try store.count() }

    /// A fresh ledger holding the demo history.
    package static func demo() throws -> TempLedger {
        let t = try TempLedger()
        try t.store.append(try DemoHistory.events(library: try t.ledger.library()))
        return t
    }
}

extension Timestamp {
    package static func at(_ iso: String) -> Timestamp { Timestamp.parseISO8601(iso, defaultOffsetMinutes: 0)! }
}

/// Builds a proposed event with a fresh id, for store tests.
package func proposed(_ event: LedgerEvent, id: UUID = UUID(), at: String = "2026-11-02T07:30:00+01:00", device: String = "phone") -> ProposedEvent {
    ProposedEvent(eventId: id, event: event, occurredAt: .at(at), device: device)
}

package func started(_ id: UUID, name: String = "Upper A") -> LedgerEvent {
    var e = WorkoutStarted()
    e.workoutId = id
    e.name = name
    return .workoutStarted(e)
}

package func finished(_ id: UUID) -> LedgerEvent {
    var e = WorkoutFinished()
    e.workoutId = id
    return .workoutFinished(e)
}

/// A ledger held in memory (`InMemoryEventStore`): for tests of deciders, views and queries that need a log and
/// no file. The same ids and device as `TempLedger`, so the two give the same events.
package final class MemoryLedger {
    package let store: InMemoryEventStore
    package let ledger: Ledger

    package init(seeded: Bool = true) throws {
        store = InMemoryEventStore()
        ledger = Ledger(store: store, device: "test", ids: .seeded(42))
        if seeded { try ledger.seedLibraryIfNeeded() }
    }

    package func count() throws -> Int64 { try store.count() }

    /// A ledger in memory holding the demo history.
    package static func demo() throws -> MemoryLedger {
        let t = try MemoryLedger()
        try t.store.append(try DemoHistory.events(library: try t.ledger.library()))
        return t
    }
}
