import ArgumentParser
import LedgerShell
import RepLedgerCore
import RepLedgerProjections
import RepLedgerQueries

struct ExerciseCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "exercise", abstract: "The exercise library.", subcommands: [Add.self, List.self, Search.self, Show.self, History.self])

    struct History: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "history", abstract: "Every workout an exercise was done in, newest first, with its sets.")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var query: QueryOptions
        @Argument(help: "The exercise, by id or name.") var exercise: String

        func run() throws {
            let log = try query.log(try global.openStore())
            let x = try log.library.resolve(exercise)
            let entries = ExerciseHistoryProjection.entries(log, exerciseId: x.exerciseId, rules: try query.ruleSet())
            if global.json {
                Console.json(ExerciseHistoryQuery.document(x, entries))
                return
            }
            let unit = log.account.liftingUnit
            guard !entries.isEmpty else { Console.out("\(x.name): not done yet."); return }
            Console.out(x.name)
            for e in entries {
                let sets = e.sets.map { SetRowText.text($0, in: unit, distance: log.account.distanceUnit) }
                Console.out("  \(e.startedAt.isoDate)  \(e.workoutName): \(sets.joined(separator: ", "))")
            }
        }
    }

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "add", abstract: "Add a custom exercise.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The exercise's name.") var name: String
        @Option(help: "Primary muscle (repeat for several): \(Muscle.allCases.map(\.rawValue).joined(separator: ", ")).")
        var muscle: [String] = []
        @Option(help: "Secondary muscle (repeatable).") var secondary: [String] = []
        @Option(help: "Equipment (repeatable): \(Equipment.allCases.map(\.rawValue).joined(separator: ", ")).")
        var equipment: [String] = []
        @Option(help: "Kind: \(ExerciseKind.allCases.map(\.rawValue).joined(separator: ", ")).") var kind = "strength"
        @OptionGroup var at: AtOption

        func run() throws {
            let primary = try muscle.map { try vocabulary(Muscle.self, "muscle", $0) }
            let second = try secondary.map { try vocabulary(Muscle.self, "muscle", $0) }
            let gear = try equipment.map { try vocabulary(Equipment.self, "equipment", $0) }
            let k = try vocabulary(ExerciseKind.self, "kind", kind)
            let ledger = try global.openLedger()
            let id = try ledger.execute(at: try at.time()) {
                try $0.defineExercise(name: name, primaryMuscles: primary, secondaryMuscles: second, equipment: gear, kind: k)
            }
            if global.json { Console.json(.object([("exerciseId", .string(id))])) } else { Console.out("Added \(name) (id \(id))") }
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List the exercises.")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var asOf: AsOfOption
        @Option(help: "Only exercises whose primary muscle is this.") var muscle: String?
        @Flag(help: "Include archived exercises.") var all = false

        func run() throws {
            let store = try global.openStore()
            let filter = try muscle.map { try vocabulary(Muscle.self, "muscle", $0) }
            let library = Ledger.offered(
                asOf.asOf == nil
                    ? try Ledger(store: store).library()
                    : try TrainingLogProjection.build(from: store, through: try asOf.position(in: store)).library)
            let rows = ExerciseListQuery.answer(library, muscle: filter, includeArchived: all)
            if global.json {
                Console.json(ExerciseListQuery.document(rows))
            } else {
                Console.table(
                    ["Exercise", "Id", "Muscle", "Kind", "Equipment"],
                    rows.map { x in
                        let d = x.definition
                        return [
                            d.name, d.exerciseId, d.primaryMuscles.map(\.rawValue).joined(separator: ", "), d.kind.rawValue,
                            d.equipment.map(\.rawValue).joined(separator: ", "),
                        ]
                    })
                Console.out("\(rows.count) exercises")
            }
        }
    }
}
