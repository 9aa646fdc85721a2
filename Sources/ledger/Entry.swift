import ArgumentParser
import Foundation
import RepLedgerCore

/// Runs the command and maps every failure to CLI.md's exit codes:
/// 0 ok · 1 refused · 2 usage · 3 integrity failure · 4 storage failure.
@main
enum Entry {
    static func main() {
        var command: ParsableCommand
        do {
            command = try LedgerCommand.parseAsRoot()
        } catch {
            // --help and --version are "errors" that exit 0; real usage errors exit 2, not ArgumentParser's 64.
            if LedgerCommand.exitCode(for: error) == .success { LedgerCommand.exit(withError: error) }
            Console.error(LedgerCommand.fullMessage(for: error))
            exit(ExitStatus.usage)
        }
        do {
            try command.run()
            exit(ExitStatus.ok)
        } catch {
            exit(ExitStatus.report(error))
        }
    }
}

enum ExitStatus {
    static let ok: Int32 = 0
    static let refused: Int32 = 1
    static let usage: Int32 = 2
    static let integrity: Int32 = 3
    static let storage: Int32 = 4

    /// Prints `error: …` on stderr and picks the exit code.
    static func report(_ error: Error) -> Int32 {
        switch error {
        case let e as Refusal:
            Console.error("error: \(e)")
            return refused
        case let e as StoreError:
            Console.error("error: \(e)")
            switch e {
            case .wrongExpectedVersion, .eventIdConflict: return refused
            case .newerSchema, .unreadableEvent, .sqlite: return storage
            }
        case let e where isRefusal(e):
            Console.error("error: \(e)")
            return refused
        case let e as CodecError:
            Console.error("error: stored data cannot be read: \(e)")
            return storage
        case let e as IntegrityFailure:
            Console.error("error: \(e)")
            return integrity
        case let e as ExitCode:
            return e.rawValue
        case let e as ValidationError:
            Console.error("error: \(e.message)")
            return usage
        default:
            if LedgerCommand.exitCode(for: error) == .success { return ok }
            Console.error("error: \(error)")
            return storage
        }
    }
}

/// `verify` found the chain broken; its report was printed already.
struct IntegrityFailure: Error, CustomStringConvertible {
    let position: Int64
    let reason: String
    var description: String { "the log fails verification at position \(position): \(reason)" }
}
