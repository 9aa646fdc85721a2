import ArgumentParser
import Foundation
import LedgerShell
import RepLedgerCore
import RepLedgerProjections
import RepLedgerQueries

/// `ledger progression set|show` and `ledger next` (DOMAIN.md §14).
struct ProgressionCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "progression", abstract: "Per-exercise progression: rule, increment, rep range, module, on or off.",
        discussion: """
            Defaults: double progression, on only for strength exercises in a strength module; 2.5 kg steps \
            (5 kg for squats, hinges, lunges and hip thrusts; 5 lb in lb); weights round to 1.25 kg or 2.5 lb.

            Examples:
              ledger progression set "Squat (Barbell)" --rule linear --reps 5-5
              ledger progression set deadlift --increment 10lb
              ledger progression set plank --on --module strength
              ledger progression set "Squat (Barbell)" --clear
              ledger progression show --program active
            """,
        subcommands: [Set.self, Show.self])

    struct Set: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "set", abstract: "Override how an exercise progresses (everywhere, or in one program), or several at once.",
            discussion: """
                One exercise: name it. Several at once: --all (every exercise of the program, else every one \
                you trained) or, with no exercise named, --module M (those in module M). --smart sets each \
                one's progression on or off as the smart default says: on only for strength exercises in a \
                strength module. A batch records one override per exercise it changes, in one append.

                Examples:
                  ledger progression set --module strength --rule linear --program active
                  ledger progression set --all --increment 5lb
                  ledger progression set --smart --program active
                """)
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The exercise (or none, with --all, --module or --smart).") var exercise: String?
        @Option(help: "Only in this program (id, prefix or `active`).") var program: String?
        @Option(help: "double, linear or none.") var rule: String?
        @Option(help: "The weight step: 2.5kg, 5lb.") var increment: String?
        @Option(help: "The rep range, MIN-MAX.") var reps: String?
        @Option(
            help:
                "warmup, prehab, explosive, strength, cardio, long-cardio, speed-cardio or recovery: the exercise's module, or with no exercise, the module whose exercises change."
        )
        var module: String?
        @Flag(help: "Every exercise of the program (or that you trained).") var all = false
        @Flag(help: "Progression on or off as the smart default says, for every exercise in scope.") var smart = false
        @Flag(help: "Progression on.") var on = false
        @Flag(help: "Progression off.") var off = false
        @Flag(help: "Back to the defaults.") var clear = false
        @OptionGroup var at: AtOption

        func validate() throws {
            if on && off { throw ValidationError("give --on or --off, not both") }
            if exercise != nil && (all || smart) { throw ValidationError("name an exercise, or use --all or --smart, not both") }
            if exercise == nil && !all && !smart && module == nil {
                throw ValidationError("name an exercise, or change several with --all, --module M or --smart")
            }
            if smart && (on || off) { throw ValidationError("--smart chooses on or off itself: leave out --on and --off") }
        }

        func run() throws {
            let ledger = try global.openLedger()
            let unit = try ledger.account().liftingUnit
            let parsedRule = try rule.map { try vocabulary(ProgressionRule.self, "rule", $0) }
            let parsedModule = try module.map { try vocabulary(ModuleType.self, "module", $0) }
            let parsedIncrement = try increment.map { try Weight.parse($0, defaultUnit: unit) }
            let range = try reps.map { text -> (Int, Int) in
                let r = try RepRange.parse(text)
                return (r.min, r.max)
            }
            if let exercise {
                try ledger.execute(at: try at.time()) {
                    try $0.setProgression(
                        exercise: exercise, programRef: program, enabled: on ? true : off ? false : nil, rule: parsedRule,
                        module: parsedModule, increment: parsedIncrement, reps: range, clear: clear)
                }
                respond(global, ["exercise": exercise], human: clear ? "\(exercise): back to the defaults" : "\(exercise): progression updated")
                return
            }
            // A batch: the exercises in scope, then one override each, every one decided before any is appended.
            let log = try QueryScope().log(ledger.store)
            let ids = try ProgressionQuery.selected(log, program: program, module: all ? nil : parsedModule, rules: .default)
            guard !ids.isEmpty else {
                throw Refusal.invalidProgram(
                    parsedModule.map { "no exercise is in the \(kebab($0.rawValue)) module" } ?? "no exercises yet: generate a program or train first"
                )
            }
            let programId = try program.map { try log.programs.resolve($0).programId }
            let changed = try ledger.execute(at: try at.time()) { session in
                var changed: [String] = []
                for id in ids {
                    let now = NextTargetProjection.settings(log, exerciseId: id, programId: programId)
                    let enabled = smart ? now.smartEnabled : on ? true : off ? false : nil
                    if smart, parsedRule == nil, parsedIncrement == nil, range == nil, !clear, now.enabled == enabled {
                        continue  // already as the smart default says
                    }
                    try session.setProgression(
                        exercise: id, programRef: program, enabled: enabled, rule: parsedRule,
                        module: all ? parsedModule : nil, increment: parsedIncrement, reps: range, clear: clear)
                    changed.append(id)
                }
                guard !changed.isEmpty else { throw Refusal.nothingToChange }
                return changed
            }
            if global.json {
                Console.json(.object([("exercises", .array(changed.map { .string($0) }))]))
            } else {
                Console.out("Progression updated for \(counted(changed.count, "exercise")): \(changed.map(log.exerciseName).joined(separator: ", "))")
            }
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show",
            abstract: "The progression settings of a program's exercises by day and module (or of a template's, or of every exercise you trained).")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var query: QueryOptions
        @Option(help: "The program (id, prefix or `active`); default: the active program, else every exercise you trained.") var program: String?
        @Option(help: "A template instead: its modules, then its other exercises by module.") var template: String?

        func validate() throws { if program != nil && template != nil { throw ValidationError("give --program or --template, not both") } }

        func run() throws {
            let log = try query.log(try global.openStore())
            let rules = try query.ruleSet()
            let rows: [(exerciseId: String, settings: NextTargetProjection.Settings)]
            let groups: [ProgressionQuery.Group]
            if let template {
                let (group, settings) = try ProgressionQuery.templateGroups(log, template: template, rules: rules)
                rows = settings
                groups = [group]
            } else {
                rows = try ProgressionQuery.settings(log, program: program, rules: rules)
                groups = try ProgressionQuery.groups(log, program: program, rules: rules)
            }
            if global.json {
                Console.json(ProgressionQuery.settingsDocument(log, rows, groups: groups))
                return
            }
            guard !rows.isEmpty else { Console.out("No exercises yet: generate a program or train first."); return }
            let unit = log.account.liftingUnit
            let byId = Dictionary(rows.map { ($0.exerciseId, $0.settings) }, uniquingKeysWith: { a, _ in a })
            var table: [[String]] = []
            for g in groups {
                for (m, module) in g.modules.enumerated() {
                    for (i, id) in module.exerciseIds.enumerated() {
                        guard let s = byId[id] else { continue }
                        let label = kebab(module.module.rawValue)
                        table.append([
                            m == 0 && i == 0 ? (g.day.map { "\($0) " } ?? "") + g.workout : "",
                            i == 0 ? module.name.map { "\($0) (\(label))" } ?? label : "",
                            log.exerciseName(id), s.enabled ? s.rule.rawValue : "off", WeightText.show(kg: s.increment.kilograms, in: unit),
                            "\(s.repsMin)–\(s.repsMax)", s.overridden ? "overridden" : "",
                        ])
                    }
                }
            }
            Console.table(["Workout", "Module", "Exercise", "Progression", "Step", "Reps", ""], table)
        }
    }
}

struct NextCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "next",
        abstract: "The next session: which day of the program, when, and each exercise's target with the reason (or one exercise's).",
        discussion: """
            The next day is the one after the last day of the program trained (day 1 to begin with); with a \
            schedule, the date is its next weekday, after today when today's session is done. --all gives \
            every exercise of the program.

            Examples:
              ledger next
              ledger next "Bench Press (Barbell)"
              ledger next --program active --all
            """)
    @OptionGroup var global: GlobalOptions
    @OptionGroup var query: QueryOptions
    @Argument(help: "The exercise (default: the next day's exercises).") var exercise: String?
    @Option(help: "The program whose settings apply (id, prefix or `active`; default: the active one).") var program: String?
    @Flag(help: "Every exercise of the program, not only the next day's.") var all = false

    func run() throws {
        let log = try query.log(try global.openStore())
        let rules = try query.ruleSet()
        let now = try query.scope().answerTime()
        let answer = try ProgressionQuery.next(log, exercise: exercise, program: program, all: all, rules: rules, now: now)
        if global.json {
            Console.json(ProgressionQuery.document(log, answer))
            return
        }
        let (next, week, targets) = (answer.day, answer.week, answer.targets)
        if let next {
            let on = next.on.map { ", on \(Self.weekday($0)) \($0)" } ?? ""
            Console.out("Next: day \(next.index + 1), \(next.name)\(on)\(all ? " (every exercise of the program below)" : "")")
        }
        if let week { Console.out("This is \(week.line)\(week.begun ? "" : ", the block begins \(week.startsOn)")") }
        guard !targets.isEmpty else {
            Console.out("Nothing to target yet: generate a program (`ledger program questionnaire`) or train first."); return
        }
        let unit = log.account.liftingUnit
        for t in targets {
            let reps = (t.repsMin == t.repsMax ? "\(t.repsMin)" : "\(t.repsMin)–\(t.repsMax)") + (t.rir.map { " at RIR \($0)" } ?? "")
            // 0 kg is the body alone ("bodyweight × 7–8"); on a bodyweight exercise a load is added to it.
            let load: String
            if let kg = t.weightKg, kg > 0 {
                load = (t.bodyweight ? "bodyweight + " : "") + WeightText.show(kg: kg, in: unit)
            } else {
                load = t.bodyweight || t.weightKg == 0 ? "bodyweight" : t.rpe.map { "a weight at RPE \($0.formatted)" } ?? "a weight of your choice"
            }
            let what = t.sets.map { "\(load), \($0) × \(reps)" } ?? "\(load) × \(reps)"
            let rounded = t.unroundedKg.map { "; \(WeightText.show(kg: $0, in: unit)) rounded to what your plates load" } ?? ""
            // A percentage of a max, a deload and a comeback follow no progression rule: the reason says where the weight comes from.
            let rule = t.percentOf == nil && t.deload == nil ? "\(t.rule.rawValue): " : ""
            Console.out("\(log.exerciseName(t.exerciseId)): \(what) (\(rule)\(t.reason)\(rounded))")
        }
    }

    /// "Fri" for 2026-11-27.
    static func weekday(_ date: String) -> String {
        guard let day = Timestamp.parseISO8601(date + "T00:00:00Z", defaultOffsetMinutes: 0)?.local.isoWeekday else { return "" }
        return Weekdays.text([day]).first?.capitalized ?? ""
    }
}
