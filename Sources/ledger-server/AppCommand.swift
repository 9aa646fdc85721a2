import ArgumentParser
import Foundation
import LedgerShell
import Logging
import RepLedgerAccounts
import RepLedgerServer
import RepLedgerWeb

/// `ledger app`: the lifter's app in a browser over this device's ledger, served as `ledger serve` serves it, to
/// whoever opens the one-time address it prints.
struct AppCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "app", abstract: ServerCommands.appAbstract,
        discussion: """
            The same app a server serves at /app (today's plan, the workout with its planned sets and rest timer,
            history, records, bodyweight), recording into this ledger by the CLI's rules: what it records is the
            device's, stamped device "app", and `ledger sync` sends it as it sends the CLI's. The first line is the
            address to open: its code works once, for 15 minutes, and becomes a session cookie. Stops on Ctrl-C
            or SIGTERM. \(ServerCommands.whereItRuns)

            Examples:
              ledger app
              ledger app --db ./phone.sqlite --listen 127.0.0.1:0     # any free port
            """)
    @OptionGroup var global: GlobalOptions
    @Option(help: "HOST:PORT to listen on (default: loopback, 127.0.0.1:8789; port 0 takes any free one).") var listen = "127.0.0.1:8789"

    func run() throws {
        let (host, port) = try ListenAddress.parse(listen, example: "127.0.0.1:8789")
        // The ledger as a recording command finds it (created on first use), its chain checked before anything is served.
        let ledger = URL(fileURLWithPath: global.path).standardizedFileURL.path
        try global.openOrCreateStore().checkChain()
        // The account and the browser's token live in a folder of this run's own, gone when it stops.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("repledger-app-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let accounts = try SQLiteServerStorage(directory: folder, keys: try AccountKeyStore(directory: folder + "/keys", create: true))
        let directory = AccountDirectory(table: accounts.accountTable, keys: accounts.keys)
        let account = try directory.createAccount(name: "This device", coach: false)
        let token = try directory.createToken(account: account.accountId, device: "app")
        let storage = DeviceLedgerStorage(accounts: accounts, accountId: account.accountId, ledger: ledger)
        let door = AppCodeDoor(account: account.accountId, tokenHash: AccountDirectory.hash(token))

        var settings = LedgerServer.Settings(host: host, port: port, dataDirectory: folder)
        settings.keysDirectory = folder + "/keys"
        LoggingSystem.bootstrap { StreamLogHandler.standardError(label: $0) }
        var logger = Logger(label: "ledger.app")
        logger.logLevel = .warning
        let (fixed, log) = (settings, logger)
        try blockingRun {
            try await LedgerServer.run(fixed, storage: storage, appDoor: door, logger: log) { bound in
                let shown = host.contains(":") ? "[\(host)]" : host
                Console.out("app: open http://\(shown):\(bound)\(LifterApp.root)/open?code=\(door.codes.newCode())")
            }
        }
    }
}
