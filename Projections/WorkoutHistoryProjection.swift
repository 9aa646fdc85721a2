import Foundation
import RepLedgerCore

/// Workout history: every workout that was not discarded, newest first, with
/// its exercises and completed sets (DOMAIN.md §13). Tonnage and the set count
/// cover completed working sets; warm-ups are listed but do not count.
public struct WorkoutHistoryProjection: Projection {
    public static let name = "workout-history"
    public static let version = 1

    public private(set) var library = LibraryState()
    public private(set) var workouts: [UUID: WorkoutState] = [:]

    public init() {}

    public mutating func apply(_ envelope: EventEnvelope) {
        let event = envelope.event
        if envelope.stream == .library { library.evolve(event); return }
        guard envelope.stream.raw.hasPrefix("workout-") else { return }
        if case .workoutStarted(let e) = event { workouts[e.workoutId] = WorkoutState(workoutId: e.workoutId) }
        guard let id = Self.workoutId(event), workouts[id] != nil else { return }
        workouts[id]!.evolve(event, at: envelope.occurredAt)
    }

    private static func workoutId(_ event: LedgerEvent) -> UUID? {
        UUID(uuidString: String(event.stream.raw.dropFirst("workout-".count)))
    }

    // MARK: Queries

    public struct SetRow: Sendable, Equatable {
        public var setId: UUID
        public var weightKg: Double?
        public var reps: Int?
        public var type: SetType
        public var rpe: Double?
        public var metrics: SetMetrics
    }

    public struct ExerciseRow: Sendable, Equatable {
        public var exerciseId: String
        public var exercise: String
        public var sets: [SetRow]
    }

    public struct WorkoutRow: Sendable, Equatable {
        public var workoutId: UUID
        public var name: String
        public var startedAt: Timestamp
        public var finishedAt: Timestamp?
        public var durationSeconds: Int64?
        /// Completed working sets.
        public var sets: Int
        /// Σ weight × reps of completed working sets, in kg.
        public var tonnageKg: Double
        public var exercises: [ExerciseRow]
    }

    /// Workouts newest first, optionally only those with a completed set of
    /// `exerciseId` and only those started in the local month `YYYY-MM`.
    public func workouts(exerciseId: String? = nil, month: String? = nil) -> [WorkoutRow] {
        workouts.values
            .filter { $0.status != .discarded && $0.startedAt != nil }
            .compactMap { row(for: $0) }
            .filter { row in exerciseId.map { id in row.exercises.contains { $0.exerciseId == id } } ?? true }
            .filter { row in month.map { row.startedAt.isoDate.hasPrefix($0 + "-") } ?? true }
            .sorted { ($0.startedAt.millis, $0.workoutId.uuidString) > ($1.startedAt.millis, $1.workoutId.uuidString) }
    }

    func row(for w: WorkoutState) -> WorkoutRow? {
        guard let startedAt = w.startedAt else { return nil }
        var groups: [ExerciseRow] = []
        var sets = 0
        var tonnage = 0.0
        for entry in w.entries {
            for s in w.sets where s.entryId == entry.entryId && s.completed {
                let kg = s.metrics.weight?.kilograms
                if s.type.isWorking {
                    sets += 1
                    tonnage += (kg ?? 0) * Double(s.metrics.reps ?? 0)
                }
                let setRow = SetRow(setId: s.setId, weightKg: kg, reps: s.metrics.reps, type: s.type, rpe: s.metrics.rpe, metrics: s.metrics)
                // Sets done before a swap keep their own exercise, so one entry can show two.
                if let i = groups.lastIndex(where: { $0.exerciseId == s.exerciseId }) {
                    groups[i].sets.append(setRow)
                } else {
                    groups.append(ExerciseRow(exerciseId: s.exerciseId, exercise: library.name(of: s.exerciseId), sets: [setRow]))
                }
            }
        }
        return WorkoutRow(workoutId: w.workoutId, name: w.name, startedAt: startedAt, finishedAt: w.finishedAt,
                          durationSeconds: w.durationSeconds(), sets: sets, tonnageKg: tonnage, exercises: groups)
    }
}
