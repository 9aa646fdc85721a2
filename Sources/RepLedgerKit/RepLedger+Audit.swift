import Foundation
import RepLedgerCore
import RepLedgerProjections
import RepLedgerQueries

/// Auditing the log: a workout stepped through event by event, the events behind a number, the chain checked.
extension RepLedger {
    /// A workout's state after each of its events, with what each changed in words.
    ///
    /// - Parameters:
    ///   - workout: The workout.
    ///   - through: The last point of the log to step to; `nil` is the head.
    /// - Returns: The steps, in log order.
    /// - Throws: `Refusal` or `QueryError` for an exercise, a workout or a point the log does not hold; a store error.
    public func replay(_ workout: UUID, through: LogPoint? = nil) throws -> [WorkoutReplayProjection.Step] {
        let last = try through.map { try QueryScope.position($0.text, in: store) } ?? .max
        return try AuditQuery.steps(store, workout: workout.uuidString, through: last).steps
    }

    /// A derived number with the events that produced it, how the rules computed it, and a proof that
    /// each of those events is in the chain up to the head.
    ///
    /// - Parameters:
    ///   - subject: Which number: records, e1RM, a week's volume, a hint, the rep counter, an entitlement.
    ///   - target: The exercise; for volume an ISO week (`2026-W47`) or a date in it; for entitlement `pro` or `coach`.
    ///   - asOf: The point of the log to read at; `nil` is the head.
    /// - Returns: The numbers and their events.
    /// - Throws: `Refusal` or `QueryError` for an exercise, a workout or a point the log does not hold; `ChainDamage` for a damaged file; a store error.
    public func why(_ subject: WhyQuery.Subject, _ target: String, asOf: LogPoint? = nil) throws -> WhyQuery.Answer {
        let scope = try scope(asOf)
        return try WhyQuery.answer(store, scope, log: try scope.log(store), subject: subject, target: target)
    }

    /// Walks the hash chain from the first event to the head.
    ///
    /// - Returns: How many events were checked, and the first that no longer matches its hash, if one does not.
    public func verify() throws -> VerificationReport {
        try store.verify()
    }
}
