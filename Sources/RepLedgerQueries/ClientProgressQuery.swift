import Foundation
import RepLedgerCore
import RepLedgerProjections

/// What a coach watches of one client (SERVER-CONTRACT.md §8), from the client's own
/// log at a moment: compliance with the active program, the last workout,
/// records, weekly volume, bodyweight, and whether the client needs
/// attention. The roster (`GET /v1/coach/clients`), the client's progress
/// (`GET /v1/accounts/{client}/progress`) and the dashboard's pages all
/// print this one value, so every figure is the same everywhere.
///
/// Compliance, over the last 7 and 30 days (and the 30 before, for the fall):
/// - planned sessions: the days the active program is scheduled on
///   (`program schedule`) in the window, from the day it was made; an
///   unscheduled program plans its days per week (one program day each), pro
///   rata over the part of the window since it was made; done: workouts that
///   count, started in that part;
/// - planned sets: the planned sessions × the program's average sets per
///   day; done: each workout's completed working sets, at most its day's
///   planned sets (a program day's own, else the average), so extra work
///   never hides a missed session;
///   A program with planned weeks plans each day's sessions at that week's
///   sets (a mesocycle's added sets, a deload's share);
/// - each is done ÷ planned, at most 1; 1 when nothing was planned yet.
///   A client with no active program has no compliance (`null`), never 0.
public struct ClientProgress: Sendable, Equatable {
    public struct Compliance: Sendable, Equatable {
        public var sessions7: Double
        public var sessions30: Double
        public var sets7: Double
        public var sets30: Double
    }

    /// Why a client needs attention (the edge that shows it words it).
    public enum Reason: String, Sendable, Equatable {
        /// No workout started in the last 7 days.
        case noWorkoutIn7Days
        /// Session compliance over the last 30 days fell by 20 points or more from the 30 before.
        case complianceFell
    }

    /// One week (Monday first) of the client's calendar: planned sessions and the days trained.
    public struct Week: Sendable, Equatable {
        public var monday: String
        public var planned: Double?
        /// Dates (YYYY-MM-DD, the workout's own local date) with a workout that counts.
        public var trainedDays: [String]
        /// Dates the active program's schedule plans a session on (none for a program without weekdays).
        public var plannedDays: [String] = []
        public var done: Int
        /// The active program's planned week (`program mesocycle|deload`) the row's first day of the block falls in.
        public var blockWeek: ProgramWeekPlan? = nil
    }

    public struct LastSession: Sendable, Equatable {
        public struct Line: Sendable, Equatable {
            public var exercise: String
            public var weightKg: Double?
            public var reps: Int?
            public var durationSeconds: Double?
        }
        public var workoutId: UUID
        public var name: String
        public var startedAt: Timestamp
        public var sets: [Line]
    }

    /// A record of the last 7 days, with its exercise's name.
    public struct Record: Sendable, Equatable {
        public var exercise: String
        public var record: PersonalRecordsProjection.Record
    }

    /// The last 7 days' records one line per set, as a lifter reads them: the
    /// set ("Leg Press 150 kg × 8") and what it set ("heaviest 150 kg · e1RM
    /// 190 kg · 8RM"), rep maxes folded as `prs --timeline` folds them
    /// (`RecordsQuery.timelineLines`). Weights in kg, as the dashboard's.
    public var recordLines: [(at: Timestamp, set: String, what: String)] {
        // Consecutive records of one exercise are its run; the timeline's own grouping splits a run by set.
        var runs: [(exercise: String, records: [PersonalRecordsProjection.Record])] = []
        for r in records7 {
            if runs.last?.exercise == r.exercise { runs[runs.count - 1].records.append(r.record) } else { runs.append((r.exercise, [r.record])) }
        }
        return runs.flatMap { run in
            RecordsQuery.timelineLines(run.records).map { line in
                var set = run.exercise
                if let kg = line.weightKg, let reps = line.reps {
                    set += " \(kg.formattedKg) kg × \(reps)"
                } else if let reps = line.reps {
                    set += " \(reps) reps"
                }
                let what = line.records.map(Self.recordWords) + [RecordLabel.repMaxes(line.repMaxes)].compactMap { $0 }
                return (line.at, set, what.joined(separator: " · "))
            }
        }
    }

    static func recordWords(_ r: PersonalRecordsProjection.Record) -> String {
        let label = RecordLabel.text(r.kind, repMax: r.repMax)
        return r.kind.unit == "kg" ? "\(label) \(r.value.formattedKg) kg" : label
    }

    public var program: String?
    public var lastWorkoutAt: Timestamp?
    public var daysSinceLastWorkout: Int?
    public var workoutsLast7Days: Int
    public var records7: [Record]
    public var compliance: Compliance?
    /// Session compliance over days 30–60 before now, when the program is that old.
    public var previousSessions30: Double?
    public var weeklyVolumeKg: Double
    public var weeklyVolumeChangeKg: Double
    public var bodyweightKg: Double?
    public var bodyweightChange30DaysKg: Double?
    public var reasons: [Reason]
    public var weeks: [Week]
    public var lastSession: LastSession?

    public var needsAttention: Bool { !reasons.isEmpty }

    static let day: Int64 = 86_400_000

    /// The client's figures at `now`, from the fold of the client's log and its records' timeline.
    public static func compute(_ log: TrainingLogProjection, records: [PersonalRecordsProjection.Record], now: Timestamp) -> ClientProgress {
        let rules = RuleSet.default
        let workouts = log.countedWorkouts.filter { ($0.startedAt?.millis ?? .max) <= now.millis }
        func started(_ w: WorkoutState) -> Int64 { w.startedAt?.millis ?? 0 }
        func within(_ days: Int64, endingDaysAgo end: Int64 = 0) -> [WorkoutState] {
            let from = now.millis - (days + end) * day, to = now.millis - end * day
            return workouts.filter { started($0) > from && started($0) <= to }
        }
        let last = workouts.max { started($0) < started($1) }
        let week = within(7), weekBefore = within(7, endingDaysAgo: 7)
        func volume(_ ws: [WorkoutState]) -> Double { ws.reduce(0) { $0 + $1.countedSets(rules: rules).reduce(0) { $0 + log.volumeKg($1) } } }

        let active = log.programs.active.flatMap { id in log.programs.live.first { $0.programId == id } }
        var compliance: Compliance?
        var previous: Double?
        if let active {
            let plan = Plan(active, library: log.library, rules: rules)
            compliance = Compliance(
                sessions7: plan.sessions(workouts, now: now, days: 7), sessions30: plan.sessions(workouts, now: now, days: 30),
                sets7: plan.sets(workouts, now: now, days: 7), sets30: plan.sets(workouts, now: now, days: 30))
            if active.createdAt.millis < now.millis - 30 * day {
                previous = plan.sessions(workouts, now: now.adding(milliseconds: -30 * day), days: 30)
            }
        }
        var reasons: [Reason] = []
        if week.isEmpty { reasons.append(.noWorkoutIn7Days) }
        if let previous, let compliance, previous - compliance.sessions30 >= 0.2 - 1e-9 { reasons.append(.complianceFell) }

        let bodyNow = log.body.kilograms(atOrBefore: now)
        let bodyThen = log.body.kilograms(atOrBefore: now.adding(milliseconds: -30 * day))
        let names = { (id: String) in log.exerciseName(id) }
        return ClientProgress(
            program: active?.generated.split,
            lastWorkoutAt: last?.startedAt,
            daysSinceLastWorkout: last.map { Int((now.millis - started($0)) / day) },
            workoutsLast7Days: week.count,
            records7: records.filter { $0.at.millis > now.millis - 7 * day && $0.at.millis <= now.millis }
                .map { Record(exercise: names($0.exerciseId), record: $0) },
            compliance: compliance, previousSessions30: previous,
            weeklyVolumeKg: rounded(volume(week), 1), weeklyVolumeChangeKg: rounded(volume(week) - volume(weekBefore), 1),
            bodyweightKg: bodyNow.map { rounded($0, 1) },
            bodyweightChange30DaysKg: bodyNow.flatMap { n in bodyThen.map { rounded(n - $0, 1) } },
            reasons: reasons, weeks: weeks(workouts, active: active, now: now),
            lastSession: last.flatMap { w in
                w.startedAt.map { at in
                    LastSession(
                        workoutId: w.workoutId, name: w.name, startedAt: at,
                        sets: w.countedSets(rules: rules).map {
                            LastSession.Line(
                                exercise: names($0.exerciseId), weightKg: $0.weightKg.map { rounded($0, 2) }, reps: $0.metrics.reps,
                                durationSeconds: $0.metrics.durationSeconds)
                        })
                }
            })
    }

    /// The four weeks up to `now`'s, Monday first, in `now`'s calendar (the server's: UTC).
    static func weeks(_ workouts: [WorkoutState], active: ProgramCatalogState.Program?, now: Timestamp) -> [Week] {
        let today = now.local.daysSinceEpoch
        let thisMonday = today - Int64(now.local.isoWeekday - 1)
        return (0..<4).reversed().map { back in
            let monday = thisMonday - Int64(back) * 7
            let days = workouts.compactMap { w -> String? in
                guard let d = w.startedAt?.local.daysSinceEpoch, d >= monday, d < monday + 7 else { return nil }
                return w.startedAt?.isoDate
            }
            let (y, m, d) = CivilCalendar.civil(fromDays: monday)
            var planned: Double?
            var plannedDays: [String] = []
            if let active {
                let schedule = Schedule(active)
                plannedDays = (monday..<monday + 7).filter(schedule.plans).map { day in
                    let (y, m, d) = CivilCalendar.civil(fromDays: day)
                    return String(format: "%04d-%02d-%02d", y, m, d)
                }
                if !schedule.isEmpty {
                    planned = Double(schedule.count(monday, min(monday + 6, today)))
                } else {
                    // Pro rata from the program's creation, as compliance counts it.
                    let start = max(monday, active.createdAt.local.daysSinceEpoch)
                    let end = min(monday + 7, today + 1)
                    planned = end > start ? rounded(Double(active.generated.sessions.count) * Double(end - start) / 7, 1) : 0
                }
            }
            let block = active?.weekPlan
            let blockDay = block.flatMap { b in (monday..<monday + 7).first { b.position(onDay: $0).begun } }
            return Week(
                monday: String(format: "%04d-%02d-%02d", y, m, d), planned: planned, trainedDays: Array(Set(days)).sorted(),
                plannedDays: plannedDays, done: days.count,
                blockWeek: blockDay.map { ProgramWeekPlan(block!, onDay: $0, rules: .default) })
        }
    }

    /// An active program's plan: its days per week and each day's sets.
    struct Plan {
        let start: Int64
        let perWeek: Double
        /// The program's weekdays, when it is scheduled: planned sessions are its days, not a weekly rate.
        let schedule: Schedule
        let setsPerDay: [Int]
        let averageSets: Double

        /// With planned weeks: the sets of each program day in each week of the block (by week, 1-based).
        let block: ProgramBlock?
        let setsPerDayByWeek: [Int: [Int]]

        init(_ p: ProgramCatalogState.Program, library: LibraryState, rules: RuleSet) {
            start = p.createdAt.millis
            perWeek = Double(p.generated.sessions.count)
            schedule = Schedule(p)
            setsPerDay = p.generated.sessions.map { $0.exercises.reduce(0) { $0 + $1.sets } }
            averageSets = Self.average(setsPerDay)
            block = p.weekPlan
            setsPerDayByWeek = Dictionary(
                uniqueKeysWithValues: block.map { ProgramWeekPlan.weeks($0, rules: rules) }?.map { w in
                    (w.week, w.sets(p.generated, library: library, minutes: p.sessionMinutes).map { $0.reduce(0, +) })
                } ?? [])
        }

        static func average(_ sets: [Int]) -> Double { sets.isEmpty ? 0 : Double(sets.reduce(0, +)) / Double(sets.count) }

        /// Each program day's sets in the week of `day` (local days since 1970-01-01).
        func setsPerDay(onDay day: Int64) -> [Int] {
            block.flatMap { setsPerDayByWeek[$0.position(onDay: day).week] } ?? setsPerDay
        }

        /// Planned sets over the window's days, each day's sessions at its week's average sets: a scheduled day plans
        /// one session, an unscheduled program its days per week pro rata, from the day it was made.
        func plannedSets(now: Timestamp, days: Int64) -> Double {
            let today = now.local.daysSinceEpoch
            let made = Timestamp(millis: start).local.daysSinceEpoch
            return (max(today - days + 1, made)...max(today, made)).reduce(0.0) { total, d in
                guard d <= today else { return total }
                let sessions = schedule.isEmpty ? perWeek / 7 : (schedule.plans(d) ? 1 : 0)
                return total + sessions * Self.average(setsPerDay(onDay: d))
            }
        }

        /// The part of the `days` before `now` that the program covers → (from, to, planned sessions).
        func window(now: Timestamp, days: Int64) -> (Int64, Int64, Double) {
            let from = max(now.millis - days * ClientProgress.day, start), to = now.millis
            if !schedule.isEmpty {
                // The scheduled days among the window's last `days` dates (the schedule starts on the program's own day).
                let today = now.local.daysSinceEpoch
                return (from, to, Double(schedule.count(today - days + 1, today)))
            }
            return (from, to, to > from ? perWeek * Double(to - from) / Double(7 * ClientProgress.day) : 0)
        }

        func done(_ workouts: [WorkoutState], _ from: Int64, _ to: Int64) -> [WorkoutState] {
            workouts.filter { ($0.startedAt?.millis ?? .min) >= from && ($0.startedAt?.millis ?? .max) <= to }
        }

        func sessions(_ workouts: [WorkoutState], now: Timestamp, days: Int64) -> Double {
            let (from, to, planned) = window(now: now, days: days)
            return ratio(Double(done(workouts, from, to).count), planned)
        }

        func sets(_ workouts: [WorkoutState], now: Timestamp, days: Int64) -> Double {
            let (from, to, planned) = window(now: now, days: days)
            let doneSets = done(workouts, from, to).reduce(0.0) { total, w in
                let day = setsPerDay(onDay: w.startedAt?.local.daysSinceEpoch ?? 0)
                let cap = w.programDayIndex.flatMap { day.indices.contains($0) ? Double(day[$0]) : nil } ?? Self.average(day)
                return total + min(Double(w.sets.filter { $0.completed && $0.type.isWorking }.count), cap)
            }
            return ratio(doneSets, block == nil ? planned * averageSets : plannedSets(now: now, days: days))
        }

        func ratio(_ done: Double, _ planned: Double) -> Double {
            planned <= 0 ? 1 : rounded(min(1, done / planned), 3)
        }
    }
}

func rounded(_ x: Double, _ places: Int) -> Double {
    let scale = pow(10, Double(places))
    return (x * scale).rounded() / scale
}

extension ClientProgress {
    /// The figures of a roster row (SERVER-CONTRACT.md §8), after `accountId` and `name`.
    public var rosterFields: [(String, JSONValue)] {
        [
            ("lastWorkoutAt", .optional(lastWorkoutAt?.iso8601)),
            ("daysSinceLastWorkout", daysSinceLastWorkout.map { .int(Int64($0)) } ?? .null),
            ("workoutsLast7Days", .int(Int64(workoutsLast7Days))), ("recordsLast7Days", .int(Int64(records7.count))),
            ("program", .optional(program)),
            (
                "compliance",
                compliance.map { c in
                    .object([
                        ("sessions7", .number(c.sessions7)), ("sessions30", .number(c.sessions30)), ("sets7", .number(c.sets7)),
                        ("sets30", .number(c.sets30)),
                    ])
                } ?? .null
            ),
            ("previousSessions30", previousSessions30.map(JSONValue.number) ?? .null),
            ("weeklyVolumeKg", .number(weeklyVolumeKg)), ("weeklyVolumeChangeKg", .number(weeklyVolumeChangeKg)),
            ("bodyweightKg", bodyweightKg.map(JSONValue.number) ?? .null),
            ("bodyweightChange30DaysKg", bodyweightChange30DaysKg.map(JSONValue.number) ?? .null),
            ("needsAttention", .bool(needsAttention)), ("reasons", .array(reasons.map { .string($0.rawValue) })),
        ]
    }

    /// `GET /v1/accounts/{client}/progress`: the roster's figures and what the client's page shows besides.
    public var document: JSONValue {
        .object(
            rosterFields + [
                (
                    "records7",
                    .array(
                        records7.map {
                            .object([
                                ("exercise", .string($0.exercise)), ("kind", .string($0.record.kind.rawValue)), ("value", .number($0.record.value)),
                                ("at", .string($0.record.at.iso8601)), ("weightKg", .optional($0.record.weightKg)),
                                ("reps", .optional($0.record.reps)),
                                ("repMax", .optional($0.record.repMax)),
                            ])
                        })
                ),
                (
                    "weeks",
                    .array(
                        weeks.map { w in
                            .object([
                                ("monday", .string(w.monday)), ("planned", w.planned.map(JSONValue.number) ?? .null), ("done", .int(Int64(w.done))),
                                ("trainedDays", .array(w.trainedDays.map(JSONValue.string))),
                                ("plannedDays", .array(w.plannedDays.map(JSONValue.string))),
                                ("blockWeek", w.blockWeek.map(ProgressionQuery.weekDocument) ?? .null),
                            ])
                        })
                ),
                (
                    "lastSession",
                    lastSession.map { s in
                        .object([
                            ("workoutId", .string(s.workoutId.lowercased)), ("name", .string(s.name)), ("startedAt", .string(s.startedAt.iso8601)),
                            (
                                "sets",
                                .array(
                                    s.sets.map { l in
                                        .object([
                                            ("exercise", .string(l.exercise)), ("weightKg", l.weightKg.map(JSONValue.number) ?? .null),
                                            ("reps", l.reps.map { .int(Int64($0)) } ?? .null),
                                            ("durationSeconds", l.durationSeconds.map(JSONValue.number) ?? .null),
                                        ])
                                    })
                            ),
                        ])
                    } ?? .null
                ),
            ])
    }
}

extension Double {
    /// Kilograms to a tenth, as the dashboard prints them: 150, 102.5.
    fileprivate var formattedKg: String { ((self * 10).rounded() / 10).formatted }
}
