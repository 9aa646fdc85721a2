import Foundation
import RepLedgerCore

/// Lighter sessions `next` gives instead of progressing (issue 49, row 4;
/// issue 77): after a long break from an exercise, a comeback; otherwise a
/// reactive deload for an exercise that made no progress for
/// `deloadAfterStalls` sessions in a row (no session's best e1RM above the
/// best before them, counted from its last break), or whose e1RM fell by
/// more than `deloadE1rmDropPercent` against its best of the two weeks
/// before. The deload is the last top weight × `deloadIntensity`, rounded to
/// what the lifter loads, for the last session's sets × `deloadVolume`. A
/// session with no e1RM (every set above `e1rmRepCap` reps) says nothing of
/// strength: it neither progresses nor stalls.
public enum DeloadAdvice {
    public struct Suggestion: Sendable, Equatable {
        public enum Kind: String, Sendable { case deload, comeback }
        public var reason: String
        public var weightKg: Double
        /// A deload's fewer sets; a comeback's, the last session's (its volume is the plan's, only its load is lighter).
        public var sets: Int
        public var kind: Kind = .deload
    }

    /// Days without an exercise after which it starts again lighter, and the share of the last top weight to
    /// start at: 90 % after three weeks, 80 % after three months (strength lost to detraining, which is slow
    /// for the first weeks and grows with the break).
    public static let breakDays = 21
    static let longBreakDays = 90
    static func comebackFactor(days: Int) -> Double { days >= longBreakDays ? 0.8 : 0.9 }

    /// A comeback after a break of `breakDays` or more since the exercise's last session (at `now`): the last
    /// top weight × `comebackFactor`, loadable; nil without a weight to start from.
    public static func comeback(_ log: TrainingLogProjection, exerciseId: String, now: Timestamp, rules: RuleSet) -> Suggestion? {
        guard let last = NextTargetProjection.sessions(log, exerciseId: exerciseId).last, last.top > 0 else { return nil }
        let days = Int((now.millis - last.date.millis) / 86_400_000)
        guard days >= breakDays else { return nil }
        let factor = comebackFactor(days: days)
        let kg = load(log, exerciseId: exerciseId, topKg: last.top, factor: factor, rules: rules)
        let show = shower(log)
        let ago = days < 60 ? "\(days / 7) weeks" : days < 730 ? "\(days / 30) months" : "\(days / 365) years"
        return Suggestion(
            reason:
                "your last session of it was \(ago) ago (\(last.date.isoDate)): come back lighter, \(Int((factor * 100).rounded())) % of "
                + "\(show(last.top)), \(show(kg)), and build up again from there",
            weightKg: kg, sets: last.sets.count, kind: .comeback)
    }

    public static func suggestion(_ log: TrainingLogProjection, exerciseId: String, rules: RuleSet) -> Suggestion? {
        let sessions = NextTargetProjection.sessions(log, exerciseId: exerciseId)
        guard let last = sessions.last, last.top > 0 else { return nil }
        func e1rm(_ s: NextTargetProjection.Session) -> Double {
            s.sets.filter { $0.reps <= rules.e1rmRepCap }.map { rules.e1rm(kg: $0.kg, reps: $0.reps, rpe: { nil }) }.max() ?? 0
        }
        let show = shower(log)
        var why: String?
        if rules.deloadAfterStalls > 0 {
            var best = 0.0, bestDate = last.date, stalls = 0
            var previous: Timestamp?
            for s in sessions {
                // A break starts the count again: coming back lighter is no stall.
                if let p = previous, s.date.millis - p.millis >= Int64(breakDays) * 86_400_000 { (best, stalls) = (0, 0) }
                previous = s.date
                let e = e1rm(s)
                guard e > 0 else { continue }
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
            if let (best, date) = before, best > 0, now > 0, now < best * (1 - rules.deloadE1rmDropPercent / 100) {
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

    /// "102.5 kg" in the lifter's unit.
    static func shower(_ log: TrainingLogProjection) -> (Double) -> String {
        let unit = log.account.liftingUnit
        return { kg in unit.words(kilograms: kg) }
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
