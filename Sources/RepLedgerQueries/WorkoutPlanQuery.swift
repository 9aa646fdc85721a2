import RepLedgerCore
import RepLedgerProjections

/// `workout show W`: today's plan on screen. Every exercise of the workout in
/// its order with its target, its rest, its planned and done sets (with set
/// ids, to complete or edit them) and what to beat from last time.
public enum WorkoutPlanQuery {
    public struct Exercise {
        public var entry: WorkoutState.Entry
        public var name: String
        public var restSeconds: Int
        /// `program` (the program day's rest), `exercise` (the exercise's own rest) or `default` (the lifter's rest setting): `RestPlan`.
        public var restSource: String
        /// The sets of this exercise: done in the order done, then planned.
        public var sets: [WorkoutState.SetRecord]
        /// Sets logged on this entry before a swap: they stay the old exercise's (DOMAIN.md §13), as in history.
        public var swappedOut: [SwappedOut]
        /// The program day flagged it for an injury named in the questionnaire.
        public var injuryWarning: Bool
        public var lastTime: LastTimeHintProjection.Hint
        /// The named module that brought it (a template's or a program day's), if any.
        public var module: WorkoutModule? = nil
    }

    /// An exercise swapped out of an entry, with the sets logged for it before the swap.
    public struct SwappedOut {
        public var exerciseId: String
        public var name: String
        public var sets: [WorkoutState.SetRecord]
    }

    public struct Answer {
        public var workout: WorkoutState
        public var programName: String?
        public var exercises: [Exercise]
        /// The rest counting down when asked, if any.
        public var rest: WorkoutState.Rest?
        public var askedAt: Timestamp
        public var log: TrainingLogProjection
    }

    public static func answer(_ store: any EventStore, _ scope: QueryScope, workout: String) throws -> Answer {
        let id = try Ledger(store: store).resolveWorkout(workout)
        let log = try scope.log(store)
        guard let w = log.workouts[id], w.exists else { throw Refusal.unknownWorkout(workout) }
        let program = w.programId.flatMap { p in log.programs.live.first { $0.programId == p } }
        let day = w.programDayIndex.flatMap { i in program.map(\.generated.sessions).flatMap { i < $0.count ? $0[i] : nil } }
        let context = LastTimeHintProjection.Context(workout: w, scope: scope.rules.hintScope)
        let flagged = log.injuryFlagged(in: w)
        let exercises = w.entries.map { entry -> Exercise in
            let rest = RestPlan.seconds(exerciseId: entry.exerciseId, in: w, account: log.account, programs: log.programs, templates: log.templates)
            let sets = w.setsInOrderDone(entry: entry.entryId)
            var swappedOut: [SwappedOut] = []
            for set in sets where set.exerciseId != entry.exerciseId {
                if let i = swappedOut.firstIndex(where: { $0.exerciseId == set.exerciseId }) {
                    swappedOut[i].sets.append(set)
                } else {
                    swappedOut.append(SwappedOut(exerciseId: set.exerciseId, name: log.exerciseName(set.exerciseId), sets: [set]))
                }
            }
            return Exercise(
                entry: entry, name: log.exerciseName(entry.exerciseId),
                restSeconds: rest.seconds, restSource: rest.source.rawValue,
                sets: sets.filter { $0.exerciseId == entry.exerciseId }, swappedOut: swappedOut,
                injuryWarning: flagged.contains(entry.exerciseId),
                lastTime: LastTimeHintProjection.hint(log, exerciseId: entry.exerciseId, context: context),
                module: w.modules.first { $0.entryIds.contains(entry.entryId) })
        }
        let now = try scope.planTime()
        return Answer(
            workout: w, programName: program.map { _ in day?.name ?? w.name }, exercises: exercises,
            rest: w.isOpen ? w.restCounting(at: now) : nil, askedAt: now, log: log)
    }

    public static func document(_ a: Answer) -> JSONValue {
        let w = a.workout
        return .object([
            ("workoutId", .string(w.workoutId.lowercased)), ("name", .string(w.name)), ("status", .string(w.status.rawValue)),
            ("origin", .string(w.origin.rawValue)), ("startedAt", .optional(w.startedAt?.iso8601)), ("note", .optional(w.note.shownNote)),
            ("activity", .string(kebab(w.activity.rawValue))), ("feeling", .optional(w.feeling)), ("closingNote", .optional(w.closingNote)),
            ("programId", .optional(w.programId?.lowercased)), ("programDay", w.programDayIndex.map { .int(Int64($0 + 1)) } ?? .null),
            ("plannedSets", .int(Int64(w.sets.filter { !$0.completed }.count))),
            ("doneSets", .int(Int64(w.sets.filter(\.completed).count))),
            ("rest", a.rest.map { restJSON($0, at: a.askedAt) } ?? .null),
            (
                "exercises",
                .array(
                    a.exercises.map { x in
                        .object([
                            ("exerciseId", .string(x.entry.exerciseId)), ("exercise", .string(x.name)),
                            ("entryId", .string(x.entry.entryId.lowercased)), ("supersetId", .optional(x.entry.supersetId?.lowercased)),
                            ("targetSets", .optional(x.entry.targetSets)), ("targetRepsMin", .optional(x.entry.targetRepsMin)),
                            ("targetRepsMax", .optional(x.entry.targetRepsMax)),
                            ("restSeconds", .int(Int64(x.restSeconds))), ("restSource", .string(x.restSource)),
                            ("note", .optional(x.entry.note.shownNote)), ("injuryWarning", .bool(x.injuryWarning)),
                            ("sets", setsJSON(x.sets, of: w)),
                            (
                                "swappedOut",
                                .array(
                                    x.swappedOut.map { g in
                                        .object([
                                            ("exerciseId", .string(g.exerciseId)), ("exercise", .string(g.name)), ("sets", setsJSON(g.sets, of: w)),
                                        ])
                                    })
                            ),
                            ("lastTime", lastTime(x.lastTime)),
                            ("module", moduleJSON(x.module)),
                        ])
                    })
            ),
            ("modules", .array(w.modules.map { moduleJSON($0) })),
        ])
    }

    /// A named module of the workout: its id, name, type and the entries it brought.
    static func moduleJSON(_ module: WorkoutModule?) -> JSONValue {
        guard let m = module else { return .null }
        return .object([
            ("moduleId", .string(m.moduleId.lowercased)), ("name", .string(m.name)), ("type", .string(kebab(m.type.rawValue))),
            ("entryIds", .array(m.entryIds.map { .string($0.lowercased) })),
        ])
    }

    /// Sets as `workout show --json` lists them, numbered from 1.
    static func setsJSON(_ sets: [WorkoutState.SetRecord], of w: WorkoutState) -> JSONValue {
        .array(
            sets.enumerated().map { i, s in
                .object(
                    [
                        ("setId", .string(s.setId.lowercased)), ("number", .int(Int64(i + 1))),
                        ("state", .string(s.completed ? "done" : "planned")), ("type", .string(s.type.rawValue)),
                        ("weightKg", .optional(s.weightKg)), ("reps", .optional(s.metrics.reps)),
                    ]
                        + HistoryQuery.effort(
                            rpe: s.metrics.rpe, rir: w.effort(of: s.setId)?.rir, tempo: w.effort(of: s.setId)?.tempo,
                            band: w.effort(of: s.setId)?.band, implement: w.effort(of: s.setId)?.implement) + [
                            ("durationSeconds", .optional(s.metrics.durationSeconds)),
                            ("distanceMeters", .optional(s.metrics.distanceMeters)), ("notes", .optional(s.notes)),
                        ])
            })
    }

    /// The rest counting down: its planned length, when it ends, the seconds left and whether it is paused.
    static func restJSON(_ r: WorkoutState.Rest, at now: Timestamp) -> JSONValue {
        .object([
            ("plannedSeconds", .int(Int64(r.plannedSeconds))), ("endsAt", .string(r.endsAt.iso8601)),
            ("secondsLeft", .int(Int64(r.secondsLeft(at: now)))), ("paused", .bool(r.isPaused)),
            ("afterSetId", .optional(r.afterSetId?.lowercased)),
        ])
    }

    static func lastTime(_ h: LastTimeHintProjection.Hint) -> JSONValue {
        guard let id = h.lastWorkoutId else { return .null }
        return .object([
            ("workoutId", .string(id.lowercased)), ("date", .optional(h.date?.iso8601)), ("ago", .optional(h.ago)),
            ("bestSet", h.bestSet.map(HintQuery.set) ?? .null), ("sets", .array(h.sets.map(HintQuery.set))),
        ])
    }
}
