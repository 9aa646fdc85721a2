import RepLedgerCore
import RepLedgerSQLite

/// What the CLI prints for a store's error: the store's words, and what to
/// do about it at a shell (the option, the command). The server words the
/// same errors for HTTP (`APIError`).
extension StoreError {
    public var shellMessage: String {
        switch self {
        case .wrongExpectedVersion:
            return "\(self), run the command again"
        case .unreadableEvent(let p, let r):
            return "event at position \(p) cannot be read: \(Self.printable(r)); the ledger file is damaged: run `ledger verify`"
        case .engine(let e as SQLiteError):
            return e.shellMessage
        case .noLedger(let path):
            return "there is no ledger at \(path): check --db (or $REPLEDGER_DB); a query never creates one, recording something does"
        case .foreignDatabase:
            return "\(self). Point --db at a ledger or at a new file"
        default:
            return description
        }
    }
}

extension SQLiteError {
    /// `plainMessage`, with the commands that answer damage or an unknown failure.
    public var shellMessage: String {
        if isDamage { return plainMessage + ": run `ledger verify`, and restore from a backup (`ledger import jsonl`) if it fails" }
        if isUnclassified { return plainMessage + ": retry; if it keeps failing run `ledger verify`" }
        if isReadOnlyFile { return plainMessage + " (queries and `ledger verify` work read-only)" }
        return plainMessage
    }
}
