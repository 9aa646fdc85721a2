import RepLedgerCore

/// A time given as a point of the log (`--as-of`, `diff --from`) that falls
/// before the log began, in a log that holds training dated at or before it:
/// an imported or seeded history, recorded today about the past. The answer
/// there is the empty log, which is right for audit time and rarely what was
/// meant; the edge that shows the answer says so and names `--until`.
public struct LogTimeMismatch: Sendable, Equatable {
    /// The time as given.
    public var given: Timestamp
    /// When the first event of the log was recorded.
    public var logBegan: Timestamp
    /// When the earliest workout of the log was trained.
    public var firstTraining: Timestamp

    /// nil for a position, for a time at or after the log's first event, or when no training is dated by then.
    public static func check(_ text: String, in store: any EventStore) throws -> LogTimeMismatch? {
        if let p = Int64(text), p >= 0 { return nil }
        let given = try parseTime(text)
        guard let first = try store.event(at: 1), given < first.recordedAt else { return nil }
        guard let earliest = try store.workoutStarts().map(\.startedAt).min(), earliest <= given else { return nil }
        return LogTimeMismatch(given: given, logBegan: first.recordedAt, firstTraining: earliest)
    }
}
