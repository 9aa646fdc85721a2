import Foundation
import RepLedgerKit
import RepLedgerSQLite
import Testing

/// The kit as an app uses it, on a real ledger file: a watch session recorded,
/// observed as it is appended, read back, and read as the log stood before it.
@Suite struct RepLedgerTests {
    static func file() -> String { FileManager.default.temporaryDirectory.appendingPathComponent("kit-\(UUID().uuidString).sqlite").path }

    @Test func aWatchSessionIsRecordedObservedAndReadBackAtEveryPoint() async throws {
        let path = Self.file()
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let ledger = try RepLedger(path: path, device: "watch")
        let changes = await ledger.changes()
        let empty = try await ledger.head

        let workout = try await ledger.startWorkout(name: "Push")
        let afterStart = try await ledger.head
        for bpm in [92.0, 118, 131] { try await ledger.recordHeartRate(bpm, in: workout) }
        _ = try await ledger.logSet("Bench Press (Barbell)", weightKg: 80, reps: 8, in: workout)
        _ = try await ledger.logSet("Bench Press (Barbell)", weightKg: 85, reps: 6, rpe: 8.5, in: workout)
        try await ledger.finishWorkout(workout)

        // One change per command that appended, each naming the workout's stream, heads in order.
        var seen: [RepLedger.Change] = []
        for await change in changes {
            seen.append(change)
            if seen.count == 7 { break }
        }
        #expect(seen.allSatisfy { $0.streams.contains("workout-\(workout.uuidString.lowercased())") }, "\(seen.map(\.streams))")
        #expect(seen.map(\.head.position) == seen.map(\.head.position).sorted())
        #expect(seen.last?.head == (try await ledger.head))

        // Read back: the workout with its two sets, and the bench's record.
        let history = try await ledger.history(limit: 5)
        #expect(history.first?.workoutId == workout && history.first?.sets == 2, "\(history)")
        let records = try await ledger.records()
        #expect(records.first { $0.exercise == "Bench Press (Barbell)" }?.heaviestKg == 85, "\(records.map(\.exercise))")

        // As the log stood before the sets: the workout has none, and no record yet.
        let before = try await ledger.history(asOf: .position(afterStart.position))
        #expect(before.first?.workoutId == workout && before.first?.sets == 0)
        #expect(try await ledger.records(asOf: .position(afterStart.position)).isEmpty)
        #expect(empty.position < afterStart.position)

        // A refused command appends nothing and says why.
        let head = try await ledger.head
        await #expect(throws: (any Error).self) { try await ledger.logSet("No Such Lift", reps: 5, in: workout) }
        #expect(try await ledger.head == head)
    }

    @Test func aReadOfAChangedFileThrowsChainDamageWithItsPosition() async throws {
        let path = Self.file()
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let ledger = try RepLedger(path: path, device: "watch")
        let workout = try await ledger.startWorkout(name: "Push")
        _ = try await ledger.logSet("Bench Press (Barbell)", weightKg: 80, reps: 8, in: workout)
        #expect(try await ledger.history().count == 1)
        let changed = try await ledger.head.position
        // A hand edit of the file, as `sqlite3` makes it.
        let db = try SQLiteDatabase(path: path)
        try db.execute("DROP TRIGGER events_no_update; UPDATE events SET device = 'elsewhere' WHERE position = \(changed)")
        do {
            _ = try await ledger.records()
            Issue.record("a damaged file answered")
        } catch let damage as ChainDamage {
            #expect(damage.position == changed)
        }
    }
}
