import Foundation
import RepLedgerCore

/// The one fold every training number is derived from: the exercise library,
/// settings and purchases, templates, and every workout's state. One pass
/// over the log builds it; the views in this folder read it under a rule set.
public struct TrainingLogProjection: Projection {
    public static let name = "training-log"
    public static let version = 1

    public private(set) var library = LibraryState()
    public private(set) var account = AccountState()
    public private(set) var templates = TemplateCatalogState()
    public private(set) var workouts: [UUID: WorkoutState] = [:]
    /// The last position folded in.
    public private(set) var position: Int64 = 0

    public init() {}

    public mutating func apply(_ envelope: EventEnvelope) {
        position = envelope.position
        let event = envelope.event
        // Most events are workout events: route them without looking at the stream name.
        if let id = event.workoutId {
            if case .workoutStarted = event, workouts[id] == nil { workouts[id] = WorkoutState(workoutId: id) }
            workouts[id]?.evolve(event, at: envelope.occurredAt)
            return
        }
        switch envelope.stream {
        case .library: library.evolve(event)
        case .account: account.evolve(event, at: envelope.occurredAt)
        default: templates.evolve(event, at: envelope.occurredAt)
        }
    }

    // MARK: Shared reading helpers for the views

    /// Workouts that count: started and not discarded (in progress included), oldest first.
    public var countedWorkouts: [WorkoutState] {
        workouts.values
            .filter { $0.startedAt != nil && $0.status != .discarded }
            .sorted { ($0.startedAt!.millis, $0.workoutId.uuidString) < ($1.startedAt!.millis, $1.workoutId.uuidString) }
    }

    /// Finished workouts that started before `t`, newest first (what hints compare with).
    public func finishedWorkouts(startedBefore t: Timestamp) -> [WorkoutState] {
        workouts.values
            .filter { $0.status == .finished && $0.startedAt.map { $0 < t } == true }
            .sorted { ($0.startedAt!.millis, $0.workoutId.uuidString) > ($1.startedAt!.millis, $1.workoutId.uuidString) }
    }

    public func exerciseName(_ id: String) -> String { library.name(of: id) }
}

extension WorkoutState {
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

extension WorkoutState.SetRecord {
    public var weightKg: Double? { metrics.weight?.kilograms }
    /// w × r in kg; 0 for bodyweight sets.
    public var volumeKg: Double { (weightKg ?? 0) * Double(metrics.reps ?? 0) }
}
