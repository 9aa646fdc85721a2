import Foundation

/// Template commands (DOMAIN.md §10, §12). Creating or duplicating a
/// template is decided against entitlements as of the command's time; no
/// workout or set command ever looks at entitlements.
extension CommandSession {
    public mutating func createTemplate(name: String, exercises: [String]) throws -> UUID {
        try createTemplate(name: name, lines: exercises.map { TemplateExercise(exerciseId: $0) })
    }

    /// A template from a workout (the app's "save as template"): its exercises in order, each with as many
    /// sets as were done (planned ones when none were), the reps they spanned, the heaviest weight and
    /// the longest duration; warm-ups left out. Named after the workout unless `name` is given.
    public mutating func createTemplate(fromWorkout workoutId: UUID, name: String? = nil) throws -> UUID {
        let w = try workout(workoutId)
        guard w.status != .notStarted else { throw Refusal.unknownWorkout(workoutId.lowercased) }
        let lines = w.entries.compactMap { entry -> TemplateExercise? in
            let working = w.sets.filter { $0.entryId == entry.entryId && $0.type.isWorking }
            let done = working.filter(\.completed)
            let used = done.isEmpty ? working : done
            // An exercise archived since is left out, as repeating a workout leaves it out.
            guard !used.isEmpty, (try? library.resolveActive(entry.exerciseId)) != nil else { return nil }
            let reps = used.compactMap(\.metrics.reps)
            return TemplateExercise(
                exerciseId: entry.exerciseId, sets: used.count, repsMin: reps.min(), repsMax: reps.max(),
                weight: used.compactMap(\.metrics.weight).max { $0.kilograms < $1.kilograms },
                durationSeconds: used.compactMap(\.metrics.durationSeconds).max())
        }
        guard !lines.isEmpty else { throw Refusal.invalidInput("the workout has no sets to make a template of") }
        return try createTemplate(name: name ?? w.name, lines: lines)
    }

    /// Creates a template whose lines carry targets (`template create NAME --exercise E --sets 3 --reps 8-12 …`):
    /// `TemplateCreated` with what its layout holds, then `TemplateTargetsSet` when a line has a weight, duration or rest.
    /// `modules` come first, each bringing its lines, then `lines`; the template records which module brought which.
    public mutating func createTemplate(name: String, lines: [TemplateExercise], modules: [String] = []) throws -> UUID {
        let catalog = try templateCatalog()
        let clean = try Self.templateName(name)
        let used = try modules.map { m in try programCatalog().module(m) }
        let checked = try (used.flatMap { $0.lines.map(\.exercise) } + lines).map(checkedLine)
        try checkTemplateLimit(catalog)
        let id = ids.next()
        expectations[.template(id)] = .exactly(0)
        var e = TemplateCreated()
        e.templateId = id
        e.name = clean
        e.exercises = checked
        emit([.templateCreated(e)])
        if checked.contains(where: \.hasLaterTargets) {
            var t = TemplateTargetsSet()
            t.templateId = id
            t.lines = checked.map(TemplateLine.init)
            emit([.templateTargetsSet(t)])
        }
        if !used.isEmpty {
            var m = TemplateModulesSet()
            m.templateId = id
            m.modules = used.map { module in
                var t = TemplateModule()
                t.moduleId = module.moduleId
                t.name = module.name
                t.type = module.type
                t.exerciseIds = module.lines.map(\.exercise.exerciseId)
                return t
            }
            emit([.templateModulesSet(m)])
        }
        return id
    }

    /// `ledger module define NAME --type T --exercise E …`: a reusable group of exercises with their targets;
    /// defining a name again replaces that module.
    public mutating func defineModule(name: String, type: ModuleType, lines: [TemplateExercise]) throws -> UUID {
        let catalog = try programCatalog()
        guard !name.trimmingSpaces().isEmpty else { throw Refusal.invalidProgram("a module needs a name") }
        let clean = try Self.templateName(name)
        guard !lines.isEmpty else { throw Refusal.moduleNeedsExercises }
        let checked = try lines.map(checkedLine)
        var e = ModuleDefined()
        e.moduleId = catalog.modules.first { $0.name.lowercased() == clean.lowercased() }?.moduleId ?? ids.next()
        e.name = clean
        e.type = type
        e.lines = checked.map(TemplateLine.init)
        emit([.moduleDefined(e)])
        return e.moduleId
    }

    public mutating func duplicateTemplate(_ ref: String, name: String? = nil) throws -> UUID {
        let catalog = try templateCatalog()
        let source = try catalog.resolve(ref)
        try checkTemplateLimit(catalog)
        let id = ids.next()
        expectations[.template(id)] = .exactly(0)
        var e = TemplateDuplicated()
        e.templateId = id
        e.sourceTemplateId = source.templateId
        e.name = try Self.templateName(name ?? "\(source.name) (copy)")
        e.exercises = source.exercises
        emit([.templateDuplicated(e)])
        // The copy keeps every target: weights, durations and rests go as in `createTemplate`.
        if source.exercises.contains(where: \.hasLaterTargets) {
            var t = TemplateTargetsSet()
            t.templateId = id
            t.lines = source.exercises.map(TemplateLine.init)
            emit([.templateTargetsSet(t)])
        }
        if !source.modules.isEmpty {
            var m = TemplateModulesSet()
            m.templateId = id
            m.modules = source.modules
            emit([.templateModulesSet(m)])
        }
        return id
    }

    public mutating func renameTemplate(_ ref: String, to name: String) throws {
        let template = try templateCatalog().resolve(ref)
        var e = TemplateRenamed()
        e.templateId = template.templateId
        e.name = try Self.templateName(name)
        emit([.templateRenamed(e)])
    }

    /// The whole ordered list of a template's lines. Lines with only sets and reps are a
    /// `TemplateExercisesChanged`; any weight, duration or rest makes it a `TemplateTargetsSet`.
    public mutating func setTemplateExercises(_ ref: String, exercises: [TemplateExercise]) throws {
        let template = try templateCatalog().resolve(ref)
        let lines = try exercises.map(checkedLine)
        guard lines != template.exercises else { throw Refusal.nothingToChange }
        if lines.contains(where: \.hasLaterTargets) {
            var e = TemplateTargetsSet()
            e.templateId = template.templateId
            e.lines = lines.map(TemplateLine.init)
            emit([.templateTargetsSet(e)])
        } else {
            var e = TemplateExercisesChanged()
            e.templateId = template.templateId
            e.exercises = lines
            emit([.templateExercisesChanged(e)])
        }
    }

    /// A line with its exercise resolved and its targets checked.
    private func checkedLine(_ line: TemplateExercise) throws -> TemplateExercise {
        var l = line
        l.exerciseId = try library.resolveActive(line.exerciseId).exerciseId
        try Invariants.check(templateLine: l)
        return l
    }

    /// The new order must name every live template exactly once.
    public mutating func reorderTemplates(_ refs: [String]) throws {
        let catalog = try templateCatalog()
        let ids = try refs.map { try catalog.resolve($0).templateId }
        guard Set(ids).count == ids.count else { throw Refusal.invalidTemplateOrder(reason: "a template is named twice") }
        guard Set(ids) == Set(catalog.live.map(\.templateId)) else {
            throw Refusal.invalidTemplateOrder(reason: "name every one of your \(catalog.live.count) templates once")
        }
        var e = TemplatesReordered()
        e.templateIds = ids
        emit([.templatesReordered(e)])
    }

    public mutating func deleteTemplate(_ ref: String) throws {
        let template = try templateCatalog().resolve(ref)
        var e = TemplateDeleted()
        e.templateId = template.templateId
        emit([.templateDeleted(e)])
    }

    /// Starts a workout from a template: its exercises with their targets,
    /// and one planned set per target set.
    public mutating func startWorkout(fromTemplate ref: String, name: String? = nil) throws -> UUID {
        let template = try templateCatalog().resolve(ref)
        let id = try startWorkout(name: name ?? template.name, origin: .template, templateId: template.templateId)
        var planned: [(exerciseId: String, entryId: UUID)] = []
        for line in template.exercises {
            guard let entryId = planLine(id, line) else { continue }
            planned.append((line.exerciseId, entryId))
        }
        // Each module takes the first entries of its exercises that no module before it took, in the template's order.
        var modules: [WorkoutModule] = []
        for m in template.modules {
            var w = WorkoutModule()
            w.moduleId = m.moduleId
            w.name = m.name
            w.type = m.type
            for x in m.exerciseIds {
                guard let i = planned.firstIndex(where: { $0.exerciseId == x }) else { continue }
                w.entryIds.append(planned.remove(at: i).entryId)
            }
            if !w.entryIds.isEmpty { modules.append(w) }
        }
        planModules(id, modules)
        return id
    }

    /// Plans a template or module line (its targets, one planned set per target set); nil when its exercise is archived.
    mutating func planLine(_ workoutId: UUID, _ line: TemplateExercise) -> UUID? {
        guard let exercise = try? library.resolveActive(line.exerciseId) else { return nil }  // archived since
        let target = SetMetrics(weight: line.weight, reps: line.repsMax ?? line.repsMin, durationSeconds: line.durationSeconds)
        return planExercise(
            workoutId, exerciseId: exercise.exerciseId, repsMin: line.repsMin, repsMax: line.repsMax,
            sets: Array(repeating: (SetType.normal, target), count: max(0, line.sets)))
    }

    /// Records the named modules a new workout was started with, if any.
    mutating func planModules(_ workoutId: UUID, _ modules: [WorkoutModule]) {
        guard !modules.isEmpty else { return }
        var e = WorkoutModulesPlanned()
        e.workoutId = workoutId
        e.modules = modules
        emit([.workoutModulesPlanned(e)])
    }

    /// Adds an exercise to a new workout with one planned set per target (template, program day or repeated workout).
    @discardableResult
    mutating func planExercise(
        _ workoutId: UUID, exerciseId: String, repsMin: Int?, repsMax: Int?,
        sets: [(type: SetType, target: SetMetrics)]
    ) -> UUID {
        let entryId = ids.next()
        var added = WorkoutExerciseAdded()
        added.workoutId = workoutId
        added.entryId = entryId
        added.exerciseId = exerciseId
        added.targetSets = sets.count
        added.targetRepsMin = repsMin
        added.targetRepsMax = repsMax
        var events: [LedgerEvent] = [.workoutExerciseAdded(added)]
        for (type, target) in sets {
            var set = SetAdded()
            set.workoutId = workoutId
            set.setId = ids.next()
            set.entryId = entryId
            set.exerciseId = exerciseId
            set.type = type
            set.target = target
            events.append(.setAdded(set))
        }
        emit(events)
        return entryId
    }

    private func checkTemplateLimit(_ catalog: TemplateCatalogState) throws(Refusal) {
        try Invariants.checkNewTemplate(liveTemplates: catalog.live.count, entitlements: account.entitlements, at: context.occurredAt)
    }

    private static func templateName(_ name: String) throws(Refusal) -> String {
        let clean = name.trimmingSpaces()
        try Invariants.check(name: clean, of: .template)
        return clean
    }
}
