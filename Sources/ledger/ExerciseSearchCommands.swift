import ArgumentParser
import LedgerShell
import RepLedgerCore
import RepLedgerQueries

extension ExerciseCommand {
    struct Search: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "search",
            abstract: "Find exercises by name or alias: whole names first, then starts, then words, your most done first.")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var query: QueryOptions
        @Argument(help: "What to look for, e.g. \"incline press\" or \"rdl\".") var text: String
        @Option(help: "At most this many (1–200).") var limit = 20

        func run() throws {
            guard (1...200).contains(limit) else { throw ValidationError("--limit \(limit) is refused: give 1 to 200") }
            let hits = try ExerciseSearchQuery.answer(try global.openStore(), try query.scope(), text: text, limit: limit)
            if global.json { Console.json(ExerciseSearchQuery.document(hits)); return }
            guard !hits.isEmpty else { Console.out("No exercise matches '\(text)'."); return }
            Console.table(
                ["Exercise", "Id", "Equipment", "Done"],
                hits.map { h in
                    [
                        h.exercise.name, h.exercise.exerciseId, h.exercise.definition.equipment.map(\.rawValue).joined(separator: ", "),
                        h.timesDone == 0 ? "" : "\(h.timesDone)×",
                    ]
                })
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show", abstract: "One exercise: muscles, equipment, movement, the names it answers to, and how to do it.")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var query: QueryOptions
        @Argument(help: "The exercise, by id, name, alias or the start of its name.") var exercise: String

        func run() throws {
            let a = try ExerciseShowQuery.answer(try global.openStore(), try query.scope(), exercise: exercise)
            if global.json { Console.json(ExerciseShowQuery.document(a)); return }
            let d = a.exercise.definition
            Console.out("\(d.name) (id \(d.exerciseId))\(a.exercise.archived ? ", archived" : "")\(d.custom ? ", your own" : "")")
            Console.out(
                "  muscles: \(d.primaryMuscles.map(\.rawValue).joined(separator: ", "))"
                    + (d.secondaryMuscles.isEmpty ? "" : "; also \(d.secondaryMuscles.map(\.rawValue).joined(separator: ", "))"))
            Console.out("  equipment: \(d.equipment.map(\.rawValue).joined(separator: ", "))")
            if a.exercise.unilateral { Console.out("  unilateral: logged per side, volume counts each side") }
            if a.exercise.favourite { Console.out("  ★ a favourite") }
            if let notes = a.exercise.notes { Console.out("  notes: \(notes)") }
            Console.out("  kind: \(d.kind.rawValue) · movement: \(d.canonicalMovement) · complexity \(d.complexity) · rating \(d.rating)")
            if !a.aliases.isEmpty { Console.out("  also known as: \(a.aliases.joined(separator: ", "))") }
            Console.out("  done in \(a.timesDone) workout\(a.timesDone == 1 ? "" : "s")")
            if !a.instructions.isEmpty {
                Console.out("How to do it:")
                for (i, step) in a.instructions.enumerated() { Console.out("  \(i + 1). \(step)") }
                if let source = a.source { Console.out("(from the \(source))") }
            }
        }
    }
}
