import RepLedgerCore
import RepLedgerProjections

/// `body history`: every weigh-in, newest first.
public enum BodyHistoryQuery {
    public struct Answer: Sendable {
        /// Weigh-ins, newest first.
        public var weighIns: [BodyState.Measurement]
        /// Body measurements, newest first.
        public var measures: [BodyState.SiteMeasurement]
        /// Progress photos' metadata, newest first.
        public var photos: [BodyState.Photo]
    }

    /// `site` keeps only that measurement (and no weigh-ins or photos).
    public static func answer(_ log: TrainingLogProjection, site: BodySite? = nil) -> Answer {
        let body = log.body
        guard let site else {
            return Answer(
                weighIns: body.measurements.reversed(), measures: newestFirst(body.sites, at: \.at), photos: newestFirst(body.photos, at: \.at))
        }
        return Answer(weighIns: [], measures: newestFirst(body.sites.filter { $0.site == site }, at: \.at), photos: [])
    }

    /// Newest first; taken at one time, in the order recorded (a waist before the arms of one `body log`).
    static func newestFirst<T>(_ rows: [T], at: KeyPath<T, Timestamp>) -> [T] {
        rows.enumerated().sorted { ($1.element[keyPath: at].millis, $0.offset) < ($0.element[keyPath: at].millis, $1.offset) }.map(\.element)
    }

    public static func document(_ a: Answer) -> JSONValue {
        .object([
            (
                "measurements",
                .array(
                    a.weighIns.map { m in
                        .object([
                            ("measurementId", .string(m.measurementId.lowercased)), ("date", .string(m.at.iso8601)),
                            ("weightKg", .number(m.kilograms)),
                            ("entered", .object([("value", .number(m.weight.value)), ("unit", .string(m.weight.unit.rawValue))])),
                        ])
                    })
            ),
            (
                "measures",
                .array(
                    a.measures.map { m in
                        .object([
                            ("measurementId", .string(m.measurementId.lowercased)), ("date", .string(m.at.iso8601)),
                            ("site", .string(m.site.rawValue)),
                            (m.site.isLength ? "cm" : "percent", .number((m.measure.normalized * 100).rounded() / 100)),
                            ("entered", .object([("value", .number(m.measure.value)), ("unit", .string(m.measure.unit.rawValue))])),
                        ])
                    })
            ),
            (
                "photos",
                .array(
                    a.photos.map { p in
                        .object([
                            ("photoId", .string(p.photoId.lowercased)), ("date", .string(p.at.iso8601)), ("pose", .string(p.pose.rawValue)),
                            ("sha256", .string(p.sha256)), ("bytes", .int(Int64(p.byteCount))), ("path", .string(p.path)),
                        ])
                    })
            ),
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
            ("notes", .optional(exercise.notes)),
            (
                "workouts",
                .array(
                    entries.map { e in
                        .object([
                            ("workoutId", .string(e.workoutId.lowercased)), ("name", .string(e.workoutName)),
                            ("startedAt", .string(e.startedAt.iso8601)),
                            ("sets", .array(e.sets.map(HistoryQuery.json))), ("note", .optional(e.note)),
                        ])
                    })
            ),
        ])
    }
}
