import ArgumentParser
import Foundation
import RepLedgerCore
import RepLedgerProjections
import RepLedgerQueries
import RepLedgerSQLite

/// USER-GUIDE.md's exit codes, and the one line each failure prints.
public enum ExitStatus {
    public static let ok: Int32 = 0
    public static let refused: Int32 = 1
    public static let usage: Int32 = 2
    public static let integrity: Int32 = 3
    public static let storage: Int32 = 4

    /// Prints `error: …` (one line) on stderr and picks the exit code;
    /// `root` is the command whose help a help request prints.
    public static func report(_ error: Error, root: ParsableCommand.Type) -> Int32 {
        switch error {
        case let e as Refusal:
            Console.error("error: \(e.shellMessage)")
            return refused
        case let e as StoreError:
            Console.error("error: \(e.shellMessage)")
            switch e {
            case .wrongExpectedVersion, .eventIdConflict: return refused
            case .newerSchema, .unreadableEvent, .engine, .noLedger, .foreignDatabase: return storage
            }
        case let e as SQLiteError:
            Console.error("error: \(e.shellMessage)")
            return storage
        case let e as ImportError:
            Console.error("error: \(e.shellMessage)")
            return refused
        case let e where isRefusal(e):
            Console.error("error: \(e)")
            return refused
        case let e as CodecError:
            Console.error("error: stored data cannot be read (\(e)); the ledger file is damaged: run `ledger verify`")
            return storage
        case let e as RemoteHistoryRewritten:
            Console.error("error: \(e)")
            return integrity
        case let e as ChainDamage:
            Console.error("error: \(e)")
            return integrity
        case let e as ExitCode:
            return e.rawValue
        case let e as QueryError:
            Console.error("error: \(e)")
            return usage
        case let e as ValidationError:
            Console.error("error: \(e.message)")
            return usage
        default:
            // `ledger` alone and `ledger help X` arrive here as a request for help.
            if root.exitCode(for: error) == .success {
                Console.out(root.fullMessage(for: error))
                return ok
            }
            Console.error("error: \(String(describing: error).split(separator: "\n").first.map(String.init) ?? "failed")")
            return storage
        }
    }
}

/// `verify`, `why` or `log` found the chain broken (their report printed already): the core's `ChainDamage`,
/// exit 3, as every query answers a damaged log.
public typealias IntegrityFailure = ChainDamage

extension ExitStatus {
    /// A rule file is the user's input: a bad one is refused (exit 1).
    static func isRefusal(_ error: Error) -> Bool { error is RuleSet.LoadError }
}
