import Foundation

/// Questionnaire, generation and the program lifecycle (DOMAIN.md §12).
extension CommandSession {
    public static let sessionMinutesRange = 10...240

    /// Records validated answers; the advice is derived from them, so replay never stores it twice.
    public mutating func answerQuestionnaire(_ answers: QuestionnaireAnswered) throws -> (UUID, ProgramAdvice) {
        var q = answers
        guard (1...6).contains(q.daysPerWeek) else {
            throw Refusal.invalidProgram("days per week \(q.daysPerWeek) is refused: give 1, 2, 3, 4, 5 or 6")
        }
        guard Self.sessionMinutesRange.contains(q.sessionMinutes) else {
            throw Refusal.invalidProgram("a session of \(q.sessionMinutes) minutes is refused: give 10 to 240 minutes")
        }
        q.injuries = q.injuries.map { $0.trimmingSpaces() }.filter { !$0.isEmpty }
        guard q.injuries.allSatisfy({ $0.count <= 200 }) else { throw Refusal.invalidProgram("keep each injury to 200 characters") }
        q.goals = Array(Set(q.goals)).sorted { $0.rawValue < $1.rawValue }
        if q.goals.isEmpty { q.goals = [.muscle] }
        q.equipment = Array(Set(q.equipment)).sorted { $0.rawValue < $1.rawValue }
        q.priorityMuscles = Array(Set(q.priorityMuscles)).sorted { $0.rawValue < $1.rawValue }
        _ = try programCatalog()
        q.questionnaireId = ids.next()
        emit([.questionnaireAnswered(q)])
        return (q.questionnaireId, ProgramAdvice(q, library: library))
    }

    /// Generates a program from a questionnaire (the latest by default) and makes it the active one.
    /// A third program removes the oldest, as an event. A slot that cannot be filled refuses, appending nothing.
    /// `weeks`, when given, plans the program as a mesocycle of that many weeks from today (`ProgramWeeksPlanned`).
    /// `style` chooses seed 001's generator (the default) or a coach's strength block, recorded as `ProgramStyleChosen`.
    public mutating func generateProgram(
        questionnaire ref: UUID? = nil, split requested: Split? = nil,
        seed: UInt64? = nil, weeks: Int? = nil, style: ProgramStyle = .seed
    ) throws -> ProgramGenerated {
        let catalog = try programCatalog()
        let block = try weeks.map { try weekPlan(.mesocycle, weeks: $0, startsOn: nil) }
        guard let qid = ref ?? catalog.latestQuestionnaire, let q = catalog.questionnaires[qid] else {
            throw Refusal.questionnaireNeeded
        }
        guard let split = requested ?? Split.recommended(days: q.daysPerWeek, experience: q.experience, priority: q.priorityMuscles) else {
            throw Refusal.invalidProgram("no split for \(q.daysPerWeek) days")
        }
        let id = ids.next()
        // The seed defaults to one drawn from the program's own id, and is stored either way.
        let chosenSeed = seed ?? withUnsafeBytes(of: id.uuid) { $0.loadUnaligned(as: UInt64.self) }
        let (sessions, repeatWarning) = try ProgramGenerator.generate(
            library: library, answers: q, split: split, seed: chosenSeed, style: style)
        var e = ProgramGenerated()
        e.programId = id
        e.questionnaireId = qid
        e.split = split.rawValue
        e.seed = chosenSeed
        e.repeatWarning = repeatWarning
        e.sessions = sessions
        let planned = block.map { b -> [LedgerEvent] in
            var b = b
            b.programId = id
            return [.programWeeksPlanned(b)]
        }
        var chosen = ProgramStyleChosen()
        chosen.programId = id
        chosen.style = style
        let styled: [LedgerEvent] = style == .seed ? [] : [.programStyleChosen(chosen)]  // none: the seed's, as every earlier program
        emit(
            Self.adopting(e, holds: ProgramGenerator.holdTargets(sessions, library: library, goals: q.goals), into: catalog) + styled
                + (planned ?? []))
        return e
    }

    /// `program mesocycle P --weeks N` and `program deload P --every N`: the program's weeks become a block of `weeks`
    /// weeks from `startsOn` (default today), its last a deload; it replaces the plan before it. `weeks` nil takes the plan away.
    public mutating func planWeeks(_ ref: String, kind: ProgramBlockKind, weeks: Int?, startsOn: String? = nil) throws -> ProgramWeeksPlanned {
        let p = try programCatalog().resolve(ref)
        guard let weeks else {
            guard p.block != nil else { throw Refusal.nothingToChange }
            var off = ProgramWeeksPlanned()
            off.programId = p.programId
            off.kind = kind
            emit([.programWeeksPlanned(off)])
            return off
        }
        var e = try weekPlan(kind, weeks: weeks, startsOn: startsOn)
        e.programId = p.programId
        guard e != p.block else { throw Refusal.nothingToChange }
        emit([.programWeeksPlanned(e)])
        return e
    }

    /// A validated plan without its program.
    func weekPlan(_ kind: ProgramBlockKind, weeks: Int, startsOn: String?) throws(Refusal) -> ProgramWeeksPlanned {
        var e = ProgramWeeksPlanned()
        e.kind = kind
        e.weeks = weeks
        e.startsOn = startsOn?.trimmingSpaces() ?? ProgramBlock.date(context.occurredAt.local.daysSinceEpoch)
        _ = try ProgramBlock(e)
        return e
    }

    /// The events that make `program` a live program with its holds, and the
    /// active one; when `liveLimit` programs are live, the oldest is removed
    /// first. Generating a program and accepting a coach's both go through here.
    static func adopting(_ program: ProgramGenerated, holds: [ProgramHold], into catalog: ProgramCatalogState) -> [LedgerEvent] {
        var events: [LedgerEvent] = []
        if catalog.live.count >= ProgramCatalogState.liveLimit, let oldest = catalog.live.first {
            var removed = ProgramRemoved()
            removed.programId = oldest.programId
            removed.reason = "oldest of three: at most \(ProgramCatalogState.liveLimit) programs are kept"
            events.append(.programRemoved(removed))
        }
        events.append(.programGenerated(program))
        if !holds.isEmpty {
            var h = ProgramHoldsTimed()
            h.programId = program.programId
            h.holds = holds
            events.append(.programHoldsTimed(h))
        }
        var activated = ProgramActivated()
        activated.programId = program.programId
        return events + [.programActivated(activated)]
    }

    /// `program schedule P mon,wed,fri`: puts the program's days on these weekdays (empty: off the calendar).
    public mutating func scheduleProgram(_ ref: String, weekdays: [Int]) throws -> ProgramScheduled {
        let p = try programCatalog().resolve(ref)
        try Invariants.check(weekdays: weekdays)
        let sorted = weekdays.sorted()
        guard sorted != p.weekdays else { throw Refusal.nothingToChange }
        var e = ProgramScheduled()
        e.programId = p.programId
        e.weekdays = sorted
        emit([.programScheduled(e)])
        return e
    }

    public mutating func activateProgram(_ ref: String) throws -> UUID {
        let p = try programCatalog().resolve(ref)
        var e = ProgramActivated()
        e.programId = p.programId
        emit([.programActivated(e)])
        return p.programId
    }

    public mutating func removeProgram(_ ref: String) throws -> UUID {
        let p = try programCatalog().resolve(ref)
        var e = ProgramRemoved()
        e.programId = p.programId
        e.reason = "removed"
        emit([.programRemoved(e)])
        return p.programId
    }

    /// Starts a program day: its exercises with one planned set per target set, at the top of the rep range.
    /// `sets`, when given, are the day's sets by line for this week of the program's block (`ProgramWeekPlan`).
    public mutating func startWorkout(program ref: String, day: Int, name: String? = nil, sets: [Int]? = nil) throws -> UUID {
        let p = try programCatalog().resolve(ref)
        let session = p.generated.sessions[try Self.dayIndex(day, of: p)]
        let id = try startWorkout(name: name ?? session.name, origin: .programDay, programId: p.programId, programDayIndex: day - 1)
        var planned: [WorkoutModule] = []
        func plan(_ opening: Bool) {
            for m in p.modules(day: day - 1, opening: opening) {
                var w = WorkoutModule()
                w.moduleId = m.moduleId
                w.name = m.name
                w.type = m.type
                w.entryIds = m.lines.compactMap { planLine(id, $0.exercise) }
                if !w.entryIds.isEmpty { planned.append(w) }
            }
        }
        plan(true)
        for (line, planned) in session.exercises.enumerated() {
            var x = planned
            if let sets, sets.indices.contains(line) { x.sets = sets[line] }
            guard let exercise = try? library.resolveActive(x.exerciseId) else { continue }  // archived since
            if let hold = p.hold(session: day - 1, exerciseId: x.exerciseId) {
                // A hold is planned in seconds, at the top of its range.
                planExercise(
                    id, exerciseId: exercise.exerciseId, repsMin: nil, repsMax: nil,
                    sets: Array(repeating: (SetType.normal, SetMetrics(durationSeconds: Double(hold.secondsMax))), count: x.sets))
                continue
            }
            planExercise(
                id, exerciseId: exercise.exerciseId, repsMin: x.repsMin, repsMax: x.repsMax,
                sets: Array(repeating: (SetType.normal, SetMetrics(reps: x.repsMax)), count: x.sets))
        }
        plan(false)
        planModules(id, planned)
        return id
    }

    /// `program add-module P --day N --module M`: the day takes a copy of the module (its lines and targets). Warm-ups,
    /// prehab and explosive modules open the day; the others follow its exercises. A module the day has already is refused.
    public mutating func addModule(_ moduleRef: String, toProgram ref: String, day: Int) throws -> ProgramDayModulesSet {
        let catalog = try programCatalog()
        let p = try catalog.resolve(ref)
        let index = try Self.dayIndex(day, of: p)
        let module = try catalog.module(moduleRef)
        var current = p.modules(day: index)
        guard !current.contains(where: { $0.moduleId == module.moduleId }) else {
            throw Refusal.invalidProgram("day \(day) already has the module '\(module.name)'")
        }
        current.append(module)
        return setDayModules(p, index, current)
    }

    /// `program remove-module P --day N --module M`: the day no longer takes the module; workouts already started keep it.
    public mutating func removeModule(_ moduleRef: String, fromProgram ref: String, day: Int) throws -> ProgramDayModulesSet {
        let p = try programCatalog().resolve(ref)
        let index = try Self.dayIndex(day, of: p)
        let current = p.modules(day: index)
        let key = moduleRef.trimmingSpaces().lowercased()
        guard let gone = current.first(where: { $0.name.lowercased() == key || (!key.isEmpty && $0.moduleId.lowercased.hasPrefix(key)) }) else {
            throw Refusal.invalidProgram(
                "day \(day) has no module '\(moduleRef)'"
                    + (current.isEmpty ? "" : "; its modules: \(current.map(\.name).joined(separator: ", "))"))
        }
        return setDayModules(p, index, current.filter { $0.moduleId != gone.moduleId })
    }

    private mutating func setDayModules(_ p: ProgramCatalogState.Program, _ index: Int, _ modules: [ModuleDefined]) -> ProgramDayModulesSet {
        var e = ProgramDayModulesSet()
        e.programId = p.programId
        e.session = index
        e.modules = modules
        emit([.programDayModulesSet(e)])
        return e
    }

    /// `program percent P --day N EXERCISE PCT [--of tested|e1rm]`: the day's exercise loads PCT % of its max
    /// (`percent` nil: as the progression rule says again). Refused for an exercise the day does not have, for one with
    /// no load to take a share of, and for a percentage outside 1–100.
    public mutating func setPercentTarget(
        program ref: String, day: Int, exercise: String, percent: Int?, of source: OneRepMaxSource? = nil
    ) throws -> ProgramPercentTargetSet {
        let p = try programCatalog().resolve(ref)
        let index = try Self.dayIndex(day, of: p)
        let x = try library.resolve(exercise)
        let own = p.generated.sessions[index].exercises.map(\.exerciseId)
        guard own.contains(x.exerciseId) else {
            throw Refusal.invalidProgram(
                "day \(day) has no \(x.name); its exercises: \(own.map { library.name(of: $0) }.joined(separator: ", "))")
        }
        if let percent { try Invariants.check(percentOfMax: percent) }
        guard percent == nil || Loadable.takesLoad(x.definition) else {
            throw Refusal.invalidProgram("\(x.name) has no load to take a percentage of: \(Loadable.none(x.definition))")
        }
        let current = p.percentTarget(session: index, exerciseId: x.exerciseId)
        guard percent != current?.percent || (percent != nil && source != current?.of) else { throw Refusal.nothingToChange }
        var e = ProgramPercentTargetSet()
        e.programId = p.programId
        e.session = index
        e.exerciseId = x.exerciseId
        e.percent = percent
        e.of = percent == nil ? nil : source
        emit([.programPercentTargetSet(e)])
        return e
    }

    /// A day's 0-based index, refused outside the program's days.
    private static func dayIndex(_ day: Int, of p: ProgramCatalogState.Program) throws(Refusal) -> Int {
        let count = p.generated.sessions.count
        guard count > 0, (1...count).contains(day) else { throw .invalidProgram("day \(day) is refused: this program has days 1 to \(count)") }
        return day - 1
    }
}

/// Per-exercise progression overrides (DOMAIN.md §14).
extension CommandSession {
    /// Records an override for one program (`programRef`) or everywhere; `clear` returns the exercise to its defaults.
    public mutating func setProgression(
        exercise: String, programRef: String? = nil, enabled: Bool? = nil, rule: ProgressionRule? = nil,
        module: ModuleType? = nil, increment: Weight? = nil, reps: (Int, Int)? = nil,
        clear: Bool = false
    ) throws {
        let x = try library.resolve(exercise)
        let programId = try programRef.map { try programCatalog().resolve($0).programId }
        _ = try programCatalog()
        if let increment {
            try increment.validate()
            guard increment.kilograms > 0, increment.kilograms <= 50 else {
                throw Refusal.invalidProgram(
                    "an increment of \(increment.value.formatted) \(increment.unit.rawValue) is refused: give more than 0 and at most 50 kg")
            }
        }
        if let (lo, hi) = reps, !(1...100).contains(lo) || lo > hi || hi > 100 {
            throw Refusal.malformedRange("\(lo)-\(hi)")
        }
        guard clear || enabled != nil || rule != nil || module != nil || increment != nil || reps != nil else {
            throw Refusal.invalidProgram("nothing to change: name a rule, an increment, a rep range or a module, turn it on or off, or clear it")
        }
        var e = ProgressionOverrideSet()
        e.exerciseId = x.exerciseId
        e.programId = programId
        e.enabled = enabled
        e.rule = rule
        e.module = module
        e.increment = increment
        e.repsMin = reps?.0
        e.repsMax = reps?.1
        e.cleared = clear
        emit([.progressionOverrideSet(e)])
    }
}
