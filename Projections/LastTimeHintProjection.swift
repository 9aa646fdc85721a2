import Foundation
import RepLedgerCore

/// "What to beat" (DOMAIN.md §6): for an exercise in a workout starting at
/// time T, the most recent finished workout that started before T and has a
/// completed working set of it. A workout that only listed the exercise does
/// not count. With no such workout the hint is empty, never an error.
public struct LastTimeHintProjection: ProjectionView {
    public static let name = "last-time-hint"
    public static let version = 1

    public struct SetShown: Sendable, Equatable {
        public var weightKg: Double?
        public var reps: Int?
        public init() {}
        public init(weightKg: Double?, reps: Int?) {
            self.weightKg = weightKg
            self.reps = reps
        }
    }

    public struct Hint: Sendable, Equatable {
        public var exerciseId: String
        public var exercise: String
        public var lastWorkoutId: UUID?
        public var date: Timestamp?
        public var ago: String?
        public var bestSet: SetShown?
        public var sets: [SetShown]
    }

    /// What the hint compares with: T, the scope, and for `programDay` the program session.
    public struct Context: Sendable {
        public var time: Timestamp
        public var scope: HintScope
        public var programId: UUID?
        public var programDayIndex: Int?
        /// The workout asking, never its own "last time".
        public var excluding: UUID?

        public init(
            time: Timestamp, scope: HintScope = .exercise, programId: UUID? = nil, programDayIndex: Int? = nil,
            excluding: UUID? = nil
        ) {
            self.time = time
            self.scope = scope
            self.programId = programId
            self.programDayIndex = programDayIndex
            self.excluding = excluding
        }

        /// The context of an existing workout: its start time and program session.
        public init(workout w: WorkoutState, scope: HintScope) {
            self.init(
                time: w.startedAt ?? Timestamp(millis: 0), scope: scope, programId: w.programId,
                programDayIndex: w.programDayIndex, excluding: w.workoutId)
        }
    }

    /// The workout a hint or the rep counter compares with.
    public static func previousWorkout(_ log: TrainingLogProjection, exerciseId: String, context: Context) -> WorkoutState? {
        func last(sameDay: Bool) -> WorkoutState? {
            log.lastFinished(startedBefore: context.time) { w in
                w.workoutId != context.excluding
                    && (!sameDay || (w.programId == context.programId && w.programDayIndex == context.programDayIndex))
                    && !w.workingSets(of: exerciseId).isEmpty
            }
        }
        switch context.scope {
        case .exercise: return last(sameDay: false)
        case .programDay: return last(sameDay: true)
        case .auto: return context.programId == nil ? last(sameDay: false) : last(sameDay: true) ?? last(sameDay: false)
        }
    }

    public static func hint(_ log: TrainingLogProjection, exerciseId: String, context: Context) -> Hint {
        var hint = Hint(
            exerciseId: exerciseId, exercise: log.exerciseName(exerciseId), lastWorkoutId: nil, date: nil,
            ago: nil, bestSet: nil, sets: [])
        guard let w = previousWorkout(log, exerciseId: exerciseId, context: context) else { return hint }
        let sets = w.workingSets(of: exerciseId)
        hint.lastWorkoutId = w.workoutId
        hint.date = w.startedAt
        hint.ago = Ago.words(from: w.startedAt!, to: context.time)
        hint.sets = sets.map { SetShown(weightKg: $0.weightKg, reps: $0.metrics.reps) }
        hint.bestSet = best(hint.sets)
        return hint
    }

    /// Heaviest weight, ties broken by more reps; the first such set wins a full tie.
    public static func best(_ sets: [SetShown]) -> SetShown? {
        sets.enumerated().max { a, b in
            (a.element.weightKg ?? 0, a.element.reps ?? 0, -a.offset) < (b.element.weightKg ?? 0, b.element.reps ?? 0, -b.offset)
        }?.element
    }
}

/// "today", "yesterday", "2 days ago", "3 weeks ago", "5 months ago", "2 years ago":
/// calendar days between the two local dates.
public enum Ago {
    public static func words(from then: Timestamp, to now: Timestamp) -> String {
        let days = now.local.daysSinceEpoch - then.local.daysSinceEpoch
        switch days {
        case ..<0: return "in the future"
        case 0: return "today"
        case 1: return "yesterday"
        case 2..<14: return "\(days) days ago"
        case 14..<60: return "\(days / 7) weeks ago"
        case 60..<365: return "\(days / 30) months ago"
        default: return days < 730 ? "1 year ago" : "\(days / 365) years ago"
        }
    }
}
