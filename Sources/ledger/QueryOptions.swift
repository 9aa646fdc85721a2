import ArgumentParser
import Foundation
import RepLedgerCore
import RepLedgerProjections
import RepLedgerSnapshots

/// `--as-of`, `--until` and `--rules` for every query, and the fold they read.
struct QueryOptions: ParsableArguments {
    @OptionGroup var asOf: AsOfOption
    @OptionGroup var training: TrainingDateOption
    @Option(help: "A rule set (JSON) to read the log under; default: the built-in rules (see docs/RULES.md).")
    var rules: String?

    @Flag(help: "Say on stderr which snapshot answered and which were passed over.") var verbose = false

    func ruleSet() throws -> RuleSet { try rules.map { try RuleSet.load(path: $0) } ?? .default }

    /// Stored results (snapshots, milestones) answer only for the log as recorded, not for a training date.
    var mayUseStoredResults: Bool { training.until == nil }

    /// The training log as it stood at --as-of: the newest usable snapshot at or before it plus the events after.
    /// With --until, folded from the start with the training done after that date left out.
    func log(_ store: SQLiteEventStore) throws -> TrainingLogProjection {
        if let until = try training.time() {
            let log = try TrainingLogProjection.build(from: store, through: try asOf.position(in: store), trainedUntil: until)
            if verbose { Console.error("folded from the start of the log, training up to \(until.iso8601), up to #\(log.position)") }
            return log
        }
        let (log, report) = try TrainingLogSnapshots.load(store, through: try asOf.position(in: store))
        if verbose {
            for reason in report.ignored { Console.error("snapshot ignored: \(reason)") }
            let from = report.snapshot.map { "snapshot \($0.id) at #\($0.position)" } ?? "the start of the log"
            Console.error("answered from \(from) plus \(report.tailEvents) events, up to #\(log.position)")
        }
        return log
    }
}

/// The time a time-dependent answer is given for: `--at`, else the --until date, else the --as-of time, else now.
func answerTime(at: String?, asOf: String?, until: TrainingDateOption? = nil) throws -> Timestamp {
    if let at { return try parseTime(at) }
    if let t = try until?.time() { return t }
    if let asOf, Int64(asOf) == nil { return try parseTime(asOf) }
    return .now()
}

extension ExitStatus {
    /// Rule files are the user's input: a bad one is refused (exit 1).
    static func isRefusal(_ error: Error) -> Bool { error is RuleSet.LoadError || error is ImportError }
}

/// Horizontal bars for a terminal, scaled between the smallest and largest value.
enum TerminalChart {
    static func bars(_ values: [Double], width: Int = 30) -> [String] {
        guard let lo = values.min(), let hi = values.max() else { return [] }
        let span = hi - lo
        let blocks = ["▏", "▎", "▍", "▌", "▋", "▊", "▉", "█"]
        return values.map { v in
            let cells = span == 0 ? Double(width) : 1 + (v - lo) / span * Double(width - 1)
            let full = Int(cells)
            let part = Int((cells - Double(full)) * 8)
            return String(repeating: "█", count: full) + (part > 0 ? blocks[part - 1] : "")
        }
    }
}
