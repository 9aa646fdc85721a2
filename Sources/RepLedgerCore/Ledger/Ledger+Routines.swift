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
            } catch Refusal.unknownTemplate(let missing, _) {
                guard let earlier = try lastFinishedWorkout(named: ref) else {
                    // A name close to a routine's is suggested, never started: "chest" is not "2/M Chest" of 2019.
                    throw Refusal.unknownTemplate(missing, suggestions: try routineSuggestions(for: ref))
                }
                return try session.startWorkout(repeating: earlier, name: name ?? earlier.name)
            }
        }
    }

    /// Template and routine names close to a mistyped one; among equally
    /// close names, the templates and the routines of the last eight weeks of
    /// training first ("chest" suggests this month's 2/M Chest before 2023's 1 Chest).
    func routineSuggestions(for typed: String) throws -> [String] {
        let templateNames = try templates().live.map(\.name)
        let starts = try store.workoutStarts()
        var names = templateNames
        var seen = Set(names.map { $0.lowercased() })
        for start in starts where seen.insert(start.name.lowercased()).inserted { names.append(start.name) }
        var current = Set(templateNames)
        if let newest = starts.map(\.startedAt.millis).max() {
            for start in starts where start.startedAt.millis >= newest - Self.currentRoutineWindowMillis { current.insert(start.name) }
        }
        return NearestNames.closest(to: typed, among: names, preferring: current)
    }

    /// Eight weeks: how far before the newest workout a routine still counts as current.
    static let currentRoutineWindowMillis: Int64 = 8 * 7 * 86_400_000

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
        let candidates = try store.workoutStarts().filter { $0.name.lowercased() == key }
        for c in candidates.sorted(by: { $0.startedAt > $1.startedAt }) {
            let w = try workout(c.workoutId)
            if w.status == .finished { return w }
        }
        return nil
    }

    /// Starts the most recent finished workout again, as planned sets (its name unless another is given).
    public func repeatLastWorkout(name: String? = nil, at time: Timestamp? = nil) throws -> UUID {
        var last: WorkoutState?
        for start in try store.workoutStarts().sorted(by: { $0.startedAt > $1.startedAt }) {
            let w = try workout(start.workoutId)
            if w.status == .finished {
                last = w
                break
            }
        }
        guard let last else { throw Refusal.nothingToRepeat }
        return try execute(at: time) { try $0.startWorkout(repeating: last, name: name ?? last.name) }
    }
}
