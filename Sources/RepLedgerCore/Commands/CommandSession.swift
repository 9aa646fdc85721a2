import Foundation

/// Who is acting and when, for the events of one command.
public struct CommandContext: Sendable {
    public var occurredAt: Timestamp
    public var device: String
    /// The command's id: the causation of its events.
    public var commandId: UUID
    /// Groups related commands (a watch sync, an import); defaults to the command.
    public var correlationId: UUID?

    public init(occurredAt: Timestamp, device: String, commandId: UUID, correlationId: UUID? = nil) {
        self.occurredAt = occurredAt
        self.device = device
        self.commandId = commandId
        self.correlationId = correlationId
    }
}

/// Decides commands against the current state of their streams and collects
/// the resulting events. Deciding is pure: a refusal throws before anything is
/// collected, and nothing touches storage here. `Ledger` loads states from the
/// store and appends what a session collected; the demo runs a whole history
/// through one session in memory.
public struct CommandSession {
    public private(set) var library: LibraryState
    public private(set) var account: AccountState
    private var workouts: [UUID: WorkoutState] = [:]
    private let loadWorkout: (UUID) throws -> WorkoutState
    /// Loaded on first use: only template commands need the catalog.
    var templates: TemplateCatalogState?
    private let loadTemplates: () throws -> TemplateCatalogState
    /// Loaded on first use: only program commands need it.
    var programs: ProgramCatalogState?
    private let loadPrograms: () throws -> ProgramCatalogState
    public private(set) var pending: [ProposedEvent] = []
    /// The version each stream was read at, for the optimistic-concurrency check on append.
    public internal(set) var expectations: [StreamName: ExpectedVersion] = [:]
    public var ids: IdentifierSource
    public var context: CommandContext

    public init(
        library: LibraryState, account: AccountState, context: CommandContext, ids: IdentifierSource,
        loadWorkout: @escaping (UUID) throws -> WorkoutState = { WorkoutState(workoutId: $0) },
        loadTemplates: @escaping () throws -> TemplateCatalogState = { TemplateCatalogState() },
        loadPrograms: @escaping () throws -> ProgramCatalogState = { ProgramCatalogState() }
    ) {
        self.library = library
        self.account = account
        self.context = context
        self.ids = ids
        self.loadWorkout = loadWorkout
        self.loadTemplates = loadTemplates
        self.loadPrograms = loadPrograms
        expectations[.library] = .exactly(library.version)
        expectations[.account] = .exactly(account.version)
    }

    /// The template catalog, read once and then kept current with this session's events.
    public mutating func templateCatalog() throws -> TemplateCatalogState {
        if let t = templates { return t }
        let t = try loadTemplates()
        templates = t
        expectations[.templates] = .exactly(t.orderVersion)
        for template in t.templates.values { expectations[.template(template.templateId)] = .exactly(template.version) }
        return t
    }

    /// The programs, read once and then kept current with this session's events.
    public mutating func programCatalog() throws -> ProgramCatalogState {
        if let p = programs { return p }
        let p = try loadPrograms()
        programs = p
        expectations[.programs] = .exactly(p.version)
        return p
    }

    /// The workout's state, read once and then kept current with this session's events.
    public mutating func workout(_ id: UUID) throws -> WorkoutState {
        if let w = workouts[id] { return w }
        let w = try loadWorkout(id)
        workouts[id] = w
        expectations[.workout(id)] = .exactly(w.version)
        return w
    }

    /// Collects decided events and evolves the in-memory states with them.
    mutating func emit(_ events: [LedgerEvent]) {
        for event in events {
            pending.append(
                ProposedEvent(
                    eventId: ids.nextEventId(), event: event, occurredAt: context.occurredAt,
                    device: context.device, causationId: context.commandId,
                    correlationId: context.correlationId ?? context.commandId))
            library.evolve(event, at: context.occurredAt)
            account.evolve(event, at: context.occurredAt)
            if templates != nil { templates!.evolve(event, at: context.occurredAt) }
            if programs != nil { programs!.evolve(event, at: context.occurredAt) }
            if let id = event.workoutId { workouts[id]?.evolve(event, at: context.occurredAt) }
        }
    }

    // MARK: Settings

    /// `settings unit kg|lb`; refused as `nothingToChange` when the lifter already chose that unit.
    public mutating func setLiftingUnit(_ unit: WeightUnit) throws(Refusal) {
        guard !account.liftingUnitChosen || account.liftingUnit != unit else { throw .nothingToChange }
        emit([.liftingUnitChanged(LiftingUnitChanged(unit: unit))])
    }

    /// `settings plates --bar B --plates LIST` (an empty list: the unit's defaults again).
    public mutating func setPlateInventory(unit: WeightUnit, bar: Double, plates: [Double]) throws(Refusal) {
        var e = PlateInventorySet()
        e.unit = unit
        if !plates.isEmpty {
            try Invariants.check(bar: bar, plates: plates, unit: unit)
            e.bar = bar
            e.plates = Array(Set(plates)).sorted(by: >)
        }
        guard e.plates != account.plates || (!e.plates.isEmpty && (e.bar != account.bar || e.unit != account.plateUnit)) else {
            throw .nothingToChange
        }
        emit([.plateInventorySet(e)])
    }

    /// `settings distance km|mi`; refused as `nothingToChange` when distances already show so.
    public mutating func setDistanceUnit(_ unit: DistanceUnit) throws(Refusal) {
        guard account.distanceUnit != unit else { throw .nothingToChange }
        emit([.distanceUnitChanged(DistanceUnitChanged(unit: unit))])
    }

    // MARK: Exercise library

    public mutating func defineExercise(
        name: String, primaryMuscles: [Muscle], secondaryMuscles: [Muscle] = [],
        equipment: [Equipment] = [], kind: ExerciseKind = .strength
    ) throws(Refusal) -> String {
        let clean = name.trimmingSpaces()
        try Invariants.check(name: clean, of: .exercise)
        guard !primaryMuscles.isEmpty else { throw .invalidInput("give at least one primary muscle") }
        if let existing = library.exactMatch(clean) { throw .exerciseExists(name: existing.name, exerciseId: existing.exerciseId) }
        var e = ExerciseDefined()
        e.exerciseId = library.newExerciseId(for: clean)
        e.name = clean
        e.primaryMuscles = primaryMuscles
        e.secondaryMuscles = secondaryMuscles
        e.equipment = equipment
        e.kind = kind
        e.canonicalMovement = e.exerciseId
        e.custom = true
        emit([.exerciseDefined(e)])
        return e.exerciseId
    }

    // MARK: Workouts

    public mutating func startWorkout(
        name: String, origin: WorkoutOrigin = .empty, templateId: UUID? = nil,
        programId: UUID? = nil, programDayIndex: Int? = nil
    ) throws -> UUID {
        let clean = name.trimmingSpaces()
        try Invariants.check(name: clean, of: .workout)
        let id = ids.next()
        workouts[id] = WorkoutState(workoutId: id)
        expectations[.workout(id)] = .exactly(0)
        var e = WorkoutStarted()
        e.workoutId = id
        e.name = clean.isEmpty ? Self.defaultName(at: context.occurredAt) : clean
        e.origin = programId == nil ? origin : .programDay
        e.templateId = templateId
        e.programId = programId
        e.programDayIndex = programDayIndex
        emit([.workoutStarted(e)])
        return id
    }

    /// "Morning Workout", "Evening Workout"… as the apps name an untitled session.
    static func defaultName(at t: Timestamp) -> String {
        switch t.local.hour {
        case 5..<12: return untitledNames[0]
        case 12..<17: return untitledNames[1]
        case 17..<22: return untitledNames[2]
        default: return untitledNames[3]
        }
    }

    /// The names an untitled session gets: no routine is called that.
    public static let untitledNames = ["Morning Workout", "Afternoon Workout", "Evening Workout", "Night Workout"]

    /// Adds an exercise entry to the workout.
    public mutating func addExercise(_ workoutId: UUID, exercise: String, historyEdit: Bool = false) throws -> UUID {
        _ = try writableWorkout(workoutId, historyEdit: historyEdit)
        let x = try library.resolveActive(exercise)
        let entryId = ids.next()
        var e = WorkoutExerciseAdded()
        e.workoutId = workoutId
        e.entryId = entryId
        e.exerciseId = x.exerciseId
        emit([.workoutExerciseAdded(e)])
        return entryId
    }

    /// Records a completed set; adds the exercise to the workout first if it is not there.
    /// `entryId` puts the set into one particular entry of the exercise (an
    /// exercise done twice in a session); by default the first entry is used.
    /// `plannedSetId` fills in and completes a set a template planned.
    public mutating func logSet(
        _ workoutId: UUID, exercise: String, type: SetType = .normal, metrics: SetMetrics,
        notes: String? = nil, historyEdit: Bool = false, entryId: UUID? = nil,
        plannedSetId: UUID? = nil, checkKind: Bool = true, timeGiven: Bool = true
    ) throws -> UUID {
        let w = try writableWorkout(workoutId, historyEdit: historyEdit)
        try Self.refuseNowAfterIdle(w, at: context.occurredAt, timeGiven: timeGiven, or: Refusal.setTimeNeeded)
        let x = try self.exercise(exercise, in: w, active: true)
        try SetValidation.validate(metrics)
        try SetValidation.validateNote(notes)
        if checkKind {
            try SetValidation.validate(metrics, kind: x.definition.kind, exercise: x.name)
        } else {
            // Another app's set is a fact: a load with nothing counted (a sled pushed) is still a set.
            guard metrics.reps != nil || metrics.durationSeconds != nil || metrics.distanceMeters != nil || (metrics.weight?.value ?? 0) > 0
            else {
                throw Refusal.invalidMeasure("the set", reason: "give reps, a load, or a duration or distance for timed work")
            }
        }
        let planned = plannedSetId.flatMap { id in w.sets.first { $0.setId == id && !$0.completed && $0.exerciseId == x.exerciseId } }
        let chosen = (planned?.entryId ?? entryId).flatMap { id in w.entries.first { $0.entryId == id && $0.exerciseId == x.exerciseId } }
        let entryId =
            try chosen?.entryId ?? w.entry(forExercise: x.exerciseId)?.entryId
            ?? addExercise(workoutId, exercise: x.exerciseId, historyEdit: historyEdit)
        var e = SetLogged()
        e.workoutId = workoutId
        e.setId = planned?.setId ?? ids.next()
        e.entryId = entryId
        e.exerciseId = x.exerciseId
        e.type = type
        e.metrics = metrics
        e.notes = notes
        e.historyEdit = w.status == .finished
        emit([.setLogged(e)])
        return e.setId
    }

    /// Changes the given fields of a set; the others keep their values.
    @discardableResult
    public mutating func editSet(
        _ workoutId: UUID, set setRef: String, type: SetType? = nil, changes: SetMetrics,
        notes: String? = nil, historyEdit: Bool = false
    ) throws -> UUID {
        let w = try writableWorkout(workoutId, historyEdit: historyEdit)
        let set = try Self.resolveSet(setRef, in: w)
        guard type != nil || changes != SetMetrics() || notes != nil else { throw Refusal.noChangesGiven }
        try SetValidation.validate(changes)
        try SetValidation.validateNote(notes)
        var e = SetEdited()
        e.workoutId = workoutId
        e.setId = set.setId
        e.type = type
        e.changes = changes
        e.notes = notes
        e.historyEdit = w.status == .finished
        emit([.setEdited(e)])
        return set.setId
    }

    /// The id of a set of the workout, by full id or unique prefix.
    public mutating func resolveSet(_ workoutId: UUID, _ ref: String) throws -> UUID {
        try Self.resolveSet(ref, in: try workout(workoutId)).setId
    }

    public mutating func deleteSet(_ workoutId: UUID, set setRef: String, historyEdit: Bool = false) throws {
        let w = try writableWorkout(workoutId, historyEdit: historyEdit)
        let set = try Self.resolveSet(setRef, in: w)
        var e = SetDeleted()
        e.workoutId = workoutId
        e.setId = set.setId
        e.historyEdit = w.status == .finished
        emit([.setDeleted(e)])
    }

    /// Swaps the entry showing `from` to `to`: logged sets stay with `from`, later ones go to `to`
    /// (planned ones without `from`'s load) → the two exercises as resolved, and the planned sets that follow.
    @discardableResult
    public mutating func swapExercise(
        _ workoutId: UUID, from: String, to: String
    ) throws -> (from: LibraryState.Exercise, to: LibraryState.Exercise, plannedSets: Int) {
        let w = try writableWorkout(workoutId, historyEdit: false)
        let old = try exercise(from, in: w)
        let new = try library.resolveActive(to)
        guard old.exerciseId != new.exerciseId else { throw Refusal.sameExercise(old.name) }
        guard let entry = w.entry(forExercise: old.exerciseId) else {
            throw Refusal.exerciseNotInWorkout(old.name, workout: workoutId)
        }
        var e = WorkoutExerciseSwapped()
        e.workoutId = workoutId
        e.entryId = entry.entryId
        e.fromExerciseId = old.exerciseId
        e.toExerciseId = new.exerciseId
        emit([.workoutExerciseSwapped(e)])
        return (old, new, w.sets.filter { $0.entryId == entry.entryId && !$0.completed }.count)
    }

    /// The longest a workout may lie idle before finishing it, or logging a set
    /// into it, needs the time given: past this, "now" is a backfill's time, not
    /// the workout's (a session forgotten overnight, sets typed in days later).
    public static let idleBeforeFinishNeedsTime: Int64 = 3 * 3600

    /// The one rule for both: with no time given (`timeGiven` false, so "now" is
    /// only the command's time), an open workout idle past the limit refuses
    /// "now", naming its last activity. A finished workout's history edits are
    /// not "now" in it, so they pass.
    static func refuseNowAfterIdle(
        _ w: WorkoutState, at now: Timestamp, timeGiven: Bool, or refusal: (UUID, Timestamp, Int64) -> Refusal
    ) throws(Refusal) {
        guard !timeGiven, w.status != .finished, let last = w.lastActivity, now.millis - last.millis > idleBeforeFinishNeedsTime * 1000
        else { return }
        throw refusal(w.workoutId, last, (now.millis - last.millis) / 60_000)
    }

    /// Finishes a workout now (`timeGiven` false: the lifter gave no time, so
    /// "now" is only the command's time) or at the command's given time.
    public mutating func finishWorkout(_ workoutId: UUID, timeGiven: Bool = true) throws {
        let w = try writableWorkout(workoutId, historyEdit: false)
        try Self.refuseNowAfterIdle(w, at: context.occurredAt, timeGiven: timeGiven, or: Refusal.finishTimeNeeded)
        var e = WorkoutFinished()
        e.workoutId = workoutId
        emit([.workoutFinished(e)])
    }

    /// How the session felt (1–5) and a closing note, as it ends or later; the newer rating wins.
    public mutating func recordFeeling(_ workoutId: UUID, feeling: Int?, note: String?) throws {
        _ = try writableWorkout(workoutId, historyEdit: true)
        if let feeling { try Invariants.check(feeling: feeling) }
        let text = note?.trimmingSpaces() ?? ""
        try SetValidation.validateNote(text)
        guard feeling != nil || !text.isEmpty else { throw Refusal.noChangesGiven }
        var e = WorkoutFeelingRecorded()
        e.workoutId = workoutId
        e.feeling = feeling
        e.note = text
        emit([.workoutFeelingRecorded(e)])
    }

    /// An analysis of a workout: the ledger's own, or an outside engine's filled in later.
    public mutating func recordAnalysis(_ workoutId: UUID, engine: String, markdown: String) throws {
        _ = try writableWorkout(workoutId, historyEdit: true)
        try Invariants.check(analysisBy: engine, markdown: markdown)
        var e = WorkoutAnalysisRecorded()
        e.workoutId = workoutId
        e.engine = engine
        e.markdown = markdown
        emit([.workoutAnalysisRecorded(e)])
    }

    /// What kind of session the workout is (strength unless set).
    public mutating func setActivity(_ workoutId: UUID, _ activity: WorkoutActivity) throws {
        let w = try writableWorkout(workoutId, historyEdit: true)
        guard w.activity != activity else { throw Refusal.noChangesGiven }
        var e = WorkoutActivitySet()
        e.workoutId = workoutId
        e.activity = activity
        emit([.workoutActivitySet(e)])
    }

    /// Marks a workout as a deload, or no longer one: progression and stall counting pass over a deload.
    public mutating func markDeload(_ workoutId: UUID, _ deload: Bool) throws {
        let w = try writableWorkout(workoutId, historyEdit: true)
        guard w.deload != deload else { throw Refusal.noChangesGiven }
        var e = WorkoutDeloadMarked()
        e.workoutId = workoutId
        e.deload = deload
        emit([.workoutDeloadMarked(e)])
    }

    /// Discards an open or finished workout; it stays in the log for audit only.
    public mutating func discardWorkout(_ workoutId: UUID) throws {
        _ = try writableWorkout(workoutId, historyEdit: true)
        var e = WorkoutDiscarded()
        e.workoutId = workoutId
        emit([.workoutDiscarded(e)])
    }

    public mutating func pauseWorkout(_ workoutId: UUID) throws {
        let w = try writableWorkout(workoutId, historyEdit: false)
        guard w.status == .running else { throw Refusal.workoutNotRunning(workoutId, status: w.status.rawValue) }
        var e = WorkoutPaused()
        e.workoutId = workoutId
        emit([.workoutPaused(e)])
    }

    public mutating func resumeWorkout(_ workoutId: UUID) throws {
        let w = try writableWorkout(workoutId, historyEdit: false)
        guard w.status == .paused else { throw Refusal.workoutNotRunning(workoutId, status: w.status.rawValue) }
        var e = WorkoutResumed()
        e.workoutId = workoutId
        emit([.workoutResumed(e)])
    }

    /// The exercise a name means inside a workout: one of the workout's own when
    /// it names exactly one of them, else the library's (`LibraryState.resolve(_:within:)`).
    public func exercise(_ ref: String, in w: WorkoutState, active: Bool = false) throws(Refusal) -> LibraryState.Exercise {
        let x = try library.resolve(ref, within: w.entries.map(\.exerciseId))
        if active, x.archived { throw .exerciseArchived(x.name) }
        return x
    }

    /// DOMAIN.md §2 and §13: a workout takes changes while open; a finished one
    /// only as an explicit history edit; a discarded one never.
    mutating func writableWorkout(_ id: UUID, historyEdit: Bool) throws -> WorkoutState {
        let w = try workout(id)
        switch w.status {
        case .notStarted: throw Refusal.unknownWorkout(id.lowercased)
        case .discarded: throw Refusal.workoutDiscarded(id)
        case .finished where !historyEdit: throw Refusal.workoutFinished(id)
        default: return w
        }
    }

    /// A set by full id or unique id prefix.
    static func resolveSet(_ ref: String, in w: WorkoutState) throws(Refusal) -> WorkoutState.SetRecord {
        let key = ref.lowercased()
        let matches = w.sets.filter { $0.setId.lowercased.hasPrefix(key) }
        if let exact = matches.first(where: { $0.setId.lowercased == key }) { return exact }
        guard !key.isEmpty, !matches.isEmpty else { throw .unknownSet(ref, workout: w.workoutId) }
        guard matches.count == 1 else { throw .ambiguousSet(ref, matches: matches.map(\.setId.lowercased)) }
        return matches[0]
    }
}
