import ArgumentParser
import Foundation
import LedgerShell
import RepLedgerCore
import RepLedgerProjections
import RepLedgerQueries

/// `ledger program …`: questionnaire → split → generated program (DOMAIN.md §12).
struct ProgramCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "program", abstract: "Programs: a questionnaire, a recommended split, a generated program.",
        discussion: """
            Examples:
              ledger program questionnaire --days 3 --minutes 60 --experience intermediate --goal strength \\
                  --equipment barbell --equipment dumbbell --equipment bench --priority quads --priority glutes
              ledger program generate --seed 7 --weeks 5
              ledger program show active
              ledger workout start --program active --day 1
            """,
        subcommands: [
            Questionnaire.self, Generate.self, List.self, Show.self, Activate.self, Schedule.self, Mesocycle.self, Deload.self, Percent.self,
            AddModule.self, RemoveModule.self, Export.self, Import.self, Remove.self,
        ])

    struct Questionnaire: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "questionnaire", abstract: "Answer the questionnaire: the split options, recommended first, and warnings.")
        @OptionGroup var global: GlobalOptions
        @Option(help: "Training days per week, 1–6.") var days: Int
        @Option(help: "Minutes per session, 10–240.") var minutes: Int
        @Option(help: "complete-beginner, beginner, intermediate or advanced.") var experience: String
        @Option(help: "strength, muscle or fat-loss (repeatable; default muscle).") var goal: [String] = []
        @Option(
            help:
                "Equipment you have (repeatable): \(Equipment.allCases.map { kebab($0.rawValue) }.joined(separator: ", ")); or \(Equipment.fullGymAnswer) for all of it."
        ) var equipment: [String] = []
        @Option(help: "A muscle to prioritise (repeatable).") var priority: [String] = []
        @Option(help: "An injury, in your words (repeatable): exercises that load it are flagged.") var injury: [String] = []
        @OptionGroup var at: AtOption

        func run() throws {
            var q = QuestionnaireAnswered()
            q.daysPerWeek = days
            q.sessionMinutes = minutes
            q.experience = try vocabulary(ExperienceLevel.self, "experience", experience)
            q.goals = try goal.map { try vocabulary(TrainingGoal.self, "goal", $0) }
            q.equipment = try Equipment.answers(equipment)
            q.priorityMuscles = try priority.map { try vocabulary(Muscle.self, "muscle", $0) }
            q.injuries = injury
            let (id, advice) = try global.openLedger().execute(at: try at.time()) { try $0.answerQuestionnaire(q) }
            if global.json {
                Console.json(ProgramQuery.adviceDocument(questionnaireId: id, advice))
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
        @Option(help: "Plan it as a mesocycle of this many weeks (2–16) from today, the last a deload (see `program mesocycle`).")
        var weeks: Int?
        @Option(
            help: ArgumentHelp(
                "seed (the default: seed 001's generator, 3 sets, its goal's rep ranges drawn per exercise) or strength-block (a coach's: heavy main lifts at 3–5 reps, accessories at 8–12, rests by intensity; docs/PROGRAMS.md).",
                valueName: "style"))
        var style: String = ProgramStyle.seed.rawValue
        @OptionGroup var at: AtOption

        func run() throws {
            guard let style = ProgramStyle(rawValue: style.lowercased()) else {
                throw Refusal.unknownVocabulary(kind: "style", value: style, allowed: ProgramStyle.allCases.map(\.rawValue))
            }
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
            let before = try ledger.programs().live
            let program = try ledger.execute(at: try at.time()) {
                try $0.generateProgram(questionnaire: qid, split: chosen, seed: seed, weeks: weeks, style: style)
            }
            let kept = Set(try ledger.programs().live.map(\.programId))
            try ProgramText.print(
                program, ledger: ledger, json: global.json, removed: before.first { !kept.contains($0.programId) }, now: try at.time() ?? .now())
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "Your programs (at most 2), the active one marked.")
        @OptionGroup var global: GlobalOptions

        func run() throws {
            let catalog = try Ledger(store: try global.openStore()).programs()
            if global.json {
                Console.json(ProgramQuery.listDocument(catalog))
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

    struct Schedule: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "schedule", abstract: "Put a program's days on weekdays → {\"programId\",\"weekdays\"}.",
            discussion: """
                The calendar marks these days as planned, `next` names the next one, and a coach's \
                compliance counts them as the planned sessions. `none` takes the program off the calendar.

                Examples:
                  ledger program schedule active mon,wed,fri
                  ledger program schedule active none
                """)
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The program id, a unique prefix, or `active`.") var program: String
        @Argument(help: "Weekdays: mon,tue,wed,thu,fri,sat,sun (comma-separated), or none.") var weekdays: String
        @OptionGroup var at: AtOption

        func run() throws {
            let days = try Weekdays.parse(weekdays)
            let e = try global.openLedger().execute(at: try at.time()) { try $0.scheduleProgram(program, weekdays: days) }
            let names = Weekdays.text(e.weekdays)
            if global.json {
                Console.json(.object([("programId", .string(e.programId.lowercased)), ("weekdays", .array(names.map(JSONValue.string)))]))
            } else {
                Console.out(
                    names.isEmpty
                        ? "Program \(e.programId.lowercased.shortId) is off the calendar"
                        : "Program \(e.programId.lowercased.shortId) on \(names.joined(separator: ", "))")
            }
        }
    }

    struct AddModule: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add-module",
            abstract: "A program day takes a module (a copy of its exercises and targets) → {\"programId\",\"day\",\"modules\"}.",
            discussion: """
                Warm-up, prehab and explosive modules open the day; strength, cardio and recovery modules follow its \
                exercises. A workout of the day plans the module's sets and keeps its name; an exercise the module \
                brings progresses as its module's type says (`progression show`).

                Examples:
                  ledger module define "Shoulder warm-up" --type warmup --exercise "Face Pull" --sets 2 --reps 15
                  ledger program add-module active --day 1 --module "Shoulder warm-up"
                """)
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The program id, a unique prefix, or `active`.") var program: String = "active"
        @Option(help: "The day (1 is the program's first).") var day: Int
        @Option(help: "The module: its name or a unique id prefix (`ledger module list`).") var module: String
        @OptionGroup var at: AtOption

        func run() throws {
            let e = try global.openLedger().execute(at: try at.time()) { try $0.addModule(module, toProgram: program, day: day) }
            ProgramText.dayModules(e, global: global)
        }
    }

    struct RemoveModule: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "remove-module",
            abstract: "A program day no longer takes a module (workouts started already keep it) → {\"programId\",\"day\",\"modules\"}.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The program id, a unique prefix, or `active`.") var program: String = "active"
        @Option(help: "The day (1 is the program's first).") var day: Int
        @Option(help: "The module's name or a unique id prefix.") var module: String
        @OptionGroup var at: AtOption

        func run() throws {
            let e = try global.openLedger().execute(at: try at.time()) { try $0.removeModule(module, fromProgram: program, day: day) }
            ProgramText.dayModules(e, global: global)
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

/// The generate and show answers: the shared document, or the week table.
enum ProgramText {
    static func print(_ p: ProgramGenerated, ledger: Ledger, json: Bool, removed: ProgramCatalogState.Program? = nil, now: Timestamp = .now()) throws
    {
        let week = try ProgramQuery.week(p, ledger: ledger, removed: removed, now: now)
        if json {
            Console.json(ProgramQuery.document(week))
            return
        }
        let library = week.library
        Console.out("\(p.split) · program \(p.programId.lowercased.shortId)")
        Console.out(week.styleLine)
        var rows: [[String]] = []
        for (i, s) in p.sessions.enumerated() {
            // The day as its workout runs: the modules that open it, its own exercises, then its other modules.
            var day: [[String]] = []
            func modules(_ opening: Bool) {
                for m in week.modules(i) where ProgramCatalogState.Program.opensDay(m.type) == opening {
                    for (j, l) in m.lines.enumerated() {
                        let x = l.exercise
                        let reps =
                            x.durationSeconds.map { "\(Measure.clock($0))" } ?? x.repsMin.map { lo in
                                lo == (x.repsMax ?? lo) ? "\(lo)" : "\(lo)–\(x.repsMax!)"
                            } ?? "–"
                        day.append([
                            "", library.name(of: x.exerciseId), "\(x.sets) × \(reps)", x.restSeconds.map { "\($0) s" } ?? "",
                            j == 0 ? "module: \(m.name) (\(kebab(m.type.rawValue)))" : "",
                        ])
                    }
                }
            }
            modules(true)
            for x in s.exercises {
                let percent = week.percent(i, x)?.percent.map { " at \($0) %" } ?? ""
                let target =
                    week.hold(i, x).map { "\(x.sets) × \($0.secondsMin)–\($0.secondsMax) s" } ?? "\(x.sets) × \(x.repsMin)–\(x.repsMax)\(percent)"
                day.append(["", library.name(of: x.exerciseId), target, "\(x.restSeconds) s", x.injuryWarning ? "check: injury" : ""])
            }
            modules(false)
            if !day.isEmpty { day[0][0] = "\(i + 1) \(s.name)" }
            rows += day
        }
        Console.table(["Day", "Exercise", "Sets × reps", "Rest", ""], rows, rightAligned: [3])
        if let now = week.currentWeek { weeks(week, now: now) }
        for w in week.warnings { Console.out("! \(w.title): \(w.message)") }
        if let r = week.removed {
            Console.out(
                "Removed your oldest program, \(r.generated.split) \(r.programId.lowercased.shortId) of \(r.createdAt.isoDate): "
                    + "at most \(ProgramCatalogState.liveLimit) programs are kept")
        }
    }

    /// The planned weeks: one row per week with its dates, effort, each day's sets, and the week it is now.
    private static func weeks(_ week: ProgramQuery.Week, now: ProgramWeekPlan) {
        let kind = now.kind == .mesocycle ? "Mesocycle of \(now.weeks) weeks" : "A deload every \(now.weeks) weeks"
        Console.out(
            "\(kind), from \(week.weeks.first?.plan.startsOn ?? now.startsOn); now: \(now.line)\(now.begun ? ", block \(now.cycle)" : ", not begun")")
        let rows = week.weeks.map { w, sets in
            [
                w.week == now.week ? "▶ \(w.week)" : "\(w.week)", w.startsOn,
                w.deload ? "deload" : w.rir.map { "RIR \($0)" } ?? "as written",
                sets.enumerated().map { "day \($0.offset + 1): \($0.element.reduce(0, +))" }.joined(separator: ", "),
                w.deload ? "\(Int((w.loadFactor * 100).rounded())) % load" : "",
            ]
        }
        Console.table(["Week", "From", "Effort", "Sets", "Load"], rows)
    }

    /// A program day's modules after `add-module` or `remove-module`.
    static func dayModules(_ e: ProgramDayModulesSet, global: GlobalOptions) {
        if global.json {
            return Console.json(
                .object([
                    ("programId", .string(e.programId.lowercased)), ("day", .int(Int64(e.session + 1))),
                    (
                        "modules",
                        .array(
                            e.modules.map { m in
                                .object([
                                    ("moduleId", .string(m.moduleId.lowercased)), ("name", .string(m.name)),
                                    ("type", .string(kebab(m.type.rawValue))),
                                ])
                            })
                    ),
                ]))
        }
        Console.out(
            "Program \(e.programId.lowercased.shortId), day \(e.session + 1): "
                + (e.modules.isEmpty ? "no modules" : e.modules.map { "\($0.name) (\(kebab($0.type.rawValue)))" }.joined(separator: ", ")))
    }
}
