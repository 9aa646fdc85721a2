import Foundation
import RepLedgerCore
import RepLedgerProjections

/// `program questionnaire|generate|list|show` (DOMAIN.md §14): the advice
/// on a questionnaire, the programs, and a program as a week.
public enum ProgramQuery {
    /// A program as a week, with what its documents name.
    public struct Week {
        public var program: ProgramGenerated
        public var library: LibraryState
        public var holds: [ProgramHold]
        public var warnings: [ProgramAdvice.Warning]
        /// The program a newly generated one removed (the oldest of three), if any.
        public var removed: ProgramCatalogState.Program? = nil
        /// The named modules its days take (`program add-module`).
        public var dayModules: [ProgramDayModulesSet] = []
        /// Its planned weeks (`program mesocycle|deload`): each week of the block, with each day's sets that week
        /// (the program's own lines), and the week it is in now.
        public var weeks: [(plan: ProgramWeekPlan, sets: [[Int]])] = []
        public var currentWeek: ProgramWeekPlan? = nil
        /// Its exercises given as a percentage of a max (`program percent`).
        public var percentTargets: [ProgramPercentTargetSet] = []
        /// Which generator made it (`program generate --style`).
        public var style: ProgramStyle = .seed
        /// The minutes a session of it has (its questionnaire's), if known.
        public var minutes: Int? = nil

        /// What `program show` says of its style: for the seed's, that its rep ranges are drawn per exercise.
        public var styleLine: String {
            switch style {
            case .seed:
                "Seed 001's generator: 3 sets of each exercise, rep ranges drawn per exercise from the goal's two "
                    + "(seed \(program.seed), so a rebuild gives the same program), rests by rating."
            case .strengthBlock:
                "A strength block: the week's first squat, hinge and presses on a bar heavy (3–5 reps, 3 min rests), "
                    + "their other days and the pulls at 6–8, accessories at 8–12; days fitted to \(minutes.map { "\($0)" } ?? "their") minutes."
            }
        }

        /// The percentage target of `x` on day `day` (0-based), if it has one.
        public func percent(_ day: Int, _ x: ProgramExercise) -> ProgramPercentTargetSet? {
            percentTargets.first { $0.session == day && $0.exerciseId == x.exerciseId }
        }

        /// The named modules of day `day` (0-based), in the order added.
        public func modules(_ day: Int) -> [ModuleDefined] { dayModules.first { $0.session == day }?.modules ?? [] }

        /// The hold time of `x` on day `day` (0-based), for isometric work.
        public func hold(_ day: Int, _ x: ProgramExercise) -> ProgramHold? {
            holds.first { $0.session == day && $0.exerciseId == x.exerciseId }
        }
    }

    /// The week of `program` (generated, or resolved from the catalog) on `ledger`'s log.
    /// `removed` is the program generating this one removed.
    /// `now` places the program in its planned weeks, whose numbers come from `rules`.
    public static func week(
        _ program: ProgramGenerated, ledger: Ledger, removed: ProgramCatalogState.Program? = nil, now: Timestamp = .now(),
        rules: RuleSet = .default
    ) throws -> Week {
        let programs = try ledger.programs()
        let questionnaire = programs.questionnaires[program.questionnaireId]
        let library = try ledger.library()
        // The questionnaire's warnings, with the muscles left short and the session length judged on this program.
        var warnings = (questionnaire.map { ProgramAdvice($0, library: library).warnings } ?? []).filter {
            $0.code != ProgramAdvice.shortSessionsCode && $0.code != ProgramAdvice.fewExercisesCode
        }
        if let q = questionnaire, let split = Split(rawValue: program.split) {
            let thin = ProgramAdvice.thinMuscles(q, split: split, library: library)
            if !thin.isEmpty { warnings.append(ProgramAdvice.fewExercises(thin)) }
        }
        let live = programs.live.first { $0.programId == program.programId }
        let style = live?.style ?? .seed
        let minutes = live?.sessionMinutes ?? questionnaire?.sessionMinutes
        // The seed's days are shaped by the template's count of exercises; the strength block's by their time.
        if style == .strengthBlock {
            if let minutes, let short = ProgramAdvice.shortSessions(program, minutes: minutes) { warnings.append(short) }
        } else if let q = questionnaire, let split = Split(rawValue: program.split), let short = ProgramAdvice.shortSessions(q, split: split) {
            warnings.append(short)
        }
        if program.repeatWarning { warnings.append(ProgramAdvice.repeatWarning) }
        let block = live?.weekPlan
        return Week(
            program: program, library: library, holds: live?.holds ?? [], warnings: warnings, removed: removed,
            dayModules: live?.dayModules ?? [],
            weeks: block.map { ProgramWeekPlan.weeks($0, rules: rules).map { ($0, $0.sets(program, library: library, minutes: minutes)) } } ?? [],
            currentWeek: block.map { ProgramWeekPlan($0, onDay: now.local.daysSinceEpoch, rules: rules) },
            percentTargets: live?.percentTargets ?? [], style: style, minutes: minutes)
    }

    public static func warning(_ w: ProgramAdvice.Warning) -> JSONValue {
        .object([
            ("code", .string(w.code)), ("title", .string(w.title)), ("message", .string(w.message)),
            ("actions", .array(w.actions.map(JSONValue.string))),
        ])
    }

    /// The generate and show document (USER-GUIDE.md).
    public static func document(_ w: Week) -> JSONValue {
        let p = w.program
        return .object([
            ("programId", .string(p.programId.lowercased)), ("split", .string(p.split)), ("seed", .string(String(p.seed))),
            ("style", .string(w.style.rawValue)), ("sessionMinutes", .optional(w.minutes)),
            ("repeatWarning", .bool(p.repeatWarning)), ("warnings", .array(w.warnings.map(warning))),
            ("removedProgramId", w.removed.map { .string($0.programId.lowercased) } ?? .null),
            (
                "block",
                w.currentWeek.map { now in
                    .object([
                        ("kind", .string(now.kind.rawValue)), ("weeks", .int(Int64(now.weeks))),
                        ("startsOn", .string(w.weeks.first?.plan.startsOn ?? now.startsOn)),
                        ("current", ProgressionQuery.weekDocument(now)),
                        (
                            "plan",
                            .array(
                                w.weeks.map { week, sets in
                                    var doc = ProgressionQuery.weekDocument(week)
                                    if case .object(let fields) = doc {
                                        doc = .object(fields + [("sets", .array(sets.map { .array($0.map { .int(Int64($0)) }) }))])
                                    }
                                    return doc
                                })
                        ),
                    ])
                } ?? .null
            ),
            (
                "sessions",
                .array(
                    p.sessions.enumerated().map { i, s in
                        .object([
                            ("day", .int(Int64(i + 1))), ("name", .string(s.name)),
                            ("minutes", .int(Int64(SessionTime.minutes(seconds: SessionTime.seconds(s))))),
                            (
                                "exercises",
                                .array(
                                    s.exercises.map { x in
                                        .object([
                                            ("exerciseId", .string(x.exerciseId)), ("name", .string(w.library.name(of: x.exerciseId))),
                                            ("sets", .int(Int64(x.sets))), ("repsMin", .int(Int64(x.repsMin))),
                                            ("repsMax", .int(Int64(x.repsMax))),
                                            ("secondsMin", .optional(w.hold(i, x)?.secondsMin)),
                                            ("secondsMax", .optional(w.hold(i, x)?.secondsMax)),
                                            ("restSeconds", .int(Int64(x.restSeconds))), ("injuryWarning", .bool(x.injuryWarning)),
                                            ("percentOfMax", .optional(w.percent(i, x)?.percent)),
                                            ("percentOf", .optional(w.percent(i, x)?.of?.rawValue)),
                                        ])
                                    })
                            ),
                            (
                                "modules",
                                .array(
                                    w.modules(i).map { m in
                                        .object([
                                            ("moduleId", .string(m.moduleId.lowercased)), ("name", .string(m.name)),
                                            ("type", .string(kebab(m.type.rawValue))),
                                            ("opensDay", .bool(ProgramCatalogState.Program.opensDay(m.type))),
                                            ("lines", .array(m.lines.map { TemplateListQuery.lineJSON(w.library, $0.exercise) })),
                                        ])
                                    })
                            ),
                        ])
                    })
            ),
        ])
    }

    /// `program list`: the live programs, the active one marked.
    public static func listDocument(_ catalog: ProgramCatalogState) -> JSONValue {
        .object([
            (
                "programs",
                .array(
                    catalog.live.map { p in
                        .object([
                            ("programId", .string(p.programId.lowercased)), ("split", .string(p.generated.split)),
                            ("active", .bool(catalog.active == p.programId)), ("createdAt", .string(p.createdAt.iso8601)),
                            ("weekdays", .array(Weekdays.text(p.weekdays).map(JSONValue.string))),
                        ])
                    })
            )
        ])
    }

    /// `program questionnaire`: the answers' id, the split options and the warnings.
    public static func adviceDocument(questionnaireId: UUID, _ advice: ProgramAdvice) -> JSONValue {
        .object([
            ("questionnaireId", .string(questionnaireId.lowercased)),
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
            ("warnings", .array(advice.warnings.map(warning))),
        ])
    }
}
