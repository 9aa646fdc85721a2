import ArgumentParser
import Foundation
import LedgerShell
import RepLedgerCore
import RepLedgerQueries
import RepLedgerSQLite
import RepLedgerSnapshots

/// `--as-of POSITION|ISO8601` on every query.
struct AsOfOption: ParsableArguments {
    @Option(name: .customLong("as-of"), help: "Answer as the log stood at this global position or time (ISO 8601).")
    var asOf: String?

    /// The last position to fold.
    func position(in store: SQLiteEventStore) throws -> Int64 {
        guard let asOf else { return .max }
        return try Self.position(asOf, in: store)
    }

    /// A point of the log: a position as given, or the last position recorded at or before a time.
    static func position(_ text: String, in store: SQLiteEventStore) throws -> Int64 {
        try QueryScope.position(text, in: store)
    }
}

/// `--until DATE` on every query: the answer as of a training date
/// (`occurredAt`), where `--as-of` is a point of the log (when it was recorded).
struct TrainingDateOption: ParsableArguments {
    @Option(
        name: .customLong("until"),
        help: "Count only training done up to this date (YYYY, YYYY-MM, YYYY-MM-DD or an ISO 8601 time), e.g. \"my PRs as of 2023-01\".")
    var until: String?

    /// The last instant counted: a bare date runs to the end of that day, a month to the end of that month.
    func time() throws -> Timestamp? { try until.map(Self.endOf) }

    static func endOf(_ text: String) throws(Refusal) -> Timestamp { try QueryScope.endOf(text) }
}

/// `--at ISO8601` on every command that records something.
/// `--history-edit`: a finished workout changes only when asked (DOMAIN.md: history is edited on purpose).
struct HistoryEditOption: ParsableArguments {
    @Flag(name: .customLong("history-edit"), help: "Allow changing or adding to a finished workout.") var historyEdit = false
}

struct AtOption: ParsableArguments {
    @Option(name: .long, help: "When you did it: ISO 8601, or now to say it is now in a workout idle for hours (default: now).")
    var at: String?

    func time() throws -> Timestamp? { try at.map(parseTime) }
}
