import Foundation
import RepLedgerCore

/// The one fold every training number is derived from: the exercise library,
/// settings and purchases, templates, and every workout's state. One pass
/// over the log builds it; the views in this folder read it under a rule set.
public struct TrainingLogProjection: Projection, Equatable {
    public static let name = "training-log"
    /// 2: weigh-ins (`body`), programs and progression overrides, heart-rate averages and the bodyweight display choice in the state.
    /// 3: sets merge by `occurredAt` (set clocks, deleted sets kept, ranks), SERVER-CONTRACT.md §6.
    /// 4: the distance unit and the store's signed receipts in the account state.
    /// 5: programs carry their holds' time targets.
    /// 6: programs carry their weekday schedule.
    /// 7: the account state carries the lifter's bar and plates.
    /// 8: rests (the timer's, with their planned length, in place of the last rest's length alone) in the workout state; auto-start and exercises' own rests in the account state.
    /// 9: the library carries the lifter's edits of exercises (unilateral, notes) and favourites.
    /// 10: sets' reps in reserve and tempo in the workout state; the effort scale in the account state.
    /// 11: body measurements and progress photos in the body state.
    /// 12: templates carry their weight, duration and rest targets.
    /// 13: the account state says whether the lifter chose their lifting unit.
    /// 14: planned sets that follow a swapped exercise lose the old exercise's load.
    /// 15: a merged exercise's sets count as the exercise it joined (`ExerciseMerged`).
    /// 16: the account's entitlements carry a server operator's Coach grants (`OperatorCoachGranted`).
    /// 17: names, notes, exercise details, template lines and settings merge by `occurredAt` (`EditClocks`).
    /// 18: a workout's feeling, closing note and activity; rests hold while paused; sets' equipment; modules (issue 45).
    /// 19: program days take named modules; a workout keeps the modules it was started with.
    /// 20: a program's planned weeks (`ProgramWeeksPlanned`) and targets as a percentage of a max (`ProgramPercentTargetSet`).
    public static let version = 20

    public internal(set) var library = LibraryState()
    public internal(set) var account = AccountState()
    public internal(set) var templates = TemplateCatalogState()
    public internal(set) var body = BodyState()
    public internal(set) var programs = ProgramCatalogState()
    public internal(set) var workouts: [UUID: WorkoutState] = [:]
    /// The last position folded in.
    public internal(set) var position: Int64 = 0
    /// Workouts by start time, ties by id, kept as workouts start (almost
    /// always an append), so no view sorts the workouts again. Derived from
    /// `workouts`: rebuilt when a snapshot is read, never stored.
    var order: [OrderKey] = []

    struct OrderKey: Sendable, Equatable, Comparable {
        var millis: Int64
        var hi: UInt64
        var lo: UInt64
        var id: UUID

        init(_ w: WorkoutState) {
            millis = w.startedAt?.millis ?? .min
            (hi, lo) = w.workoutId.uuidKey
            id = w.workoutId
        }

        static func < (a: OrderKey, b: OrderKey) -> Bool { (a.millis, a.hi, a.lo) < (b.millis, b.hi, b.lo) }
    }

    public init() {}

    public mutating func apply(_ recorded: RecordedEvent) {
        position = recorded.position
        let event = recorded.event
        // Most events are workout events; the rest are routed by their type, never by parsing stream names.
        if let id = event.workoutId {
            // Changed through `values[i]`, in place: `workouts[id]?.evolve` wrote a copy of the
            // whole workout back on every event (one retain per list it holds).
            guard let i = workouts.index(forKey: id) else {
                guard case .workoutStarted = event else { return }
                var w = WorkoutState(workoutId: id)
                w.evolve(event, at: recorded.occurredAt)
                insertInOrder(OrderKey(w))
                workouts[id] = w
                return
            }
            workouts.values[i].evolve(event, at: recorded.occurredAt)
            // Entries share the library's copy of their exercise id, and sets the entry's:
            // an id over 15 bytes is a heap string, and decoding makes one per event.
            if case .workoutExerciseAdded(let e) = event, e.exerciseId.utf8.count > 15 {
                workouts.values[i].shareExerciseId(of: e.entryId, with: library.sharedId(e.exerciseId))
            }
            // A finished workout rarely grows again: give back the spare capacity its lists
            // grew by (up to half of them), which is most of the fold's memory on a long log.
            if case .workoutFinished = event { workouts.values[i].giveBackSpareCapacity() }
            // A set or entry of a merged exercise (a device that had not yet synced the merge) counts as the one it joined.
            if !library.merges.isEmpty, Self.namesExercise(event) { workouts.values[i].followMerges(library) }
            return
        }
        if LibraryState.changes(event) {
            library.evolve(event, at: recorded.occurredAt)
            if case .exerciseMerged = event {
                for id in Array(workouts.keys) { workouts[id]?.followMerges(library) }
            }
            return
        }
        if BodyState.changes(event) {
            body.evolve(event, at: recorded.occurredAt)
            return
        }
        if TemplateCatalogState.changes(event) {
            templates.evolve(event, at: recorded.occurredAt)
            return
        }
        switch event {
        case .questionnaireAnswered, .programGenerated, .programHoldsTimed, .programScheduled, .programActivated, .programRemoved,
            .progressionOverrideSet, .moduleDefined, .programDayModulesSet, .sharedDocumentImported, .programWeeksPlanned,
            .programPercentTargetSet, .programStyleChosen:
            programs.evolve(event, at: recorded.occurredAt)
        default:
            account.evolve(event, at: recorded.occurredAt)
        }
    }

    /// What takes one workout event back out of the fold: the workout as it was (nil when the event
    /// started it) and the position before. Only a workout event can be taken back this way: it
    /// changes its workout and, when it starts one, the order, nothing else.
    public struct Undo: Sendable {
        let position: Int64
        let workoutId: UUID
        let before: WorkoutState?
    }

    /// Applies `recorded` and, for a workout event, returns what takes it back out (`undo`).
    public mutating func applyUndoably(_ recorded: RecordedEvent) -> Undo? {
        guard let id = recorded.event.workoutId else {
            apply(recorded)
            return nil
        }
        let undo = Undo(position: position, workoutId: id, before: workouts[id])
        apply(recorded)
        return undo
    }

    /// Takes the last applied event back out (its `Undo`, the undos taken back newest first).
    public mutating func undo(_ u: Undo) {
        if u.before == nil, let started = workouts[u.workoutId] {
            let key = OrderKey(started)
            var low = 0, high = order.count
            while low < high {
                let mid = (low + high) / 2
                if order[mid] < key { low = mid + 1 } else { high = mid }
            }
            if low < order.count, order[low].id == u.workoutId { order.remove(at: low) }
        }
        workouts[u.workoutId] = u.before
        position = u.position
    }

    /// Whether a workout event writes an exercise id into the workout.
    static func namesExercise(_ event: LedgerEvent) -> Bool {
        switch event {
        case .workoutExerciseAdded, .workoutExerciseSwapped, .setAdded, .setLogged: true
        default: false
        }
    }

    // MARK: Shared reading helpers for the views

    mutating func insertInOrder(_ key: OrderKey) {
        if let last = order.last, key < last {
            var low = 0, high = order.count
            while low < high {
                let mid = (low + high) / 2
                if order[mid] < key { low = mid + 1 } else { high = mid }
            }
            order.insert(key, at: low)
        } else {
            order.append(key)
        }
    }

    /// Rebuilds the order from the workouts (after reading a snapshot).
    mutating func rebuildOrder() {
        order = workouts.values.map(OrderKey.init).sorted()
    }

    /// Workouts that count: started and not discarded (in progress included),
    /// oldest first. Walked in place: a copied list of a long log's workouts
    /// was megabytes for every view that read it.
    public var countedWorkouts: CountedWorkouts { CountedWorkouts(log: self) }

    public struct CountedWorkouts: Sequence {
        let log: TrainingLogProjection

        public struct Iterator: IteratorProtocol {
            let log: TrainingLogProjection
            var index = 0
            public mutating func next() -> WorkoutState? {
                while index < log.order.count {
                    defer { index += 1 }
                    if let w = log.counted(log.order[index]) { return w }
                }
                return nil
            }
        }

        public func makeIterator() -> Iterator { Iterator(log: log) }
        public var isEmpty: Bool { first { _ in true } == nil }
        /// The newest, found from the end.
        public var last: WorkoutState? { log.order.reversed().lazy.compactMap(log.counted).first }
    }

    func counted(_ key: OrderKey) -> WorkoutState? {
        workouts[key.id].flatMap { $0.counts ? $0 : nil }
    }

    /// The newest finished workout started before `t` that `matches`, looking
    /// back from `t` and stopping at the first match.
    public func lastFinished(startedBefore t: Timestamp, where matches: (WorkoutState) -> Bool) -> WorkoutState? {
        var low = 0, high = order.count
        while low < high {
            let mid = (low + high) / 2
            if order[mid].millis < t.millis { low = mid + 1 } else { high = mid }
        }
        var i = low - 1
        while i >= 0 {
            if let w = workouts[order[i].id], w.status == .finished, matches(w) { return w }
            i -= 1
        }
        return nil
    }

    /// By start time, ties by id: a total order, so every run lists workouts alike.
    /// Sorts on precomputed numeric keys (formatting ids while comparing was 1.7 s for 48k workouts).
    static func chronological(_ items: [WorkoutState]) -> [WorkoutState] {
        items.map { w -> (Int64, UInt64, UInt64, WorkoutState) in
            let (hi, lo) = w.workoutId.uuidKey
            return (w.startedAt?.millis ?? .min, hi, lo, w)
        }
        .sorted { ($0.0, $0.1, $0.2) < ($1.0, $1.1, $1.2) }
        .map(\.3)
    }

    public func exerciseName(_ id: String) -> String { library.name(of: id) }
}

extension WorkoutState {
    /// A set's effort as RPE: as entered, or from its reps in reserve (RPE = 10 − RIR); nil when it has none.
    public func rpe(of s: SetRecord) -> Double? { s.metrics.rpe ?? effort(of: s.setId)?.rir.map { 10 - $0 } }

    /// Completed sets of `exerciseId` (or all) that count under `rules`, in the order they were added.
    public func countedSets(of exerciseId: String? = nil, rules: RuleSet) -> [SetRecord] {
        sets.filter { $0.completed && rules.counts($0.type) && (exerciseId == nil || $0.exerciseId == exerciseId) }
    }

    /// Completed working (non-warm-up) sets of an exercise, in order: what hints and the rep counter compare.
    public func workingSets(of exerciseId: String) -> [SetRecord] {
        sets.filter { $0.completed && $0.type.isWorking && $0.exerciseId == exerciseId }
    }

    /// Exercise ids of its completed sets, in the order they first appear.
    public var exercisesDone: [String] {
        var seen = Set<String>()
        return sets.filter(\.completed).map(\.exerciseId).filter { seen.insert($0).inserted }
    }
}

extension TrainingLogProjection {
    /// A set's volume as every view counts it: w × r, each side once for a unilateral exercise.
    public func volumeKg(_ s: WorkoutState.SetRecord) -> Double { s.volumeKg * library.volumeSides(s.exerciseId) }
}

extension WorkoutState.SetRecord {
    public var weightKg: Double? { metrics.weight?.kilograms }
    /// w × r in kg; 0 for bodyweight sets.
    public var volumeKg: Double { (weightKg ?? 0) * Double(metrics.reps ?? 0) }
}
