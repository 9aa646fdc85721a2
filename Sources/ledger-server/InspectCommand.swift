import ArgumentParser
import Foundation
import LedgerShell
import Logging
import RepLedgerServer
import RepLedgerWeb

/// `ledger inspect`: the inspector in a browser over this device's ledger, opened read-only.
struct InspectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect", abstract: ServerCommands.inspectAbstract,
        discussion: """
            Opens the ledger read-only (its file's bytes never change) and serves the Log, As-of, Session,
            Why and Verify pages on loopback. The first line is the address to open: its code works once,
            for 15 minutes, and becomes a session cookie, so no secret stays in the address bar.
            Stops on Ctrl-C or SIGTERM.

            Examples:
              ledger inspect
              ledger inspect --db ./phone.sqlite --listen 127.0.0.1:0     # any free port
            """)
    @OptionGroup var global: GlobalOptions
    @Option(help: "HOST:PORT to listen on (default: loopback, 127.0.0.1:8788; port 0 takes any free one).") var listen = "127.0.0.1:8788"

    func run() throws {
        guard let colon = listen.lastIndex(of: ":"), let port = Int(listen[listen.index(after: colon)...]), (0...65535).contains(port) else {
            throw ValidationError("--listen takes HOST:PORT, e.g. 127.0.0.1:8788")
        }
        let host = String(listen[..<colon]).trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        let ledger = InspectedLedger(try global.openReadOnly())
        LoggingSystem.bootstrap { StreamLogHandler.standardError(label: $0) }
        var logger = Logger(label: "ledger.inspect")
        logger.logLevel = .warning
        let fixed = logger
        try blockingRun {
            try await InspectorServer.run(ledger: ledger, host: host, port: port, logger: fixed) { _, address in
                Console.out("inspector: open \(address)")
            }
        }
    }
}
