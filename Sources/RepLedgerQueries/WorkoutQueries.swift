import Foundation
import RepLedgerCore
import RepLedgerProjections
import RepLedgerSnapshots

/// `workout summary W`: duration, sets, tonnage, records, counters, prompts, change since last time.
public enum SummaryQuery {
    public struct Answer {
        public var summary: WorkoutSummaryProjection.Summary
        public var log: TrainingLogProjection
    }

    public static func answer(_ store: any EventStore, _ scope: QueryScope, workout: String) throws -> Answer {
        let id = try Ledger(store: store).resolveWorkout(workout)
        let log = try scope.log(store)
        guard let w = log.workouts[id], w.counts,
            let s = WorkoutSummaryProjection.summary(log, workoutId: id, rules: scope.rules, records: try recordsSet(in: w, store, scope, log))
        else { throw Refusal.unknownWorkout(workout) }
        return Answer(summary: s, log: log)
    }

    /// The records a workout set, measured against the records before it. At the head those are kept between
    /// answers while everything appended since belongs to this workout (a lifter logging into the workout on
    /// screen, each command answered with its summary), so the answer folds one workout, not the whole log.
    static func recordsSet(
        in w: WorkoutState, _ store: any EventStore, _ scope: QueryScope, _ log: TrainingLogProjection
    ) throws -> [PersonalRecordsProjection.Record] {
        let rules = scope.rules
        guard let warm = scope.atHead else { return PersonalRecordsProjection.setIn(log, workoutId: w.workoutId, rules: rules) }
        struct Before {
            var workoutId: UUID
            var startedAt: Int64?
            var records: PersonalRecordsProjection.Accumulator
        }
        let key = "records before a workout \(ViewSnapshots.rulesId(rules))"
        var before: PersonalRecordsProjection.Accumulator?
        if let (position, kept) = warm.carried(key, as: Before.self), kept.workoutId == w.workoutId, kept.startedAt == w.startedAt?.millis,
            position <= log.position, log.position - position <= Self.carriedEvents,
            try onlyTouches(w.workoutId, store, after: position, through: log.position)
        {
            before = kept.records
        }
        let records = before ?? PersonalRecordsProjection.before(log, workoutId: w.workoutId, rules: rules)
        warm.carry(key, at: log.position, Before(workoutId: w.workoutId, startedAt: w.startedAt?.millis, records: records))
        return PersonalRecordsProjection.setIn(log, workoutId: w.workoutId, after: records, rules: rules)
    }

    /// Past this many events since, the records before the workout are folded again rather than checked.
    static let carriedEvents: Int64 = 1000

    /// Whether every event after `after` up to `through` is one of `workoutId`'s.
    static func onlyTouches(_ workoutId: UUID, _ store: any EventStore, after: Int64, through: Int64) throws -> Bool {
        var only = true
        try store.read(EventQuery(from: after + 1, through: through)) { e in if e.event.workoutId != workoutId { only = false } }
        return only
    }

    public static func document(_ a: Answer) -> JSONValue {
        let (s, log) = (a.summary, a.log)
        let records: [JSONValue] = s.records.map { r in
            .object([("exercise", .string(log.exerciseName(r.exerciseId)))] + RecordsQuery.recordPairs(r))
        }
        let exercises: [JSONValue] = s.exercises.map { e in
            .object([
                ("exercise", .string(e.exercise)), ("exerciseId", .string(e.exerciseId)), ("sets", .int(Int64(e.sets))),
                ("plannedSets", .int(Int64(e.plannedSets))),
                ("tonnageKg", .number(e.tonnageKg)), ("excessReps", .int(Int64(e.excessReps))),
                ("prompt", .optional(e.prompt?.kind.rawValue)), ("promptTitle", .optional(e.prompt?.title)),
                ("promptLine", .optional(e.prompt?.line)), ("promptExplanation", .optional(e.prompt?.explanation)),
                ("restPlannedSeconds", .optional(e.restPlannedSeconds)), ("restTakenSeconds", .optional(e.restTakenSeconds)),
                ("injuryWarning", .bool(e.injuryWarning)),
            ])
        }
        let rests: [JSONValue] = s.rests.map { r in
            .object([
                ("afterSetId", .string(r.afterSetId.lowercased)), ("exerciseId", .string(r.exerciseId)),
                ("plannedSeconds", .optional(r.plannedSeconds)), ("takenSeconds", .optional(r.takenSeconds)),
            ])
        }
        var comparison = JSONValue.null
        if let c = s.comparison {
            comparison = .object([
                ("workoutId", .string(c.workoutId.lowercased)), ("tonnageDeltaKg", .number(c.tonnageDeltaKg)),
                ("setsDelta", .int(Int64(c.setsDelta))),
                ("durationDeltaSeconds", c.durationDeltaSeconds.map { .int($0) } ?? .null),
            ])
        }
        let state = log.workouts[s.workout.workoutId]
        let heartRate: JSONValue =
            state?.averageHeartRate.map { average in
                .object([("average", .number((average * 10).rounded() / 10)), ("max", .optional(state?.maxHeartRate))])
            } ?? .null
        return .object([
            ("workout", HistoryQuery.json(s.workout)), ("records", .array(records)),
            ("exercises", .array(exercises)), ("comparison", comparison),
            ("durationSeconds", s.workout.durationSeconds.map { .int($0) } ?? .null),
            ("heartRate", heartRate), ("activeEnergyKcal", .number(state?.activeEnergyKcal ?? 0)), ("rests", .array(rests)),
        ])
    }
}

/// `prompt W EXERCISE [--range MIN-MAX]`: the progression traffic light.
public enum PromptQuery {
    public static func answer(
        _ store: any EventStore, _ scope: QueryScope, workout: String, exercise: String,
        range: String? = nil
    ) throws -> ProgressionPromptProjection.Prompt? {
        let id = try Ledger(store: store).resolveWorkout(workout)
        let log = try scope.log(store)
        let x = try log.library.resolve(exercise)
        let planned = log.workouts[id]?.entries.first { $0.exerciseId == x.exerciseId && $0.targetRepsMin != nil }
        let parsed: RepRange
        if let range {
            parsed = try RepRange.parse(range)
        } else if let planned, let lo = planned.targetRepsMin {
            parsed = try RepRange(min: lo, max: planned.targetRepsMax ?? lo)
        } else {
            throw Refusal.invalidProgram("no rep range is planned for \(x.name) in this workout: give a rep range, e.g. 8-12")
        }
        return ProgressionPromptProjection.evaluate(log, workoutId: id, exerciseId: x.exerciseId, range: parsed)
    }

    public static func document(_ p: ProgressionPromptProjection.Prompt?) -> JSONValue {
        .object([
            ("prompt", .optional(p?.kind.rawValue)), ("variant", .optional(p?.variant.rawValue)),
            ("title", .optional(p?.title)), ("message", .optional(p?.message)),
            ("headline", .optional(p?.headline)), ("explanation", .optional(p?.explanation)), ("line", .optional(p?.line)),
            ("reps", p.map { .array($0.reps.map { .int(Int64($0)) }) } ?? .null), ("range", .optional(p?.range.description)),
        ])
    }
}

/// `repcount W EXERCISE`: the "+N reps" counter against the previous workout.
public enum RepCountQuery {
    public struct Answer {
        public var excessReps: Int
        public var exercise: String
        /// The workout the counter compares with; nil when there is none (nothing to beat yet).
        public var previous: WorkoutState?
    }

    public static func answer(
        _ store: any EventStore, _ scope: QueryScope, workout: String, exercise: String,
        hintScope: String? = nil
    ) throws -> Answer {
        let id = try Ledger(store: store).resolveWorkout(workout)
        let log = try scope.log(store)
        let x = try log.library.resolve(exercise)
        let s = try hintScope.map { try vocabulary(HintScope.self, "scope", $0) } ?? scope.rules.hintScope
        let previous = log.workouts[id].flatMap { w in
            LastTimeHintProjection.previousWorkout(log, exerciseId: x.exerciseId, context: .init(workout: w, scope: s))
        }
        return Answer(
            excessReps: RepCounterProjection.excessReps(log, workoutId: id, exerciseId: x.exerciseId, scope: s),
            exercise: x.name, previous: previous)
    }

    public static func document(_ a: Answer) -> JSONValue {
        .object([("excessReps", .int(Int64(a.excessReps))), ("previousWorkoutId", .optional(a.previous?.workoutId.lowercased))])
    }
}

/// `hint EXERCISE`: what to beat, the last time the exercise was done.
public enum HintQuery {
    public struct Answer {
        public var hint: LastTimeHintProjection.Hint
        public var unit: WeightUnit
    }

    public static func answer(
        _ store: any EventStore, _ scope: QueryScope, exercise: String, at: String? = nil,
        hintScope: String? = nil, workout: String? = nil
    ) throws -> Answer {
        let ledger = Ledger(store: store)
        let x = try ledger.library().resolve(exercise)
        let s = try hintScope.map { try vocabulary(HintScope.self, "scope", $0) } ?? scope.rules.hintScope
        let time = try scope.answerTime(at: at)
        // Without a workout there is no program day: `auto` is the exercise scope the index answers.
        if workout == nil, s != .programDay, let stored = try fromSnapshot(store, scope, exerciseId: x.exerciseId, name: x.name, time: time) {
            return stored
        }
        let log = try scope.log(store)
        var context = LastTimeHintProjection.Context(time: time, scope: s)
        if let workout {
            let id = try ledger.resolveWorkout(workout)
            if let w = log.workouts[id] { context = .init(workout: w, scope: s) }
        }
        // At the head, keep the index for the next query (a cache: failing to write it is no error).
        if scope.asOf == nil, scope.mayUseStoredResults, log.position == (try? store.headPosition()) {
            try? ViewSnapshots.saveHintIndex(store, at: log.position, HintIndexProjection.entries(log))
        }
        return Answer(hint: LastTimeHintProjection.hint(log, exerciseId: x.exerciseId, context: context), unit: log.account.liftingUnit)
    }

    /// The stored hint index answers an `exercise`-scope hint at the head for
    /// any time after the indexed workout started; anything else is computed.
    static func fromSnapshot(
        _ store: any EventStore, _ scope: QueryScope, exerciseId: String, name: String,
        time: Timestamp
    ) throws -> Answer? {
        guard scope.mayUseStoredResults else { return nil }
        let head = try store.headPosition()
        guard try scope.position(in: store) >= head else { return nil }
        var ignored: [String] = []
        guard let index = try ViewSnapshots.hintIndex(store, at: head, ignored: &ignored) else {
            for reason in ignored { scope.note?("snapshot ignored: \(reason)") }
            return nil
        }
        let entry = index.first { $0.exerciseId == exerciseId }
        if let entry, entry.startedAt >= time { return nil }  // a hint for the past: compute it
        scope.note?("answered from the hint index at #\(head)")
        let unit = try Ledger(store: store).account().liftingUnit
        return Answer(hint: HintIndexProjection.hint(entry, exerciseId: exerciseId, exercise: name, at: time), unit: unit)
    }

    public static func document(_ a: Answer) -> JSONValue {
        let hint = a.hint
        return .object([
            ("exercise", .string(hint.exercise)), ("exerciseId", .string(hint.exerciseId)),
            ("lastWorkoutId", .optional(hint.lastWorkoutId?.lowercased)), ("date", .optional(hint.date?.iso8601)),
            ("ago", .optional(hint.ago)), ("bestSet", hint.bestSet.map(set) ?? .null), ("sets", .array(hint.sets.map(set))),
        ])
    }

    /// One set of a hint, as `hint` and `workout show` give it.
    static func set(_ s: LastTimeHintProjection.SetShown) -> JSONValue {
        .object([("weightKg", .optional(s.weightKg)), ("reps", .optional(s.reps))])
    }
}

/// `entitlements`: Free, Pro or Coach as of a time.
public enum EntitlementsQuery {
    public struct Answer: Sendable {
        public var state: EntitlementsProjection.State
        public var at: Timestamp
    }

    public static func answer(_ store: any EventStore, _ scope: QueryScope, at: String? = nil) throws -> Answer {
        let t = try scope.answerTime(at: at)
        return Answer(state: EntitlementsProjection.state(try inputs(store, scope), at: t), at: t)
    }

    /// At the head, from the stored inputs when they are current; else from
    /// the fold (and stored for the next head query).
    static func inputs(_ store: any EventStore, _ scope: QueryScope) throws -> EntitlementsProjection.Inputs {
        let head = try store.headPosition()
        let target = min(try scope.position(in: store), head)
        var ignored: [String] = []
        if scope.mayUseStoredResults, let stored = try ViewSnapshots.entitlementInputs(store, at: target, ignored: &ignored) {
            scope.note?("answered from the stored entitlement inputs at #\(target)")
            return stored
        }
        let inputs = EntitlementsProjection.inputs(try scope.log(store))
        if target == head, scope.mayUseStoredResults { try? ViewSnapshots.saveEntitlementInputs(store, at: head, inputs) }
        return inputs
    }

    public static func document(_ a: Answer) -> JSONValue {
        let s = a.state
        return .object([
            ("isPro", .bool(s.isPro)), ("isCoach", .bool(s.isCoach)),
            ("activeProducts", .array(s.activeProducts.map { .string($0.rawValue) })),
            ("operatorGrant", s.operatorGrantUntil.map { .object([("product", .string("coach")), ("until", .string($0.iso8601))]) } ?? .null),
            ("templateLimit", .optional(s.templateLimit)), ("softUpsell", .bool(s.softUpsell)),
            ("at", .string(a.at.iso8601)), ("completedWorkouts", .int(Int64(s.completedWorkouts))),
            ("liveTemplates", .int(Int64(s.liveTemplates))),
        ])
    }
}
