import Foundation
import RepLedgerCore
import RepLedgerProjections

/// `why hint EXERCISE` and `why repcount EXERCISE`: the last-time hint and the
/// "+N reps" counter, each with the sets it compared and their events.
extension WhyQuery {
    /// The hint for `exerciseId` in `workout`'s context (its start, its program day), else at the scope's answer time.
    static func hint(
        _ store: any EventStore, _ scope: QueryScope, log: TrainingLogProjection, exerciseId: String, workout: UUID?
    ) throws -> Number {
        let name = log.exerciseName(exerciseId), unit = log.account.liftingUnit
        let context =
            try workout.flatMap { id in log.workouts[id].map { LastTimeHintProjection.Context(workout: $0, scope: scope.rules.hintScope) } }
            ?? LastTimeHintProjection.Context(time: scope.answerTime(), scope: scope.rules.hintScope)
        guard let previous = LastTimeHintProjection.previousWorkout(log, exerciseId: exerciseId, context: context) else {
            throw QueryError.invalidParameter(
                "no hint for \(name): no finished workout with a completed working set of it before \(context.time.iso8601)")
        }
        let hint = LastTimeHintProjection.hint(log, exerciseId: exerciseId, context: context)
        let sets = previous.workingSets(of: exerciseId)
        let shown = hint.sets.map { show($0, unit: unit) }.joined(separator: ", ")
        let best = hint.bestSet.map { show($0, unit: unit) } ?? "–"
        return Number(
            kind: "hint", value: hint.bestSet?.weightKg ?? 0, unit: "kg", repMax: nil, workoutId: previous.workoutId, setIds: sets.map(\.setId),
            at: previous.startedAt,
            computation:
                "the last finished workout started before \(context.time.iso8601)\(scopeWords(context)) with a completed working set of \(name): "
                + "\(previous.name) on \(previous.startedAt?.isoDate ?? "?"); its sets \(shown); best (heaviest, then most reps) \(best)",
            events: try events(store, log: log, workout: previous.workoutId, sets: Set(sets.map(\.setId)), through: scope.position(in: store)))
    }

    /// The counter of `exerciseId` in `workout` (default: the latest workout with a completed working set of it).
    static func repCount(
        _ store: any EventStore, _ scope: QueryScope, log: TrainingLogProjection, exerciseId: String, workout: UUID?
    ) throws -> Number {
        let name = log.exerciseName(exerciseId)
        let latest = log.workouts.values.filter { !$0.workingSets(of: exerciseId).isEmpty }.max {
            ($0.startedAt?.millis ?? .min, $0.workoutId.lowercased) < ($1.startedAt?.millis ?? .min, $1.workoutId.lowercased)
        }
        guard let w = workout.map({ log.workouts[$0] }) ?? latest else {
            throw QueryError.invalidParameter("no workout has a completed set of \(name)")
        }
        let context = LastTimeHintProjection.Context(workout: w, scope: scope.rules.hintScope)
        let through = try scope.position(in: store)
        let current = w.workingSets(of: exerciseId)
        let reps = { (sets: [WorkoutState.SetRecord]) in sets.map { $0.metrics.reps ?? 0 } }
        guard let previous = LastTimeHintProjection.previousWorkout(log, exerciseId: exerciseId, context: context) else {
            return Number(
                kind: "repcount", value: 0, unit: "reps", repMax: nil, workoutId: w.workoutId, setIds: current.map(\.setId), at: w.startedAt,
                computation:
                    "no finished workout before this one\(scopeWords(context)) has a completed working set of \(name): nothing to beat, so 0 (hidden)",
                events: try events(store, log: log, workout: w.workoutId, sets: Set(current.map(\.setId)), through: through))
        }
        let before = previous.workingSets(of: exerciseId)
        let value = RepCounterProjection.excessReps(current: reps(current), previous: reps(before))
        return Number(
            kind: "repcount", value: Double(value), unit: "reps", repMax: nil, workoutId: w.workoutId, setIds: (before + current).map(\.setId),
            at: w.startedAt,
            computation:
                "Σ max(0, this − last) over the sets both have: this workout \(reps(current)) against \(previous.name) on "
                + "\(previous.startedAt?.isoDate ?? "?") \(reps(before)) = \(value)",
            events: try events(store, log: log, workout: previous.workoutId, sets: Set(before.map(\.setId)), through: through)
                + events(store, log: log, workout: w.workoutId, sets: Set(current.map(\.setId)), through: through))
    }

    static func scopeWords(_ c: LastTimeHintProjection.Context) -> String {
        switch c.scope {
        case .exercise: ""
        case .programDay: " on the same program day"
        case .auto: c.programId == nil ? "" : " (the same program day first)"
        }
    }

    static func show(_ s: LastTimeHintProjection.SetShown, unit: WeightUnit) -> String {
        let weight = s.weightKg.map { unit.words(kilograms: $0) } ?? "bodyweight"
        return "\(weight) × \(s.reps ?? 0)"
    }
}
