import ArgumentParser
import LedgerShell
import RepLedgerCore
import RepLedgerQueries

/// `ledger module define|list`: reusable groups of exercises with their targets (the gym app's modules).
struct ModuleCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "module", abstract: "Modules: named, reusable groups of exercises of one type, which templates are made of.",
        discussion: """
            Types: warmup, prehab, explosive, strength, cardio, long-cardio, speed-cardio, recovery.

            Examples:
              ledger module define "Shoulder warm-up" --type warmup --exercise "Face Pull" --sets 2 --reps 15 --exercise "band pull apart" --sets 2 --reps 20
              ledger module define "Sprints" --type speed-cardio --exercise running --sets 6 --duration 30s
              ledger template create "Upper B" --module "Shoulder warm-up" --exercise "Overhead Press (Barbell)" --sets 5 --reps 5
              ledger progression show --template "Upper B"
            """,
        subcommands: [Define.self, List.self])

    struct Define: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "define", abstract: "Define a module → {\"moduleId\"}; a name defined again is replaced (templates keep their copy).")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The module's name.") var name: String
        @Option(help: "Its type: warmup, prehab, explosive, strength, cardio, long-cardio, speed-cardio or recovery.") var type: String
        @OptionGroup var lines: TemplateLineArguments
        @OptionGroup var at: AtOption

        func run() throws {
            let kind = try vocabulary(ModuleType.self, "module type", type)
            let ledger = try global.openLedger()
            let planned = try lines.lines(unit: try ledger.account().liftingUnit)
            let id = try ledger.execute(at: try at.time()) { try $0.defineModule(name: name, type: kind, lines: planned) }
            respond(
                global, ["moduleId": id.lowercased], human: "Defined module \(name) (\(kebab(kind.rawValue)), \(counted(planned.count, "exercise")))")
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list", abstract: "Your modules → {\"modules\":[{\"moduleId\",\"name\",\"type\",\"lines\"}]}.")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var query: QueryOptions

        func run() throws {
            let log = try query.log(try global.openStore())
            if global.json { return Console.json(TemplateListQuery.modulesDocument(log)) }
            guard !log.programs.modules.isEmpty else { return Console.out("No modules yet: `ledger module define NAME --type T --exercise E`.") }
            for m in log.programs.modules {
                Console.out(
                    "\(m.name) (\(kebab(m.type.rawValue))): \(m.lines.map { log.exerciseName($0.exercise.exerciseId) }.joined(separator: ", "))")
            }
        }
    }
}
