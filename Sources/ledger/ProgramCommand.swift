import ArgumentParser
import Foundation
import LedgerShell
import RepLedgerCore
import RepLedgerProjections

/// `ledger program …`: questionnaire → split → generated program (DOMAIN.md §12).
struct ProgramCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "program", abstract: "Programs: a questionnaire, a recommended split, a generated program.",
        discussion: """
            Examples:
              ledger program questionnaire --days 3 --minutes 60 --experience intermediate --goal strength \\
                  --equipment barbell --equipment dumbbell --equipment bench --priority quads --priority glutes
              ledger program generate --seed 7
              ledger program show active
              ledger workout start --program active --day 1
            """,
        subcommands: [Questionnaire.self, Generate.self, List.self, Show.self, Activate.self, Remove.self])

    struct Questionnaire: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "questionnaire", abstract: "Answer the questionnaire: the split options, recommended first, and warnings.")
        @OptionGroup var global: GlobalOptions
        @Option(help: "Training days per week, 1–6.") var days: Int
        @Option(help: "Minutes per session, 10–240.") var minutes: Int
        @Option(help: "complete-beginner, beginner, intermediate or advanced.") var experience: String
        @Option(help: "strength, muscle or fat-loss (repeatable; default muscle).") var goal: [String] = []
        @Option(help: "Equipment you have (repeatable): \(Equipment.allCases.map(\.rawValue).joined(separator: ", ")).") var equipment: [String] = []
        @Option(help: "A muscle to prioritise (repeatable).") var priority: [String] = []
        @Option(help: "An injury, in your words (repeatable): exercises that load it are flagged.") var injury: [String] = []
        @OptionGroup var at: AtOption

        func run() throws {
            var q = QuestionnaireAnswered()
            q.daysPerWeek = days
            q.sessionMinutes = minutes
            q.experience = try vocabulary(ExperienceLevel.self, "experience", experience)
            q.goals = try goal.map { try vocabulary(TrainingGoal.self, "goal", $0) }
            q.equipment = try equipment.map { try vocabulary(Equipment.self, "equipment", $0) }
            q.priorityMuscles = try priority.map { try vocabulary(Muscle.self, "muscle", $0) }
            q.injuries = injury
            let (id, advice) = try global.openLedger().execute(at: try at.time()) { try $0.answerQuestionnaire(q) }
            if global.json {
                Console.json(
                    .object([
                        ("questionnaireId", .string(id.lowercased)),
                        ("recommended", .array(advice.recommended.map { .string($0.rawValue) })),
                        (
                            "options",
                            .array(
                                advice.options.map { o in
                                    .object([
                                        ("split", .string(o.split.rawValue)), ("message", .string(o.message)), ("recommended", .bool(o.recommended)),
                                    ])
                                })
                        ),
                        ("warnings", .array(advice.warnings.map(ProgramText.warning))),
                    ]))
                return
            }
            Console.out("Splits for \(days) day\(days == 1 ? "" : "s") a week:")
            for o in advice.options { Console.out("  \(o.recommended ? "★" : " ") \(o.split.rawValue): \(o.message)") }
            for w in advice.warnings { Console.out("  ! \(w.title): \(w.message)") }
            Console.out("Next: `ledger program generate` (or --split \"\(advice.options.last?.split.rawValue ?? "")\").")
        }
    }

    struct Generate: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "generate", abstract: "Generate a program from the latest questionnaire (or --questionnaire), and make it active.")
        @OptionGroup var global: GlobalOptions
        @Option(help: "A split name (default: the recommended one).") var split: String?
        @Option(help: "The questionnaire id (default: the latest).") var questionnaire: String?
        @Option(help: "The seed of the rep-range choices (stored in the program).") var seed: UInt64?
        @OptionGroup var at: AtOption

        func run() throws {
            let chosen = try split.map { s throws(Refusal) in
                guard let x = Split.allCases.first(where: { $0.rawValue.lowercased() == s.lowercased() }) else {
                    throw .unknownVocabulary(kind: "split", value: s, allowed: Split.allCases.map(\.rawValue))
                }
                return x
            }
            let ledger = try global.openLedger()
            let qid = try questionnaire.map { ref -> UUID in
                let all = try ledger.programs().questionnaires.keys.filter { $0.lowercased.hasPrefix(ref.lowercased()) }
                guard all.count == 1 else { throw Refusal.invalidProgram("no questionnaire '\(ref)'") }
                return all[0]
            }
            let program = try ledger.execute(at: try at.time()) { try $0.generateProgram(questionnaire: qid, split: chosen, seed: seed) }
            try ProgramText.print(program, ledger: ledger, json: global.json)
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "Your programs (at most 2), the active one marked.")
        @OptionGroup var global: GlobalOptions

        func run() throws {
            let catalog = try Ledger(store: try global.openStore()).programs()
            if global.json {
                Console.json(
                    .object([
                        (
                            "programs",
                            .array(
                                catalog.live.map { p in
                                    .object([
                                        ("programId", .string(p.programId.lowercased)), ("split", .string(p.generated.split)),
                                        ("active", .bool(catalog.active == p.programId)), ("createdAt", .string(p.createdAt.iso8601)),
                                    ])
                                })
                        )
                    ]))
                return
            }
            guard !catalog.live.isEmpty else { Console.out("No programs. Start with `ledger program questionnaire`."); return }
            Console.table(
                ["", "Program", "Split", "Created"],
                catalog.live.map { p in
                    [catalog.active == p.programId ? "★" : "", p.programId.lowercased.shortId, p.generated.split, p.createdAt.isoDate]
                })
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show", abstract: "A program as a week: day, exercise, sets × reps, rest, warnings.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The program id, a unique prefix, or `active`.") var program: String = "active"

        func run() throws {
            let ledger = Ledger(store: try global.openStore())
            try ProgramText.print(try ledger.programs().resolve(program).generated, ledger: ledger, json: global.json)
        }
    }

    struct Activate: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "activate", abstract: "Make a program the active one.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The program id or a unique prefix.") var program: String
        @OptionGroup var at: AtOption

        func run() throws {
            let id = try global.openLedger().execute(at: try at.time()) { try $0.activateProgram(program) }
            respond(global, ["programId": id.lowercased], human: "Program \(id.lowercased.shortId) is active")
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "remove", abstract: "Remove a program (its workouts stay in history).")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The program id or a unique prefix.") var program: String
        @OptionGroup var at: AtOption

        func run() throws {
            let id = try global.openLedger().execute(at: try at.time()) { try $0.removeProgram(program) }
            respond(global, ["programId": id.lowercased], human: "Removed program \(id.lowercased.shortId)")
        }
    }
}

/// The generate document (CLI.md) and the week table.
enum ProgramText {
    static func warning(_ w: ProgramAdvice.Warning) -> JSONValue {
        .object([("code", .string(w.code)), ("title", .string(w.title)), ("message", .string(w.message))])
    }

    static func print(_ p: ProgramGenerated, ledger: Ledger, json: Bool) throws {
        let library = try ledger.library()
        let programs = try ledger.programs()
        let holds = programs.live.first { $0.programId == p.programId }?.holds ?? []
        func hold(_ day: Int, _ x: ProgramExercise) -> ProgramHold? { holds.first { $0.session == day && $0.exerciseId == x.exerciseId } }
        let questionnaire = programs.questionnaires[p.questionnaireId]
        let warnings = (questionnaire.map { ProgramAdvice($0).warnings } ?? []) + (p.repeatWarning ? [ProgramAdvice.repeatWarning] : [])
        if json {
            Console.json(
                .object([
                    ("programId", .string(p.programId.lowercased)), ("split", .string(p.split)), ("seed", .string(String(p.seed))),
                    ("repeatWarning", .bool(p.repeatWarning)), ("warnings", .array(warnings.map(warning))),
                    (
                        "sessions",
                        .array(
                            p.sessions.enumerated().map { i, s in
                                .object([
                                    ("day", .int(Int64(i + 1))), ("name", .string(s.name)),
                                    (
                                        "exercises",
                                        .array(
                                            s.exercises.map { x in
                                                .object([
                                                    ("exerciseId", .string(x.exerciseId)), ("name", .string(library.name(of: x.exerciseId))),
                                                    ("sets", .int(Int64(x.sets))), ("repsMin", .int(Int64(x.repsMin))),
                                                    ("repsMax", .int(Int64(x.repsMax))),
                                                    ("secondsMin", .optional(hold(i, x)?.secondsMin)),
                                                    ("secondsMax", .optional(hold(i, x)?.secondsMax)),
                                                    ("restSeconds", .int(Int64(x.restSeconds))), ("injuryWarning", .bool(x.injuryWarning)),
                                                ])
                                            })
                                    ),
                                ])
                            })
                    ),
                ]))
            return
        }
        Console.out("\(p.split) · program \(p.programId.lowercased.shortId)")
        var rows: [[String]] = []
        for (i, s) in p.sessions.enumerated() {
            for (j, x) in s.exercises.enumerated() {
                let target = hold(i, x).map { "\(x.sets) × \($0.secondsMin)–\($0.secondsMax) s" } ?? "\(x.sets) × \(x.repsMin)–\(x.repsMax)"
                rows.append([
                    j == 0 ? "\(i + 1) \(s.name)" : "", library.name(of: x.exerciseId), target,
                    "\(x.restSeconds) s", x.injuryWarning ? "check: injury" : "",
                ])
            }
        }
        Console.table(["Day", "Exercise", "Sets × reps", "Rest", ""], rows, rightAligned: [3])
        for w in warnings { Console.out("! \(w.title): \(w.message)") }
    }
}
