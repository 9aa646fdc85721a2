import ArgumentParser
import Foundation
import RepLedgerCore
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

    func openStore() throws -> SQLiteEventStore { try SQLiteEventStore(path: path) }

    /// The ledger for recording commands, with the automatic snapshot policy after each append.
    func openLedger() throws -> Ledger {
        let ledger = Ledger(store: try openStore(), device: "cli")
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
        if let p = Int64(text), p >= 0 { return p }
        return try store.position(recordedAtOrBefore: try parseTime(text))
    }
}

/// `--at ISO8601` on every command that records something.
struct AtOption: ParsableArguments {
    @Option(name: .long, help: "When you did it, ISO 8601 (default: now).")
    var at: String?

    func time() throws -> Timestamp? { try at.map(parseTime) }
}

func parseTime(_ text: String) throws(Refusal) -> Timestamp {
    let localOffset = TimeZone.current.secondsFromGMT() / 60
    guard let t = Timestamp.parseISO8601(text, defaultOffsetMinutes: localOffset) else { throw .invalidTime(text) }
    return t
}
