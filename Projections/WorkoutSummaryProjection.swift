import Foundation
import RepLedgerCore

/// The deterministic summary of a finished workout (DOMAIN.md §13):
/// duration, sets, tonnage, the records it set, the rep counter and the
/// progression prompt per exercise, and the change against the last
/// comparable workout (same template, else same program session, else same name).
public struct WorkoutSummaryProjection: ProjectionView {
    public static let name = "workout-summary"
    /// 2: planned (not yet completed) sets per exercise; a workout in progress lists its planned exercises too.
    /// 3: the rests planned and taken, per exercise and per set.
    /// 4: an exercise the program day flagged for an injury says so.
    public static let version = 4

    public struct ExerciseLine: Sendable, Equatable {
        public var exerciseId: String
        public var exercise: String
        public var sets: Int
        /// Sets planned and not completed yet.
        public var plannedSets: Int
        public var tonnageKg: Double
        public var excessReps: Int
        /// Only when the workout gave the exercise a target range.
        public var prompt: ProgressionPromptProjection.Prompt?
        /// The mean rest the timer planned after its sets, and the mean taken (none: no rest known).
        public var restPlannedSeconds: Int?
        public var restTakenSeconds: Int?
        /// The program day flagged this exercise for an injury named in the questionnaire.
        public var injuryWarning = false
    }

    /// The rest after one completed set: what the timer planned (when one was
    /// started after it) and what was taken, to the next set's completion.
    public struct Rest: Sendable, Equatable {
        public var afterSetId: UUID
        public var exerciseId: String
        public var plannedSeconds: Int?
        public var takenSeconds: Int?
    }

    public struct Comparison: Sendable, Equatable {
        public var workoutId: UUID
        public var tonnageDeltaKg: Double
        public var setsDelta: Int
        public var durationDeltaSeconds: Int64?
    }

    public struct Summary: Sendable, Equatable {
        public var workout: WorkoutHistoryProjection.WorkoutRow
        public var records: [PersonalRecordsProjection.Record]
        public var exercises: [ExerciseLine]
        public var comparison: Comparison?
        public var rests: [Rest]
    }

    /// `records`: the records the workout set, when the caller has them (`PersonalRecordsProjection.setIn`).
    public static func summary(
        _ log: TrainingLogProjection, workoutId: UUID, rules: RuleSet = .default, records: [PersonalRecordsProjection.Record]? = nil
    ) -> Summary? {
        guard let w = log.workouts[workoutId], w.counts else { return nil }
        let row = WorkoutHistoryProjection.row(for: w, log: log, rules: rules)
        let records = records ?? PersonalRecordsProjection.setIn(log, workoutId: workoutId, rules: rules)
        // A workout in progress shows what is planned as well as what is done.
        var ids = w.exercisesDone
        if w.isOpen { for e in w.entries where !ids.contains(e.exerciseId) { ids.append(e.exerciseId) } }
        let rests = Self.rests(of: w)
        let flagged = log.injuryFlagged(in: w)
        func mean(_ values: [Int]) -> Int? { values.isEmpty ? nil : Int((Double(values.reduce(0, +)) / Double(values.count)).rounded()) }
        let lines = ids.map { id -> ExerciseLine in
            let own = rests.filter { $0.exerciseId == id }
            let sets = w.countedSets(of: id, rules: rules)
            let entry = w.entries.first { $0.exerciseId == id }
            let range = entry.flatMap { e in e.targetRepsMin.flatMap { lo in try? RepRange(min: lo, max: e.targetRepsMax ?? lo) } }
            return ExerciseLine(
                exerciseId: id, exercise: log.exerciseName(id), sets: sets.count,
                plannedSets: w.sets.filter { $0.exerciseId == id && !$0.completed }.count, tonnageKg: sets.reduce(0) { $0 + log.volumeKg($1) },
                excessReps: RepCounterProjection.excessReps(log, workoutId: workoutId, exerciseId: id, scope: rules.hintScope),
                prompt: range.flatMap { ProgressionPromptProjection.evaluate(log, workoutId: workoutId, exerciseId: id, range: $0) },
                restPlannedSeconds: mean(own.compactMap(\.plannedSeconds)), restTakenSeconds: mean(own.compactMap(\.takenSeconds)),
                injuryWarning: flagged.contains(id))
        }
        let comparable = log.lastFinished(startedBefore: w.startedAt!) { other in
            guard other.workoutId != workoutId else { return false }
            if let t = w.templateId { return other.templateId == t }
            if let p = w.programId { return other.programId == p && other.programDayIndex == w.programDayIndex }
            return other.name == w.name
        }
        let comparison = comparable.map { other -> Comparison in
            let o = WorkoutHistoryProjection.row(for: other, log: log, rules: rules)
            return Comparison(
                workoutId: other.workoutId, tonnageDeltaKg: row.tonnageKg - o.tonnageKg, setsDelta: row.sets - o.sets,
                durationDeltaSeconds: row.durationSeconds.flatMap { d in o.durationSeconds.map { d - $0 } })
        }
        return Summary(workout: row, records: records, exercises: lines, comparison: comparison, rests: rests)
    }

    /// The rests of a workout, derived from its events: after each completed set that a rest follows
    /// (not between the members of a superset), the timer's planned length and the time to the next
    /// completed set, less any time the timer was paused. Sets completed at the same instant (an import without set times) say nothing of the rest taken.
    public static func rests(of w: WorkoutState) -> [Rest] {
        let done = w.sets.compactMap { s in s.completed ? s.completedAt.map { (s, $0.millis) } : nil }
            .sorted { ($0.1, $0.0.rank) < ($1.1, $1.0.rank) }
        var planned: [UUID: Int] = [:]
        var timer: [UUID: WorkoutState.Rest] = [:]
        for r in w.rests {
            if let id = r.afterSetId {
                planned[id] = r.plannedSeconds
                timer[id] = r
            }
        }
        return done.indices.compactMap { i in
            let (set, at) = done[i]
            guard RestPlan.follows(entry: set.entryId, in: w) else { return nil }
            // The time the timer was paused is not rest taken.
            let held = i + 1 < done.count ? timer[set.setId]?.heldMillis(at: Timestamp(millis: done[i + 1].1)) ?? 0 : 0
            let gap = i + 1 < done.count ? max(0, done[i + 1].1 - at - held) : 0
            let taken = gap > 0 ? Int(gap / 1000) : nil
            guard taken != nil || planned[set.setId] != nil else { return nil }
            return Rest(afterSetId: set.setId, exerciseId: set.exerciseId, plannedSeconds: planned[set.setId], takenSeconds: taken)
        }
    }
}

extension TrainingLogProjection {
    /// The exercises a workout's program day flagged for an injury named in the program's questionnaire:
    /// the warning follows them into the workout, not only `program show`.
    public func injuryFlagged(in w: WorkoutState) -> Set<String> {
        guard let programId = w.programId, let day = w.programDayIndex,
            let program = programs.live.first(where: { $0.programId == programId }), day < program.generated.sessions.count
        else { return [] }
        return Set(program.generated.sessions[day].exercises.filter(\.injuryWarning).map(\.exerciseId))
    }
}
