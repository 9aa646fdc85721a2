import ArgumentParser
import Foundation
import LedgerShell
import RepLedgerCore
import RepLedgerProjections
import RepLedgerQueries

struct TemplateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "template", abstract: "Workout templates (Free: 3; Pro: unlimited).",
        discussion: "A template T is named by its id, a unique id prefix, or its name.",
        subcommands: [Create.self, List.self, Rename.self, Edit.self, Duplicate.self, Reorder.self, Delete.self, Export.self, Import.self])

    struct Create: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "create", abstract: "Create a template → {\"templateId\"}: its exercises, each with its targets.",
            discussion: """
                Each --exercise takes the targets after it: sets × reps (or a duration), an optional weight and \
                rest. A workout started from the template plans those sets, and its rest timer uses the rest.

                --module brings a module's exercises and targets (`ledger module define`), before the --exercise \
                lines; the template remembers which module brought which.

                Example:
                  ledger template create "Upper A" --exercise "Bench Press (Barbell)" --sets 3 --reps 8-12 --weight 60kg --rest 90s \\
                    --exercise "Pull Up" --sets 3 --reps 6-10 --rest 2m --exercise plank --sets 2 --duration 45s
                  ledger template create "Upper B" --module "Shoulder warm-up" --exercise "Overhead Press (Barbell)" --sets 5 --reps 5
                  ledger template create "Monday" --from-workout last

                --from-workout W makes the template of a workout: its exercises in order, each with the sets done \
                (planned ones when none were), the reps they spanned, the heaviest weight and the longest duration.
                """)
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The template's name.") var name: String
        @Option(help: "A module whose exercises open the template, in order (repeatable).") var module: [String] = []
        @Option(help: "Make it of this workout's exercises and sets (id, prefix or last) instead of --exercise lines.") var fromWorkout: String?
        @OptionGroup var lines: TemplateLineArguments
        @OptionGroup var at: AtOption

        func run() throws {
            let ledger = try global.openLedger()
            if let fromWorkout {
                guard module.isEmpty, lines.exercise.isEmpty else { throw ValidationError("--from-workout takes no --module or --exercise") }
                let workout = try ledger.resolveWorkout(fromWorkout)
                let id = try ledger.execute(at: try at.time()) { try $0.createTemplate(fromWorkout: workout, name: name) }
                return respond(global, ["templateId": id.lowercased], human: "Created template \(name) (\(id.lowercased.shortId))")
            }
            let planned = try lines.lines(unit: try ledger.account().liftingUnit)
            let id = try ledger.execute(at: try at.time()) { try $0.createTemplate(name: name, lines: planned, modules: module) }
            respond(global, ["templateId": id.lowercased], human: "Created template \(name) (\(id.lowercased.shortId))")
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list", abstract: "Your templates, in order, with when each was last used; then the routines of your history.",
            discussion: """
                The finished workouts of one name are a routine: an imported Strong or Hevy history names each \
                workout after its routine, and a workout you named ("Upper A") is one too; untitled ones ("Evening \
                Workout") are not. Routines are listed most recently done first (imported ones with their app), and \
                `ledger workout start --template NAME` plans a routine's last finished workout again.
                """)
        @OptionGroup var global: GlobalOptions
        @OptionGroup var query: QueryOptions

        func run() throws {
            let store = try global.openStore()
            let log = try query.log(store)
            let answer = TemplateListQuery.answer(log, starts: try store.workoutStarts())
            if global.json {
                Console.json(TemplateListQuery.document(log, answer))
                return
            }
            let rows = answer.templates
            if rows.isEmpty {
                Console.out("No templates yet. Create one with `ledger template create NAME --exercise E`.")
            } else {
                Console.table(
                    ["Template", "Id", "Exercises", "Last used"],
                    rows.map { r in
                        [
                            r.name, r.templateId.lowercased.shortId, r.exercises.map { log.exerciseName($0.exerciseId) }.joined(separator: ", "),
                            r.lastUsedAt?.isoDate ?? "never",
                        ]
                    })
                // Each line's targets, when any template has more than its exercises.
                for r in rows where r.exercises.contains(where: { $0.repsMin != nil || $0.hasLaterTargets }) {
                    Console.out("\(r.name):")
                    for line in r.exercises {
                        Console.out("  \(log.exerciseName(line.exerciseId)) \(Self.targets(line, unit: log.account.liftingUnit))")
                    }
                }
            }
            guard !answer.routines.isEmpty else { return }
            Console.out("")
            Console.out("Routines in your history (start one with `ledger workout start --template NAME`; it plans the routine's last workout):")
            Console.table(
                ["Routine", "From", "Workouts", "Last done", "Exercises"],
                answer.routines.map { r in
                    [
                        r.name, r.importedFrom?.rawValue.capitalized ?? "Logged here", "\(r.workouts)", r.lastDoneAt.isoDate,
                        r.exerciseIds.map { log.exerciseName($0) }.joined(separator: ", "),
                    ]
                })
        }

        /// "3 × 8–12 @ 60 kg, rest 1:30", "2 × 0:45".
        static func targets(_ l: TemplateExercise, unit: WeightUnit) -> String {
            var text = "\(l.sets) ×"
            if let lo = l.repsMin { text += " " + (l.repsMax.map { $0 == lo ? "\(lo)" : "\(lo)–\($0)" } ?? "\(lo)") }
            if let d = l.durationSeconds { text += " \(Measure.clock(d))" }
            if let w = l.weight { text += " @ \(WeightText.show(kg: w.kilograms, in: unit))" }
            if let r = l.restSeconds { text += ", rest \(Measure.clock(Double(r)))" }
            return text
        }
    }

    struct Rename: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "rename", abstract: "Rename a template.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The template.") var template: String
        @Argument(help: "The new name.") var name: String
        @OptionGroup var at: AtOption

        func run() throws {
            try global.openLedger().execute(at: try at.time()) { try $0.renameTemplate(template, to: name) }
            respond(global, [:], human: "Renamed to \(name)")
        }
    }

    struct Edit: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "edit",
            abstract: "Set a template's exercises, in order, each with its targets (the whole list).",
            discussion: """
                Examples:
                  ledger template edit "Upper A" --exercise "Bench Press (Barbell)" --exercise "Pull Up"
                  ledger template edit "Upper A" --exercise "Bench Press (Barbell)" --sets 4 --reps 6-8 --weight 70kg --rest 2m
                """)
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The template.") var template: String
        @OptionGroup var lines: TemplateLineArguments
        @OptionGroup var at: AtOption

        func run() throws {
            let ledger = try global.openLedger()
            let planned = try lines.lines(unit: try ledger.account().liftingUnit)
            let id = try ledger.templates().resolve(template).templateId
            try ledger.execute(at: try at.time()) { try $0.setTemplateExercises(id.lowercased, exercises: planned) }
            respond(global, ["templateId": id.lowercased], human: "\(template): \(planned.count) exercises")
        }
    }

    struct Duplicate: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "duplicate", abstract: "Copy a template.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The template.") var template: String
        @Option(help: "The copy's name (default: \"<name> (copy)\").") var name: String?
        @OptionGroup var at: AtOption

        func run() throws {
            let id = try global.openLedger().execute(at: try at.time()) { try $0.duplicateTemplate(template, name: name) }
            respond(global, ["templateId": id.lowercased], human: "Duplicated as \(id.lowercased.shortId)")
        }
    }

    struct Reorder: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "reorder", abstract: "Put your templates in this order (name every one).")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "All templates, in the new order.") var templates: [String]
        @OptionGroup var at: AtOption

        func run() throws {
            try global.openLedger().execute(at: try at.time()) { try $0.reorderTemplates(templates) }
            respond(global, [:], human: "Reordered")
        }
    }

    struct Delete: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "delete", abstract: "Delete a template (workouts started from it keep their history).")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The template.") var template: String
        @OptionGroup var at: AtOption

        func run() throws {
            try global.openLedger().execute(at: try at.time()) { try $0.deleteTemplate(template) }
            respond(global, [:], human: "Deleted")
        }
    }
}
