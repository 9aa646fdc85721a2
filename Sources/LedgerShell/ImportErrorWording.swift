import RepLedgerCore

/// What the CLI prints for a refused import: the error's words, and the
/// command or option that gets past it.
extension ImportError {
    public var shellMessage: String {
        switch self {
        case .wrongSource(_, let looksLike): return description + ": run `ledger import \(looksLike) FILE`"
        case .unitRequired: return description + "; repeat with --unit kg or --unit lb"
        case .unreadableRows:
            return description + ". Correct the file, or repeat with --skip-unreadable to import the rest and list each row left out"
        default: return description
        }
    }
}
