import CSQLite
import Foundation
import RepLedgerCore

/// Which files the store agrees to open. A ledger is stamped with its own
/// SQLite application id; any other database (another app's, or one with
/// tables of its own) is refused before anything is written to it, so
/// pointing `--db` at the wrong file leaves that file byte-identical.
enum LedgerFileIdentity {
    /// "RPLG": written in the file header by the first migration transaction.
    static let applicationId: Int64 = 0x5250_4C47

    /// The tables a RepLedger file holds (SQLite's own `sqlite_*` aside).
    static let ledgerTables: Set<String> = ["events", "snapshots"]

    /// Reads the header and the table list (no writes) and refuses a foreign file. An empty
    /// database, a stamped ledger, and a ledger written before stamping (our tables only, at a
    /// schema version we know; the next migration stamps it) pass.
    static func check(_ db: SQLiteDatabase, path: String) throws {
        let appId: Int64
        let userVersion: Int64
        var tables: [(name: String, sql: String)] = []
        do {
            appId = try db.scalarInt("PRAGMA application_id")
            userVersion = try db.scalarInt("PRAGMA user_version")
            try db.with("SELECT name, COALESCE(sql, '') FROM sqlite_master WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite_%'") { s in
                while try s.step() { tables.append((s.text(0), s.text(1))) }
            }
        } catch let e as SQLiteError where e.code & 0xFF == SQLITE_NOTADB {
            throw StoreError.foreignDatabase(path: path, reason: "it is not a SQLite database (or its header is damaged)")
        } catch let e as SQLiteError {
            throw StoreError.engine(e)
        }
        if appId == applicationId { return }
        if appId != 0 {
            throw StoreError.foreignDatabase(path: path, reason: "it belongs to another application (application id \(appId))")
        }
        if tables.isEmpty && userVersion == 0 { return }
        let names = Set(tables.map(\.name))
        let ourEvents = tables.first { $0.name == "events" }.map { $0.sql.contains("stream_version") && $0.sql.contains("hash") } ?? false
        guard names.isSubset(of: ledgerTables), ourEvents, userVersion >= 1 else {
            let shown = names.sorted().prefix(5).joined(separator: ", ")
            throw StoreError.foreignDatabase(path: path, reason: "it holds another application's tables (\(shown))")
        }
    }
}
