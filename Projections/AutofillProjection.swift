import Foundation
import RepLedgerCore

/// What a new set starts with, in seed 002's order (docs/RULES.md,
/// "Auto-fill"; DOMAIN.md §13): the matching set (same set number) of the
/// last workout with the exercise, else the target the template or program
/// plans for this set, else nothing. What the last workout's set leaves open
/// of the load (a set logged with reps alone) comes from the plan. Effort
/// (RPE or RIR, as entered) and equipment (a band's colour, an implement's
/// value) come from that matching set: a plan holds neither.
///
/// The plan stays what `workout show` lists as the target and what
/// `workout complete` records when given no values; the fill is what the
/// lifter did last time, the number to beat.
public struct AutofillProjection: ProjectionView {
    public static let name = "autofill"
    /// 2: a planned set starts from its plan, not from the last workout.
    /// 3: effort and equipment from the last workout's matching set.
    /// 4: the seed's order again: the last workout's matching set, then the plan, then nothing.
    public static let version = 4

    public enum Source: String, Sendable {
        case lastWorkout, template, program
    }

    public struct Fill: Sendable, Equatable {
        /// The number the new set will have among the exercise's completed sets in the workout (1-based).
        public var setNumber: Int
        /// Weight, reps, duration and distance to start from.
        public var metrics: SetMetrics?
        /// The last workout's matching set's effort (RPE or RIR, as entered) and equipment.
        public var rpe: Double? = nil
        public var rir: Double? = nil
        public var band: String? = nil
        public var implement: String? = nil
        /// Where the values come from: the last workout, else the plan.
        public var source: Source? = nil
        /// Where the weight comes from, when it is not `source` (the plan filling the last workout's open weight).
        public var weightSource: Source? = nil

        public init(setNumber: Int, metrics: SetMetrics? = nil, source: Source? = nil) {
            self.setNumber = setNumber
            self.metrics = metrics
            self.source = source
        }
    }

    public static func next(_ log: TrainingLogProjection, workout w: WorkoutState, exerciseId: String) -> Fill {
        let setNumber = w.sets.filter { $0.exerciseId == exerciseId && $0.completed }.count + 1
        func done(_ x: WorkoutState) -> [WorkoutState.SetRecord] {
            x.sets.filter { $0.exerciseId == exerciseId && $0.completed }.sorted(by: WorkoutState.SetRecord.doneBefore)
        }
        var matching: SetMetrics?
        var details = Fill(setNumber: setNumber)
        if let start = w.startedAt,
            let last = log.lastFinished(startedBefore: start, where: { $0.workoutId != w.workoutId && !done($0).isEmpty })
        {
            let sets = done(last)
            if sets.count >= setNumber {
                let set = sets[setNumber - 1]
                matching = carried(set.metrics)
                let effort = last.effort(of: set.setId)
                details.rpe = set.metrics.rpe
                details.rir = effort?.rir
                details.band = effort?.band
                details.implement = effort?.implement
            }
        }
        let planned = w.sets.filter { $0.exerciseId == exerciseId && !$0.completed }.min { $0.rank < $1.rank }
        let plan = planned.map { carried($0.metrics) }
        let planSource: Source = w.origin == .programDay ? .program : .template
        if var last = matching {
            if last.weight == nil, let weight = plan?.weight {
                last.weight = weight
                details.weightSource = planSource
            }
            details.metrics = last
            details.source = .lastWorkout
        } else if let plan {
            details.metrics = plan
            details.source = planSource
        }
        return details
    }

    private static func carried(_ m: SetMetrics) -> SetMetrics {
        SetMetrics(weight: m.weight, reps: m.reps, durationSeconds: m.durationSeconds, distanceMeters: m.distanceMeters)
    }
}
