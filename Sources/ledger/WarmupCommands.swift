import ArgumentParser
import LedgerShell
import RepLedgerCore
import RepLedgerProjections
import RepLedgerQueries

/// What the warm-up commands share: the scheme chosen, and the schemes for the help.
enum WarmupCommands {
    /// `--scheme NAME`, else the rule set's (`warmupScheme`, default `standard`).
    static func scheme(_ name: String?, rules: RuleSet) throws -> WarmupScheme {
        guard let name else { return rules.warmupScheme }
        if name.lowercased() == rules.warmupScheme.name.lowercased() { return rules.warmupScheme }
        return try WarmupScheme.named(name)
    }

    static let schemesHelp = WarmupScheme.known.map { s in
        "\(s.name): " + s.steps.map { "\($0.percent.map { "\($0) %" } ?? "bar") × \($0.reps)" }.joined(separator: ", ")
    }.joined(separator: "; ")
}

/// `ledger warmup WEIGHT`: the ramp up to a working weight.
struct WarmupCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "warmup", abstract: "The warm-up sets up to a working weight, each one you can load.",
        discussion: """
            Schemes (\(WarmupCommands.schemesHelp)). A rules file may name one or write its own (`warmupScheme`, docs/RULES.md). \
            On a barbell, each weight is the nearest your bar and plates make (`ledger settings plates`), never \
            below the bar; off the bar (--exercise with dumbbells, a cable, a machine), the nearest step of your \
            increment. A step no heavier than the one before it is left out. Bodyweight and timed work take none.

            Examples:
              ledger warmup 140kg
              ledger warmup 225lb --scheme heavy
              ledger warmup 30kg --exercise "Lateral Raise (Dumbbell)" --scheme light
            """)
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The working weight, e.g. 140kg or 225lb (a bare number is in your lifting unit).") var weight: String
    @Option(help: "The scheme: standard, light or heavy (default: the rule set's).") var scheme: String?
    @Option(help: "The exercise, to round as its equipment loads (default: a barbell).") var exercise: String?
    @Option(help: "A rules file (docs/RULES.md); its warmupScheme is the default scheme.") var rules: String?

    func run() throws {
        let ruleSet = try RuleSet.load(option: rules)
        let chosen = try WarmupCommands.scheme(scheme, rules: ruleSet)
        // The lifter's unit, bar and plates when there is a ledger; no ledger is created for them.
        let store = try? global.openReadOnly()
        let account = store.flatMap { try? Ledger(store: $0).account() } ?? AccountState()
        let working = try Weight.parse(weight, defaultUnit: account.liftingUnit)
        try WarmupRamp.check(working: working)
        var definition: ExerciseDefined?
        if let exercise {
            guard let store else { throw ValidationError("no ledger at \(global.path): --exercise reads its library") }
            definition = try Ledger(store: store).libraryWithSeed().0.resolve(exercise).definition
        }
        let step = working.unit == .kg ? ruleSet.incrementKg : ruleSet.incrementLb
        let loading = try WarmupRamp.loading(definition, plates: account.plateInventory(for: working.unit), step: step)
        let sets = WarmupRamp.sets(working: working.value, scheme: chosen, unit: working.unit, loading: loading)
        if global.json {
            return Console.json(WarmupQuery.document(working: working, scheme: chosen, sets: sets, exerciseId: definition?.exerciseId))
        }
        let what = definition.map { " for \($0.name)" } ?? ""
        Console.out("Warm-up to \(working.value.formatted) \(working.unit.rawValue)\(what) (\(chosen.name)):")
        if sets.isEmpty { return Console.out("  none: no step of the ramp falls below the working weight") }
        for line in WarmupQuery.lines(sets, unit: working.unit) { Console.out("  \(line)") }
    }
}

extension WorkoutCommand {
    /// `ledger workout warmup W EXERCISE`: the ramp planned into the workout as warm-up sets.
    struct Warmup: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "warmup",
            abstract:
                "Plan the warm-up sets before an exercise's working sets → {\"workoutId\",\"working\",\"scheme\",\"sets\",\"setIds\",\"added\"}.",
            discussion: """
                The working weight is the first planned working set's, else --weight. An exercise the workout \
                does not have yet is added to it, as `workout log` adds one (`added`). The warm-ups are planned \
                sets of type warmup, shown before the working sets; complete them as any planned set. They stay \
                out of records, e1RM, volume and progression.

                Examples:
                  ledger workout warmup last "Squat (Barbell)"
                  ledger workout warmup last bench --weight 100kg --scheme heavy
                """)
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The workout.") var workout: String
        @Argument(help: "The exercise, as in the workout.") var exercise: String
        @Option(help: "The working weight (default: the first planned working set's).") var weight: String?
        @Option(help: "The scheme: standard, light or heavy (default: the rule set's).") var scheme: String?
        @Option(help: "A rules file (docs/RULES.md); its warmupScheme is the default scheme.") var rules: String?
        @OptionGroup var at: AtOption

        func run() throws {
            let ruleSet = try RuleSet.load(option: rules)
            let chosen = try WarmupCommands.scheme(scheme, rules: ruleSet)
            let ledger = try global.openLedger()
            let id = try ledger.resolveWorkout(workout)
            let unit = try ledger.account().liftingUnit
            let given = try weight.map { try Weight.parse($0, defaultUnit: unit) }
            let made = try ledger.execute(at: try at.time()) { session in
                try session.planWarmup(
                    id, exercise: exercise, scheme: chosen, working: given, increments: (ruleSet.incrementKg, ruleSet.incrementLb))
            }
            if global.json {
                guard
                    case .object(let fields) = WarmupQuery.document(
                        working: made.working, scheme: chosen, sets: made.sets, exerciseId: nil, setIds: made.setIds)
                else { return }
                return Console.json(
                    .object([("workoutId", .string(id.lowercased))] + fields.filter { $0.0 != "exerciseId" } + [("added", .bool(made.added))]))
            }
            if made.added { Console.out("Added \(try ledger.library().resolve(exercise).name) to the workout.") }
            Console.out(
                "Planned \(counted(made.sets.count, "warm-up set")) up to \(made.working.value.formatted) \(made.working.unit.rawValue) (\(chosen.name)):"
            )
            for line in WarmupQuery.lines(made.sets, unit: made.working.unit) { Console.out("  \(line)") }
        }
    }
}
