import Foundation
import RepLedgerCore
import RepLedgerProjections

/// `exercise search TEXT`: the library ranked by how the text matches (the
/// whole name or an alias, the start of the name, the start of an alias,
/// every word at a word's start, anywhere for four letters or more), then by how often the lifter has
/// done the exercise, then by its rating (the library's popularity).
public enum ExerciseSearchQuery {
    public struct Hit {
        public var exercise: LibraryState.Exercise
        /// `name`, `alias`, `start`, `aliasStart`, `words` or `contains`.
        public var match: String
        public var timesDone: Int
    }

    public static func answer(_ store: any EventStore, _ scope: QueryScope, text: String, limit: Int = 20) throws -> [Hit] {
        let log = try scope.log(store)
        return search(text, log: log, library: Ledger.offered(log.library), limit: limit)
    }

    /// `library` is the log's, or the built-in one for a ledger that has recorded nothing yet.
    public static func search(_ text: String, log: TrainingLogProjection, library: LibraryState, limit: Int) -> [Hit] {
        let key = text.trimmingCharacters(in: .whitespaces).lowercased()
        guard !key.isEmpty else { return [] }
        var done: [String: Int] = [:]
        for w in log.countedWorkouts { for id in w.exercisesDone { done[id, default: 0] += 1 } }
        let words = key.split(separator: " ").map { " " + $0 }
        var hits: [(rank: Int, hit: Hit)] = []
        for id in library.order {
            guard let x = library.exercises[id], !x.archived else { continue }
            let name = x.name.lowercased()
            let aliases = ExerciseLibrary.aliases(of: id)
            let spaced = " " + name.map { $0.isLetter || $0.isNumber ? $0 : " " }.map(String.init).joined()
            let rank: Int? =
                name == key || aliases.contains(key)
                ? 0
                : name.hasPrefix(key)
                    ? 1
                    : aliases.contains { $0.hasPrefix(key) }
                        ? 2
                        : words.allSatisfy { spaced.contains($0) }
                            ? 3
                            : key.count >= 4 && name.contains(key) ? 4 : nil  // "rdl" is not in "hurdle"
            guard let rank else { continue }
            let match = ["name", "start", "aliasStart", "words", "contains"][rank]
            hits.append((rank, Hit(exercise: x, match: rank == 0 && name != key ? "alias" : match, timesDone: done[id] ?? 0)))
        }
        return hits.sorted { a, b in
            (a.rank, -a.hit.timesDone, -a.hit.exercise.definition.rating, a.hit.exercise.name)
                < (b.rank, -b.hit.timesDone, -b.hit.exercise.definition.rating, b.hit.exercise.name)
        }.prefix(limit).map(\.hit)
    }

    public static func document(_ hits: [Hit]) -> JSONValue {
        .object([
            (
                "exercises",
                .array(
                    hits.map { h in
                        .object(ExerciseShowQuery.fields(h.exercise) + [("match", .string(h.match)), ("timesDone", .int(Int64(h.timesDone)))])
                    })
            )
        ])
    }
}

/// `exercise show E`: an exercise's definition, the names it answers to,
/// how often it was done, and the database's instructions when it has them.
public enum ExerciseShowQuery {
    public struct Answer {
        public var exercise: LibraryState.Exercise
        public var aliases: [String]
        public var timesDone: Int
        public var instructions: [String]
        /// The credit line, when the instructions come from the exercise database.
        public var source: String?
    }

    public static func answer(_ store: any EventStore, _ scope: QueryScope, exercise: String) throws -> Answer {
        let log = try scope.log(store)
        let x = try Ledger.offered(log.library).resolve(exercise)
        let done = log.countedWorkouts.filter { $0.sets.contains { $0.completed && $0.exerciseId == x.exerciseId } }.count
        let entry = x.definition.custom ? nil : ExerciseLibrary.sourceEntry(of: x.exerciseId)
        return Answer(
            exercise: x, aliases: ExerciseLibrary.aliases(of: x.exerciseId), timesDone: done,
            instructions: entry?.instructions ?? [],
            source: entry.map { _ in "Free Exercise DB (public domain), github.com/yuhonas/free-exercise-db" })
    }

    /// An exercise's fields as every exercise answer gives them (show, list, and the library's changes).
    public static func fields(_ x: LibraryState.Exercise) -> [(String, JSONValue)] {
        let d = x.definition
        return [
            ("exerciseId", .string(d.exerciseId)), ("name", .string(d.name)), ("kind", .string(d.kind.rawValue)),
            ("primaryMuscles", .array(d.primaryMuscles.map { .string($0.rawValue) })),
            ("secondaryMuscles", .array(d.secondaryMuscles.map { .string($0.rawValue) })),
            ("equipment", .array(d.equipment.map { .string($0.rawValue) })),
            ("movement", .string(d.canonicalMovement)), ("complexity", .int(Int64(d.complexity))), ("rating", .int(Int64(d.rating))),
            ("custom", .bool(d.custom)), ("archived", .bool(x.archived)), ("favourite", .bool(x.favourite)),
            ("unilateral", .bool(x.unilateral)), ("notes", .optional(x.notes)),
        ]
    }

    public static func document(_ a: Answer) -> JSONValue {
        .object(
            fields(a.exercise) + [
                ("aliases", .array(a.aliases.map(JSONValue.string))), ("timesDone", .int(Int64(a.timesDone))),
                ("instructions", .array(a.instructions.map(JSONValue.string))), ("source", .optional(a.source)),
            ])
    }
}

/// `exercise merge`: what of an exercise's history a merge moves.
public enum ExerciseMergeQuery {
    /// Its completed sets and the workouts (not discarded) that hold them.
    public static func done(_ log: TrainingLogProjection, exerciseId: String) -> (sets: Int, workouts: Int) {
        var sets = 0, workouts = 0
        for w in log.workouts.values where w.counts {
            let n = w.sets.reduce(0) { $0 + ($1.completed && $1.exerciseId == exerciseId ? 1 : 0) }
            sets += n
            workouts += n > 0 ? 1 : 0
        }
        return (sets, workouts)
    }
}
