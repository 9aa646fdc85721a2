import ArgumentParser
import Foundation
import LedgerShell
import RepLedgerCore

/// `ledger-server`: the server, its accounts and device sync. People type
/// these as `ledger serve`, `ledger server …` and `ledger sync`; `ledger`
/// runs this binary with the same arguments.
struct LedgerServerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ledger",
        abstract: "RepLedger's sync server, its accounts and tokens, and device sync.",
        version: RepLedgerVersion.current,
        subcommands: [
            SyncCommand.self, ServeCommand.self, ServerCommand.self, CoachRemoteCommand.self, InspectCommand.self, AppCommand.self, McpCommand.self,
        ])
}

@main
enum ServerEntry {
    static func main() {
        // The server's files (account ledgers, key files, the accounts table) and the device's ledger are
        // the owner's alone: files 0600, directories 0700, whatever umask the shell had.
        umask(0o077)
        CommandRunner.run(LedgerServerCommand.self, Array(CommandLine.arguments.dropFirst()))
    }
}
