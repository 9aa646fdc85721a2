import ArgumentParser
import LedgerShell
import RepLedgerCore
import RepLedgerQueries

/// `ledger calendar [--month YYYY-MM]`: trained days and weekly streaks.
struct CalendarCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "calendar", abstract: "A month as a grid of weeks with the days you trained, and your weekly streaks.",
        discussion: """
            A day counts the workouts started on it (the workout's own local date). A weekly streak is ISO \
            weeks in a row with at least one workout; this week does not break the current streak until it ends.

            Examples:
              ledger calendar
              ledger calendar --month 2026-10 --json
            """)
    @OptionGroup var global: GlobalOptions
    @OptionGroup var query: QueryOptions
    @Option(help: "The month, YYYY-MM (default: this month, or the month of --until/--as-of).") var month: String?

    func validate() throws {
        if let month, !MonthText.isValid(month) {
            throw ValidationError("--month takes YYYY-MM, e.g. 2026-11")
        }
    }

    func run() throws {
        let a = try CalendarQuery.answer(try global.openStore(), try query.scope(), month: month)
        if global.json {
            Console.json(CalendarQuery.document(a))
            return
        }
        Console.out("\(a.month): \(counted(a.workouts, "workout")) on \(counted(a.trainedDays, "day"))")
        Console.out(" Mo  Tu  We  Th  Fr  Sa  Su")
        // A trained day is marked with *, a planned day not trained with ·; the days of the months around are left blank.
        func cell(_ d: CalendarQuery.Day) -> String {
            guard d.inMonth else { return "    " }
            let day = String(Int(d.date.suffix(2)) ?? 0)
            return (d.workouts > 0 ? "*" : d.planned ? "·" : " ") + String(repeating: " ", count: 2 - day.count) + day + " "
        }
        // A planned block's weeks beside the rows they fall in.
        func block(_ row: [CalendarQuery.Day]) -> String {
            var seen: [String] = []
            for d in row where d.inMonth {
                if let w = d.blockWeek, case let label = "week \(w)\(d.deload ? " deload" : "")", seen.last != label { seen.append(label) }
            }
            return seen.isEmpty ? "" : "  " + seen.joined(separator: " / ")
        }
        for week in a.weeks { Console.out(week.map(cell).joined() + block(week)) }
        if a.plannedDays > 0 { Console.out("Planned: \(a.plannedDaysTrained) of \(counted(a.plannedDays, "day")) trained (* trained, · planned)") }
        Console.out("Weekly streak: \(counted(a.currentWeeklyStreak, "week")) now, \(counted(a.longestWeeklyStreak, "week")) at the longest")
    }
}
