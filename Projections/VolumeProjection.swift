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

    /// The rows of some of the log's counted workouts, given in chronological order (`StepViews` computes a week again from its own).
    static func rows(_ log: TrainingLogProjection, by grouping: Grouping, rules: RuleSet, workouts: some Sequence<WorkoutState>) -> [Row] {
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
        var bodyweightExercise: [String: Bool] = [:]
        func tonnage(_ s: WorkoutState.SetRecord, _ w: WorkoutState) -> Double {
            loaded(s, w) * log.library.volumeSides(s.exerciseId)
        }
        func loaded(_ s: WorkoutState.SetRecord, _ w: WorkoutState) -> Double {
            guard rules.bodyweightTonnage, (s.weightKg ?? 0) == 0, let reps = s.metrics.reps, reps > 0 else { return s.volumeKg }
            let isBodyweight =
                bodyweightExercise[s.exerciseId]
                ?? {
                    // The body is the load: bodyweight work, and the pull-up bar's pull-ups and chin-ups.
                    let gear = log.library.exercises[s.exerciseId]?.definition.equipment ?? []
                    let b = gear.contains(.bodyweight) || gear.contains(.pullUpBar)
                    bodyweightExercise[s.exerciseId] = b
                    return b
                }()
            guard isBodyweight, let kg = log.body.kilograms(atOrBefore: s.completedAt ?? w.startedAt!) else { return s.volumeKg }
            return kg * Double(reps)
        }
        for w in workouts {
            switch grouping {
            case .workout, .week:
                // One key per workout, not per set: keys are strings, and there are many sets.
                var count = 0, total = 0.0
                for s in w.sets where s.completed && rules.counts(s.type) {
                    count += 1
                    total += tonnage(s, w)
                }
                guard count > 0 else { continue }
                let key = grouping == .week ? w.startedAt!.local.isoWeekKey : w.workoutId.lowercased
                add(key, grouping == .week ? key : "\(w.startedAt!.isoDate) \(w.name)", sets: count, tonnage: total)
            case .exercise:
                for s in w.sets where s.completed && rules.counts(s.type) {
                    add(s.exerciseId, log.exerciseName(s.exerciseId), sets: 1, tonnage: tonnage(s, w))
                }
            case .muscle:
                for s in w.sets where s.completed && rules.counts(s.type) {
                    let m: (primary: String, secondary: [Muscle])
                    if let known = muscles[s.exerciseId] {
                        m = known
                    } else {
                        let definition = log.library.exercises[s.exerciseId]?.definition
                        m = (definition?.primaryMuscles.first?.rawValue ?? "unknown", definition?.secondaryMuscles ?? [])
                        muscles[s.exerciseId] = m
                    }
                    add(m.primary, m.primary, sets: 1, tonnage: tonnage(s, w))
                    for x in m.secondary { add(x.rawValue, x.rawValue, sets: 0, tonnage: 0, secondary: 1) }
                }
            }
        }
        let ordered = list
        switch grouping {
        case .workout, .week: return ordered
        case .muscle, .exercise: return ordered.sorted { ($0.sets, $0.tonnageKg, $1.key) > ($1.sets, $1.tonnageKg, $0.key) }
        }
    }
}
