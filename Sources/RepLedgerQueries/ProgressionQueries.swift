import Foundation
import RepLedgerCore
import RepLedgerProjections

/// `progression show` and `next` (DOMAIN.md §14): the exercises of a
/// program (or every exercise trained), their progression settings and the
/// next session's targets.
public enum ProgressionQuery {
    /// The program's id and its exercises in session order, or with no
    /// program, every exercise trained (in name order). `program` is an id,
    /// a prefix or `active`; nil: the active program, if any.
    public static func exercises(_ log: TrainingLogProjection, program: String?) throws -> (programId: UUID?, exerciseIds: [String]) {
        let chosen =
            try program.map { try log.programs.resolve($0) }
            ?? log.programs.active.flatMap { id in log.programs.live.first { $0.programId == id } }
        if let chosen {
            var seen: [String] = []
            for id in chosen.generated.sessions.indices.flatMap(chosen.exerciseIds(day:)) where !seen.contains(id) { seen.append(id) }
            return (chosen.programId, seen)
        }
        let trained = Set(log.countedWorkouts.flatMap { $0.sets.filter(\.completed).map(\.exerciseId) })
        return (nil, trained.sorted { log.exerciseName($0) < log.exerciseName($1) })
    }

    /// A program's days (or, with none, the exercises trained as one group), each
    /// with its exercises grouped by module in the day's order of first appearance:
    /// what `progression show` lists, workout → module → exercise.
    public struct Group: Sendable {
        /// One module of a workout: a template's named module, or (no name) its exercises of one module type.
        public struct Module: Sendable {
            public var name: String?
            public var module: ModuleType
            public var exerciseIds: [String]
        }
        public var workout: String
        public var day: Int?
        public var modules: [Module]
    }

    public static func groups(
        _ log: TrainingLogProjection, program: String?, rules: RuleSet
    ) throws -> [Group] {
        let (programId, all) = try exercises(log, program: program)
        func grouped(_ ids: [String]) -> [Group.Module] { byType(log, ids, programId: programId, rules: rules) }
        guard let programId, let program = log.programs.live.first(where: { $0.programId == programId }) else {
            return [Group(workout: "Exercises you trained", day: nil, modules: grouped(all))]
        }
        // A day as its workout runs: the modules that open it, its own exercises by module type, then its other modules.
        return program.generated.sessions.enumerated().map { i, session in
            func modules(_ opening: Bool) -> [Group.Module] {
                program.modules(day: i, opening: opening).map { m in
                    Group.Module(
                        name: m.name, module: m.type,
                        exerciseIds: m.lines.map(\.exercise.exerciseId).reduce(into: []) { if !$0.contains($1) { $0.append($1) } })
                }
            }
            return Group(
                workout: session.name, day: i + 1, modules: modules(true) + grouped(session.exercises.map(\.exerciseId)) + modules(false))
        }
    }

    /// A template's exercises as `progression show --template` lists them: the
    /// template's modules first, in its order, then its other lines grouped by
    /// each exercise's module.
    /// The settings answer each exercise under its template module's type, unless an override names another module.
    public static func templateGroups(
        _ log: TrainingLogProjection, template ref: String, rules: RuleSet
    ) throws -> (Group, [(exerciseId: String, settings: NextTargetProjection.Settings)]) {
        let t = try log.templates.resolve(ref)
        let ids = t.exercises.map(\.exerciseId).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        let named = t.modules.map { Group.Module(name: $0.name, module: $0.type, exerciseIds: $0.exerciseIds.filter(ids.contains)) }
        let inModules = Set(named.flatMap(\.exerciseIds))
        let rest = byType(log, ids.filter { !inModules.contains($0) }, programId: nil, rules: rules)
        let moduleOf = Dictionary(named.flatMap { m in m.exerciseIds.map { ($0, m.module) } }, uniquingKeysWith: { a, _ in a })
        let rows = ids.map { id in
            (id, NextTargetProjection.settings(log, exerciseId: id, programId: nil, rules: rules, moduleDefault: moduleOf[id]))
        }
        return (Group(workout: t.name, day: nil, modules: (named + rest).filter { !$0.exerciseIds.isEmpty }), rows)
    }

    /// Exercises grouped by their module type, in the order first reached.
    static func byType(_ log: TrainingLogProjection, _ ids: [String], programId: UUID?, rules: RuleSet) -> [Group.Module] {
        var out: [Group.Module] = []
        for id in ids {
            let m = NextTargetProjection.settings(log, exerciseId: id, programId: programId, rules: rules).module
            if let i = out.firstIndex(where: { $0.module == m }) {
                if !out[i].exerciseIds.contains(id) { out[i].exerciseIds.append(id) }
            } else {
                out.append(Group.Module(name: nil, module: m, exerciseIds: [id]))
            }
        }
        return out
    }

    /// The exercises a batch `progression set` changes: every one in scope, or those of one module.
    public static func selected(_ log: TrainingLogProjection, program: String?, module: ModuleType?, rules: RuleSet) throws -> [String] {
        let (programId, all) = try exercises(log, program: program)
        guard let module else { return all }
        return all.filter { NextTargetProjection.settings(log, exerciseId: $0, programId: programId, rules: rules).module == module }
    }

    /// Each exercise's settings under `rules`.
    public static func settings(
        _ log: TrainingLogProjection, program: String?, rules: RuleSet
    )
        throws -> [(exerciseId: String, settings: NextTargetProjection.Settings)]
    {
        let (programId, ids) = try exercises(log, program: program)
        return ids.map { ($0, NextTargetProjection.settings(log, exerciseId: $0, programId: programId, rules: rules)) }
    }

    public static func settingsDocument(
        _ log: TrainingLogProjection, _ rows: [(exerciseId: String, settings: NextTargetProjection.Settings)], groups: [Group] = []
    )
        -> JSONValue
    {
        func row(_ id: String, _ s: NextTargetProjection.Settings) -> JSONValue {
            .object([
                ("exercise", .string(log.exerciseName(id))), ("exerciseId", .string(id)),
                ("module", .string(kebab(s.module.rawValue))),
                ("enabled", .bool(s.enabled)), ("rule", .string(s.rule.rawValue)),
                ("incrementKg", .number(s.increment.kilograms)),
                ("repsMin", .int(Int64(s.repsMin))), ("repsMax", .int(Int64(s.repsMax))), ("overridden", .bool(s.overridden)),
            ])
        }
        let byId = Dictionary(rows.map { ($0.exerciseId, $0.settings) }, uniquingKeysWith: { a, _ in a })
        return .object([
            ("exercises", .array(rows.map { row($0.exerciseId, $0.settings) })),
            (
                "workouts",
                .array(
                    groups.map { g in
                        .object([
                            ("workout", .string(g.workout)), ("day", .optional(g.day)),
                            (
                                "modules",
                                .array(
                                    g.modules.map { m in
                                        .object([
                                            ("module", .string(kebab(m.module.rawValue))), ("name", .optional(m.name)),
                                            ("exercises", .array(m.exerciseIds.compactMap { id in byId[id].map { row(id, $0) } })),
                                        ])
                                    })
                            ),
                        ])
                    })
            ),
        ])
    }

    /// The next targets: of `exercise` alone, or of every exercise of the program.
    /// `day`, when given, keeps its exercises only (`next` without `--all`); `week`, the program's planned week, gives
    /// each its sets, effort or deload; `now`, the time asked at, lets a long break since an exercise's last
    /// session give a comeback (`DeloadAdvice.comeback`).
    public static func targets(
        _ log: TrainingLogProjection, exercise: String?, program: String?, rules: RuleSet, day: NextDay? = nil,
        week: ProgramWeekPlan? = nil, now: Timestamp? = nil
    )
        throws -> [NextTargetProjection.Target]
    {
        let (programId, all) = try exercises(log, program: program)
        let ids = try exercise.map { [try log.library.resolve($0).exerciseId] } ?? day?.exerciseIds ?? all
        let plan = programId.flatMap { id in log.programs.live.first { $0.programId == id } }
        let weekSets = week.flatMap { w in plan.map { w.sets($0.generated, library: log.library, minutes: $0.sessionMinutes) } }
        return ids.map { id in
            // The exercise's program day: the next day when it has it, else the first day that has it.
            let d = plan.flatMap { plan in
                day.map(\.index).flatMap { i in plan.generated.sessions[i].exercises.contains { $0.exerciseId == id } ? i : nil }
                    ?? plan.generated.sessions.indices.first { plan.generated.sessions[$0].exercises.contains { $0.exerciseId == id } }
            }
            var target = NextTargetProjection.next(log, exerciseId: id, programId: programId, rules: rules, now: now)
            if let d, let plan, let percent = plan.percentTarget(session: d, exerciseId: id),
                let line = plan.generated.sessions[d].exercises.first(where: { $0.exerciseId == id })
            {
                target = ofMax(target, percent, reps: (line.repsMin, line.repsMax), log: log, rules: rules)
            } else {
                target = loadable(target, log)
            }
            guard let week, let plan, let weekSets else { return target }
            let sets = d.flatMap { d in plan.generated.sessions[d].exercises.firstIndex { $0.exerciseId == id }.map { weekSets[d][$0] } }
            return week.apply(to: target, sets: sets, log: log, rules: rules)
        }
    }

    /// A program's percentage target: that share of the max (`PercentQuery`, loadable) for the program day's `reps`;
    /// without a max yet, the progression's target with the reason why.
    static func ofMax(
        _ target: NextTargetProjection.Target, _ p: ProgramPercentTargetSet, reps: (Int, Int), log: TrainingLogProjection, rules: RuleSet
    ) -> NextTargetProjection.Target {
        var t = target
        let percent = p.percent ?? 100
        guard let a = try? PercentQuery.answer(log, exercise: p.exerciseId, of: p.of, percent: percent, rules: rules), let row = a.rows.first
        else {
            t.reason += "; no \(p.of?.rawValue ?? "") max yet for the \(percent) % target: record one with `ledger settings one-rep-max`"
            return loadable(t, log)
        }
        let unit = a.unit
        t.weightKg = Weight(row.weight, unit).kilograms
        t.unroundedKg = abs(row.weight - row.exact) > 1e-9 ? Weight(row.exact, unit).kilograms : nil
        (t.repsMin, t.repsMax) = reps
        t.rule = .none
        t.rpe = nil
        t.deload = nil
        t.sets = nil
        t.percentOf = NextTargetProjection.PercentBasis(percent: percent, maxKg: a.max.kg, source: a.max.source, date: a.max.date)
        let max = unit.words(kilograms: a.max.kg)
        t.reason = "\(percent) % of your \(a.max.source == .tested ? "tested max" : "e1RM") \(max) of \(a.max.date.isoDate)"
        return t
    }

    /// The program's week (`ProgramWeekPlan`) on the next session's date, else today's; nil for a program without planned weeks.
    public static func week(_ log: TrainingLogProjection, program: String?, next: NextDay?, now: Timestamp, rules: RuleSet) throws -> ProgramWeekPlan?
    {
        let (programId, _) = try exercises(log, program: program)
        guard let block = programId.flatMap({ id in log.programs.live.first { $0.programId == id } })?.weekPlan else { return nil }
        let day = next?.on.flatMap(ProgramBlock.day) ?? now.local.daysSinceEpoch
        return ProgramWeekPlan(block, onDay: day, rules: rules)
    }

    /// A barbell target rounded to the nearest weight the lifter's bar and plates load (in the lifting unit),
    /// keeping the unrounded one beside it. On a tie the heavier: when the plates cannot make a step as small
    /// as the progression's, rounding down would hold the lifter at the same weight for ever.
    static func loadable(_ target: NextTargetProjection.Target, _ log: TrainingLogProjection) -> NextTargetProjection.Target {
        guard let kg = target.weightKg, kg > 0, !target.bodyweight,
            log.library.exercises[target.exerciseId]?.definition.equipment.contains(.barbell) == true
        else { return target }
        let unit = log.account.liftingUnit
        let (bar, plates) = log.account.plateInventory(for: unit)
        let wanted = (unit.fromKilograms(kg) * 1000).rounded() / 1000
        let nearest = PlateLoading.nearest(wanted, unit: unit, bar: bar, plates: plates, tiesUp: true)
        guard abs(nearest - wanted) > 1e-9 else { return target }
        var rounded = target
        rounded.weightKg = Weight(nearest, unit).kilograms
        rounded.unroundedKg = kg
        return rounded
    }

    /// The program's next session: the day after the last one trained, and
    /// when the program is on weekdays, the date it falls on.
    public struct NextDay: Sendable, Equatable {
        /// 0-based.
        public var index: Int
        public var name: String
        /// `YYYY-MM-DD`: the first scheduled day from today on, after today when today's session is trained.
        public var on: String?
        /// Its exercises, in the order its workout plans them (with its modules').
        public var exerciseIds: [String]
    }

    /// The next session of `program` (default the active one), nil without a program.
    public static func nextDay(_ log: TrainingLogProjection, program: String?, now: Timestamp) throws -> NextDay? {
        guard
            let p = try program.map({ try log.programs.resolve($0) })
                ?? log.programs.active.flatMap({ id in log.programs.live.first { $0.programId == id } })
        else { return nil }
        let sessions = p.generated.sessions
        guard !sessions.isEmpty else { return nil }
        // The latest workout of one of the program's days, finished or under way.
        var last: WorkoutState?
        for w in log.countedWorkouts where w.programId == p.programId && w.programDayIndex != nil { last = w }
        let index = last.flatMap(\.programDayIndex).map { ($0 + 1) % sessions.count } ?? 0
        let today = now.local.daysSinceEpoch
        let trainedToday = last?.startedAt.map { $0.local.daysSinceEpoch == today } ?? false
        let on = Schedule(p).next(onOrAfter: trainedToday ? today + 1 : today).map { Timestamp(millis: $0 * 86_400_000).isoDate }
        var seen = Set<String>()
        return NextDay(
            index: index, name: sessions[index].name, on: on,
            exerciseIds: p.exerciseIds(day: index).filter { seen.insert($0).inserted })
    }

    /// `ledger next [EXERCISE] [--program P] [--all]`: the next day of the program (none for one exercise),
    /// the week of its block, and each exercise's target.
    public struct Next {
        public var day: NextDay?
        public var week: ProgramWeekPlan?
        public var targets: [NextTargetProjection.Target]
        public var single: Bool
    }

    public static func next(
        _ log: TrainingLogProjection, exercise: String?, program: String?, all: Bool, rules: RuleSet, now: Timestamp
    ) throws -> Next {
        let day = exercise == nil ? try nextDay(log, program: program, now: now) : nil
        let week = try week(log, program: program, next: day, now: now, rules: rules)
        let targets = try targets(log, exercise: exercise, program: program, rules: rules, day: all ? nil : day, week: week, now: now)
        return Next(day: day, week: week, targets: targets, single: exercise != nil)
    }

    public static func document(_ log: TrainingLogProjection, _ n: Next) -> JSONValue {
        targetsDocument(log, n.targets, single: n.single, next: n.day, week: n.week)
    }

    /// One target's document, or with `single` false, `{"targets":[…],"scheduledOn","day"}`.
    public static func targetsDocument(
        _ log: TrainingLogProjection, _ targets: [NextTargetProjection.Target], single: Bool, next: NextDay? = nil,
        week: ProgramWeekPlan? = nil
    ) -> JSONValue {
        func json(_ t: NextTargetProjection.Target) -> JSONValue {
            .object([
                ("exercise", .string(log.exerciseName(t.exerciseId))), ("exerciseId", .string(t.exerciseId)),
                ("weightKg", .optional(t.weightKg)), ("repsMin", .int(Int64(t.repsMin))), ("repsMax", .int(Int64(t.repsMax))),
                ("rule", .string(t.rule.rawValue)), ("reason", .string(t.reason)),
                ("unroundedKg", .optional(t.unroundedKg)), ("rpe", .optional(t.rpe)), ("sets", .optional(t.sets)), ("rir", .optional(t.rir)),
                (
                    "percentOf",
                    t.percentOf.map { p in
                        .object([
                            ("percent", .int(Int64(p.percent))), ("maxKg", .number((p.maxKg * 1000).rounded() / 1000)),
                            ("source", .string(p.source.rawValue)), ("date", .string(p.date.isoDate)),
                        ])
                    } ?? .null
                ),
                (
                    "deload",
                    t.deload.map { d in
                        .object([
                            ("kind", .string(d.kind.rawValue)), ("reason", .string(d.reason)),
                            ("weightKg", .number((d.weightKg * 1000).rounded() / 1000)), ("sets", .int(Int64(d.sets))),
                        ])
                    } ?? .null
                ),
            ])
        }
        let day: JSONValue = next.map { .object([("number", .int(Int64($0.index + 1))), ("name", .string($0.name))]) } ?? .null
        return single
            ? json(targets[0])
            : .object([
                ("targets", .array(targets.map(json))), ("scheduledOn", .optional(next?.on)), ("day", day),
                ("week", week.map(weekDocument) ?? .null),
            ])
    }

    /// A program's planned week, as `next` and `program show` give it.
    public static func weekDocument(_ w: ProgramWeekPlan) -> JSONValue {
        .object([
            ("kind", .string(w.kind.rawValue)), ("week", .int(Int64(w.week))), ("weeks", .int(Int64(w.weeks))), ("cycle", .int(Int64(w.cycle))),
            ("startsOn", .string(w.startsOn)), ("begun", .bool(w.begun)), ("deload", .bool(w.deload)), ("rir", .optional(w.rir)),
            ("setsAddedPerMuscle", .int(Int64(w.setsAddedPerMuscle))), ("loadFactor", .number(w.loadFactor)),
            ("volumeFactor", .number(w.volumeFactor)), ("line", .string(w.line)),
        ])
    }
}
