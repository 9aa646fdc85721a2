import Foundation
import RepLedgerCore

/// Workout history (DOMAIN.md §13): every workout that was not discarded,
/// newest first, with its exercises and completed sets. The set count and
/// tonnage cover the sets that count under the rules (working sets by
/// default); warm-ups are listed with their type but do not count.
public struct WorkoutHistoryProjection: ProjectionView {
    public static let name = "workout-history"
    /// 2: an exercise row carries its note. 3: and its superset. 4: tonnage counts each side of a unilateral exercise; sets' RIR and tempo.
    /// 5: a second block of an exercise is its own row, not folded into the first.
    /// 6: an exercise's sets in the order they were done. 7: a workout's feeling, closing note and activity; sets' band and implement.
    /// 8: whether it was a deload.
    public static let version = 8

    public struct SetRow: Sendable, Equatable {
        public var setId: UUID
        public var weightKg: Double?
        public var reps: Int?
        public var type: SetType
        /// As entered (`Effort` derives one scale from the other).
        public var rpe: Double?
        public var metrics: SetMetrics
        public var notes: String?
        public var rir: Double? = nil
        public var tempo: String? = nil
        /// What it was done with: a band's colour, an implement's value.
        public var band: String? = nil
        public var implement: String? = nil
    }

    public struct ExerciseRow: Sendable, Equatable {
        public var exerciseId: String
        public var exercise: String
        public var sets: [SetRow]
        /// The exercise's note in this workout (`workout note W TEXT --exercise X`).
        public var note: String? = nil
        /// The superset the exercise is in, in this workout.
        public var supersetId: UUID? = nil
    }

    public struct WorkoutRow: Sendable, Equatable {
        public var workoutId: UUID
        public var name: String
        public var startedAt: Timestamp
        public var finishedAt: Timestamp?
        public var durationSeconds: Int64?
        public var notes: String?
        public var templateId: UUID?
        /// Completed sets that count under the rules.
        public var sets: Int
        /// Σ weight × reps of those sets, in kg.
        public var tonnageKg: Double
        public var exercises: [ExerciseRow]
        /// How the session felt (1–5) and its closing note, if given; what kind of session it was.
        public var feeling: Int? = nil
        public var closingNote: String? = nil
        public var activity: WorkoutActivity = .strength
        /// Marked as a deload.
        public var deload = false
    }

    /// Workouts newest first, optionally only those with a completed set of
    /// `exerciseId` and only those started in the local month `YYYY-MM`, then
    /// `offset` skipped and at most `limit` returned.
    public static func workouts(
        _ log: TrainingLogProjection, rules: RuleSet = .default, exerciseId: String? = nil,
        month: String? = nil, offset: Int = 0, limit: Int? = nil
    ) -> [WorkoutRow] {
        // Newest first, stopping at the page's end: a page reads its own workouts (and those it skips), not the whole history.
        var skipped = 0
        var page: [WorkoutRow] = []
        for key in log.order.reversed() {
            if let limit, page.count >= limit { break }
            guard let w = log.counted(key) else { continue }
            if let exerciseId, !w.sets.contains(where: { $0.completed && $0.exerciseId == exerciseId }) { continue }
            if let month, !w.startedAt!.isoDate.hasPrefix(month + "-") { continue }
            if skipped < offset {
                skipped += 1
                continue
            }
            page.append(row(for: w, log: log, rules: rules))
        }
        return page
    }

    /// How many workouts `workouts` would list with no page: the total a page is out of.
    public static func count(_ log: TrainingLogProjection, exerciseId: String? = nil, month: String? = nil) -> Int {
        var n = 0
        for key in log.order {
            guard let w = log.counted(key) else { continue }
            if let exerciseId, !w.sets.contains(where: { $0.completed && $0.exerciseId == exerciseId }) { continue }
            if let month, !w.startedAt!.isoDate.hasPrefix(month + "-") { continue }
            n += 1
        }
        return n
    }

    public static func row(for w: WorkoutState, log: TrainingLogProjection, rules: RuleSet = .default) -> WorkoutRow {
        var groups: [ExerciseRow] = []
        var sets = 0
        var tonnage = 0.0
        for entry in w.entries {
            // Each entry is its own row, as recorded: a second block of an exercise keeps its sets, note and superset.
            let entryStart = groups.count
            // In the order they were done (a warm-up logged first is listed first), ties in the plan's order.
            let done = w.setsInOrderDone(entry: entry.entryId).filter(\.completed)
            for s in done {
                if rules.counts(s.type) {
                    sets += 1
                    tonnage += log.volumeKg(s)
                }
                let effort = w.effort(of: s.setId)
                let setRow = SetRow(
                    setId: s.setId, weightKg: s.weightKg, reps: s.metrics.reps, type: s.type,
                    rpe: s.metrics.rpe, metrics: s.metrics, notes: s.notes, rir: effort?.rir, tempo: effort?.tempo,
                    band: effort?.band, implement: effort?.implement)
                // Sets done before a swap keep their own exercise, so one entry can show two.
                if let i = groups[entryStart...].lastIndex(where: { $0.exerciseId == s.exerciseId }) {
                    groups[i].sets.append(setRow)
                } else {
                    groups.append(
                        ExerciseRow(
                            exerciseId: s.exerciseId, exercise: log.exerciseName(s.exerciseId), sets: [setRow], note: entry.note.shownNote,
                            supersetId: entry.supersetId))
                }
            }
        }
        return WorkoutRow(
            workoutId: w.workoutId, name: w.name, startedAt: w.startedAt!, finishedAt: w.finishedAt,
            durationSeconds: w.durationSeconds(), notes: w.note.shownNote, templateId: w.templateId, sets: sets,
            tonnageKg: tonnage, exercises: groups, feeling: w.feeling, closingNote: w.closingNote, activity: w.activity, deload: w.deload)
    }
}

/// Every workout an exercise was done in, newest first, with its sets of
/// that exercise: one entry per block, as recorded, so a workout that came
/// back to the exercise shows both blocks, each with its own note.
public struct ExerciseHistoryProjection: ProjectionView {
    public static let name = "exercise-history"
    /// 2: an entry per block of the exercise, not one per workout.
    public static let version = 2

    public struct Entry: Sendable, Equatable {
        public var workoutId: UUID
        public var workoutName: String
        public var startedAt: Timestamp
        public var sets: [WorkoutHistoryProjection.SetRow]
        /// The note on the exercise in that workout (`workout note W TEXT --exercise X`).
        public var note: String?
    }

    public static func entries(_ log: TrainingLogProjection, exerciseId: String, rules: RuleSet = .default) -> [Entry] {
        WorkoutHistoryProjection.workouts(log, rules: rules, exerciseId: exerciseId).flatMap { row in
            row.exercises.filter { $0.exerciseId == exerciseId }.map { block in
                Entry(workoutId: row.workoutId, workoutName: row.name, startedAt: row.startedAt, sets: block.sets, note: block.note)
            }
        }
    }
}

extension Optional where Wrapped == String {
    /// A note as the views show it: an empty note (one cleared by `workout note W ""`) is no note.
    public var shownNote: String? { flatMap { $0.isEmpty ? nil : $0 } }
}
