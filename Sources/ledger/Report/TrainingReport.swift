import Foundation
import LedgerShell
import RepLedgerCore
import RepLedgerProjections

/// The numbers behind the HTML report, read from the fold and its views.
/// The report's "now" is the last workout, so an imported history from years
/// ago reads as well as a current one.
struct TrainingReport {
    struct Lift {
        var name: String
        var points: [(day: Int64, value: Double)]
    }

    struct WorkoutCard {
        var name: String
        var date: String
        var duration: String
        var sets: Int
        var tonnage: String
        var lines: [(exercise: String, best: String, sets: Int)]
        /// The workout's note.
        var note: String? = nil
    }

    var unit: WeightUnit
    var firstDay: Int64 = 0
    var lastDay: Int64 = 0
    var workouts = 0
    var sets = 0
    var tonnageKg = 0.0
    var lifts: [Lift] = []
    var weeks: [(label: String, sets: [Double])] = []
    /// The first and last week charted, with their years: "2025 W42 – 2026 W05".
    var weekSpan: String?
    var muscleGroups: [String] = []
    var records: [(name: String, points: [(day: Int64, label: String)])] = []
    var recordCount = 0
    var recordsFrom: Int64 = 0
    /// The calendar year of the report's now, and the days in it on which any exercise set a heaviest or e1RM record.
    var year = 0
    var recordDaysInYear = 0
    var monthlyTrend: Bool { lastDay - firstDay > 540 }
    var days: [(day: Int64, sets: Int, title: String)] = []
    var recent: [WorkoutCard] = []
    /// Body measurements over time: one line per length (cm), and body fat (%) apart.
    var bodyLengths: [Lift] = []
    var bodyFat: [Lift] = []
    /// Set when the plan limits charts (Free: the last 30 days), with what to say.
    var chartWindow: ChartWindow?
    /// The counted workouts the window leaves out of the e1RM and volume charts.
    var hidden: ChartWindow.Hidden?

    /// The report's main lifts when they are done, in this order: squat, bench press, deadlift, overhead press (barbell).
    static let mainLiftIds = ["back-squat", "barbell-bench-press", "deadlift", "overhead-press"]

    /// Coarse groups for the volume chart: eight colours a person can tell apart.
    static let groups: [(name: String, muscles: Set<Muscle>)] = [
        ("Chest", [.chest]), ("Back", [.back, .lats, .traps, .lowerBack]), ("Shoulders", [.shoulders, .neck]),
        ("Arms", [.biceps, .triceps, .forearms]), ("Legs", [.quads, .hamstrings, .calves, .abductors, .adductors]),
        ("Glutes", [.glutes]), ("Core", [.abs, .obliques]), ("Other", [.fullBody, .cardio]),
    ]

    /// `chartWindow` limits the e1RM and weekly volume charts (DOMAIN.md §10); the rest is never windowed.
    init(_ log: TrainingLogProjection, rules: RuleSet = .default, chartWindow: ChartWindow? = nil) {
        unit = log.account.liftingUnit
        self.chartWindow = chartWindow
        for site in BodySite.allCases {
            let points = log.body.sites.filter { $0.site == site }.map { (day: $0.at.local.daysSinceEpoch, value: $0.measure.normalized) }
            guard !points.isEmpty else { continue }
            let line = Lift(name: BodyMeasureText.site(site).capitalized, points: points)
            if site.isLength { bodyLengths.append(line) } else { bodyFat.append(line) }
        }
        let charted = chartWindow?.apply(to: log) ?? log
        let all = log.countedWorkouts.filter { $0.startedAt != nil }
        hidden = chartWindow?.hidden(VolumeProjection.countedStarts(log, rules: rules))
        guard let last = all.last?.startedAt else { return }
        lastDay = last.local.daysSinceEpoch
        firstDay = all.first!.startedAt!.local.daysSinceEpoch
        workouts = all.count

        var setsByExercise: [String: Int] = [:]
        var perDay: [Int64: (sets: Int, names: [String])] = [:]
        for w in all {
            let counted = w.countedSets(rules: rules)
            sets += counted.count
            tonnageKg += counted.reduce(0) { $0 + log.volumeKg($1) }
            for s in counted where (s.weightKg ?? 0) > 0 { setsByExercise[s.exerciseId, default: 0] += 1 }
            let d = w.startedAt!.local.daysSinceEpoch
            perDay[d, default: (0, [])].sets += counted.count
            perDay[d, default: (0, [])].names.append(w.name)
        }
        days = perDay.sorted { $0.key < $1.key }.map {
            ($0.key, $0.value.sets, "\($0.value.names.joined(separator: ", ")) · \(counted($0.value.sets, "set"))")
        }

        // The main lifts: squat, bench, deadlift and overhead press, those done; the exercises with the most
        // loaded working sets fill the places of those not done.
        let done = Self.mainLiftIds.filter { setsByExercise[$0] != nil }
        let most = setsByExercise.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.map(\.key)
        let main = (done + most.filter { !done.contains($0) }).prefix(4)
        // Weekly bests read well for a season; over years, monthly bests show the trend instead of the noise.
        let monthly = lastDay - firstDay > 540
        lifts = main.map { id in
            let points = E1RMTrendProjection.points(charted, exerciseId: id, rules: rules)
            let weekly = Dictionary(grouping: points) { monthly ? String($0.date.isoDate.prefix(7)) : $0.date.local.isoWeekKey }.values
                .compactMap { week in week.max { $0.e1rmKg < $1.e1rmKg } }
                .sorted { $0.date.millis < $1.date.millis }
            return Lift(name: log.exerciseName(id), points: weekly.map { ($0.date.local.daysSinceEpoch, unit.fromKilograms($0.e1rmKg)) })
        }

        // Weekly working sets by muscle group, the last sixteen weeks with training.
        muscleGroups = Self.groups.map(\.name)
        var byWeek: [String: [Double]] = [:]
        for w in charted.countedWorkouts where w.startedAt != nil {
            let key = w.startedAt!.local.isoWeekKey
            for s in w.countedSets(rules: rules) {
                let muscle = log.library.exercises[s.exerciseId]?.definition.primaryMuscles.first ?? .fullBody
                let g = Self.groups.firstIndex { $0.muscles.contains(muscle) } ?? Self.groups.count - 1
                byWeek[key, default: Array(repeating: 0, count: Self.groups.count)][g] += 1
            }
        }
        let shownWeeks = byWeek.keys.sorted().suffix(16)
        weeks = shownWeeks.map { key in (String(key.suffix(3)), byWeek[key]!) }
        // The bars say W42; the caption says which years ("2025-W42" → "2025 W42").
        if let first = shownWeeks.first, let last = shownWeeks.last {
            weekSpan = [first, last].map { $0.replacingOccurrences(of: "-", with: " ") }.joined(separator: " – ")
        }

        // Records of the last year for the most trained exercises, or of all time when the last year set none.
        let allRecords = PersonalRecordsProjection.compute(log, rules: rules)
        // The year of the report's now, counted as a calendar year: every exercise's record days in it.
        year = CivilCalendar.civil(fromDays: lastDay).0
        let recordDays = allRecords.flatMap { r in
            r.timeline.filter { $0.kind == .heaviest || $0.kind == .e1rm }.map { $0.at.local.daysSinceEpoch }
        }
        recordDaysInYear = Set(recordDays.filter { CivilCalendar.civil(fromDays: $0).0 == year }).count
        let ranked =
            allRecords
            .sorted { (setsByExercise[$0.exerciseId] ?? 0, $1.exercise) > (setsByExercise[$1.exerciseId] ?? 0, $0.exercise) }
            .prefix(8)
        for from in [lastDay - 365, firstDay] {
            recordsFrom = from
            records = ranked.compactMap { r in
                let points = r.timeline.filter { ($0.kind == .heaviest || $0.kind == .e1rm) && $0.at.local.daysSinceEpoch >= from }
                let byDay = Dictionary(grouping: points) { $0.at.local.daysSinceEpoch }
                let dots = byDay.keys.sorted().map { day -> (day: Int64, label: String) in
                    let best = byDay[day]!.max { $0.value < $1.value }!
                    let set =
                        best.weightKg.map { "\(WeightText.show(kg: $0, in: unit)) × \(best.reps ?? 1)" } ?? WeightText.show(kg: best.value, in: unit)
                    return (day, "\(r.exercise): \(set) on \(best.at.isoDate)")
                }
                return dots.isEmpty ? nil : (r.exercise, dots)
            }
            recordCount = records.reduce(0) { $0 + $1.points.count }
            if recordCount > 0 { break }
        }

        recent = WorkoutHistoryProjection.workouts(log, rules: rules, limit: 6).map { w in
            WorkoutCard(
                name: w.name, date: w.startedAt.isoDate,
                duration: w.durationSeconds.map { "\($0 / 60) min" } ?? "",
                sets: w.sets, tonnage: WeightText.show(kg: w.tonnageKg, in: unit),
                lines: w.exercises.map { x in
                    let working = x.sets.filter { $0.type != .warmup }
                    let top = working.max {
                        ($0.weightKg ?? 0, $0.reps ?? 0, $0.metrics.distanceMeters ?? 0, $0.metrics.durationSeconds ?? 0)
                            < ($1.weightKg ?? 0, $1.reps ?? 0, $1.metrics.distanceMeters ?? 0, $1.metrics.durationSeconds ?? 0)
                    }
                    let best =
                        top.map {
                            SetText.describe(
                                kg: $0.weightKg, reps: $0.reps, durationSeconds: $0.metrics.durationSeconds,
                                distanceMeters: $0.metrics.distanceMeters, in: unit, distance: log.account.distanceUnit)
                        } ?? "–"
                    return (x.exercise, best, working.count)
                }, note: w.notes)
        }
    }
}
