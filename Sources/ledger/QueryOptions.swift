import ArgumentParser
import Foundation
import LedgerShell
import RepLedgerCore
import RepLedgerProjections
import RepLedgerQueries
import RepLedgerSQLite
import RepLedgerSnapshots

/// `--as-of`, `--until` and `--rules` for every query, and the fold they read.
struct QueryOptions: ParsableArguments {
    @OptionGroup var asOf: AsOfOption
    @OptionGroup var training: TrainingDateOption
    @Option(help: "A rule set (JSON) to read the log under; default: the built-in rules (see docs/RULES.md).")
    var rules: String?

    @Flag(help: "Say on stderr which snapshot answered and which were passed over.") var verbose = false
    @OptionGroup var leaving: WithoutOption

    func ruleSet() throws -> RuleSet { try RuleSet.load(option: rules) }

    /// The scope the shared query code reads the log under.
    func scope() throws -> QueryScope {
        let note: (@Sendable (String) -> Void)? = verbose ? { @Sendable (line: String) in Console.error(line) } : nil
        let said = SaidOnce()
        var scope = QueryScope(
            asOf: asOf.asOf, until: training.until, rules: try ruleSet(), note: note,
            beforeLog: { mismatch in said.once { Console.error(LogTimeWords.asOf(mismatch, flag: "--as-of")) } })
        scope.without = try leaving.positions()
        return scope
    }

    /// Stored results (snapshots, milestones) answer only for the log as recorded, not for a training date
    /// or with events left out.
    var mayUseStoredResults: Bool { training.until == nil && leaving.without == nil }

    /// The training log as it stood at --as-of (see `QueryScope.log`).
    func log(_ store: SQLiteEventStore) throws -> TrainingLogProjection { try scope().log(store) }
}

/// `--without POSITION[,POSITION…]`, on every query: the views as if those events had never happened.
struct WithoutOption: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Leave these events out: every view as if they had never happened (nothing is written).", valueName: "POSITION[,POSITION…]"))
    var without: String?

    func validate() throws { _ = try positions() }

    /// The positions given.
    func positions() throws -> Set<Int64> {
        guard let without else { return [] }
        var positions: Set<Int64> = []
        for part in without.split(separator: ",", omittingEmptySubsequences: false) {
            let text = part.trimmingCharacters(in: .whitespaces)
            guard let n = Int64(text), n >= 1 else { throw ValidationError("--without takes positions of the log (1 or more), not '\(text)'") }
            positions.insert(n)
        }
        return positions
    }
}

/// Horizontal bars for a terminal, from zero to the largest value: a bar's length is its value's share
/// of the largest, so 225 and 227.5 look almost alike, as they are.
enum TerminalChart {
    static func bars(_ values: [Double], width: Int = 30) -> [String] {
        guard let hi = values.max() else { return [] }
        let blocks = ["▏", "▎", "▍", "▌", "▋", "▊", "▉", "█"]
        return values.map { v in
            let cells = hi <= 0 ? 0 : max(0, v) / hi * Double(width)
            let full = Int(cells)
            let part = Int((cells - Double(full)) * 8)
            return String(repeating: "█", count: full) + (part > 0 ? blocks[part - 1] : "")
        }
    }
}

/// What a person reads when a log time was given where a training date was meant.
enum LogTimeWords {
    static func asOf(_ m: LogTimeMismatch, flag: String) -> String {
        "note: nothing was recorded in this log by \(m.given.iso8601) (it begins \(m.logBegan.isoDate)), though it holds training "
            + "from \(m.firstTraining.isoDate): \(flag) is when things were recorded; for training done by then, use --until \(m.given.isoDate)"
    }

    static func diffFrom(_ m: LogTimeMismatch) -> String {
        "note: --from \(m.given.iso8601) is before this log began (\(m.logBegan.isoDate)), so this diff covers the whole log, though it "
            + "holds training from \(m.firstTraining.isoDate): --from and --to are when things were recorded; for training done by a date, "
            + "ask a query with --until \(m.given.isoDate)"
    }
}

/// Says a thing at most once, however often it is asked to.
final class SaidOnce: @unchecked Sendable {
    private let lock = NSLock()
    private var said = false

    func once(_ say: () -> Void) {
        let first = lock.withLock { () -> Bool in
            defer { said = true }
            return !said
        }
        if first { say() }
    }
}
