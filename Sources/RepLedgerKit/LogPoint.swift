import Foundation

/// A point of the log to read at: the log as it stood then, for audits and time travel.
///
/// Reads at a point answer as if the events after it had never been appended, from the
/// newest snapshot at or before it plus the events since, so an answer is the same on every
/// device that holds the same log.
public enum LogPoint: Sendable, Equatable {
    /// After the event at this global position (0 is the empty log).
    case position(Int64)
    /// After the last event recorded at or before this time.
    case time(Date)

    /// The spelling `QueryScope` (and the CLI's `--as-of`) reads.
    var text: String {
        switch self {
        case .position(let p): String(p)
        case .time(let date): ISO8601DateFormatter().string(from: date)
        }
    }
}
