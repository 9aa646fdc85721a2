import RepLedgerCore
import RepLedgerProjections

/// `body history`: every weigh-in, newest first.
public enum BodyHistoryQuery {
    public static func answer(_ log: TrainingLogProjection) -> [BodyState.Measurement] { Array(log.body.measurements.reversed()) }

    public static func document(_ rows: [BodyState.Measurement]) -> JSONValue {
        .object([
            (
                "measurements",
                .array(
                    rows.map { m in
                        .object([
                            ("measurementId", .string(m.measurementId.lowercased)), ("date", .string(m.at.iso8601)),
                            ("weightKg", .number(m.kilograms)),
                            ("entered", .object([("value", .number(m.weight.value)), ("unit", .string(m.weight.unit.rawValue))])),
                        ])
                    })
            )
        ])
    }
}

/// `exercise list`: the library as offered, by name, filtered by primary muscle.
public enum ExerciseListQuery {
    public static func answer(
        _ library: LibraryState, muscle: Muscle?, includeArchived: Bool, favouritesOnly: Bool = false
    ) -> [LibraryState.Exercise] {
        library.order.compactMap { library.exercises[$0] }
            .filter { includeArchived || !$0.archived }
            .filter { !favouritesOnly || $0.favourite }
            .filter { x in muscle.map { x.definition.primaryMuscles.contains($0) } ?? true }
            .sorted { $0.name.lowercased() < $1.name.lowercased() }
    }

    /// `exercise list --recent`: the exercises done lately, the most recent first, with when each was last done.
    public static func recent(_ log: TrainingLogProjection, limit: Int) -> [(exercise: LibraryState.Exercise, lastDone: Timestamp)] {
        var last: [String: Timestamp] = [:]
        for w in log.countedWorkouts {
            for s in w.sets where s.completed {
                let at = s.completedAt ?? w.startedAt!
                if last[s.exerciseId].map({ at > $0 }) ?? true { last[s.exerciseId] = at }
            }
        }
        return last.compactMap { id, at in log.library.exercises[id].flatMap { x in x.archived ? nil : (exercise: x, lastDone: at) } }
            .sorted { ($0.lastDone, $1.exercise.exerciseId) > ($1.lastDone, $0.exercise.exerciseId) }
            .prefix(limit).map { $0 }
    }

    public static func document(_ rows: [LibraryState.Exercise], lastDone: [Timestamp]? = nil) -> JSONValue {
        .object([
            (
                "exercises",
                .array(
                    rows.enumerated().map { i, x in
                        .object(
                            ExerciseShowQuery.fields(x) + [("muscle", .string(x.definition.primaryMuscles.first?.rawValue ?? ""))]
                                + (lastDone.map { [("lastDone", .string($0[i].iso8601))] } ?? []))
                    })
            )
        ])
    }
}

/// `exercise history EXERCISE`: every workout with the exercise, its sets.
public enum ExerciseHistoryQuery {
    public static func document(_ exercise: LibraryState.Exercise, _ entries: [ExerciseHistoryProjection.Entry]) -> JSONValue {
        .object([
            ("exercise", .string(exercise.name)), ("exerciseId", .string(exercise.exerciseId)),
            (
                "workouts",
                .array(
                    entries.map { e in
                        .object([
                            ("workoutId", .string(e.workoutId.lowercased)), ("name", .string(e.workoutName)),
                            ("startedAt", .string(e.startedAt.iso8601)),
                            ("sets", .array(e.sets.map(HistoryQuery.json))),
                        ])
                    })
            ),
        ])
    }
}

/// `template list`: the templates in order, with when each was last used.
public enum TemplateListQuery {
    public static func document(_ log: TrainingLogProjection, _ rows: [TemplatesProjection.Row]) -> JSONValue {
        .object([
            (
                "templates",
                .array(
                    rows.map { r in
                        .object([
                            ("templateId", .string(r.templateId.lowercased)), ("name", .string(r.name)),
                            ("exercises", .array(r.exercises.map { .string(log.exerciseName($0.exerciseId)) })),
                            ("lastUsedAt", .optional(r.lastUsedAt?.iso8601)),
                        ])
                    })
            )
        ])
    }
}
