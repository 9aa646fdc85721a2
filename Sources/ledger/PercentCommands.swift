import ArgumentParser
import LedgerShell
import RepLedgerCore
import RepLedgerProjections
import RepLedgerQueries

extension SettingsCommand {
    /// `ledger settings one-rep-max EXERCISE WEIGHT`: a tested max, for `percent`.
    struct OneRepMax: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "one-rep-max", abstract: "Record a one-rep max you tested → {\"exerciseId\",\"weight\",\"unit\",\"changed\"}.",
            discussion: """
                `ledger percent` works from it (it names the max and its date). A newer test replaces it; --at dates one you tested before.

                Example: ledger settings one-rep-max "Squat (Barbell)" 150kg
                """)
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The exercise.") var exercise: String
        @Argument(help: "The weight you lifted once, e.g. 150kg or 315lb.") var weight: String
        @OptionGroup var at: AtOption

        func run() throws {
            let ledger = try global.openLedger()
            let w = try Weight.parse(weight, defaultUnit: try ledger.account().liftingUnit)
            var recorded: OneRepMaxTested?
            let changed = try settle(ledger, at: try at.time()) { recorded = try $0.setOneRepMax(exercise: exercise, weight: w) }
            let name = try ledger.library().resolve(exercise)
            if global.json {
                return Console.json(
                    .object([
                        ("exerciseId", .string(recorded?.exerciseId ?? name.exerciseId)), ("weight", .number(w.value)),
                        ("unit", .string(w.unit.rawValue)), ("changed", .bool(changed)),
                    ]))
            }
            Console.out("\(name.name): tested max \(w.value.formatted) \(w.unit.rawValue)\(changed ? "" : "; nothing to change")")
        }
    }
}

/// `ledger percent EXERCISE`: loads as percentages of a max.
struct PercentCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "percent", abstract: "Loads at 50–100 % of a max (or one percentage), each one you can load.",
        discussion: """
            The max is the one you tested (`ledger settings one-rep-max`), else the best e1RM of the 8 weeks up \
            to your latest session of the exercise (under the rule set's formula); --of chooses. Each load is the \
            nearest your bar and plates make (ties to the lighter), or off the bar the nearest step of your increment.

            Examples:
              ledger percent "Squat (Barbell)"
              ledger percent bench 85 --of e1rm
            """)
    @OptionGroup var global: GlobalOptions
    @OptionGroup var query: QueryOptions
    @Argument(help: "The exercise.") var exercise: String
    @Argument(help: "One percentage, 1 to 100 (default: 50 to 100 in steps of 5).") var percent: Int?
    @Option(help: "Which max: tested or e1rm (default: tested when there is one).") var of: String?

    func run() throws {
        let source = try of.map { try vocabulary(PercentQuery.Source.self, "max", $0) }
        let log = try query.log(try global.openStore())
        let a = try PercentQuery.answer(log, exercise: exercise, of: source, percent: percent, rules: try query.ruleSet())
        if global.json { return Console.json(PercentQuery.document(a)) }
        let u = a.unit.rawValue
        let maxText = "\(((a.unit.fromKilograms(a.max.kg) * 10).rounded() / 10).formatted) \(u)"
        let from: String
        if let set = a.max.set, let formula = a.max.formula {
            from = "the e1RM of \(a.max.date.isoDate) (\(WeightText.set(kg: set.kg, reps: set.reps, in: a.unit)), \(formula.rawValue))"
        } else {
            from = "the max you tested on \(a.max.date.isoDate)"
        }
        Console.out("\(a.exercise): percentages of \(maxText), \(from)")
        Console.table(
            ["%", "Load", "Exact"],
            a.rows.map { r in ["\(r.percent) %", "\(r.weight.formatted) \(u)", abs(r.exact - r.weight) < 1e-9 ? "" : r.exact.formatted] },
            rightAligned: [0, 1, 2])
    }
}
