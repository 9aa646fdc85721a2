import Foundation
import RepLedgerCore

/// Training volume (DOMAIN.md §5): completed counted sets and tonnage
/// (Σ weight × reps in kg; bodyweight sets add a set and 0 kg), grouped by
/// workout, ISO week, muscle group or exercise.
///
/// Muscle groups: a set counts, with its tonnage, for the exercise's first
/// primary muscle. Secondary muscles are reported apart, as `secondarySets`
/// (sets only, no tonnage), so the primary numbers stay comparable with
/// other apps while the indirect work on a muscle is still visible.
public struct VolumeProjection: ProjectionView {
    public static let name = "volume"
    public static let version = 1

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
        var rows: [String: Row] = [:]
        var order: [String] = []
        func add(_ key: String, _ label: String, sets: Int, tonnage: Double, secondary: Int = 0) {
            if rows[key] == nil {
                rows[key] = Row(key: key, label: label, sets: 0, tonnageKg: 0, secondarySets: 0)
                order.append(key)
            }
            rows[key]!.sets += sets
            rows[key]!.tonnageKg += tonnage
            rows[key]!.secondarySets += secondary
        }
        for w in log.countedWorkouts {
            let sets = w.countedSets(rules: rules)
            switch grouping {
            case .workout, .week:
                // One key per workout, not per set: keys are strings, and there are many sets.
                guard !sets.isEmpty else { continue }
                let key = grouping == .week ? w.startedAt!.local.isoWeekKey : w.workoutId.lowercased
                let label = grouping == .week ? key : "\(w.startedAt!.isoDate) \(w.name)"
                add(key, label, sets: sets.count, tonnage: sets.reduce(0) { $0 + $1.volumeKg })
            case .exercise:
                for s in sets { add(s.exerciseId, log.exerciseName(s.exerciseId), sets: 1, tonnage: s.volumeKg) }
            case .muscle:
                for s in sets {
                    let definition = log.library.exercises[s.exerciseId]?.definition
                    let primary = definition?.primaryMuscles.first?.rawValue ?? "unknown"
                    add(primary, primary, sets: 1, tonnage: s.volumeKg)
                    for m in definition?.secondaryMuscles ?? [] { add(m.rawValue, m.rawValue, sets: 0, tonnage: 0, secondary: 1) }
                }
            }
        }
        let ordered = order.compactMap { rows[$0] }
        switch grouping {
        case .workout, .week: return ordered
        case .muscle, .exercise: return ordered.sorted { ($0.sets, $0.tonnageKg, $1.key) > ($1.sets, $1.tonnageKg, $0.key) }
        }
    }
}
