import ArgumentParser
import LedgerShell
import RepLedgerCore
import RepLedgerProjections
import RepLedgerQueries

extension WorkoutCommand {
    struct Health: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "health",
            abstract: "Record a heart-rate or active-energy sample from a watch.",
            discussion: """
                Examples:
                  ledger workout health last --heart-rate 142
                  ledger workout health last --energy 12.5 --at 2026-11-23T18:05:00+01:00
                """)
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The workout.") var workout: String
        @Option(name: .customLong("heart-rate"), parsing: .unconditional, help: "Heart rate in bpm, 20–250.") var heartRate: Double?
        @Option(parsing: .unconditional, help: "Active energy in kcal since the last sample, 0 or more.") var energy: Double?
        @OptionGroup var finished: HistoryEditOption
        @OptionGroup var at: AtOption

        func validate() throws {
            guard (heartRate == nil) != (energy == nil) else { throw ValidationError("give one of --heart-rate or --energy") }
        }

        func run() throws {
            let (kind, value) = heartRate.map { (HealthSampleKind.heartRate, $0) } ?? (.activeEnergy, energy ?? 0)
            try recordOnWorkout(global, workout, at, human: "Recorded \(kind == .heartRate ? "\(value.formatted) bpm" : "\(value.formatted) kcal")") {
                session, id, _ in try session.recordHealthSample(id, kind: kind, value: value, historyEdit: finished.historyEdit)
            }
        }
    }

    struct Autofill: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "autofill",
            abstract: "The values a new set of an exercise starts with.",
            discussion: """
                A set starts from the matching set (same set number) of the last workout with the \
                exercise; past the sets done then, from the target the template or program plans; else \
                nothing. A weight the last set leaves open comes from the plan. `source` says which, and \
                `weightSource` where the weight came from when not the same (docs/RULES.md, "Auto-fill").

                Example:
                  ledger workout autofill last "Bench Press (Barbell)" --json
                """)
        @OptionGroup var global: GlobalOptions
        @OptionGroup var query: QueryOptions
        @Argument(help: "The workout.") var workout: String
        @Argument(help: "The exercise.") var exercise: String

        func run() throws {
            let answer = try AutofillQuery.answer(try global.openStore(), try query.scope(), workout: workout, exercise: exercise)
            if global.json {
                Console.json(AutofillQuery.document(answer))
                return
            }
            let (x, fill, account) = (answer.exercise, answer.fill, answer.account)
            guard let m = fill.metrics, let source = fill.source else {
                Console.out("\(x.name), set \(fill.setNumber): nothing to start from")
                return
            }
            let text = SetText.describe(
                kg: m.weight?.kilograms, reps: m.reps, durationSeconds: m.durationSeconds,
                distanceMeters: m.distanceMeters, in: account.liftingUnit, distance: account.distanceUnit)
            let weight = fill.weightSource.map { "; weight from \(Self.words($0))" } ?? ""
            let details = EffortText.text(
                rpe: fill.rpe, rir: fill.rir, tempo: nil, scale: account.effortScale, band: fill.band, implement: fill.implement)
            let detailsSource =
                details.isEmpty || source == .lastWorkout ? "" : "; \(details.trimmingCharacters(in: .whitespaces)) from the last workout"
            Console.out(
                "\(x.name), set \(fill.setNumber): \(text)\(source == .lastWorkout ? details : "") (from \(Self.words(source))\(weight)\(detailsSource))"
            )
        }

        static func words(_ source: AutofillProjection.Source) -> String {
            switch source {
            case .lastWorkout: "the last workout"
            case .template: "the template's plan"
            case .program: "the program's plan"
            }
        }
    }
}
