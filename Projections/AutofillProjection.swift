import Foundation
import RepLedgerCore

/// What a new set starts with, by one rule (docs/RULES.md, "Auto-fill"):
/// a set the workout plans starts from its plan, the target the template
/// or program set for this session; what the plan leaves open of the load
/// (a template of sets × reps gives no weight) comes from the matching set
/// (same set number) of the last workout with the exercise; a set beyond
/// the plan starts from that matching set; else nothing. Effort (RPE or
/// RIR, as entered) and equipment (a band's colour, an implement's value)
/// always come from that matching set: a plan holds neither.
///
/// The plan wins because it is what `workout show` lists and what
/// completing a planned set records: a fill that disagreed with it would
/// show a lifter two numbers for one set.
public struct AutofillProjection: ProjectionView {
    public static let name = "autofill"
    /// 2: a planned set starts from its plan, not from the last workout.
    /// 3: effort and equipment from the last workout's matching set.
    public static let version = 3

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
        /// Where the values come from: the plan, else the last workout.
        public var source: Source? = nil
        /// Where the weight comes from, when it is not `source` (the last workout filling a plan's open weight).
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
        guard let planned else {
            details.metrics = matching
            details.source = matching == nil ? nil : .lastWorkout
            return details
        }
        var plan = carried(planned.metrics)
        let source: Source = w.origin == .programDay ? .program : .template
        var weightSource: Source?
        if plan.weight == nil, let weight = matching?.weight {
            plan.weight = weight
            weightSource = .lastWorkout
        }
        details.metrics = plan
        details.source = source
        details.weightSource = weightSource
        return details
    }

    private static func carried(_ m: SetMetrics) -> SetMetrics {
        SetMetrics(weight: m.weight, reps: m.reps, durationSeconds: m.durationSeconds, distanceMeters: m.distanceMeters)
    }
}
