import Foundation

/// A workout as its own stream describes it: the state commands decide
/// against, and the building block of the history projections and replay.
/// `evolve` is pure and total: it never fails on an event it cannot apply
/// (the deciders refuse such commands before they become events).
public struct WorkoutState: Sendable, Equatable {
    public enum Status: String, Sendable, CaseIterable, PayloadEnum {
        case notStarted, running, paused, finished, discarded
    }

    public struct Entry: Sendable, Equatable {
        // Packed (96 bytes instead of 120): a long log's fold holds one per exercise done.
        public var exerciseId: String
        public var note: String?
        @PackedOptionalInt public var targetSets: Int?
        @PackedOptionalInt public var targetRepsMin: Int?
        @PackedOptionalInt public var targetRepsMax: Int?
        public var entryId: UUID
        public var supersetId: UUID?

        public init(
            entryId: UUID, exerciseId: String, supersetId: UUID?, note: String?,
            targetSets: Int?, targetRepsMin: Int?, targetRepsMax: Int?
        ) {
            self.entryId = entryId
            self.exerciseId = exerciseId
            self.supersetId = supersetId
            self.note = note
            self.targetSets = targetSets
            self.targetRepsMin = targetRepsMin
            self.targetRepsMax = targetRepsMax
        }
    }

    public struct SetRecord: Sendable, Equatable {
        // Declared in this order, with the time and rank packed, so a record
        // is 128 bytes instead of 192: a long log's fold holds one per set.
        public var setId: UUID
        public var entryId: UUID
        /// The exercise the set was done as; kept when its entry is swapped later.
        public var exerciseId: String
        public var notes: String?
        public var metrics: SetMetrics
        private var completedMillis: Int64 = 0
        private var rankValue: Int32 = 0
        /// `Int16.min` when there is no completion time.
        private var completedOffset = Int16.min
        public var type: SetType
        public var completed: Bool

        public init(
            setId: UUID, entryId: UUID, exerciseId: String, type: SetType, metrics: SetMetrics,
            notes: String?, completed: Bool, completedAt: Timestamp?
        ) {
            self.setId = setId
            self.entryId = entryId
            self.exerciseId = exerciseId
            self.notes = notes
            self.metrics = metrics
            self.type = type
            self.completed = completed
            self.completedAt = completedAt
        }

        /// When it was last completed (occurredAt of the event).
        public var completedAt: Timestamp? {
            get { completedOffset == .min ? nil : Timestamp(millis: completedMillis, offsetMinutes: Int(completedOffset)) }
            set {
                completedMillis = newValue?.millis ?? 0
                // Offsets are minutes east of UTC (at most ±99:59 in the text form), far inside Int16.
                completedOffset = newValue.map { Int16(clamping: $0.offsetMinutes) } ?? .min
            }
        }
        /// Whether `a` was done before `b` (by completion time, then by the order added).
        public static func doneBefore(_ a: SetRecord, _ b: SetRecord) -> Bool {
            (a.completedAt?.millis ?? .min, a.rank) < (b.completedAt?.millis ?? .min, b.rank)
        }
        /// Its place among the workout's sets in the order they were added: a
        /// set brought back after a deletion returns to where it was.
        public var rank: Int {
            get { Int(rankValue) }
            set { rankValue = Int32(clamping: newValue) }
        }
    }

    /// When each field of a set was last written (`occurredAt` in ms), kept
    /// only for sets that were changed after they were recorded. Merging
    /// devices' edits (SERVER-CONTRACT.md §6) compares these, so the result does not
    /// depend on the order in which the devices synced.
    public struct SetClock: Sendable, Equatable {
        public var setId = UUID.zero
        /// The latest write of any field: a deletion older than this does not remove the set.
        public var written = Int64.min
        // Almost every clock is a planned set completed with values: all
        // eight fields written at one time. Such a clock keeps that time once
        // (40 bytes instead of 88); one with fields written apart keeps all eight.
        /// Unused (`Int64.min`) while `apart` holds the fields, so equal clocks are equal values.
        private var uniform = Int64.min
        private var apart: [Int64]?

        public var weight: Int64 {
            get { field(0) }
            set { setField(0, newValue) }
        }
        public var reps: Int64 {
            get { field(1) }
            set { setField(1, newValue) }
        }
        public var rpe: Int64 {
            get { field(2) }
            set { setField(2, newValue) }
        }
        public var duration: Int64 {
            get { field(3) }
            set { setField(3, newValue) }
        }
        public var distance: Int64 {
            get { field(4) }
            set { setField(4, newValue) }
        }
        public var type: Int64 {
            get { field(5) }
            set { setField(5, newValue) }
        }
        public var notes: Int64 {
            get { field(6) }
            set { setField(6, newValue) }
        }
        public var completed: Int64 {
            get { field(7) }
            set { setField(7, newValue) }
        }

        public init(setId: UUID) { self.setId = setId }
        public init() {}

        /// Whether every field was last written at one time, and which.
        var allWrittenAt: Int64? { apart == nil ? uniform : nil }

        /// Marks every field written at `t` (each field's time was older).
        mutating func writeAll(at t: Int64) {
            uniform = t
            apart = nil
        }

        @inline(__always) private func field(_ i: Int) -> Int64 { apart?[i] ?? uniform }

        private mutating func setField(_ i: Int, _ value: Int64) {
            if apart == nil {
                if value == uniform { return }
                apart = Array(repeating: uniform, count: 8)
                uniform = .min
            }
            apart![i] = value
            // Back to one time when the fields agree again (a snapshot read sets them one by one).
            if let first = apart?.first, apart!.allSatisfy({ $0 == first }) {
                uniform = first
                apart = nil
            }
        }
    }

    /// A deleted set, kept so that an edit made later on another device brings it back.
    public struct DeletedSet: Sendable, Equatable {
        public var record = SetRecord(
            setId: .zero, entryId: .zero, exerciseId: "", type: .normal, metrics: SetMetrics(),
            notes: nil, completed: false, completedAt: nil)
        public var deletedAt = Int64.min
        public init() {}
    }

    // Declared in this order so the fields pack (288 bytes instead of 320): a
    // fold's table of workouts keeps about two slots per workout of this size.
    public var name = ""
    public var note: String?
    /// Entries in display order.
    public var entries: [Entry] = []
    /// Live sets in the order they were added (deleted ones are gone).
    public var sets: [SetRecord] = []
    /// Clocks of the sets changed after they were recorded, and deleted sets (see `SetClock`).
    public var setClocks: [SetClock] = []
    public var deletedSets: [DeletedSet] = []
    /// Time spent paused, excluded from the duration.
    public var pausedMillis: Int64 = 0
    /// Sets ever added, for their ranks.
    public var setsAdded = 0
    public var activeEnergyKcal: Double = 0
    /// For the average heart rate: the mean of the samples (a watch samples at a steady rate).
    public var heartRateSum: Double = 0
    public var heartRateSamples = 0
    /// The stream version this state reflects.
    public var version: Int64 = 0
    public var startedAt: Timestamp?
    public var workoutId: UUID
    public var finishedAt: Timestamp?
    public var templateId: UUID?
    public var discardedAt: Timestamp?
    public var programId: UUID?
    public var pausedSince: Timestamp?
    public var status: Status = .notStarted
    public var origin: WorkoutOrigin = .empty
    @PackedOptionalInt public var programDayIndex: Int? = nil
    /// Sets' reps in reserve and tempo (`SetEffortRecorded`) and equipment (`SetEquipmentRecorded`), by set, in the order first recorded.
    public var efforts: [SetEffort] = []
    /// When the workout's note, each entry's, its feeling and its activity were last written: the newer wins across devices.
    public var noteClocks = EditClocks()
    /// Every rest the timer counted, in log order: what was planned after which set, and when it was dismissed.
    public var rests: [Rest] = []
    public var maxHeartRate: Double?
    /// How the session felt (1–5) and its closing note (`WorkoutFeelingRecorded`).
    public var closingNote: String?
    @PackedOptionalInt public var feeling: Int? = nil
    /// Strength unless a `WorkoutActivitySet` says otherwise.
    public var activity: WorkoutActivity = .strength
    /// The named modules it was started with (`WorkoutModulesPlanned`), in order.
    public var modules: [WorkoutModule] = []
    /// Marked as a deload (`WorkoutDeloadMarked`): progression and stall counting pass over it.
    public var deload = false
    public var averageHeartRate: Double? { heartRateSamples > 0 ? heartRateSum / Double(heartRateSamples) : nil }

    public init(workoutId: UUID) { self.workoutId = workoutId }

    /// A set's reps in reserve and tempo, and what it was done with (a band's
    /// colour, an implement's value), each with the `occurredAt` it was
    /// written at (the last write wins, SERVER-CONTRACT.md §6).
    public struct SetEffort: Sendable, Equatable {
        public var setId: UUID
        public var rir: Double?
        public var tempo: String?
        public var rirAt: Int64
        public var tempoAt: Int64
        public var band: String? = nil
        public var implement: String? = nil
        public var bandAt = Int64.min
        public var implementAt = Int64.min
        public init(setId: UUID, rir: Double?, tempo: String?, rirAt: Int64, tempoAt: Int64) {
            self.setId = setId
            self.rir = rir
            self.tempo = tempo
            self.rirAt = rirAt
            self.tempoAt = tempoAt
        }
    }

    /// The set's reps in reserve, tempo and equipment, if any were recorded.
    public func effort(of setId: UUID) -> SetEffort? { efforts.first { $0.setId == setId } }

    /// One rest the timer counted.
    public struct Rest: Sendable, Equatable {
        /// The set it followed (none: started by hand before any set).
        public var afterSetId: UUID?
        public var startedAt: Timestamp
        /// As started, with every ±15 s applied.
        public var plannedSeconds: Int
        public var dismissedAt: Timestamp?
        /// Time the timer was held, ended holds only (`RestTimerPaused` to `RestTimerResumed`).
        public var pausedMillis: Int64 = 0
        /// Held since then, if it is held now.
        public var pausedSince: Timestamp?
        public init(afterSetId: UUID?, startedAt: Timestamp, plannedSeconds: Int, dismissedAt: Timestamp?) {
            self.afterSetId = afterSetId
            self.startedAt = startedAt
            self.plannedSeconds = plannedSeconds
            self.dismissedAt = dismissedAt
        }
        public var isPaused: Bool { pausedSince != nil }
        /// When it runs out (or ran out), the ended holds added; while held, when it would if resumed now.
        public var endsAt: Timestamp { Timestamp(millis: startedAt.millis + Int64(plannedSeconds) * 1000 + pausedMillis) }
        /// Time held up to `time`, the hold in progress included.
        public func heldMillis(at time: Timestamp) -> Int64 {
            pausedMillis + (pausedSince.map { max(0, time.millis - $0.millis) } ?? 0)
        }
        /// Whole seconds left at `time` (rounded up, so a rest shows 0 only when over); a held rest keeps what it had.
        public func secondsLeft(at time: Timestamp) -> Int {
            let end = startedAt.millis + Int64(plannedSeconds) * 1000 + heldMillis(at: time)
            return Int(max(0, (end - time.millis + 999) / 1000))
        }
        /// Counting down (or held) at `time`: started, not dismissed, not run out.
        public func isCounting(at time: Timestamp) -> Bool {
            dismissedAt == nil && time >= startedAt && (isPaused || time < endsAt)
        }
    }

    /// The rest counting down at `time`, if any.
    public func restCounting(at time: Timestamp) -> Rest? {
        rests.last.flatMap { $0.isCounting(at: time) ? $0 : nil }
    }

    public var exists: Bool { status != .notStarted }
    /// Whether it counts in history and every figure: started, and not discarded (in progress counts).
    public var counts: Bool { startedAt != nil && status != .discarded }
    public var isOpen: Bool { status == .running || status == .paused }

    /// When something last happened in it: its newest completed set, else its start.
    public var lastActivity: Timestamp? {
        sets.compactMap(\.completedAt).max().map { last in startedAt.map { max($0, last) } ?? last } ?? startedAt
    }

    /// Elapsed training time: start to finish (or `now`), less paused spans.
    public func durationSeconds(now: Timestamp? = nil) -> Int64? {
        guard let start = startedAt, let end = finishedAt ?? now else { return nil }
        var paused = pausedMillis
        if let since = pausedSince { paused += end.millis - since.millis }
        return max(0, end.millis - start.millis - paused) / 1000
    }

    public func entry(_ id: UUID) -> Entry? { entries.first { $0.entryId == id } }
    public func set(_ id: UUID) -> SetRecord? { sets.first { $0.setId == id } }
    /// The sets of an entry as a person reads them: those done in the order
    /// they were done, then those still planned: planned warm-ups first (a
    /// ramp planned later still comes before the working sets), then the
    /// others in the plan's order. A warm-up logged before the planned
    /// working sets comes first.
    public func setsInOrderDone(entry entryId: UUID) -> [SetRecord] {
        let of = sets.filter { $0.entryId == entryId }
        let planned = of.filter { !$0.completed }
        return of.filter(\.completed).sorted(by: SetRecord.doneBefore) + planned.filter { $0.type == .warmup } + planned.filter { $0.type != .warmup }
    }
    /// The first entry currently showing `exerciseId`.
    public func entry(forExercise exerciseId: String) -> Entry? { entries.first { $0.exerciseId == exerciseId } }

    public mutating func evolve(_ event: LedgerEvent, at time: Timestamp) {
        // Sets and notes merge by occurredAt (SERVER-CONTRACT.md §6); everything else applies in log order.
        // Sets first: most of a workout's events are theirs.
        guard evolveSets(event, at: time) || evolveExercises(event, at: time) || evolveRest(event, at: time) || evolveSession(event, at: time)
        else { return }  // not a workout event: the stream did not move
        version += 1
    }

    /// Sets: added, logged, edited, deleted, completed or not, their effort and equipment; false for any other event.
    @inline(__always) private mutating func evolveSets(_ event: LedgerEvent, at time: Timestamp) -> Bool {
        switch event {
        case .setAdded(let e):
            guard set(e.setId) == nil, !deletedSets.contains(where: { $0.record.setId == e.setId }) else { return true }
            addSet(
                SetRecord(
                    setId: e.setId, entryId: e.entryId, exerciseId: e.exerciseId, type: e.type,
                    metrics: e.target, notes: nil, completed: false, completedAt: nil))
        case .setLogged(let e):
            let record = SetRecord(
                setId: e.setId, entryId: e.entryId, exerciseId: e.exerciseId, type: e.type,
                metrics: e.metrics, notes: e.notes, completed: true, completedAt: time)
            if set(e.setId) == nil, !deletedSets.contains(where: { $0.record.setId == e.setId }) {
                addSet(record)
            } else {
                // A planned set completed with values: a write of every field.
                write(e.setId, at: time) { s, clock, t in
                    if let all = clock.allWrittenAt, t >= all {
                        // Every field is older than this write: the same as field by field below.
                        s.type = record.type
                        s.metrics = record.metrics
                        s.notes = record.notes
                        s.completed = true
                        s.completedAt = time
                        clock.writeAll(at: t)
                        return
                    }
                    clock.entry(&s.type, record.type, &clock.type, t)
                    clock.entry(&s.metrics.weight, record.metrics.weight, &clock.weight, t)
                    clock.entry(&s.metrics.reps, record.metrics.reps, &clock.reps, t)
                    clock.entry(&s.metrics.rpe, record.metrics.rpe, &clock.rpe, t)
                    clock.entry(&s.metrics.durationSeconds, record.metrics.durationSeconds, &clock.duration, t)
                    clock.entry(&s.metrics.distanceMeters, record.metrics.distanceMeters, &clock.distance, t)
                    clock.entry(&s.notes, record.notes, &clock.notes, t)
                    if t >= clock.completed { s.completed = true; s.completedAt = time; clock.completed = t }
                }
            }
        case .setEdited(let e):
            write(e.setId, at: time) { s, clock, t in
                let c = e.changes
                if let v = e.type { clock.entry(&s.type, v, &clock.type, t) }
                if let v = c.weight { clock.entry(&s.metrics.weight, v, &clock.weight, t) }
                if let v = c.reps { clock.entry(&s.metrics.reps, v, &clock.reps, t) }
                if let v = c.rpe { clock.entry(&s.metrics.rpe, v, &clock.rpe, t) }
                if let v = c.durationSeconds { clock.entry(&s.metrics.durationSeconds, v, &clock.duration, t) }
                if let v = c.distanceMeters { clock.entry(&s.metrics.distanceMeters, v, &clock.distance, t) }
                if let v = e.notes { clock.entry(&s.notes, v, &clock.notes, t) }
            }
        case .setDeleted(let e):
            deleteSet(e.setId, at: time.millis)
        case .setCompleted(let e):
            write(e.setId, at: time) { s, clock, t in
                if t >= clock.completed { s.completed = true; s.completedAt = time; clock.completed = t }
            }
        case .setUncompleted(let e):
            write(e.setId, at: time) { s, clock, t in
                if t >= clock.completed { s.completed = false; s.completedAt = nil; clock.completed = t }
            }
        case .setEffortRecorded(let e):
            let i = effortIndex(e.setId)
            if let rir = e.rir, time.millis >= efforts[i].rirAt { efforts[i].rir = rir; efforts[i].rirAt = time.millis }
            if let tempo = e.tempo, time.millis >= efforts[i].tempoAt { efforts[i].tempo = tempo; efforts[i].tempoAt = time.millis }
        case .setEquipmentRecorded(let e):
            let i = effortIndex(e.setId)
            if let band = e.band, time.millis >= efforts[i].bandAt { efforts[i].band = band; efforts[i].bandAt = time.millis }
            if let implement = e.implement, time.millis >= efforts[i].implementAt {
                efforts[i].implement = implement
                efforts[i].implementAt = time.millis
            }
        default:
            return false
        }
        return true
    }

    /// The workout's exercises: added, removed, reordered, swapped, linked in supersets; false for any other event.
    @inline(__always) private mutating func evolveExercises(_ event: LedgerEvent, at time: Timestamp) -> Bool {
        switch event {
        case .workoutExerciseAdded(let e):
            entries.append(
                Entry(
                    entryId: e.entryId, exerciseId: e.exerciseId, supersetId: nil, note: nil,
                    targetSets: e.targetSets, targetRepsMin: e.targetRepsMin, targetRepsMax: e.targetRepsMax))
        case .workoutExerciseRemoved(let e):
            entries.removeAll { $0.entryId == e.entryId }
            sets.removeAll { $0.entryId == e.entryId }
        case .workoutExercisesReordered(let e):
            let rank = Dictionary(e.entryIds.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
            entries = entries.enumerated()
                .sorted { (rank[$0.element.entryId] ?? Int.max, $0.offset) < (rank[$1.element.entryId] ?? Int.max, $1.offset) }
                .map(\.element)
        case .workoutExerciseSwapped(let e):
            updateEntry(e.entryId) { $0.exerciseId = e.toExerciseId }
            // Done sets stay with the old exercise; planned ones follow the entry, without the
            // old exercise's load, which says nothing of the new one's (90 lb for a pull-up).
            for i in sets.indices where sets[i].entryId == e.entryId && !sets[i].completed {
                sets[i].exerciseId = e.toExerciseId
                sets[i].metrics.weight = nil
            }
        case .supersetLinked(let e):
            for id in e.entryIds { updateEntry(id) { $0.supersetId = e.supersetId } }
        case .supersetUnlinked(let e):
            for i in entries.indices where entries[i].supersetId == e.supersetId { entries[i].supersetId = nil }
        default:
            return false
        }
        return true
    }

    /// The rest timer; false for any other event.
    @inline(__always) private mutating func evolveRest(_ event: LedgerEvent, at time: Timestamp) -> Bool {
        switch event {
        case .restTimerStarted(let e):
            rests.append(Rest(afterSetId: e.afterSetId, startedAt: time, plannedSeconds: e.seconds, dismissedAt: nil))
        case .restTimerAdjusted(let e):
            if let last = rests.indices.last, rests[last].dismissedAt == nil {
                rests[last].plannedSeconds = max(0, rests[last].plannedSeconds + e.deltaSeconds)
            }
        case .restTimerDismissed:
            if let last = rests.indices.last, rests[last].dismissedAt == nil {
                rests[last].pausedMillis = rests[last].heldMillis(at: time)
                rests[last].pausedSince = nil
                rests[last].dismissedAt = time
            }
        case .restTimerPaused:
            if let last = rests.indices.last, rests[last].isCounting(at: time), !rests[last].isPaused { rests[last].pausedSince = time }
        case .restTimerResumed:
            if let last = rests.indices.last, rests[last].dismissedAt == nil, rests[last].isPaused {
                rests[last].pausedMillis = rests[last].heldMillis(at: time)
                rests[last].pausedSince = nil
            }
        default:
            return false
        }
        return true
    }

    /// The session itself: started, paused, resumed, finished or discarded, its notes, feeling, activity, modules, deload mark and health samples; false for any other event.
    @inline(__always) private mutating func evolveSession(_ event: LedgerEvent, at time: Timestamp) -> Bool {
        switch event {
        case .workoutStarted(let e):
            status = .running
            name = e.name
            origin = e.origin
            templateId = e.templateId
            programId = e.programId
            programDayIndex = e.programDayIndex
            startedAt = time
        case .workoutNoteSet(let e):
            guard noteClocks.admits(event, at: time) else { return true }
            if let id = e.entryId { updateEntry(id) { $0.note = e.text } } else { note = e.text }
        case .workoutFeelingRecorded(let e):
            guard noteClocks.admits(event, at: time) else { return true }
            feeling = e.feeling
            closingNote = e.note.isEmpty ? nil : e.note
        case .workoutActivitySet(let e):
            guard noteClocks.admits(event, at: time) else { return true }
            activity = e.activity
        case .workoutModulesPlanned(let e):
            modules = e.modules
        case .workoutDeloadMarked(let e):
            guard noteClocks.admits(event, at: time) else { return true }
            deload = e.deload
        case .workoutAnalysisRecorded:
            return true  // Read from the stream by `workout analysis`: no figure depends on it, so the fold keeps no copy.
        case .workoutPaused:
            if status == .running { status = .paused; pausedSince = time }
        case .workoutResumed:
            if status == .paused, let since = pausedSince {
                pausedMillis += max(0, time.millis - since.millis)
                pausedSince = nil
                status = .running
            }
        case .healthSampleRecorded(let e):
            switch e.kind {
            case .heartRate:
                maxHeartRate = max(maxHeartRate ?? 0, e.value)
                heartRateSum += e.value
                heartRateSamples += 1
            case .activeEnergy: activeEnergyKcal += e.value
            }
        case .workoutFinished:
            if let since = pausedSince { pausedMillis += max(0, time.millis - since.millis); pausedSince = nil }
            status = .finished
            finishedAt = time
        case .workoutDiscarded:
            status = .discarded
            discardedAt = time
        default:
            return false
        }
        return true
    }

    /// The set's effort record, made when it has none yet.
    private mutating func effortIndex(_ setId: UUID) -> Int {
        if let i = efforts.firstIndex(where: { $0.setId == setId }) { return i }
        efforts.append(SetEffort(setId: setId, rir: nil, tempo: nil, rirAt: .min, tempoAt: .min))
        return efforts.count - 1
    }

    private mutating func updateEntry(_ id: UUID, _ change: (inout Entry) -> Void) {
        if let i = entries.firstIndex(where: { $0.entryId == id }) { change(&entries[i]) }
    }

    private mutating func addSet(_ record: SetRecord) {
        var r = record
        // Share the entry's copy of the exercise id: an id longer than 15 bytes
        // is a heap string, and a long log decodes one per set.
        if r.exerciseId.utf8.count > 15, let entry = entries.first(where: { $0.entryId == r.entryId }), entry.exerciseId == r.exerciseId {
            r.exerciseId = entry.exerciseId
        }
        r.rank = setsAdded
        setsAdded += 1
        sets.append(r)
    }

    /// Applies a change made at `time` to a live or deleted set, field by
    /// field where it is the latest write; a deleted set whose change is later
    /// than its deletion comes back, in its place.
    private mutating func write(_ id: UUID, at time: Timestamp, _ change: (inout SetRecord, inout SetClock, Int64) -> Void) {
        let t = time.millis
        let c = setClocks.firstIndex { $0.setId == id }
        var clock = c.map { setClocks[$0] } ?? SetClock(setId: id)
        if let i = sets.firstIndex(where: { $0.setId == id }) {
            change(&sets[i], &clock, t)
        } else if let d = deletedSets.firstIndex(where: { $0.record.setId == id }) {
            change(&deletedSets[d].record, &clock, t)
            if t > deletedSets[d].deletedAt {
                let back = deletedSets.remove(at: d).record
                sets.insert(back, at: sets.firstIndex { $0.rank > back.rank } ?? sets.endIndex)
            }
        } else {
            return
        }
        clock.written = max(clock.written, t)
        if let c { setClocks[c] = clock } else { setClocks.append(clock) }
    }

    /// Points the entry's exercise id at `shared` (the same text in one shared string).
    /// Entries and sets of a merged exercise count as the exercise it joined (`ExerciseMerged`).
    public mutating func followMerges(_ library: LibraryState) {
        // Written only where it changes: most entries and sets are of no merged exercise.
        func follow(_ id: inout String) {
            let merged = library.mergedId(id)
            if merged != id { id = merged }
        }
        for i in entries.indices { follow(&entries[i].exerciseId) }
        for i in sets.indices { follow(&sets[i].exerciseId) }
        for i in deletedSets.indices { follow(&deletedSets[i].record.exerciseId) }
    }

    public mutating func shareExerciseId(of entryId: UUID, with shared: String) {
        if let i = entries.lastIndex(where: { $0.entryId == entryId }), entries[i].exerciseId == shared {
            entries[i].exerciseId = shared
        }
    }

    /// Trims the set, clock and entry lists to their length (a finished
    /// workout rarely grows again; a fold of years holds thousands of them).
    public mutating func giveBackSpareCapacity() {
        sets.trimCapacity()
        setClocks.trimCapacity()
        entries.trimCapacity()
    }

    /// Deletes a set unless a change to it was made later than the deletion.
    private mutating func deleteSet(_ id: UUID, at t: Int64) {
        if let d = deletedSets.firstIndex(where: { $0.record.setId == id }) {
            deletedSets[d].deletedAt = max(deletedSets[d].deletedAt, t)
            return
        }
        guard let i = sets.firstIndex(where: { $0.setId == id }) else { return }
        let written = setClocks.first { $0.setId == id }?.written ?? .min
        guard t >= written else { return }
        var gone = DeletedSet()
        gone.record = sets.remove(at: i)
        gone.deletedAt = t
        deletedSets.append(gone)
    }
}

extension WorkoutState.SetClock {
    /// Writes `value` into `field` when `t` is not older than the field's last write.
    @inline(__always)
    func entry<V>(_ field: inout V, _ value: V, _ fieldClock: inout Int64, _ t: Int64) {
        guard t >= fieldClock else { return }
        field = value
        fieldClock = t
    }
}

extension Array {
    /// Reallocates to `count` (as the allocator rounds it) when any element is spare.
    mutating func trimCapacity() {
        guard capacity > count else { return }
        let items = self
        self = Array(unsafeUninitializedCapacity: items.count) { buffer, n in
            n = buffer.initialize(fromContentsOf: items)
        }
    }
}
