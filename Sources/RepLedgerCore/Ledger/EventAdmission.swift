import Foundation

/// The checks a batch of events written elsewhere (a device's pushed events)
/// passes before it is appended (SERVER-CONTRACT.md §3 "Appending"): the rules the
/// CLI's deciders apply to the same values, re-run on this log's state.
///
/// - values in range: reps, weight, RPE, durations and distances, watch samples, weigh-ins;
/// - workout lifecycle: no workout event in a workout that neither the log
///   nor the batch started, none in a discarded one;
/// - the Free template limit, under the entitlements at the event's time.
///
/// Concurrent edits are not refused: folds merge them by `occurredAt`
/// (SERVER-CONTRACT.md §6). Events whose id is stored already are not checked again
/// (a retried push is a no-op however the log has moved since).
public enum EventAdmission {
    /// The refusal of one event of a batch; the batch appends nothing.
    public struct Refused: Error, Equatable, CustomStringConvertible {
        public var eventId: UUID
        public var refusal: Refusal
        public var description: String { "event \(eventId.lowercased): \(refusal)" }
    }

    ///
    /// `stored` (the batch's ids the store holds) and `versions` (the store's
    /// versions of the batch's streams), when the caller read them already in
    /// one statement each, spare a read per event and the read of a workout
    /// the store does not hold yet.
    public static func check(
        _ events: [ProposedEvent], in ledger: Ledger, stored: Set<UUID>? = nil,
        versions: [StreamName: Int64]? = nil
    ) throws {
        var workouts: [UUID: WorkoutState] = [:]
        var account = try ledger.account()
        var templates: TemplateCatalogState?
        for e in events {
            if let stored {
                if stored.contains(e.eventId) { continue }
            } else if try ledger.store.event(id: e.eventId) != nil {
                continue
            }
            do {
                try checkValues(e.event)
                if let id = e.event.workoutId {
                    let state =
                        try workouts[id]
                        ?? (versions?[.workout(id)] == 0 ? WorkoutState(workoutId: id) : ledger.workout(id))
                    if case .workoutStarted = e.event {
                    } else {
                        guard state.exists else { throw Refusal.unknownWorkout(id.lowercased) }
                        guard state.status != .discarded else { throw Refusal.workoutDiscarded(id) }
                    }
                    var next = state
                    next.evolve(e.event, at: e.occurredAt)
                    workouts[id] = next
                }
                switch e.event {
                case .templateCreated, .templateDuplicated:
                    let catalog = try templates ?? ledger.templates()
                    try Invariants.checkNewTemplate(liveTemplates: catalog.live.count, entitlements: account.entitlements, at: e.occurredAt)
                default: break
                }
            } catch let refusal as Refusal {
                throw Refused(eventId: e.eventId, refusal: refusal)
            }
            if e.stream.raw.hasPrefix("template") {
                var catalog = try templates ?? ledger.templates()
                catalog.evolve(e.event, at: e.occurredAt)
                templates = catalog
            }
            account.evolve(e.event, at: e.occurredAt)
        }
    }

    /// The value checks of DOMAIN.md §2, §13 and §15 on one payload, and the
    /// deciders' limits on names and notes.
    static func checkValues(_ event: LedgerEvent) throws(Refusal) {
        func note(_ text: String?) throws(Refusal) { try SetValidation.validateNote(text) }
        switch event {
        case .workoutStarted(let e): try Invariants.check(name: e.name, of: .workout)
        case .templateCreated(let e): try Invariants.check(name: e.name, of: .template)
        case .templateRenamed(let e): try Invariants.check(name: e.name, of: .template)
        case .exerciseDefined(let e): try Invariants.check(name: e.name, of: .exercise)
        case .exerciseRenamed(let e): try Invariants.check(name: e.name, of: .exercise)
        case .workoutNoteSet(let e): try note(e.text)
        case .setLogged(let e):
            try note(e.notes)
            try SetValidation.validate(e.metrics)
        case .setAdded(let e): try SetValidation.validate(e.target)
        case .setEdited(let e):
            try note(e.notes)
            try SetValidation.validate(e.changes)
        case .bodyweightMeasured(let e): try e.weight.validate()
        case .bodyMeasured(let e): try BodyMeasure(e.value, e.unit).check(e.site)
        case .progressPhotoRecorded(let e): try Invariants.check(photo: e)
        case .programHoldsTimed(let e): for h in e.holds { try ProgramGenerator.validate(h) }
        case .healthSampleRecorded(let e): try Invariants.check(sample: e.value, of: e.kind)
        case .coachNoteAdded(let e):
            _ = try Invariants.accountId(e.clientAccountId, of: "the client's")
            try Invariants.check(coachNote: e.text)
        case .assignmentOffered(let e): try Invariants.check(offer: e)
        case .assignmentTargetsOffered(let e): for l in e.lines { try Invariants.check(templateLine: l.exercise) }
        case .programScheduled(let e): try Invariants.check(weekdays: e.weekdays)
        case .programWeeksPlanned(let e):
            if e.weeks != 0 { _ = try ProgramBlock(e) }
        case .programPercentTargetSet(let e):
            if e.session < 0 { throw .invalidProgram("a program day's index is 0 or more") }
            if let p = e.percent { try Invariants.check(percentOfMax: p) }
        case .exerciseEdited(let e): try Invariants.check(exerciseEdit: e)
        case .templateTargetsSet(let e): for l in e.lines { try Invariants.check(templateLine: l.exercise) }
        case .setEffortRecorded(let e):
            if let rir = e.rir { try Effort.check(rir: rir) }
            if let tempo = e.tempo, try Effort.tempo(tempo) != tempo { throw .invalidMeasure("tempo '\(tempo)'", reason: "store it as 3-1-1-0") }
            if e.rir == nil, e.tempo == nil { throw .noChangesGiven }
        case .restTimerDefaultChanged(let e): try Invariants.check(restSetting: e.seconds)
        case .restTimerStarted(let e): try Invariants.check(restTaken: e.seconds)
        case .restTimerAdjusted(let e): try Invariants.check(restChange: e.deltaSeconds)
        case .setEquipmentRecorded(let e):
            if let band = e.band, try Invariants.check(setEquipment: band, of: "band") != band {
                throw .invalidMeasure("band", reason: "store it trimmed")
            }
            if let i = e.implement, try Invariants.check(setEquipment: i, of: "implement") != i {
                throw .invalidMeasure("implement", reason: "store it trimmed")
            }
            if e.band == nil, e.implement == nil { throw .noChangesGiven }
        case .moduleDefined(let e):
            try Invariants.check(name: e.name, of: .template)
            if e.lines.isEmpty { throw .invalidProgram("a module needs at least one exercise") }
            for l in e.lines { try Invariants.check(templateLine: l.exercise) }
        case .programDayModulesSet(let e):
            if e.session < 0 { throw .invalidProgram("a program day's index is 0 or more") }
            for m in e.modules {
                try Invariants.check(name: m.name, of: .template)
                if m.lines.isEmpty { throw .invalidProgram("a module needs at least one exercise") }
                for l in m.lines { try Invariants.check(templateLine: l.exercise) }
            }
        case .oneRepMaxTested(let e): try Invariants.check(oneRepMax: e.weight)
        case .workoutModulesPlanned(let e):
            for m in e.modules { try Invariants.check(name: m.name, of: .template) }
        case .workoutAnalysisRecorded(let e): try Invariants.check(analysisBy: e.engine, markdown: e.markdown)
        case .workoutFeelingRecorded(let e):
            if let feeling = e.feeling { try Invariants.check(feeling: feeling) }
            try note(e.note)
            if e.feeling == nil, e.note.isEmpty { throw .noChangesGiven }
        case .plateInventorySet(let e): if !e.plates.isEmpty { try Invariants.check(bar: e.bar, plates: e.plates, unit: e.unit) }
        default: break
        }
    }
}
