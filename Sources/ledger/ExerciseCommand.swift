import ArgumentParser
import LedgerShell
import RepLedgerCore
import RepLedgerProjections
import RepLedgerQueries

struct ExerciseCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "exercise", abstract: "The exercise library.",
        subcommands: [
            Add.self, List.self, Search.self, Show.self, History.self, Rename.self, Edit.self, Archive.self, Unarchive.self,
            Favourite.self, Merge.self,
        ])

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
            if let notes = x.notes { Console.out("  notes: \(Console.shown(notes))") }
            for e in entries {
                let sets = e.sets.map { SetRowText.text($0, in: unit, distance: log.account.distanceUnit, effort: log.account.effortScale) }
                Console.out("  \(e.startedAt.isoDate)  \(e.workoutName): \(sets.joined(separator: ", "))")
                if let note = e.note { Console.out("      note: \(Console.shown(note))") }
            }
        }
    }

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "add", abstract: "Add a custom exercise.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The exercise's name.") var name: String
        @Option(help: "Primary muscle (repeat for several): \(Muscle.allCases.map { kebab($0.rawValue) }.joined(separator: ", ")).")
        var muscle: [String] = []
        @Option(help: "Secondary muscle (repeatable).") var secondary: [String] = []
        @Option(help: "Equipment (repeatable): \(Equipment.allCases.map { kebab($0.rawValue) }.joined(separator: ", ")).")
        var equipment: [String] = []
        @Option(help: "Kind: \(ExerciseKind.allCases.map { kebab($0.rawValue) }.joined(separator: ", ")).") var kind = "strength"
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
        static let configuration = CommandConfiguration(
            commandName: "list", abstract: "List the exercises: all, your favourites, or the ones you did lately.",
            discussion: """
                Examples:
                  ledger exercise list --muscle chest
                  ledger exercise list --favourites
                  ledger exercise list --recent --limit 10
                """)
        @OptionGroup var global: GlobalOptions
        @OptionGroup var asOf: AsOfOption
        @Option(help: "Only exercises whose primary muscle is this.") var muscle: String?
        @Flag(help: "Include archived exercises.") var all = false
        @Flag(name: [.customLong("favourites"), .customLong("favorites")], help: "Only your favourites.") var favourites = false
        @Flag(help: "The exercises you did lately, the most recent first (with when).") var recent = false
        @Option(help: "With --recent: how many (default 20).") var limit = 20

        func run() throws {
            let store = try global.openStore()
            let filter = try muscle.map { try vocabulary(Muscle.self, "muscle", $0) }
            guard limit >= 1 else { throw Refusal.invalidMeasure("--limit \(limit)", reason: "give 1 or more") }
            if recent {
                let log = try QueryScope(asOf: asOf.asOf).log(store)
                let rows = ExerciseListQuery.recent(log, limit: limit).filter { r in
                    (filter.map { r.exercise.definition.primaryMuscles.contains($0) } ?? true) && (!favourites || r.exercise.favourite)
                }
                if global.json {
                    Console.json(ExerciseListQuery.document(rows.map(\.exercise), lastDone: rows.map(\.lastDone)))
                } else if rows.isEmpty {
                    Console.out(
                        favourites || filter != nil
                            ? "None of the exercises you did lately matches: `ledger exercise list --recent` alone lists them."
                            : "Nothing done yet: `ledger workout log` records a set, and `ledger import` brings another app's history.")
                } else {
                    Console.table(["Exercise", "Id", "Last done"], rows.map { [$0.exercise.name, $0.exercise.exerciseId, $0.lastDone.isoDate] })
                }
                return
            }
            let library = Ledger.offered(
                asOf.asOf == nil
                    ? try Ledger(store: store).library()
                    : try TrainingLogProjection.build(from: store, through: try asOf.position(in: store)).library)
            let rows = ExerciseListQuery.answer(library, muscle: filter, includeArchived: all, favouritesOnly: favourites)
            if global.json {
                Console.json(ExerciseListQuery.document(rows))
            } else if rows.isEmpty, favourites {
                Console.out("No favourites yet: `ledger exercise favourite EXERCISE` marks one (★).")
            } else if rows.isEmpty {
                Console.out("No exercise matches: `ledger exercise list` alone lists the library, `--all` the archived ones too.")
            } else {
                Console.table(
                    ["Exercise", "Id", "Muscle", "Kind", "Equipment"],
                    rows.map { x in
                        let d = x.definition
                        return [
                            (x.favourite ? "★ " : "") + d.name, d.exerciseId, d.primaryMuscles.map(\.rawValue).joined(separator: ", "),
                            d.kind.rawValue, d.equipment.map(\.rawValue).joined(separator: ", "),
                        ]
                    })
                Console.out("\(rows.count) exercises")
            }
        }
    }
}
