import Foundation
import RepLedgerCore

/// Records and weekly volume carried from one fold of a log to the next, for
/// a reader that steps through positions (the inspector's As-of view): when
/// the fold moves a few events, only the exercises and weeks of the workouts
/// those events touched are computed again, each over its own workouts in
/// the same chronological order `PersonalRecordsProjection.compute` and
/// `VolumeProjection.rows` use, so the answers are theirs exactly. An
/// exercise keeps its records over every workout but its latest (a prefix of
/// the records fold), so a step that touches its latest workout adds that
/// one workout to them. An event outside a workout (the library, settings,
/// the body) may move any number, and then everything is computed afresh.
public struct StepViews: Sendable {
    /// The rules the kept records and weeks were computed under.
    public private(set) var rules: RuleSet?
    /// The position the kept records and weeks answer for; nil before the first answer.
    public private(set) var position: Int64?
    private var records: [String: PersonalRecordsProjection.ExerciseRecords] = [:]
    private var exercises: [String: Exercise] = [:]
    private var weeks: [String: Week] = [:]
    /// Every exercise each workout ever had a set of, every week it ever started in, and its place in
    /// the order, in any fold noted: with these, what a move touched is found whichever way the fold moved.
    private var exercisesOf: [UUID: [String]] = [:]
    private var weekOf: [UUID: [String]] = [:]
    private var workoutsIn: [String: Set<UUID>] = [:]
    private var keyOf: [UUID: TrainingLogProjection.OrderKey] = [:]

    /// One exercise's workouts in order, and its records over those before `prefixEnd`.
    struct Exercise: Sendable {
        /// Every workout that ever had a set of it, by its place in the order (stale places skipped when read).
        var workouts: [TrainingLogProjection.OrderKey] = []
        var prefixEnd: TrainingLogProjection.OrderKey?
        var prefix: PersonalRecordsProjection.ExerciseRecords?
    }

    struct Week: Sendable {
        var row: VolumeProjection.Row
        /// The week's first counted workout, which places its row as `VolumeProjection.rows` does.
        var first: TrainingLogProjection.OrderKey
    }

    public init() {}

    /// Notes a workout as a fold holds it (after each event that touched it).
    public mutating func note(_ w: WorkoutState) {
        let id = w.workoutId, key = TrainingLogProjection.OrderKey(w)
        let moved = keyOf[id] != key
        if moved { keyOf[id] = key }
        for s in w.sets {
            let known = exercisesOf[id, default: []]
            if moved || !known.contains(s.exerciseId) {
                if !known.contains(s.exerciseId) { exercisesOf[id] = known + [s.exerciseId] }
                exercises[s.exerciseId, default: Exercise()].insert(key)
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
            records = [:]
            for x in Array(exercises.keys) {
                exercises[x]?.prefixEnd = nil
                records[x] = computed(x, log, rules)
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
            var moved = Set<String>(), periods = Set<String>()
            for id in touched {
                for x in exercisesOf[id] ?? [] {
                    moved.insert(x)
                    // A change before the kept prefix's end: the prefix no longer holds.
                    if let end = exercises[x]?.prefixEnd, let key = keyOf[id], key < end { exercises[x]?.prefixEnd = nil }
                }
                periods.formUnion(weekOf[id] ?? [])
            }
            for x in moved { records[x] = computed(x, log, rules) }
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

    /// `x`'s records: its kept prefix and the workouts from the prefix's end, or, without a prefix, all its
    /// workouts, keeping a new prefix over all but the last.
    private mutating func computed(_ x: String, _ log: TrainingLogProjection, _ rules: RuleSet) -> PersonalRecordsProjection.ExerciseRecords? {
        guard var e = exercises[x] else { return nil }
        var acc: PersonalRecordsProjection.Accumulator
        var start = 0
        if let end = e.prefixEnd {
            acc = .init(rules: rules, records: e.prefix.map { [$0] } ?? [], timeline: false)
            start = e.index(of: end)
        } else {
            acc = .init(rules: rules, timeline: false)
            let last = max(0, e.workouts.count - 1)
            for key in e.workouts[..<last] { add(key, x, log, &acc) }
            e.prefixEnd = e.workouts.isEmpty ? nil : e.workouts[last]
            e.prefix = acc.byExercise[x]
            start = last
        }
        for key in e.workouts[start...] { add(key, x, log, &acc) }
        exercises[x] = e
        return acc.byExercise[x]
    }

    /// One workout into `x`'s records, when it counts and still stands at that place in the order.
    private func add(
        _ key: TrainingLogProjection.OrderKey, _ x: String, _ log: TrainingLogProjection, _ acc: inout PersonalRecordsProjection.Accumulator
    ) {
        guard let w = log.workouts[key.id], w.counts, TrainingLogProjection.OrderKey(w) == key else { return }
        acc.add(w, library: log.library, only: x)
    }
}

extension StepViews.Exercise {
    /// The first index whose place is not before `key`.
    func index(of key: TrainingLogProjection.OrderKey) -> Int {
        var low = 0, high = workouts.count
        while low < high {
            let mid = (low + high) / 2
            if workouts[mid] < key { low = mid + 1 } else { high = mid }
        }
        return low
    }

    mutating func insert(_ key: TrainingLogProjection.OrderKey) {
        let i = index(of: key)
        if i < workouts.count, workouts[i] == key { return }
        workouts.insert(key, at: i)
    }
}

extension TrainingLogProjection {
    /// The counted workouts among `ids`, in the order `countedWorkouts` walks them.
    func counted(_ ids: Set<UUID>) -> [WorkoutState] {
        ids.compactMap { workouts[$0].flatMap { $0.counts ? $0 : nil } }.map { (OrderKey($0), $0) }.sorted { $0.0 < $1.0 }.map(\.1)
    }
}
