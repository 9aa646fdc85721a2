import Foundation
import LedgerTestSupport
import Testing

/// `ledger calendar` on the demo: the month's workouts agree with `history`.
@Suite("ledger calendar")
struct CalendarCLITests {
    @Test("the demo's November: as many workouts as history lists, weeks from Monday, streaks as of --until")
    func demoMonth() throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        #expect(try cli.run(["demo"]).status == 0)
        let calendar = try #require(try cli.run(["calendar", "--month", "2026-11", "--until", "2026-11-20", "--json"]).json)
        let history = try #require(try cli.run(["history", "--month", "2026-11", "--until", "2026-11-20", "--json"]).json)
        let listed = try #require(history["workouts"] as? [Any])
        #expect(calendar["workouts"] as? Int == listed.count && listed.count > 0)
        let weeks = try #require(calendar["weeks"] as? [[[String: Any]]])
        #expect(weeks.count == 6 && weeks.allSatisfy { $0.count == 7 })
        #expect(weeks[0][0]["date"] as? String == "2026-10-26")
        #expect((calendar["currentWeeklyStreak"] as? Int ?? 0) >= 1)
        #expect((calendar["longestWeeklyStreak"] as? Int ?? 0) >= (calendar["currentWeeklyStreak"] as? Int ?? 0))
        let text = try cli.run(["calendar", "--month", "2026-11", "--until", "2026-11-20"])
        #expect(text.status == 0 && text.stdout.contains(" Mo  Tu  We  Th  Fr  Sa  Su") && text.stdout.contains("Weekly streak:"))
        let bad = try cli.run(["calendar", "--month", "2026-9"])
        #expect(bad.status == 2 && bad.stderr.contains("--month takes YYYY-MM"))
    }
}
