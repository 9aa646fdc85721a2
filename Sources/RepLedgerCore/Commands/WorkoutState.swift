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
        public var entryId: UUID
        public var exerciseId: String
        public var supersetId: UUID?
        public var note: String?
        public var targetSets: Int?
        public var targetRepsMin: Int?
        public var targetRepsMax: Int?
    }

    public struct SetRecord: Sendable, Equatable {
        public var setId: UUID
        public var entryId: UUID
        /// The exercise the set was done as; kept when its entry is swapped later.
        public var exerciseId: String
        public var type: SetType
        public var metrics: SetMetrics
        public var notes: String?
        public var completed: Bool
        /// When it was last completed (occurredAt of the event).
        public var completedAt: Timestamp?
    }

    public var workoutId: UUID
    public var status: Status = .notStarted
    public var name = ""
    public var origin: WorkoutOrigin = .empty
    public var templateId: UUID?
    public var programId: UUID?
    public var programDayIndex: Int?
    public var startedAt: Timestamp?
    public var finishedAt: Timestamp?
    public var discardedAt: Timestamp?
    /// Time spent paused, excluded from the duration.
    public var pausedMillis: Int64 = 0
    public var pausedSince: Timestamp?
    /// Entries in display order.
    public var entries: [Entry] = []
    /// Live sets in the order they were added (deleted ones are gone).
    public var sets: [SetRecord] = []
    public var note: String?
    public var restTimerSeconds: Int?
    public var maxHeartRate: Double?
    public var activeEnergyKcal: Double = 0
    /// For the average heart rate: the mean of the samples (a watch samples at a steady rate).
    public var heartRateSum: Double = 0
    public var heartRateSamples = 0
    public var averageHeartRate: Double? { heartRateSamples > 0 ? heartRateSum / Double(heartRateSamples) : nil }
    /// The stream version this state reflects.
    public var version: Int64 = 0

    public init(workoutId: UUID) { self.workoutId = workoutId }

    public var exists: Bool { status != .notStarted }
    public var isOpen: Bool { status == .running || status == .paused }

    /// Elapsed training time: start to finish (or `now`), less paused spans.
    public func durationSeconds(now: Timestamp? = nil) -> Int64? {
        guard let start = startedAt, let end = finishedAt ?? now else { return nil }
        var paused = pausedMillis
        if let since = pausedSince { paused += end.millis - since.millis }
        return max(0, end.millis - start.millis - paused) / 1000
    }

    public func entry(_ id: UUID) -> Entry? { entries.first { $0.entryId == id } }
    public func set(_ id: UUID) -> SetRecord? { sets.first { $0.setId == id } }
    /// The first entry currently showing `exerciseId`.
    public func entry(forExercise exerciseId: String) -> Entry? { entries.first { $0.exerciseId == exerciseId } }

    public mutating func evolve(_ event: LedgerEvent, at time: Timestamp) {
        version += 1
        switch event {
        case .workoutStarted(let e):
            status = .running
            name = e.name
            origin = e.origin
            templateId = e.templateId
            programId = e.programId
            programDayIndex = e.programDayIndex
            startedAt = time
        case .workoutExerciseAdded(let e):
            entries.append(Entry(entryId: e.entryId, exerciseId: e.exerciseId, supersetId: nil, note: nil,
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
            // Done sets stay with the old exercise; planned ones follow the entry.
            for i in sets.indices where sets[i].entryId == e.entryId && !sets[i].completed {
                sets[i].exerciseId = e.toExerciseId
            }
        case .supersetLinked(let e):
            for id in e.entryIds { updateEntry(id) { $0.supersetId = e.supersetId } }
        case .supersetUnlinked(let e):
            for i in entries.indices where entries[i].supersetId == e.supersetId { entries[i].supersetId = nil }
        case .setAdded(let e):
            sets.append(SetRecord(setId: e.setId, entryId: e.entryId, exerciseId: e.exerciseId, type: e.type,
                                  metrics: e.target, notes: nil, completed: false, completedAt: nil))
        case .setLogged(let e):
            let record = SetRecord(setId: e.setId, entryId: e.entryId, exerciseId: e.exerciseId, type: e.type,
                                   metrics: e.metrics, notes: e.notes, completed: true, completedAt: time)
            if let i = sets.firstIndex(where: { $0.setId == e.setId }) { sets[i] = record } else { sets.append(record) }
        case .setEdited(let e):
            updateSet(e.setId) { s in
                if let t = e.type { s.type = t }
                let c = e.changes
                if let w = c.weight { s.metrics.weight = w }
                if let r = c.reps { s.metrics.reps = r }
                if let r = c.rpe { s.metrics.rpe = r }
                if let d = c.durationSeconds { s.metrics.durationSeconds = d }
                if let d = c.distanceMeters { s.metrics.distanceMeters = d }
                if let n = e.notes { s.notes = n }
            }
        case .setDeleted(let e):
            sets.removeAll { $0.setId == e.setId }
        case .setCompleted(let e):
            updateSet(e.setId) { $0.completed = true; $0.completedAt = time }
        case .setUncompleted(let e):
            updateSet(e.setId) { $0.completed = false; $0.completedAt = nil }
        case .workoutNoteSet(let e):
            if let id = e.entryId { updateEntry(id) { $0.note = e.text } } else { note = e.text }
        case .restTimerStarted(let e):
            restTimerSeconds = e.seconds
        case .restTimerAdjusted(let e):
            restTimerSeconds = max(0, (restTimerSeconds ?? 0) + e.deltaSeconds)
        case .restTimerDismissed:
            restTimerSeconds = nil
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
            version -= 1 // not a workout event: the stream did not move
        }
    }

    private mutating func updateEntry(_ id: UUID, _ change: (inout Entry) -> Void) {
        if let i = entries.firstIndex(where: { $0.entryId == id }) { change(&entries[i]) }
    }

    private mutating func updateSet(_ id: UUID, _ change: (inout SetRecord) -> Void) {
        if let i = sets.firstIndex(where: { $0.setId == id }) { change(&sets[i]) }
    }
}
