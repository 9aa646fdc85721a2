import Foundation
import LedgerTestSupport
import RepLedgerProjections
import RepLedgerQueries
import RepLedgerSnapshots
import Testing

@testable import RepLedgerCore
@testable import RepLedgerSQLite

/// A device answers the first pages of `history` from the page stored at the
/// head: the same rows the fold gives, and never a page stored behind it.
@Suite("History's first pages, stored")
struct HistoryPageTests {
    static func fold(_ store: SQLiteEventStore) throws -> TrainingLogProjection {
        var log = TrainingLogProjection()
        try store.replay(from: 1, through: .max) { log.apply($0) }
        return log
    }

    static func stored(_ store: SQLiteEventStore) throws -> [Int64] {
        try SnapshotStore(store).list().filter { $0.key.projection == HistoryHeadProjection.name }.map(\.position)
    }

    @Test("every page within the stored rows equals the fold's, and the page is stored once at the head")
    func pagesEqualTheFolds() throws {
        let t = try TempLedger.demo()
        let head = try t.store.headPosition()
        let log = try Self.fold(t.store)
        let all = WorkoutHistoryProjection.workouts(log)
        #expect(all.count > 20)
        #expect(try Self.stored(t.store).isEmpty)

        let first = try HistoryQuery.answer(t.store, QueryScope(), limit: 20)
        #expect(try Self.stored(t.store) == [head], "the miss stored the page")
        for (offset, limit) in [(0, 20), (0, 1), (5, 10), (0, all.count), (all.count - 3, 3)] as [(Int, Int)] {
            let scope = QueryScope(note: { _ in })
            let page = try HistoryQuery.answer(t.store, scope, limit: limit, offset: offset)
            #expect(page.rows == Array(all.dropFirst(offset).prefix(limit)), "offset \(offset) limit \(limit)")
            #expect(page.unit == log.account.liftingUnit)
        }
        #expect(first.rows == Array(all.prefix(20)))
        // Told where the answer came from, as --verbose shows.
        final class Said: @unchecked Sendable { var lines: [String] = [] }
        let said = Said()
        _ = try HistoryQuery.answer(t.store, QueryScope(note: { said.lines.append($0) }), limit: 20)
        #expect(said.lines.contains { $0.contains("history page stored at #\(head)") })
        // The whole history, without a limit, is the fold's too.
        #expect(try HistoryQuery.answer(t.store, QueryScope()).rows == all)
    }

    @Test("after an append the stored page is passed over: the new workout is on top")
    func aNewEventIsNeverAnsweredBehind() throws {
        let t = try TempLedger.demo()
        _ = try HistoryQuery.answer(t.store, QueryScope(), limit: 20)
        let workout = UUID()
        try t.store.append([
            proposed(started(workout, name: "Just now"), at: "2030-01-01T08:00:00Z"), proposed(finished(workout), at: "2030-01-01T09:00:00Z"),
        ])

        let page = try HistoryQuery.answer(t.store, QueryScope(), limit: 20)
        #expect(page.rows.first?.workoutId == workout)
        #expect(page.rows == Array(WorkoutHistoryProjection.workouts(try Self.fold(t.store)).prefix(20)))
        #expect(try Self.stored(t.store).contains(try t.store.headPosition()))
    }

    @Test("filters, a training date and an earlier point of the log fold as before")
    func otherQueriesFold() throws {
        let t = try TempLedger.demo()
        let head = try t.store.headPosition()
        _ = try HistoryQuery.answer(t.store, QueryScope(), limit: 20)
        let log = try Self.fold(t.store)
        let squat = try log.library.resolve("Squat (Barbell)").exerciseId
        #expect(
            try HistoryQuery.answer(t.store, QueryScope(), exercise: "Squat (Barbell)", limit: 5).rows
                == WorkoutHistoryProjection.workouts(log, exerciseId: squat, limit: 5))
        var earlier = TrainingLogProjection()
        try t.store.replay(from: 1, through: head - 50) { earlier.apply($0) }
        #expect(
            try HistoryQuery.answer(t.store, QueryScope(asOf: "\(head - 50)"), limit: 5).rows
                == WorkoutHistoryProjection.workouts(earlier, limit: 5))
    }
}
