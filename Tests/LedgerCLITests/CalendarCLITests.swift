import Foundation
import LedgerTestSupport
import RepLedgerCore
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

/// `ledger program schedule`: the program's days on weekdays, shown by the calendar and `next`.
@Suite("ledger program schedule")
struct ProgramScheduleCLITests {
    @Test("schedule a program on mon,wed,fri: listed, planned on the calendar, named by next; bad weekdays append nothing")
    func schedule() throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        #expect(
            try cli.run([
                "program", "questionnaire", "--days", "3", "--minutes", "60", "--experience", "beginner", "--equipment", "barbell",
                "--at", "2026-11-02T08:00:00Z",
            ]).status == 0)
        #expect(try cli.run(["program", "generate", "--seed", "4", "--at", "2026-11-02T08:01:00Z"]).status == 0)
        let scheduled = try cli.run(["program", "schedule", "active", "mon,wed,fri", "--json"])
        #expect(scheduled.status == 0 && scheduled.json?["weekdays"] as? [String] == ["mon", "wed", "fri"])
        let listed = try #require(try cli.run(["program", "list", "--json"]).json?["programs"] as? [[String: Any]])
        #expect(listed.first?["weekdays"] as? [String] == ["mon", "wed", "fri"])
        let w = try #require(
            try cli.run(["workout", "start", "--program", "active", "--day", "1", "--at", "2026-11-04T18:00:00Z", "--json"]).json?["workoutId"]
                as? String)
        #expect(try cli.run(["workout", "finish", w, "--at", "2026-11-04T19:00:00Z"]).status == 0)

        let calendar = try #require(try cli.run(["calendar", "--month", "2026-11", "--json"]).json)
        #expect(calendar["plannedDays"] as? Int == 13 && calendar["plannedDaysTrained"] as? Int == 1)
        let days = try #require(calendar["weeks"] as? [[[String: Any]]]).joined()
        #expect(days.first { $0["date"] as? String == "2026-11-06" }?["planned"] as? Bool == true)
        #expect(days.first { $0["date"] as? String == "2026-11-07" }?["planned"] as? Bool == false)
        let text = try cli.run(["calendar", "--month", "2026-11"]).stdout
        #expect(
            text.contains("·")
                && text.contains("Planned: 1 of 13 days trained"))

        // `next` names the next scheduled day, a Monday, Wednesday or Friday within the week.
        let next = try #require(try cli.run(["next", "--program", "active", "--json"]).json)
        let on = try #require(next["scheduledOn"] as? String)
        let day = try #require(Timestamp.parseISO8601(on + "T12:00:00Z", defaultOffsetMinutes: 0)).local
        #expect([1, 3, 5].contains(day.isoWeekday))
        // Day 1 was trained on the 4th: the next is day 2, by name, on that date.
        let dayTwo = try #require(next["day"] as? [String: Any])
        #expect(dayTwo["number"] as? Int == 2)
        let words = try cli.run(["next", "--program", "active"]).stdout
        #expect(words.hasPrefix("Next: day 2, \(dayTwo["name"] as? String ?? "?"), on "), "\(words)")
        #expect(words.contains(on))

        // Refusals: one line, exit 1, nothing appended.
        let before = try cli.run(["log", "--json"]).stdout
        for bad in ["mon,funday", "mon,monday", "tue,8"] {
            let out = try cli.run(["program", "schedule", "active", bad])
            #expect(out.status == 1 && out.stderr.split(separator: "\n").count == 1, "\(bad): \(out.stderr)")
        }
        #expect(try cli.run(["program", "schedule", "active", "monday, wednesday, friday"]).status == 1)  // the same schedule: nothing to change
        #expect(try cli.run(["log", "--json"]).stdout == before)
        #expect(try cli.run(["program", "schedule", "active", "none"]).status == 0)
        #expect(try cli.run(["calendar", "--month", "2026-11", "--json"]).json?["plannedDays"] as? Int == 0)
    }
}
