import Foundation
import RepLedgerCore

/// What a new set starts with (DOMAIN.md §13): the matching set of the last
/// workout with the exercise (same set number), else the target a template
/// or program planned, else nothing.
public struct AutofillProjection: ProjectionView {
    public static let name = "autofill"
    public static let version = 1

    public enum Source: String, Sendable {
        case lastWorkout, template, program
    }

    public struct Fill: Sendable, Equatable {
        /// The number the new set will have among the exercise's completed sets in the workout (1-based).
        public var setNumber: Int
        /// Weight, reps, duration and distance to start from (no RPE: effort is not carried over).
        public var metrics: SetMetrics?
        public var source: Source?
    }

    public static func next(_ log: TrainingLogProjection, workout w: WorkoutState, exerciseId: String) -> Fill {
        let setNumber = w.sets.filter { $0.exerciseId == exerciseId && $0.completed }.count + 1
        func done(_ x: WorkoutState) -> [WorkoutState.SetRecord] { x.sets.filter { $0.exerciseId == exerciseId && $0.completed } }
        if let start = w.startedAt,
            let last = log.lastFinished(startedBefore: start, where: { $0.workoutId != w.workoutId && !done($0).isEmpty })
        {
            let sets = done(last)
            if sets.count >= setNumber { return Fill(setNumber: setNumber, metrics: carried(sets[setNumber - 1].metrics), source: .lastWorkout) }
        }
        if let planned = w.sets.first(where: { $0.exerciseId == exerciseId && !$0.completed }) {
            return Fill(setNumber: setNumber, metrics: carried(planned.metrics), source: w.origin == .programDay ? .program : .template)
        }
        return Fill(setNumber: setNumber, metrics: nil, source: nil)
    }

    private static func carried(_ m: SetMetrics) -> SetMetrics {
        SetMetrics(weight: m.weight, reps: m.reps, durationSeconds: m.durationSeconds, distanceMeters: m.distanceMeters)
    }
}
