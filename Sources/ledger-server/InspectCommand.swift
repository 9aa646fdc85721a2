import ArgumentParser
import Foundation
import LedgerShell
import Logging
import RepLedgerQueries
import RepLedgerSQLite
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
            Stops on Ctrl-C or SIGTERM. \(ServerCommands.whereItRuns)

            Examples:
              ledger inspect
              ledger inspect --db ./phone.sqlite --listen 127.0.0.1:0     # any free port
              ledger inspect --bundle audit.rlbundle                      # a bundle someone handed you
            """)
    @OptionGroup var global: GlobalOptions
    @Option(help: "HOST:PORT to listen on (default: loopback, 127.0.0.1:8788; port 0 takes any free one).") var listen = "127.0.0.1:8788"
    @Option(help: "Open an audit bundle (`ledger export --bundle`) instead of a ledger: read into memory, nothing written anywhere.")
    var bundle: String?

    func run() throws {
        let (host, port) = try ListenAddress.parse(listen, example: "127.0.0.1:8788")
        let ledger = try bundle.map(Self.open) ?? InspectedLedger(try global.openReadOnly())
        try ledger.warmUp()
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

    func validate() throws {
        if bundle != nil, global.db != nil { throw ValidationError("give --db or --bundle, not both") }
    }

    /// A bundle's events in an in-memory ledger, every link and the head checked; an edited bundle
    /// exits 3 naming its first bad position, one that is not a bundle (or from a newer release) exits 1.
    static func open(_ path: String) throws -> InspectedLedger {
        guard let data = FileManager.default.contents(atPath: path) else {
            Console.error("error: cannot read \(path)")
            throw ExitCode(ExitStatus.refused)
        }
        let store = try SQLiteEventStore(path: ":memory:")
        do {
            let rules = try AuditBundle.open(String(decoding: data, as: UTF8.self), into: store)
            return InspectedLedger(store, rules: rules)
        } catch let failure as AuditBundle.Failure {
            Console.error("error: \(failure)")
            switch failure {
            case .brokenChain, .headMismatch: throw ExitCode(ExitStatus.integrity)
            default: throw ExitCode(ExitStatus.refused)
            }
        }
    }
}
