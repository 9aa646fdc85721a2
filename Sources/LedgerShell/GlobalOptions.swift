import ArgumentParser
import Foundation
import RepLedgerCore
import RepLedgerSQLite
import RepLedgerSnapshots

/// `--db` and `--json`, on every command.
public struct GlobalOptions: ParsableArguments {
    public init() {}

    @Option(name: .long, help: "The ledger file (default: $REPLEDGER_DB, else ./repledger.sqlite).")
    public var db: String?

    @Flag(name: .long, help: "Answer in JSON (the scripting contract).")
    public var json = false

    public var path: String {
        db ?? ProcessInfo.processInfo.environment["REPLEDGER_DB"].flatMap { $0.isEmpty ? nil : $0 } ?? "repledger.sqlite"
    }

    /// The ledger for a query: the file must exist (a mistyped path is an
    /// error, never a new empty ledger), and its chain is checked over what
    /// was appended since the last read (`checkChain`): a damaged file
    /// answers `ChainDamage` (exit 3), never numbers.
    public func openStore() throws -> SQLiteEventStore {
        let store = try SQLiteEventStore(path: path, access: .existing)
        try store.checkChain()
        return store
    }

    /// The ledger for an audit that shows a damaged log and says so after
    /// (`log`, `why`): the store, and the damage its chain check found.
    public func openForAudit() throws -> (store: SQLiteEventStore, damage: ChainDamage?) {
        let store = try SQLiteEventStore(path: path, access: .existing)
        do {
            try store.checkChain()
            return (store, nil)
        } catch let damage as ChainDamage {
            return (store, damage)
        }
    }

    /// The ledger for a command that only reads and must never write
    /// (`verify`, which walks the whole chain itself).
    public func openReadOnly() throws -> SQLiteEventStore { try SQLiteEventStore(path: path, access: .readOnly) }

    /// The ledger for a command that records, created on first use.
    public func openOrCreateStore() throws -> SQLiteEventStore { try SQLiteEventStore(path: path, access: .create) }

    /// The ledger for recording commands, with the automatic snapshot policy after each append.
    public func openLedger() throws -> Ledger {
        let ledger = Ledger(store: try openOrCreateStore(), device: "cli")
        ledger.afterAppend = { try SnapshotPolicy.apply($0) }
        return ledger
    }
}
