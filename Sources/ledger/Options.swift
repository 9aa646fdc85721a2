import ArgumentParser
import Foundation
import RepLedgerCore
import RepLedgerQueries
import RepLedgerSnapshots

/// `--db` and `--json`, on every command.
struct GlobalOptions: ParsableArguments {
    @Option(name: .long, help: "The ledger file (default: $REPLEDGER_DB, else ./repledger.sqlite).")
    var db: String?

    @Flag(name: .long, help: "Answer in JSON (the scripting contract).")
    var json = false

    var path: String {
        db ?? ProcessInfo.processInfo.environment["REPLEDGER_DB"].flatMap { $0.isEmpty ? nil : $0 } ?? "repledger.sqlite"
    }

    /// The ledger for a query: the file must exist (a mistyped path is an
    /// error, never a new empty ledger).
    func openStore() throws -> SQLiteEventStore { try SQLiteEventStore(path: path, access: .existing) }

    /// The ledger for a command that only reads and must never write (`verify`).
    func openReadOnly() throws -> SQLiteEventStore { try SQLiteEventStore(path: path, access: .readOnly) }

    /// The ledger for a command that records, created on first use.
    func openOrCreateStore() throws -> SQLiteEventStore { try SQLiteEventStore(path: path, access: .create) }

    /// The ledger for recording commands, with the automatic snapshot policy after each append.
    func openLedger() throws -> Ledger {
        let ledger = Ledger(store: try openOrCreateStore(), device: "cli")
        ledger.afterAppend = SnapshotPolicy.apply
        return ledger
    }
}

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
    @Option(name: .customLong("until"),
            help: "Count only training done up to this date (YYYY, YYYY-MM, YYYY-MM-DD or an ISO 8601 time), e.g. \"my PRs as of 2023-01\".")
    var until: String?

    /// The last instant counted: a bare date runs to the end of that day, a month to the end of that month.
    func time() throws -> Timestamp? { try until.map(Self.endOf) }

    static func endOf(_ text: String) throws(Refusal) -> Timestamp { try QueryScope.endOf(text) }
}

/// `--at ISO8601` on every command that records something.
struct AtOption: ParsableArguments {
    @Option(name: .long, help: "When you did it, ISO 8601 (default: now).")
    var at: String?

    func time() throws -> Timestamp? { try at.map(parseTime) }
}
