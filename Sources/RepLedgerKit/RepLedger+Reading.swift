import Foundation
import RepLedgerCore
import RepLedgerProjections
import RepLedgerQueries

/// The read models, from the queries the CLI and the server print, at the head or at a point of the log.
///
/// Every read takes `asOf` (a ``LogPoint``: the log as it stood then); those of training also take
/// `until`, a training date (`2026`, `2026-11`, `2026-11-27` or an ISO 8601 time): the training done
/// up to then, as the log holds it now.
extension RepLedger {
    /// Every read's scope, after the chain is checked over what was appended
    /// since the last read: a damaged file throws `ChainDamage`, never numbers.
    func scope(_ asOf: LogPoint?, until: String? = nil) throws -> QueryScope {
        try store.checkChain()
        return QueryScope(asOf: asOf?.text, until: until, rules: rules)
    }

    /// Workouts, newest first, with their sets.
    ///
    /// - Parameters:
    ///   - limit: At most this many workouts.
    ///   - asOf: The point of the log to read at; `nil` is the head.
    ///   - until: The last training date counted.
    /// - Returns: One row per workout.
    /// - Throws: `Refusal` or `QueryError` for an exercise, a workout or a point the log does not hold; `ChainDamage` for a damaged file; a store error.
    public func history(limit: Int? = nil, asOf: LogPoint? = nil, until: String? = nil) throws -> [WorkoutHistoryProjection.WorkoutRow] {
        try HistoryQuery.answer(store, scope(asOf, until: until), limit: limit).rows
    }

    /// Every exercise's personal records: heaviest, best e1RM, rep maxes, volume.
    ///
    /// - Parameters:
    ///   - asOf: The point of the log to read at; `nil` is the head.
    ///   - until: The last training date counted.
    /// - Returns: One entry per exercise with a record.
    /// - Throws: `Refusal` or `QueryError` for an exercise, a workout or a point the log does not hold; `ChainDamage` for a damaged file; a store error.
    public func records(asOf: LogPoint? = nil, until: String? = nil) throws -> [PersonalRecordsProjection.ExerciseRecords] {
        try RecordsQuery.records(store, scope(asOf, until: until))
    }

    /// Sets and tonnage by workout, week, muscle or exercise, within the plan's chart window.
    ///
    /// - Parameters:
    ///   - grouping: `workout`, `week`, `muscle` or `exercise`.
    ///   - asOf: The point of the log to read at; `nil` is the head.
    ///   - until: The last training date counted.
    /// - Returns: The rows, with the window and the unit they are in.
    /// - Throws: `Refusal` or `QueryError` for an exercise, a workout or a point the log does not hold; `ChainDamage` for a damaged file; a store error.
    public func volume(by grouping: String = "week", asOf: LogPoint? = nil, until: String? = nil) throws -> VolumeQuery.Answer {
        try VolumeQuery.answer(store, scope(asOf, until: until), by: grouping)
    }

    /// The estimated one-rep max of an exercise, by workout.
    ///
    /// - Parameters:
    ///   - exercise: An exercise id or a name the library knows.
    ///   - asOf: The point of the log to read at; `nil` is the head.
    ///   - until: The last training date counted.
    /// - Returns: The points, with the formula and the window.
    /// - Throws: `Refusal` or `QueryError` for an exercise, a workout or a point the log does not hold; `ChainDamage` for a damaged file; a store error.
    public func e1rmTrend(_ exercise: String, asOf: LogPoint? = nil, until: String? = nil) throws -> E1RMQuery.Answer {
        try E1RMQuery.answer(store, scope(asOf, until: until), exercise: exercise)
    }

    /// Weigh-ins, body measurements and progress photos, newest first.
    ///
    /// - Parameter asOf: The point of the log to read at; `nil` is the head.
    /// - Returns: The body's history.
    /// - Throws: `Refusal` or `QueryError` for an exercise, a workout or a point the log does not hold; `ChainDamage` for a damaged file; a store error.
    public func bodyHistory(asOf: LogPoint? = nil) throws -> BodyHistoryQuery.Answer {
        BodyHistoryQuery.answer(try scope(asOf).log(store))
    }

    /// The templates in order, and the routines an imported history brought.
    ///
    /// - Parameter asOf: The point of the log to read at; `nil` is the head.
    /// - Returns: The templates and routines.
    /// - Throws: `Refusal` or `QueryError` for an exercise, a workout or a point the log does not hold; `ChainDamage` for a damaged file; a store error.
    public func templates(asOf: LogPoint? = nil) throws -> TemplateListQuery.Answer {
        TemplateListQuery.answer(try scope(asOf).log(store), starts: try store.workoutStarts())
    }

    /// Free, Pro or Coach: what the purchases in the log grant.
    ///
    /// - Parameter asOf: The point of the log to read at; `nil` is the head.
    /// - Returns: The entitlements at that point.
    /// - Throws: `Refusal` or `QueryError` for an exercise, a workout or a point the log does not hold; `ChainDamage` for a damaged file; a store error.
    public func entitlements(asOf: LogPoint? = nil) throws -> EntitlementsQuery.Answer {
        try EntitlementsQuery.answer(store, scope(asOf))
    }
}
