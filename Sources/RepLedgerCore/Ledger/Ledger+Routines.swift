import Foundation

extension Ledger {
    /// `workout start --template NAME`: a template by id or name, else the
    /// routine of that name in the history (what an import from Strong or
    /// Hevy brings: workouts named after routines, no templates), repeated
    /// from its most recent finished workout.
    public func startWorkout(template ref: String, name: String? = nil, at time: Timestamp? = nil) throws -> UUID {
        try execute(at: time) { session in
            do {
                return try session.startWorkout(fromTemplate: ref, name: name)
            } catch Refusal.unknownTemplate(let missing) {
                guard let earlier = try lastFinishedWorkout(named: ref) else { throw Refusal.unknownTemplate(missing) }
                return try session.startWorkout(repeating: earlier, name: name ?? earlier.name)
            }
        }
    }

    /// How many of the most recently started workouts are looked at for one in progress.
    public static let recentStartsChecked = 10

    /// Refuses a new workout while one is in progress (`workoutInProgress`,
    /// naming the newest): a second one is started alongside it only on
    /// purpose. It lists the workouts through the stream index (one index row
    /// each, no event decoded) and folds only the `recentStartsChecked` newest.
    public func checkNoWorkoutInProgress() throws {
        let recent = try store.streams(prefix: "workout-").suffix(Self.recentStartsChecked)
        for stream in recent.reversed() {
            guard let id = UUID(uuidString: String(stream.stream.raw.dropFirst("workout-".count))) else { continue }
            let w = try workout(id)
            if w.isOpen { throw Refusal.workoutInProgress(id, name: w.name) }
        }
    }

    /// The most recently started finished workout with this name (any case), if any.
    public func lastFinishedWorkout(named name: String) throws -> WorkoutState? {
        let key = name.trimmingSpaces().lowercased()
        var candidates: [(startedAt: Timestamp, id: UUID)] = []
        try store.read(EventQuery(types: [WorkoutStarted.eventType.name])) { e in
            if case .workoutStarted(let s) = e.event, s.name.lowercased() == key { candidates.append((e.occurredAt, s.workoutId)) }
        }
        for c in candidates.sorted(by: { $0.startedAt > $1.startedAt }) {
            let w = try workout(c.id)
            if w.status == .finished { return w }
        }
        return nil
    }
}
