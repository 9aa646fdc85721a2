import Foundation
import RepLedgerCore
import RepLedgerProjections

/// `percent EXERCISE`: loads as percentages of a max, each one the lifter can
/// load, saying which max they come from and from when.
public enum PercentQuery {
    /// Which max: the one the lifter tested (`settings one-rep-max`), or the estimated one.
    public typealias Source = OneRepMaxSource

    /// How far back the estimated max looks from the exercise's latest session: a max from this training block, not from years ago.
    public static let e1rmWindowDays = 56

    public struct MaxUsed: Sendable {
        public var source: Source
        public var kg: Double
        /// When it was tested, or the workout whose set gave the estimate.
        public var date: Timestamp
        /// For an estimate: the set that gave it (kg and reps) and the formula.
        public var set: (kg: Double, reps: Int)?
        public var formula: E1RMFormula?
    }

    public struct Row: Sendable {
        public var percent: Int
        /// In the lifter's unit: the load, and the share of the max before rounding.
        public var weight: Double
        public var exact: Double
    }

    public struct Answer: Sendable {
        public var exerciseId: String
        public var exercise: String
        public var unit: WeightUnit
        public var max: MaxUsed
        public var rows: [Row]
    }

    /// The percentages 50–100 % in steps of 5 (or `percent` alone, 1–100) of the exercise's max: the tested one
    /// when there is one, else the estimate, unless `of` says which.
    public static func answer(_ log: TrainingLogProjection, exercise ref: String, of: Source?, percent: Int?, rules: RuleSet) throws -> Answer {
        if let percent { try Invariants.check(percentOfMax: percent) }
        let x = try log.library.resolve(ref)
        let unit = log.account.liftingUnit
        let step = unit == .kg ? rules.incrementKg : rules.incrementLb
        guard let loading = Loadable.of(x.definition, plates: log.account.plateInventory(for: unit), step: step) else {
            throw Refusal.invalidProgram("\(x.name) has no load to take a percentage of: \(Loadable.none(x.definition))")
        }
        let tested = log.account.testedMax(ofExercise: x.exerciseId).map {
            MaxUsed(source: .tested, kg: $0.weight.kilograms, date: $0.testedAt, set: nil, formula: nil)
        }
        let max: MaxUsed
        switch of {
        case .tested?:
            guard let tested else {
                throw Refusal.noTestedMax(exercise: x.name)
            }
            max = tested
        case .e1rm?:
            guard let estimated = estimate(log, exerciseId: x.exerciseId, rules: rules) else {
                throw Refusal.invalidProgram("no e1RM for \(x.name) yet: no counted set of 1 to \(rules.e1rmRepCap) reps with a weight")
            }
            max = estimated
        case nil:
            guard let any = tested ?? estimate(log, exerciseId: x.exerciseId, rules: rules) else {
                throw Refusal.invalidProgram(
                    "no max for \(x.name): record one with `ledger settings one-rep-max \"\(x.name)\" WEIGHT`, or log sets of it for an e1RM")
            }
            max = any
        }
        let maxInUnit = unit.fromKilograms(max.kg)
        let rows = (percent.map { [$0] } ?? Array(stride(from: 50, through: 100, by: 5))).map { p in
            let exact = (maxInUnit * Double(p) / 100 * 1000).rounded() / 1000
            return Row(percent: p, weight: loading.nearest(exact, unit: unit), exact: exact)
        }
        return Answer(exerciseId: x.exerciseId, exercise: x.name, unit: unit, max: max, rows: rows)
    }

    /// The best e1RM of the exercise's sessions in the `e1rmWindowDays` up to its latest one.
    static func estimate(_ log: TrainingLogProjection, exerciseId: String, rules: RuleSet) -> MaxUsed? {
        let points = E1RMTrendProjection.points(log, exerciseId: exerciseId, rules: rules)
        guard let latest = points.last else { return nil }
        let from = latest.date.millis - Int64(e1rmWindowDays) * 86_400_000
        // The heaviest estimate; on a tie, the later session.
        guard let best = points.filter({ $0.date.millis >= from }).max(by: { ($0.e1rmKg, $0.date.millis) < ($1.e1rmKg, $1.date.millis) }) else {
            return nil
        }
        return MaxUsed(source: .e1rm, kg: best.e1rmKg, date: best.date, set: (best.weightKg, best.reps), formula: rules.e1rmFormula)
    }

    public static func document(_ a: Answer) -> JSONValue {
        let m = a.max
        return .object([
            ("exerciseId", .string(a.exerciseId)), ("exercise", .string(a.exercise)), ("unit", .string(a.unit.rawValue)),
            (
                "max",
                .object([
                    ("source", .string(m.source.rawValue)), ("kg", .number((m.kg * 1000).rounded() / 1000)),
                    ("value", .number((a.unit.fromKilograms(m.kg) * 1000).rounded() / 1000)), ("date", .string(m.date.isoDate)),
                    ("setWeightKg", .optional(m.set.map { ($0.kg * 1000).rounded() / 1000 })), ("setReps", .optional(m.set?.reps)),
                    ("formula", .optional(m.formula?.rawValue)),
                ])
            ),
            (
                "rows",
                .array(
                    a.rows.map { r in
                        .object([
                            ("percent", .int(Int64(r.percent))), ("weight", .number(r.weight)), ("exact", .number(r.exact)),
                            ("weightKg", .number((Weight(r.weight, a.unit).kilograms * 1000).rounded() / 1000)),
                        ])
                    })
            ),
        ])
    }
}
