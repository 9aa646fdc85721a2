import Foundation
import RepLedgerCore
import RepLedgerProjections
import RepLedgerSnapshots

/// `prs`: every exercise's personal records, and their JSON document.
public enum RecordsQuery {
    /// Every exercise's records at `asOf` (only `exercise`'s when given): from
    /// a stored result for exactly that position and these rules, else from the
    /// newest records milestone before it carried forward, else computed from
    /// the fold (and stored when at the head). Stored results hold the bests
    /// only; a timeline reads the fold.
    public static func records(
        _ store: any EventStore, _ scope: QueryScope, exercise: String? = nil,
        timeline: Bool = false
    ) throws -> [PersonalRecordsProjection.ExerciseRecords] {
        let all = try allRecords(store, scope, timeline: timeline)
        guard let exercise else { return all }
        let library = try scope.atHead.map { try $0.current(store).library } ?? Ledger(store: store).library()
        let id = try library.resolve(exercise).exerciseId
        return all.filter { $0.exerciseId == id }
    }

    private static func allRecords(
        _ store: any EventStore, _ scope: QueryScope,
        timeline: Bool
    ) throws -> [PersonalRecordsProjection.ExerciseRecords] {
        let rules = scope.rules
        // A warm fold answers at once; a cold one is not loaded for records stored at the head.
        if let warm = scope.atHead, warm.position != nil {
            let log = try warm.current(store)
            return warm.view("records \(ViewSnapshots.rulesId(rules)) \(timeline)", at: log.position) {
                PersonalRecordsProjection.compute(log, rules: rules, timeline: timeline)
            }
        }
        if timeline { return PersonalRecordsProjection.compute(try scope.log(store), rules: rules) }
        if !scope.mayUseStoredResults { return PersonalRecordsProjection.compute(try scope.log(store), rules: rules, timeline: false) }
        let target = min(try scope.position(in: store), try store.headPosition())
        var ignored: [String] = []
        if let stored = try ViewSnapshots.records(store, rules: rules, at: target, ignored: &ignored) {
            scope.note?("answered from the records snapshot at #\(target)")
            return stored
        }
        if let carried = try RecordsMilestones.records(store, rules: rules, through: target, ignored: &ignored) {
            scope.note?("answered from the records milestone at #\(carried.milestone.position) plus \(carried.tailEvents) events")
            if scope.asOf == nil { try? ViewSnapshots.saveRecords(store, rules: rules, at: target, carried.records) }
            return carried.records
        }
        for reason in ignored { scope.note?("snapshot ignored: \(reason)") }
        let log = try scope.log(store)
        let records = PersonalRecordsProjection.compute(log, rules: rules, timeline: false)
        if scope.asOf == nil { try? ViewSnapshots.saveRecords(store, rules: rules, at: log.position, records) }
        return records
    }

    /// `{"exercises":[…]}`, the timeline (every record ever set) only when asked for.
    public static func document(_ records: [PersonalRecordsProjection.ExerciseRecords], timeline: Bool) -> JSONValue {
        .object([("exercises", .array(records.map { json($0, timeline: timeline) }))])
    }

    static func json(_ r: PersonalRecordsProjection.ExerciseRecords, timeline: Bool) -> JSONValue {
        .object(
            [
                ("exercise", .string(r.exercise)), ("exerciseId", .string(r.exerciseId)),
                ("heaviestKg", .optional(r.heaviestKg)), ("assisted", .bool(r.assisted)), ("bestE1rmKg", .optional(r.bestE1rmKg)),
                ("bestSetVolumeKg", .optional(r.bestSetVolumeKg)), ("bestSessionVolumeKg", .optional(r.bestSessionVolumeKg)),
                ("repMaxesKg", .object(PersonalRecordsProjection.repMaxRange.map { ("\($0)", .optional(r.repMaxesKg[$0])) })),
                ("longestDistanceMeters", .optional(r.longestDistanceMeters)), ("longestDurationSeconds", .optional(r.longestDurationSeconds)),
                ("bestPaceSecondsPerKm", .optional(r.bestPaceSecondsPerKm)), ("longestHoldSeconds", .optional(r.longestHoldSeconds)),
            ] + (timeline ? [("timeline", .array(r.timeline.map { .object(recordPairs($0)) }))] : []))
    }

    /// One record set: the keys `prs --timeline` and `workout summary` share.
    public static func recordPairs(_ e: PersonalRecordsProjection.Record) -> [(String, JSONValue)] {
        [
            ("kind", .string(e.kind.rawValue)), ("repMax", .optional(e.repMax)),
            ("valueKg", e.kind.unit == "kg" ? .number(e.value) : .null), ("value", .number(e.value)), ("unit", .string(e.kind.unit)),
            ("weightKg", .optional(e.weightKg)), ("reps", .optional(e.reps)), ("workoutId", .string(e.workoutId.lowercased)),
            ("setId", .optional(e.setId?.lowercased)), ("at", .string(e.at.iso8601)),
        ]
    }
}

extension RecordsQuery {
    /// One line of `prs --timeline`: everything one set (or, for session
    /// volume, one workout) set at once, the rep maxes folded in.
    public struct TimelineLine: Sendable, Equatable {
        public var at: Timestamp
        public var workoutId: UUID
        /// Nil for a session volume.
        public var setId: UUID?
        public var weightKg: Double?
        public var reps: Int?
        /// The records other than rep maxes, in the order set.
        public var records: [PersonalRecordsProjection.Record]
        /// The rep counts whose maximum this set became, ascending.
        public var repMaxes: [Int]
    }

    /// An exercise's timeline as lines: consecutive records of one set (or one workout's session volume) together.
    public static func timelineLines(_ timeline: [PersonalRecordsProjection.Record]) -> [TimelineLine] {
        var lines: [TimelineLine] = []
        for r in timeline {
            if let last = lines.last, last.workoutId == r.workoutId, last.setId == r.setId {
                lines[lines.count - 1].add(r)
            } else {
                var line = TimelineLine(
                    at: r.at, workoutId: r.workoutId, setId: r.setId, weightKg: r.weightKg, reps: r.reps, records: [], repMaxes: [])
                line.add(r)
                lines.append(line)
            }
        }
        return lines
    }
}

extension RecordsQuery.TimelineLine {
    mutating func add(_ r: PersonalRecordsProjection.Record) {
        if r.kind == .repMax, let n = r.repMax {
            repMaxes.append(n)
            repMaxes.sort()
        } else {
            records.append(r)
        }
    }
}
