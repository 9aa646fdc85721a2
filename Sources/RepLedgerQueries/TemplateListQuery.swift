import Foundation
import RepLedgerCore
import RepLedgerProjections

/// `template list`: the templates in order, with when each was last used, and
/// the routines of the history: the finished workouts of one name, imported
/// (Strong and Hevy name each workout after its routine; no template comes
/// with them) or named here ("Upper A"), never the untitled ones ("Evening
/// Workout"). A routine starts with `workout start --template NAME`, which
/// plans its last finished workout again.
public enum TemplateListQuery {
    /// One routine: the finished workouts of one name (any case).
    public struct Routine: Sendable, Equatable {
        /// As its most recent workout spells it.
        public var name: String
        /// The app its most recent workout was imported from; nil when it was logged here.
        public var importedFrom: ImportSource?
        /// Its finished workouts in the log read.
        public var workouts: Int
        public var lastDoneAt: Timestamp
        /// The exercises of its most recent finished workout, in order: what starting it plans.
        public var exerciseIds: [String]
    }

    public struct Answer: Sendable {
        public var templates: [TemplatesProjection.Row]
        /// Most recently done first; none shares a live template's name (the template is what that name starts).
        public var routines: [Routine]
    }

    /// `starts` are the store's workout starts; those the log read (`--as-of`) does not hold are left out.
    public static func answer(_ log: TrainingLogProjection, starts: [WorkoutStart]) -> Answer {
        let templates = TemplatesProjection.rows(log)
        let templateNames = Set(templates.map { $0.name.lowercased() })
        let untitled = Set(CommandSession.untitledNames.map { $0.lowercased() })
        var byName: [String: Routine] = [:]
        for start in starts {
            guard let w = log.workouts[start.workoutId], w.status == .finished, let at = w.startedAt else { continue }
            let key = start.name.lowercased()
            guard !templateNames.contains(key), !untitled.contains(key), !key.isEmpty else { continue }
            var r = byName[key] ?? Routine(name: w.name, importedFrom: start.importedFrom, workouts: 0, lastDoneAt: at, exerciseIds: [])
            r.workouts += 1
            if at >= r.lastDoneAt || r.exerciseIds.isEmpty {
                r.name = w.name
                r.importedFrom = start.importedFrom
                r.lastDoneAt = at
                r.exerciseIds = w.entries.map(\.exerciseId)
            }
            byName[key] = r
        }
        let routines = byName.values.sorted { ($1.lastDoneAt, $0.name.lowercased()) < ($0.lastDoneAt, $1.name.lowercased()) }
        return Answer(templates: templates, routines: routines)
    }

    /// A template's, a module's or a program day module's line with every target.
    public static func lineJSON(_ library: LibraryState, _ l: TemplateExercise) -> JSONValue {
        .object([
            ("exerciseId", .string(l.exerciseId)), ("exercise", .string(library.name(of: l.exerciseId))),
            ("sets", .int(Int64(l.sets))), ("repsMin", .optional(l.repsMin)), ("repsMax", .optional(l.repsMax)),
            ("durationSeconds", .optional(l.durationSeconds)), ("weightKg", .optional(l.weight?.kilograms)),
            ("restSeconds", .optional(l.restSeconds)),
        ])
    }

    /// `module list`: every module with its type and lines.
    public static func modulesDocument(_ log: TrainingLogProjection) -> JSONValue {
        .object([
            (
                "modules",
                .array(
                    log.programs.modules.map { m in
                        .object([
                            ("moduleId", .string(m.moduleId.lowercased)), ("name", .string(m.name)), ("type", .string(kebab(m.type.rawValue))),
                            ("lines", .array(m.lines.map { lineJSON(log.library, $0.exercise) })),
                        ])
                    })
            )
        ])
    }

    public static func document(_ log: TrainingLogProjection, _ a: Answer) -> JSONValue {
        .object([
            (
                "templates",
                .array(
                    a.templates.map { r in
                        .object([
                            ("templateId", .string(r.templateId.lowercased)), ("name", .string(r.name)),
                            ("exercises", .array(r.exercises.map { .string(log.exerciseName($0.exerciseId)) })),
                            ("lines", .array(r.exercises.map { lineJSON(log.library, $0) })),
                            ("lastUsedAt", .optional(r.lastUsedAt?.iso8601)),
                        ])
                    })
            ),
            (
                "routines",
                .array(
                    a.routines.map { r in
                        .object([
                            ("name", .string(r.name)), ("imported", .bool(r.importedFrom != nil)),
                            ("importedFrom", .optional(r.importedFrom?.rawValue)),
                            ("workouts", .int(Int64(r.workouts))), ("lastDoneAt", .string(r.lastDoneAt.iso8601)),
                            ("exercises", .array(r.exerciseIds.map { .string(log.exerciseName($0)) })),
                        ])
                    })
            ),
        ])
    }
}
