import Foundation
import RepLedgerCore

/// Records and weekly volume carried from one fold of a log to the next, for
/// a reader that steps through positions (the inspector's As-of view): when
/// the fold moves a few events, only the exercises and weeks of the workouts
/// those events touched are computed again, each over its own workouts in
/// the same chronological order `PersonalRecordsProjection.compute` and
/// `VolumeProjection.rows` use, so the answers are theirs exactly. An event
/// outside a workout (the library, settings, the body) may move any number,
/// and then everything is computed afresh.
public struct StepViews: Sendable {
    /// The rules the kept records and weeks were computed under.
    public private(set) var rules: RuleSet?
    /// The position the kept records and weeks answer for; nil before the first answer.
    public private(set) var position: Int64?
    private var records: [String: PersonalRecordsProjection.ExerciseRecords] = [:]
    private var weeks: [String: Week] = [:]
    /// Every exercise each workout ever had a set of, and every week it ever started in, in any fold
    /// noted: with these, what a move touched is found whichever way the fold moved.
    private var exercisesOf: [UUID: [String]] = [:]
    private var workoutsOf: [String: Set<UUID>] = [:]
    private var weekOf: [UUID: [String]] = [:]
    private var workoutsIn: [String: Set<UUID>] = [:]

    struct Week: Sendable {
        var row: VolumeProjection.Row
        /// The week's first counted workout, which places its row as `VolumeProjection.rows` does.
        var first: TrainingLogProjection.OrderKey
    }

    public init() {}

    /// Notes a workout as a fold holds it (after each event that touched it).
    public mutating func note(_ w: WorkoutState) {
        let id = w.workoutId
        for s in w.sets {
            var known = exercisesOf[id, default: []]
            if !known.contains(s.exerciseId) {
                known.append(s.exerciseId)
                exercisesOf[id] = known
                workoutsOf[s.exerciseId, default: []].insert(id)
            }
        }
        if let week = w.startedAt?.local.isoWeekKey, !(weekOf[id]?.contains(week) ?? false) {
            weekOf[id, default: []].append(week)
            workoutsIn[week, default: []].insert(id)
        }
    }

    /// Notes every workout of a fold that was not reached by noted steps (one read from a snapshot).
    public mutating func noteAll(_ log: TrainingLogProjection) {
        for w in log.workouts.values { note(w) }
    }

    /// The records (as `compute(log, rules:, timeline: false)`) and the weekly volume (as
    /// `rows(log, by: .week, rules:)`) at the log's position. `touched`: the workouts the events
    /// between the kept position and the log's touched, or nil when unknown or when an event
    /// outside a workout is among them. Every workout of `log` must have been noted.
    public mutating func answer(
        _ log: TrainingLogProjection, rules: RuleSet, touched: Set<UUID>?
    ) -> (records: [PersonalRecordsProjection.ExerciseRecords], volume: [VolumeProjection.Row]) {
        if position == nil || touched == nil || self.rules != rules {
            self.rules = rules
            var acc = PersonalRecordsProjection.Accumulator(rules: rules, timeline: false)
            for w in log.countedWorkouts { acc.add(w, library: log.library) }
            records = acc.byExercise
            weeks = [:]
            var seen: [String: Week] = [:]
            for w in log.countedWorkouts {
                guard let row = VolumeProjection.rows(log, by: .week, rules: rules, workouts: CollectionOfOne(w)).first else { continue }
                if var known = seen[row.key] {
                    known.row.sets += row.sets
                    known.row.tonnageKg += row.tonnageKg
                    seen[row.key] = known
                } else {
                    seen[row.key] = Week(row: row, first: .init(w))
                }
            }
            weeks = seen
        } else if let touched, !touched.isEmpty {
            var exercises = Set<String>(), periods = Set<String>()
            for id in touched {
                exercises.formUnion(exercisesOf[id] ?? [])
                periods.formUnion(weekOf[id] ?? [])
            }
            for x in exercises {
                var acc = PersonalRecordsProjection.Accumulator(rules: rules, timeline: false)
                for w in log.counted(workoutsOf[x] ?? []) { acc.add(w, library: log.library, only: x) }
                records[x] = acc.byExercise[x]
            }
            for key in periods {
                let ws = log.counted(workoutsIn[key] ?? []).filter { $0.startedAt?.local.isoWeekKey == key }
                let contributing = ws.first { w in w.sets.contains { $0.completed && rules.counts($0.type) } }
                weeks[key] = VolumeProjection.rows(log, by: .week, rules: rules, workouts: ws).first.map {
                    Week(row: $0, first: .init(contributing!))
                }
            }
        }
        position = log.position
        let named = PersonalRecordsProjection.Accumulator(rules: rules, records: Array(records.values), timeline: false).results(names: log.library)
        return (named, weeks.values.sorted { $0.first < $1.first }.map(\.row))
    }
}

extension TrainingLogProjection {
    /// The counted workouts among `ids`, in the order `countedWorkouts` walks them.
    func counted(_ ids: Set<UUID>) -> [WorkoutState] {
        ids.compactMap { workouts[$0].flatMap { $0.counts ? $0 : nil } }.map { (OrderKey($0), $0) }.sorted { $0.0 < $1.0 }.map(\.1)
    }
}
