import Foundation
import RepLedgerCore

/// Training volume (DOMAIN.md §5): completed counted sets and tonnage
/// (Σ weight × reps in kg; bodyweight sets add a set and 0 kg, or, under the
/// `bodyweightTonnage` rule, the latest weigh-in × reps for bodyweight
/// exercises), grouped by workout, ISO week, muscle group or exercise.
///
/// Muscle groups: a set counts, with its tonnage, for the exercise's first
/// primary muscle. Secondary muscles are reported apart, as `secondarySets`
/// (sets only, no tonnage), so the primary numbers stay comparable with
/// other apps while the indirect work on a muscle is still visible.
public struct VolumeProjection: ProjectionView {
    public static let name = "volume"
    /// 2: a unilateral exercise's sets count each side once.
    public static let version = 2

    public enum Grouping: String, Sendable, CaseIterable {
        case workout, week, muscle, exercise
    }

    public struct Row: Sendable, Equatable {
        public var key: String
        public var label: String
        public var sets: Int
        public var tonnageKg: Double
        public var secondarySets: Int
    }

    public static func rows(_ log: TrainingLogProjection, by grouping: Grouping, rules: RuleSet = .default) -> [Row] {
        rows(log, by: grouping, rules: rules, workouts: log.countedWorkouts)
    }

    /// One counted workout's part of the `workout` and `week` rows: a device
    /// stores these at its head (`VolumeHeadProjection`), so that those rows,
    /// windowed or not, need no fold.
    public struct WorkoutTotal: Sendable, Equatable {
        public var startedAt: Timestamp
        /// The workout's id, lowercased: its key in the `workout` rows.
        public var workoutKey: String
        /// Its ISO week in its own zone: its key in the `week` rows.
        public var weekKey: String
        public var label: String
        public var sets: Int
        public var tonnageKg: Double
    }

    /// The totals of the log's counted workouts that count any set, in chronological order.
    public static func workoutTotals(_ log: TrainingLogProjection, rules: RuleSet = .default) -> [WorkoutTotal] {
        workoutTotals(log, rules: rules, workouts: log.countedWorkouts)
    }

    /// When each workout `workoutTotals` lists started, without adding up its tonnage.
    public static func countedStarts(_ log: TrainingLogProjection, rules: RuleSet = .default) -> [Timestamp] {
        log.countedWorkouts.compactMap { w in w.sets.contains { $0.completed && rules.counts($0.type) } ? w.startedAt : nil }
    }

    static func workoutTotals(_ log: TrainingLogProjection, rules: RuleSet, workouts: some Sequence<WorkoutState>) -> [WorkoutTotal] {
        var loads = Loads(log: log, rules: rules)
        var totals: [WorkoutTotal] = []
        for w in workouts {
            // One key per workout, not per set: keys are strings, and there are many sets.
            var count = 0, total = 0.0
            for s in w.sets where s.completed && rules.counts(s.type) {
                count += 1
                total += loads.tonnage(s, w)
            }
            guard count > 0, let started = w.startedAt else { continue }
            totals.append(
                WorkoutTotal(
                    startedAt: started, workoutKey: w.workoutId.lowercased, weekKey: started.local.isoWeekKey,
                    label: "\(started.isoDate) \(w.name)", sets: count, tonnageKg: total))
        }
        return totals
    }

    /// The `workout` or `week` rows of these totals, in their order; the other groupings count sets, not workouts, and are empty here.
    public static func rows(_ totals: some Sequence<WorkoutTotal>, by grouping: Grouping) -> [Row] {
        var index: [String: Int] = [:]
        var list: [Row] = []
        guard grouping == .workout || grouping == .week else { return [] }
        for t in totals {
            let key = grouping == .week ? t.weekKey : t.workoutKey
            if let i = index[key] {
                list[i].sets += t.sets
                list[i].tonnageKg += t.tonnageKg
            } else {
                index[key] = list.count
                list.append(Row(key: key, label: grouping == .week ? key : t.label, sets: t.sets, tonnageKg: t.tonnageKg, secondarySets: 0))
            }
        }
        return list
    }

    /// A set's tonnage under the rules, with what it looks up cached per exercise.
    struct Loads {
        let log: TrainingLogProjection
        let rules: RuleSet
        private var bodyweightExercise: [String: Bool] = [:]

        init(log: TrainingLogProjection, rules: RuleSet) {
            self.log = log
            self.rules = rules
        }

        mutating func tonnage(_ s: WorkoutState.SetRecord, _ w: WorkoutState) -> Double {
            loaded(s, w) * log.library.volumeSides(s.exerciseId)
        }

        private mutating func loaded(_ s: WorkoutState.SetRecord, _ w: WorkoutState) -> Double {
            guard rules.bodyweightTonnage, (s.weightKg ?? 0) == 0, let reps = s.metrics.reps, reps > 0 else { return s.volumeKg }
            let isBodyweight =
                bodyweightExercise[s.exerciseId]
                ?? {
                    // The body is the load: bodyweight work, and the pull-up bar's pull-ups and chin-ups.
                    let gear = log.library.exercises[s.exerciseId]?.definition.equipment ?? []
                    return gear.contains(.bodyweight) || gear.contains(.pullUpBar)
                }()
            bodyweightExercise[s.exerciseId] = isBodyweight
            guard isBodyweight, let kg = log.body.kilograms(atOrBefore: s.completedAt ?? w.startedAt!) else { return s.volumeKg }
            return kg * Double(reps)
        }
    }

    /// The rows of some of the log's counted workouts, given in chronological order (`StepViews` computes a week again from its own).
    static func rows(_ log: TrainingLogProjection, by grouping: Grouping, rules: RuleSet, workouts: some Sequence<WorkoutState>) -> [Row] {
        if grouping == .workout || grouping == .week {
            return rows(workoutTotals(log, rules: rules, workouts: workouts), by: grouping)
        }
        var index: [String: Int] = [:]
        var list: [Row] = []
        func add(_ key: String, _ label: @autoclosure () -> String, sets: Int, tonnage: Double, secondary: Int = 0) {
            let i: Int
            if let found = index[key] {
                i = found
            } else {
                i = list.count
                index[key] = i
                list.append(Row(key: key, label: label(), sets: 0, tonnageKg: 0, secondarySets: 0))
            }
            list[i].sets += sets
            list[i].tonnageKg += tonnage
            list[i].secondarySets += secondary
        }
        // Muscles per exercise, looked up once per exercise rather than once per set.
        var muscles: [String: (primary: String, secondary: [Muscle])] = [:]
        var loads = Loads(log: log, rules: rules)
        for w in workouts {
            for s in w.sets where s.completed && rules.counts(s.type) {
                if grouping == .exercise {
                    add(s.exerciseId, log.exerciseName(s.exerciseId), sets: 1, tonnage: loads.tonnage(s, w))
                    continue
                }
                let m: (primary: String, secondary: [Muscle])
                if let known = muscles[s.exerciseId] {
                    m = known
                } else {
                    let definition = log.library.exercises[s.exerciseId]?.definition
                    m = (definition?.primaryMuscles.first?.rawValue ?? "unknown", definition?.secondaryMuscles ?? [])
                    muscles[s.exerciseId] = m
                }
                add(m.primary, m.primary, sets: 1, tonnage: loads.tonnage(s, w))
                for x in m.secondary { add(x.rawValue, x.rawValue, sets: 0, tonnage: 0, secondary: 1) }
            }
        }
        return list.sorted { ($0.sets, $0.tonnageKg, $1.key) > ($1.sets, $1.tonnageKg, $0.key) }
    }
}
