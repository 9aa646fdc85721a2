import RepLedgerCore
import RepLedgerProjections

/// `calendar [--month YYYY-MM]`: a month as weeks from Monday, each day with
/// the workouts done on it (by the workout's own local date), and the
/// current and longest weekly streaks (ISO weeks in a row with at least one
/// workout; the week in progress does not break the current streak until it
/// ends empty). Days the active program is scheduled on (`program schedule`),
/// from the day it was made, are planned.
public enum CalendarQuery {
    public struct Day: Sendable, Equatable {
        /// `YYYY-MM-DD`.
        public var date: String
        /// False for the days of the weeks' edges that belong to the months around.
        public var inMonth: Bool
        public var workouts: Int
        /// A day the active program is scheduled on.
        public var planned: Bool
        /// The week of the active program's block it falls in (`program mesocycle|deload`), and whether that week is a deload.
        public var blockWeek: Int? = nil
        public var deload = false
    }

    public struct Answer: Sendable, Equatable {
        /// `YYYY-MM`.
        public var month: String
        /// Monday to Sunday.
        public var weeks: [[Day]]
        public var trainedDays: Int
        public var workouts: Int
        /// Planned days of the month, and how many of them were trained.
        public var plannedDays: Int
        public var plannedDaysTrained: Int
        public var currentWeeklyStreak: Int
        public var longestWeeklyStreak: Int
    }

    /// Refuses a month that is not YYYY-MM.
    public static func answer(_ store: any EventStore, _ scope: QueryScope, month: String?) throws -> Answer {
        if let month, !MonthText.isValid(month) {
            throw QueryError.invalidParameter("month takes YYYY-MM, e.g. 2026-11")
        }
        return answer(try scope.log(store), month: month, now: try scope.answerTime())
    }

    /// The calendar of `month` (default: the month of `now`), streaks as of `now`.
    public static func answer(_ log: TrainingLogProjection, month: String?, now: Timestamp) -> Answer {
        // Workouts by local day, and the ISO weeks that hold one.
        var byDay: [Int64: Int] = [:]
        var weeks: Set<Int64> = []
        let today = now.local.daysSinceEpoch
        for w in log.countedWorkouts {
            guard let started = w.startedAt else { continue }
            let day = started.local.daysSinceEpoch
            guard day <= today else { continue }
            byDay[day, default: 0] += 1
            weeks.insert(monday(of: day))
        }
        let (year, monthNumber) = month.map { (Int($0.prefix(4)) ?? 0, Int($0.suffix(2)) ?? 0) } ?? (now.local.year, now.local.month)
        let first = CivilCalendar.days(fromCivil: year, monthNumber, 1)
        let last = first + Int64(CivilCalendar.daysInMonth(year, monthNumber)) - 1
        let plan = Schedule(log)
        let block = log.programs.active.flatMap { id in log.programs.live.first { $0.programId == id } }?.weekPlan
        var grid: [[Day]] = []
        var day = monday(of: first)
        while day <= last {
            grid.append(
                (0..<7).map { i in
                    let d = day + Int64(i)
                    let week = block.map { $0.position(onDay: d) }.flatMap { $0.begun ? $0.week : nil }
                    return Day(
                        date: date(d), inMonth: d >= first && d <= last, workouts: byDay[d] ?? 0, planned: plan.plans(d), blockWeek: week,
                        deload: week.map { block!.isDeload(week: $0) } ?? false)
                })
            day += 7
        }
        let planned = grid.joined().filter { $0.inMonth && $0.planned }
        let inMonth = byDay.filter { $0.key >= first && $0.key <= last }
        // Streaks: runs of consecutive weeks (Mondays 7 days apart).
        var longest = 0, run = 0, previous: Int64?
        for week in weeks.sorted() {
            run = previous.map { week - $0 == 7 } == true ? run + 1 : 1
            longest = max(longest, run)
            previous = week
        }
        var current = 0
        var week = monday(of: today)
        if !weeks.contains(week) { week -= 7 }  // this week is not over: it breaks nothing yet
        while weeks.contains(week) {
            current += 1
            week -= 7
        }
        let monthText = String(date(first).prefix(7))
        return Answer(
            month: monthText, weeks: grid, trainedDays: inMonth.count, workouts: inMonth.values.reduce(0, +),
            plannedDays: planned.count, plannedDaysTrained: planned.filter { $0.workouts > 0 }.count, currentWeeklyStreak: current,
            longestWeeklyStreak: longest)
    }

    /// `YYYY-MM-DD` of a day since 1970-01-01.
    static func date(_ day: Int64) -> String { Timestamp(millis: day * 86_400_000, offsetMinutes: 0).isoDate }

    /// The Monday of the ISO week holding `day` (days since 1970-01-01, a Thursday).
    static func monday(of day: Int64) -> Int64 { day - ((day + 3) % 7 + 7) % 7 }

    public static func document(_ a: Answer) -> JSONValue {
        .object([
            ("month", .string(a.month)), ("trainedDays", .int(Int64(a.trainedDays))), ("workouts", .int(Int64(a.workouts))),
            ("plannedDays", .int(Int64(a.plannedDays))), ("plannedDaysTrained", .int(Int64(a.plannedDaysTrained))),
            ("currentWeeklyStreak", .int(Int64(a.currentWeeklyStreak))), ("longestWeeklyStreak", .int(Int64(a.longestWeeklyStreak))),
            (
                "weeks",
                .array(
                    a.weeks.map { week in
                        .array(
                            week.map { d in
                                .object([
                                    ("date", .string(d.date)), ("inMonth", .bool(d.inMonth)), ("workouts", .int(Int64(d.workouts))),
                                    ("planned", .bool(d.planned)), ("blockWeek", .optional(d.blockWeek)), ("deload", .bool(d.deload)),
                                ])
                            })
                    })
            ),
        ])
    }
}

/// The active program's weekday schedule, from the day it was made: which
/// days are planned. The calendar, `next` and a coach's compliance read it.
public struct Schedule: Sendable {
    /// ISO weekdays, 1 is Monday; empty when the active program is not scheduled (or there is none).
    public let weekdays: Set<Int>
    /// The local day (since 1970-01-01) the program was made.
    public let from: Int64

    public init(_ log: TrainingLogProjection) {
        let active = log.programs.active.flatMap { id in log.programs.live.first { $0.programId == id } }
        self.init(active)
    }

    public init(_ program: ProgramCatalogState.Program?) {
        weekdays = Set(program?.weekdays ?? [])
        from = program?.createdAt.local.daysSinceEpoch ?? .max
    }

    public var isEmpty: Bool { weekdays.isEmpty }

    /// Whether `day` (days since 1970-01-01, a Thursday) is planned.
    public func plans(_ day: Int64) -> Bool {
        day >= from && weekdays.contains(Int(((day + 3) % 7 + 7) % 7) + 1)
    }

    /// Planned days from `first` to `last`, both included.
    public func count(_ first: Int64, _ last: Int64) -> Int {
        first > last ? 0 : (first...last).filter(plans).count
    }

    /// The first planned day at or after `day`, if the schedule has one.
    public func next(onOrAfter day: Int64) -> Int64? {
        isEmpty ? nil : (max(day, from)..<(max(day, from) + 7)).first(where: plans)
    }
}
