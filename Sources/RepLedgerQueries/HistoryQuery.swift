import RepLedgerCore
import RepLedgerProjections
import RepLedgerSnapshots

/// `history`: workouts newest first, with their sets.
public enum HistoryQuery {
    public struct Answer: Sendable {
        public var rows: [WorkoutHistoryProjection.WorkoutRow]
        public var unit: WeightUnit
        public var distanceUnit: DistanceUnit = .km
        public var effortScale: EffortScale = .rpe
        /// How many workouts match in all, the page's rows among them.
        public var total = 0
    }

    /// The page a served front door (HTTP, the assistant) may ask for: a shared worker never folds more than this
    /// into one answer. The CLI, on the lifter's own machine, may ask for any.
    public static let servedLimits = 1...500
    public static let servedOffsets = 0...100_000

    /// Refuses a month that is not YYYY-MM, a limit under 1 and a negative offset.
    public static func answer(
        _ store: any EventStore, _ scope: QueryScope, exercise: String? = nil, month: String? = nil,
        limit: Int? = nil, offset: Int = 0
    ) throws -> Answer {
        if let month, !MonthText.isValid(month) {
            throw QueryError.invalidParameter("month takes YYYY-MM, e.g. 2026-11")
        }
        if let limit, limit < 1 { throw QueryError.invalidParameter("limit takes a number of at least 1") }
        if offset < 0 { throw QueryError.invalidParameter("offset takes a number of at least 0") }
        // The first pages, unfiltered, come from the stored page at exactly this position when
        // there is one (a device: no fold is kept between its processes); a miss stores it.
        let firstPages =
            exercise == nil && month == nil && scope.warm == nil && scope.mayUseStoredResults
            && offset + (limit ?? .max) <= HistoryHeadProjection.rows
        var target: Int64 = 0
        if firstPages {
            target = min(try scope.position(in: store), try store.headPosition())
            var ignored: [String] = []
            if let page = try ViewSnapshots.historyHead(store, at: target, ignored: &ignored), let rows = page.slice(offset: offset, limit: limit) {
                scope.note?("answered from the history page stored at #\(target)")
                return Answer(rows: rows, unit: page.unit, distanceUnit: page.distanceUnit, effortScale: page.effortScale, total: page.total)
            }
        }
        let log = try scope.log(store)
        if firstPages, log.position == target {
            let page = HistoryHeadProjection.page(log)
            try? ViewSnapshots.saveHistoryHead(store, at: target, page)
            if let rows = page.slice(offset: offset, limit: limit) {
                return Answer(rows: rows, unit: page.unit, distanceUnit: page.distanceUnit, effortScale: page.effortScale, total: page.total)
            }
        }
        let exerciseId = try exercise.map { try log.library.resolve($0).exerciseId }
        let rows = WorkoutHistoryProjection.workouts(log, exerciseId: exerciseId, month: month, offset: offset, limit: limit)
        return Answer(
            rows: rows, unit: log.account.liftingUnit, distanceUnit: log.account.distanceUnit, effortScale: log.account.effortScale,
            total: limit == nil && offset == 0 ? rows.count : WorkoutHistoryProjection.count(log, exerciseId: exerciseId, month: month))
    }

    public static func document(_ a: Answer) -> JSONValue { .object([("workouts", .array(a.rows.map(json)))]) }

    public static func json(_ w: WorkoutHistoryProjection.WorkoutRow) -> JSONValue {
        .object([
            ("workoutId", .string(w.workoutId.lowercased)),
            ("name", .string(w.name)),
            ("startedAt", .string(w.startedAt.iso8601)),
            ("finishedAt", .optional(w.finishedAt?.iso8601)),
            ("durationSeconds", w.durationSeconds.map { .int($0) } ?? .null),
            ("sets", .int(Int64(w.sets))),
            ("tonnageKg", .number(w.tonnageKg)),
            ("notes", .optional(w.notes)),
            ("activity", .string(kebab(w.activity.rawValue))), ("feeling", .optional(w.feeling)), ("closingNote", .optional(w.closingNote)),
            ("deload", .bool(w.deload)),
            (
                "exercises",
                .array(
                    w.exercises.map { x in
                        .object([
                            ("exercise", .string(x.exercise)),
                            ("exerciseId", .string(x.exerciseId)),
                            ("note", .optional(x.note)),
                            ("supersetId", .optional(x.supersetId?.lowercased)),
                            ("sets", .array(x.sets.map(json))),
                        ])
                    })
            ),
        ])
    }

    /// One set as `history`, `exercise history` and `workout summary` give it.
    public static func json(_ s: WorkoutHistoryProjection.SetRow) -> JSONValue {
        .object(
            [
                ("setId", .string(s.setId.lowercased)), ("weightKg", .optional(s.weightKg)), ("reps", .optional(s.reps)),
                ("type", .string(s.type.rawValue)),
            ] + effort(rpe: s.rpe, rir: s.rir, tempo: s.tempo, band: s.band, implement: s.implement) + [
                ("durationSeconds", .optional(s.metrics.durationSeconds)), ("distanceMeters", .optional(s.metrics.distanceMeters)),
                ("notes", .optional(s.notes)),
            ])
    }

    /// A set's effort as every set answer gives it: RPE and RIR (the one entered, the other
    /// derived: RPE = 10 − RIR), which one was entered, the tempo, and what it was done with.
    public static func effort(
        rpe: Double?, rir: Double?, tempo: String?, band: String? = nil, implement: String? = nil
    ) -> [(String, JSONValue)] {
        [
            ("rpe", .optional(Effort.rpe(entered: rpe, rir: rir))), ("rir", .optional(Effort.rir(entered: rir, rpe: rpe))),
            ("effortEntered", .optional(rir != nil ? "rir" : rpe != nil ? "rpe" : nil)), ("tempo", .optional(tempo)),
            ("band", .optional(band)), ("implement", .optional(implement)),
        ]
    }
}

/// A query parameter that is out of its range (the CLI's usage error, the server's 400).
/// A month as queries take it: `YYYY-MM`.
public enum MonthText {
    public static func isValid(_ text: String) -> Bool {
        text.count == 7 && Timestamp.parseISO8601(text + "-01", defaultOffsetMinutes: 0) != nil
    }
}

public enum QueryError: Error, Equatable, CustomStringConvertible {
    case invalidParameter(String)

    public var description: String {
        switch self {
        case .invalidParameter(let why): return why
        }
    }
}
