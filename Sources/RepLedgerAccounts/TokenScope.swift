import RepLedgerCore

/// What a token may do beyond reading what its account may read. A key made
/// for an assistant or an integration gets the least it needs; a device's
/// token is `full`, as every token made before scopes existed is.
public enum TokenScope: String, Sendable, CaseIterable, Comparable {
    /// Reads only: every append, erasure and invite is refused.
    case read
    /// Reads, and appends to workouts (sets, notes, finishes) and body entries: the lifter's training,
    /// never purchases, grants, settings, the library, programs or erasure.
    case log
    /// Everything the account may do.
    case full

    /// Whether an event in `stream` may be appended under this scope.
    public func mayAppend(to stream: StreamName) -> Bool {
        switch self {
        case .read: false
        case .log: stream == .body || stream.raw.hasPrefix("workout-")
        case .full: true
        }
    }

    public static func < (a: TokenScope, b: TokenScope) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}
