import RepLedgerCore
import RepLedgerProjections

/// The names of record kinds as a lifter reads them, shared by `prs
/// --timeline` and the coach's dashboard so both say the same thing.
public enum RecordLabel {
    public static func text(_ kind: PRKind, repMax: Int?) -> String {
        switch kind {
        case .repMax: "\(repMax ?? 0)RM"
        case .e1rm: "e1RM"
        case .heaviest: "heaviest"
        case .setVolume: "set volume"
        case .sessionVolume: "session volume"
        case .longestDistance: "longest distance"
        case .longestDuration: "longest duration"
        case .bestPace: "best pace"
        case .longestHold: "longest hold"
        }
    }

    /// Rep maxes one set became, folded: [1, 2, 3] → "1RM–3RM"; [3, 5] → "3RM, 5RM"; [] → nil.
    public static func repMaxes(_ counts: [Int]) -> String? {
        guard let lo = counts.first, let hi = counts.last else { return nil }
        if lo == hi { return "\(lo)RM" }
        return counts.count == hi - lo + 1 ? "\(lo)RM–\(hi)RM" : counts.map { "\($0)RM" }.joined(separator: ", ")
    }
}
