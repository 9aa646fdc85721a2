import Foundation
import LedgerTestSupport
import RepLedgerProjections
import RepLedgerQueries
import Testing

@testable import RepLedgerCore

/// `CalendarQuery`: days by the workout's own local date, weeks from Monday,
/// and weekly streaks that the week in progress does not break.
@Suite("Calendar and weekly streaks")
struct CalendarQueryTests {
    /// A ledger with one finished workout started at each of `times`.
    func ledger(_ times: [String]) throws -> MemoryLedger {
        let t = try MemoryLedger()
        for time in times {
            let at = Timestamp.at(time)
            let w = try t.ledger.execute(at: at) { try $0.startWorkout(name: "W") }
            try t.ledger.execute(at: at.adding(seconds: 3600)) { try $0.finishWorkout(w) }
        }
        return t
    }

    @Test("a month's grid starts on Monday; a day counts the workouts started on it, at their own offset")
    func grid() throws {
        // 2026-11-02 23:30 in New York is 2026-11-03 in UTC: it belongs to the 2nd.
        let t = try ledger(["2026-11-02T23:30:00-05:00", "2026-11-04T07:00:00+01:00", "2026-11-04T18:00:00+01:00", "2026-10-30T07:00:00Z"])
        let a = try CalendarQuery.answer(t.store, QueryScope(), month: "2026-11")
        #expect(a.month == "2026-11")
        #expect(a.weeks.first?.first?.date == "2026-10-26" && a.weeks.last?.last?.date == "2026-12-06")
        #expect(a.weeks.allSatisfy { $0.count == 7 })
        let days = Dictionary(uniqueKeysWithValues: a.weeks.joined().map { ($0.date, $0) })
        #expect(days["2026-11-02"]?.workouts == 1 && days["2026-11-03"]?.workouts == 0 && days["2026-11-04"]?.workouts == 2)
        // The October workout shows on its day at the grid's edge, outside the month and its counts.
        #expect(days["2026-10-30"]?.workouts == 1 && days["2026-10-30"]?.inMonth == false)
        #expect(a.trainedDays == 2 && a.workouts == 3)
    }

    @Test("streaks: weeks in a row with a workout; the week in progress breaks nothing until it ends empty")
    func streaks() throws {
        // Weeks of 2026-10-05, -12, -19 (a run of 3), a gap, then -11-02 and -11-09 (a run of 2).
        let t = try ledger(["2026-10-06T07:00:00Z", "2026-10-13T07:00:00Z", "2026-10-22T07:00:00Z", "2026-11-03T07:00:00Z", "2026-11-12T07:00:00Z"])
        let log = try TrainingLogProjection.build(from: t.store)
        let inWeekAfter = CalendarQuery.answer(log, month: nil, now: .at("2026-11-18T12:00:00Z"))
        #expect(inWeekAfter.currentWeeklyStreak == 2 && inWeekAfter.longestWeeklyStreak == 3)
        #expect(inWeekAfter.month == "2026-11")
        let weekLater = CalendarQuery.answer(log, month: nil, now: .at("2026-11-24T12:00:00Z"))
        #expect(weekLater.currentWeeklyStreak == 0 && weekLater.longestWeeklyStreak == 3)
        // As of a past day, later workouts do not count.
        let earlier = CalendarQuery.answer(log, month: nil, now: .at("2026-10-20T12:00:00Z"))
        #expect(earlier.currentWeeklyStreak == 2 && earlier.longestWeeklyStreak == 2)
    }

    @Test("a month that is not YYYY-MM is refused")
    func badMonth() throws {
        let t = try ledger([])
        #expect(throws: QueryError.invalidParameter("month takes YYYY-MM, e.g. 2026-11")) {
            try CalendarQuery.answer(t.store, QueryScope(), month: "2026-13")
        }
    }
}
