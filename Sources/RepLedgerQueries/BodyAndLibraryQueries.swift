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
    public static func answer(_ library: LibraryState, muscle: Muscle?, includeArchived: Bool) -> [LibraryState.Exercise] {
        library.order.compactMap { library.exercises[$0] }
            .filter { includeArchived || !$0.archived }
            .filter { x in muscle.map { x.definition.primaryMuscles.contains($0) } ?? true }
            .sorted { $0.name.lowercased() < $1.name.lowercased() }
    }

    public static func document(_ rows: [LibraryState.Exercise]) -> JSONValue {
        .object([
            (
                "exercises",
                .array(
                    rows.map { x in
                        let d = x.definition
                        return .object([
                            ("exerciseId", .string(d.exerciseId)), ("name", .string(d.name)),
                            ("muscle", .string(d.primaryMuscles.first?.rawValue ?? "")), ("kind", .string(d.kind.rawValue)),
                            ("primaryMuscles", .array(d.primaryMuscles.map { .string($0.rawValue) })),
                            ("secondaryMuscles", .array(d.secondaryMuscles.map { .string($0.rawValue) })),
                            ("equipment", .array(d.equipment.map { .string($0.rawValue) })),
                            ("custom", .bool(d.custom)), ("archived", .bool(x.archived)),
                        ])
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
