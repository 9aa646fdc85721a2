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
        subcommands: [Create.self, List.self, Rename.self, Edit.self, Duplicate.self, Reorder.self, Delete.self])

    struct Create: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "create", abstract: "Create a template.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The template's name.") var name: String
        @Option(help: "An exercise, in order (repeatable).") var exercise: [String] = []
        @OptionGroup var at: AtOption

        func run() throws {
            let ledger = try global.openLedger()
            let id = try ledger.execute(at: try at.time()) { try $0.createTemplate(name: name, exercises: exercise) }
            respond(global, ["templateId": id.lowercased], human: "Created template \(name) (\(id.lowercased.shortId))")
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "Your templates, in order, with when each was last used.")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var query: QueryOptions

        func run() throws {
            let log = try query.log(try global.openStore())
            let rows = TemplatesProjection.rows(log)
            if global.json {
                Console.json(TemplateListQuery.document(log, rows))
                return
            }
            guard !rows.isEmpty else { Console.out("No templates yet. Create one with `ledger template create NAME --exercise E`."); return }
            Console.table(
                ["Template", "Id", "Exercises", "Last used"],
                rows.map { r in
                    [
                        r.name, r.templateId.lowercased.shortId, r.exercises.map { log.exerciseName($0.exerciseId) }.joined(separator: ", "),
                        r.lastUsedAt?.isoDate ?? "never",
                    ]
                })
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
            abstract: "Set a template's exercises, in order.",
            discussion: "Example:\n  ledger template edit \"Upper A\" --exercise \"Bench Press (Barbell)\" --exercise \"Pull Up\"")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The template.") var template: String
        @Option(help: "An exercise, in order (repeatable).") var exercise: [String] = []
        @OptionGroup var at: AtOption

        func run() throws {
            try global.openLedger().execute(at: try at.time()) {
                try $0.setTemplateExercises(template, exercises: exercise.map { TemplateExercise(exerciseId: $0) })
            }
            respond(global, [:], human: "\(template): \(exercise.count) exercises")
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
