import Foundation
import RepLedgerCore

/// Estimated one-rep max over time (DOMAIN.md §3): for one exercise, the best
/// e1RM of each workout and of each ISO week, under any formula. Only
/// completed counted sets with weight > 0 and 1 ≤ reps ≤ the rep cap count.
public struct E1RMTrendProjection: ProjectionView {
    public static let name = "e1rm-trend"
    public static let version = 1

    public struct Point: Sendable, Equatable {
        public var workoutId: UUID
        public var date: Timestamp
        public var e1rmKg: Double
        /// The set that gave it.
        public var weightKg: Double
        public var reps: Int
        public var setId: UUID? = nil
    }

    public struct Week: Sendable, Equatable {
        public var week: String
        public var e1rmKg: Double
    }

    public static func points(_ log: TrainingLogProjection, exerciseId: String, rules: RuleSet = .default) -> [Point] {
        log.countedWorkouts.compactMap { w -> Point? in
            var best: Point?
            for s in w.sets where s.completed && s.exerciseId == exerciseId && rules.counts(s.type) {
                guard let kg = s.weightKg, kg > 0, let reps = s.metrics.reps, reps >= 1, reps <= rules.e1rmRepCap else { continue }
                let e = rules.e1rm(kg: kg, reps: reps, rpe: { w.rpe(of: s) })
                if e > (best?.e1rmKg ?? 0) {
                    best = Point(workoutId: w.workoutId, date: w.startedAt!, e1rmKg: e, weightKg: kg, reps: reps, setId: s.setId)
                }
            }
            return best
        }
    }

    /// The best of each ISO week (local to the workout), in week order.
    public static func weeks(_ points: [Point]) -> [Week] {
        var best: [String: Double] = [:]
        for p in points { best[p.date.local.isoWeekKey] = max(best[p.date.local.isoWeekKey] ?? 0, p.e1rmKg) }
        return best.keys.sorted().map { Week(week: $0, e1rmKg: best[$0]!) }
    }
}
