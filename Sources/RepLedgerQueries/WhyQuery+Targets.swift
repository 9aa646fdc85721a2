import Foundation
import RepLedgerCore
import RepLedgerProjections

/// `why target EXERCISE`: the next session's target (`ledger next`, the app's Today and workout screens) with
/// the progression settings that decided it and the sets of the sessions it was decided from.
extension WhyQuery {
    static func target(_ store: any EventStore, _ scope: QueryScope, log: TrainingLogProjection, exerciseId: String) throws -> Number {
        let now = try scope.answerTime()
        let name = log.exerciseName(exerciseId)
        // The target as `next` shows it: the program's next day when the exercise is in it, else the exercise's own.
        let day = try ProgressionQuery.next(log, exercise: nil, program: nil, all: false, rules: scope.rules, now: now)
        guard
            let t = try day.targets.first(where: { $0.exerciseId == exerciseId })
                ?? ProgressionQuery.next(log, exercise: exerciseId, program: nil, all: false, rules: scope.rules, now: now).targets.first
        else { throw QueryError.invalidParameter("no target for \(name)") }
        let programId = try ProgressionQuery.exercises(log, program: nil).programId
        let s = NextTargetProjection.settings(log, exerciseId: exerciseId, programId: programId, rules: scope.rules)
        // The rule reads the last session; linear also counts the miss before it.
        let read = NextTargetProjection.sessions(log, exerciseId: exerciseId).suffix(t.rule == .linear ? 2 : 1)
        let unit = log.account.liftingUnit
        let increment = unit.words(kilograms: s.increment.kilograms)
        let settings =
            s.enabled
            ? "\(s.rule.rawValue) progression, \(s.repsMin)–\(s.repsMax) reps, +\(increment) a step\(s.overridden ? " (set for this exercise)" : "")"
            : "progression off"
        let through = try scope.position(in: store)
        return Number(
            kind: "target", value: t.weightKg ?? 0, unit: "kg", repMax: nil, workoutId: read.last?.workoutId,
            setIds: read.flatMap(\.setIds), at: read.last?.date,
            computation: "\(settings): \(t.reason)",
            events: try read.flatMap { try events(store, log: log, workout: $0.workoutId, sets: Set($0.setIds), through: through) })
    }
}
