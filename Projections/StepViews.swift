import Foundation
import RepLedgerCore

/// Records and weekly volume carried from one fold of a log to the next, for
/// a reader that steps through positions (the inspector's As-of view): when
/// the fold moves a few events, only the exercises and weeks of the workouts
/// those events touched are computed again, so the answers are
/// `PersonalRecordsProjection.compute`'s and `VolumeProjection.rows`' exactly.
/// Current records are bests (a maximum, or a minimum for assistance), which
/// do not depend on the order workouts are read in: an exercise keeps its
/// records over all its workouts but those a step touched lately, and a step
/// that touches one of those adds it to them, whether the log was written in
/// order or imported newest first. An event outside a workout (the library,
/// settings, the body) may move any number, and then everything is computed
/// afresh.
public struct StepViews: Sendable {
    /// The rules the kept records and weeks were computed under.
    public private(set) var rules: RuleSet?
    /// The position the kept records and weeks answer for; nil before the first answer.
    public private(set) var position: Int64?
    private var records: [String: PersonalRecordsProjection.ExerciseRecords] = [:]
    private var exercises: [String: Exercise] = [:]
    private var weeks: [String: Week] = [:]
    /// Every exercise each workout ever had a set of, and every week it ever started in, in any fold
    /// noted: with these, what a move touched is found whichever way the fold moved.
    private var exercisesOf: [UUID: [String]] = [:]
    private var weekOf: [UUID: [String]] = [:]
    private var workoutsIn: [String: Set<UUID>] = [:]

    /// One exercise's workouts, and its records over all of them but `outside`.
    struct Exercise: Sendable {
        /// Every workout that ever had a set of it.
        var workouts: Set<UUID> = []
        var kept = false
        var prefix: PersonalRecordsProjection.ExerciseRecords?
        /// Workouts not in `prefix`: touched since it was kept, or new to the exercise.
        var outside: [UUID] = []
    }

    /// Past this many workouts outside its kept records, an exercise's records are kept anew.
    static let outsideLimit = 32

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
            let known = exercisesOf[id, default: []]
            guard !known.contains(s.exerciseId) else { continue }
            exercisesOf[id] = known + [s.exerciseId]
            var e = exercises[s.exerciseId, default: Exercise()]
            e.workouts.insert(id)
            if e.kept { e.outside.append(id) }
            exercises[s.exerciseId] = e
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
            records = [:]
            for x in Array(exercises.keys) {
                exercises[x]?.kept = false
                records[x] = computed(x, touched: [], log, rules)
            }
            weeks = [:]
            for w in log.countedWorkouts {
                guard let row = VolumeProjection.rows(log, by: .week, rules: rules, workouts: CollectionOfOne(w)).first else { continue }
                if var known = weeks[row.key] {
                    known.row.sets += row.sets
                    known.row.tonnageKg += row.tonnageKg
                    weeks[row.key] = known
                } else {
                    weeks[row.key] = Week(row: row, first: .init(w))
                }
            }
        } else if let touched, !touched.isEmpty {
            var moved: [String: Set<UUID>] = [:], periods = Set<String>()
            for id in touched {
                for x in exercisesOf[id] ?? [] { moved[x, default: []].insert(id) }
                periods.formUnion(weekOf[id] ?? [])
            }
            for (x, ids) in moved { records[x] = computed(x, touched: ids, log, rules) }
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

    /// `x`'s records: those kept and its workouts outside them. When a workout kept in them was touched
    /// (or too many are outside), they are kept anew over all but the touched ones.
    private mutating func computed(
        _ x: String, touched: Set<UUID>, _ log: TrainingLogProjection, _ rules: RuleSet
    ) -> PersonalRecordsProjection.ExerciseRecords? {
        guard var e = exercises[x] else { return nil }
        if !e.kept || !touched.isSubset(of: e.outside) || e.outside.count > Self.outsideLimit {
            var acc = PersonalRecordsProjection.Accumulator(rules: rules, timeline: false)
            for id in e.workouts where !touched.contains(id) { add(id, x, log, &acc) }
            e.kept = true
            e.prefix = acc.byExercise[x]
            e.outside = Array(touched)
        }
        var acc = PersonalRecordsProjection.Accumulator(rules: rules, records: e.prefix.map { [$0] } ?? [], timeline: false)
        for id in e.outside { add(id, x, log, &acc) }
        exercises[x] = e
        return acc.byExercise[x]
    }

    /// One workout into `x`'s records, when it counts in this fold.
    private func add(_ id: UUID, _ x: String, _ log: TrainingLogProjection, _ acc: inout PersonalRecordsProjection.Accumulator) {
        guard let w = log.workouts[id], w.counts else { return }
        acc.add(w, library: log.library, only: x)
    }
}

extension TrainingLogProjection {
    /// The counted workouts among `ids`, in the order `countedWorkouts` walks them.
    func counted(_ ids: Set<UUID>) -> [WorkoutState] {
        ids.compactMap { workouts[$0].flatMap { $0.counts ? $0 : nil } }.map { (OrderKey($0), $0) }.sorted { $0.0 < $1.0 }.map(\.1)
    }
}
