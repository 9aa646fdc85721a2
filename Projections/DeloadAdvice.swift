import Foundation
import RepLedgerCore

/// Reactive deloads (issue 49, row 4): `next` suggests one for an exercise
/// that made no progress for `deloadAfterStalls` sessions in a row (no
/// session's best e1RM above the best before them), or whose e1RM fell by
/// more than `deloadE1rmDropPercent` against its best of the two weeks
/// before. The deload is the last top weight × `deloadIntensity`, rounded to
/// what the lifter loads, for the last session's sets × `deloadVolume`.
public enum DeloadAdvice {
    public struct Suggestion: Sendable, Equatable {
        public var reason: String
        public var weightKg: Double
        public var sets: Int
    }

    public static func suggestion(_ log: TrainingLogProjection, exerciseId: String, rules: RuleSet) -> Suggestion? {
        let sessions = NextTargetProjection.sessions(log, exerciseId: exerciseId)
        guard let last = sessions.last, last.top > 0 else { return nil }
        func e1rm(_ s: NextTargetProjection.Session) -> Double {
            s.sets.filter { $0.reps <= rules.e1rmRepCap }.map { rules.e1rm(kg: $0.kg, reps: $0.reps, rpe: { nil }) }.max() ?? 0
        }
        let unit = log.account.liftingUnit
        let show = { (kg: Double) in "\(((unit.fromKilograms(kg) * 100).rounded() / 100).formatted) \(unit.rawValue)" }
        var why: String?
        if rules.deloadAfterStalls > 0 {
            var best = 0.0, bestDate = last.date, stalls = 0
            for s in sessions {
                let e = e1rm(s)
                if e > best + 1e-9 { (best, bestDate, stalls) = (e, s.date, 0) } else { stalls += 1 }
            }
            if stalls >= rules.deloadAfterStalls {
                why = "no progress in \(stalls) sessions: the best e1RM is still \(show(best)) of \(bestDate.isoDate)"
            }
        }
        if why == nil, rules.deloadE1rmDropPercent > 0 {
            let from = last.date.millis - 14 * 86_400_000
            let before = sessions.dropLast().filter { $0.date.millis >= from }.map { (e1rm($0), $0.date) }.max {
                ($0.0, $0.1.millis) < ($1.0, $1.1.millis)
            }
            let now = e1rm(last)
            if let (best, date) = before, best > 0, now < best * (1 - rules.deloadE1rmDropPercent / 100) {
                let fell = ((1 - now / best) * 100).rounded()
                why = "the e1RM fell \(Int(fell)) % in two weeks, from \(show(best)) on \(date.isoDate) to \(show(now))"
            }
        }
        guard let why else { return nil }
        let kg = load(log, exerciseId: exerciseId, topKg: last.top, factor: rules.deloadIntensity, rules: rules)
        let sets = max(1, Int((Double(last.sets.count) * rules.deloadVolume).rounded()))
        let percent = Int((rules.deloadIntensity * 100).rounded())
        return Suggestion(reason: "\(why): deload to \(percent) %, \(show(kg)) for \(sets) set\(sets == 1 ? "" : "s")", weightKg: kg, sets: sets)
    }

    /// A deload's weight in kg: `factor` of `topKg`, rounded to what the lifter loads for the exercise.
    public static func load(_ log: TrainingLogProjection, exerciseId: String, topKg: Double, factor: Double, rules: RuleSet) -> Double {
        let unit = log.account.liftingUnit
        let step = unit == .kg ? rules.incrementKg : rules.incrementLb
        let definition = log.library.exercises[exerciseId]?.definition
        let target = unit.fromKilograms(topKg * factor)
        let loaded = Loadable.of(definition, plates: log.account.plateInventory(for: unit), step: step)?.nearest(target, unit: unit) ?? target
        return Weight(loaded, unit).kilograms
    }
}
