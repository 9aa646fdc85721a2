import ArgumentParser
import Foundation
import LedgerShell
import Logging
import RepLedgerCore
import RepLedgerServer
import RepLedgerService

/// `ledger server account|token`: accounts and tokens of a server's directory (SERVER-CONTRACT.md §2).
struct ServerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "server", abstract: ServerCommands.serverAbstract,
        subcommands: [Account.self, Token.self, Webhook.self])

    struct Target: ParsableArguments {
        @Option(help: "The server's directory (as given to `ledger serve --data`).") var data = "repledger-server"
        @Option(help: "A PostgreSQL URL instead of --data (as given to `ledger serve --postgres`; once per host, or one URL listing them).")
        var postgres: [String] = []
        @Option(help: "A file whose first line is the database's password (as given to `ledger serve --postgres-password-file`).")
        var postgresPasswordFile: String?
        @Option(help: "The accounts' keys (as given to `ledger serve --keys`; default DATA/keys, required with --postgres).") var keys: String?
        @Flag(help: "Answer in JSON.") var json = false

        /// `provisioning`: the command makes accounts, and so keys (a missing key store is created for them).
        func api(provisioning: Bool = false) throws -> LedgerAPI {
            var settings = LedgerServer.Settings(dataDirectory: data)
            settings.postgres = postgres
            settings.postgresPasswordFile = postgresPasswordFile
            settings.keysDirectory = keys
            if !postgres.isEmpty, keys == nil { throw ValidationError(LedgerServer.Settings.Failure.keysRequired.description) }
            return LedgerAPI(storage: try settings.storage(logger: Logger(label: "ledger.server"), provisioning: provisioning))
        }

        func print(_ value: JSONValue, human: String) { if json { Console.json(value) } else { Console.out(human) } }
    }

    /// A date (YYYY-MM-DD: midnight UTC) or an ISO 8601 time, as the operator's commands take them.
    static func dateOrTime(_ text: String) -> Timestamp? {
        if text.count == 10, let t = Timestamp.parseISO8601(text + "T00:00:00Z", defaultOffsetMinutes: 0) { return t }
        return Timestamp.parseISO8601(text, defaultOffsetMinutes: 0)
    }

    struct Account: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "account", abstract: "Create or import an account; grant Coach without a store.",
            subcommands: [Create.self, Import.self, GrantCoach.self])

        struct GrantCoach: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "grant-coach",
                abstract:
                    "Grant an account Coach until a date, without the App Store (recorded in its log) → {\"accountId\",\"until\",\"position\"}.",
                discussion: """
                    For a self-hosted server: the account's log records the grant (OperatorCoachGranted), its \
                    devices see it after `ledger sync` (`ledger entitlements` names it), and the server counts it \
                    as a Coach product until DATE. No device can push such a grant.

                    Example:
                      ledger server account grant-coach 5d0c…-coach-account-id --until 2027-12-31 --data ./repledger-server
                    """)
            @OptionGroup var target: Target
            @Argument(help: "The account id.") var account: String
            @Option(help: "When the grant ends (exclusive): a date (YYYY-MM-DD, midnight UTC) or an ISO 8601 time.") var until: String

            func run() throws {
                let end = try Self.time(until)
                let api = try target.api()
                let id = account.lowercased()
                guard try api.accounts.account(id) != nil else { throw ValidationError("no account \(account) on this server") }
                let log = try api.logs.log(id)
                let position = try log.withLedger { ledger in
                    ledger.device = "operator"
                    try ledger.execute { try $0.grantCoachAsOperator(until: end) }
                    return try ledger.store.headPosition()
                }
                target.print(
                    .object([("accountId", .string(id)), ("until", .string(end.iso8601)), ("position", .int(position))]),
                    human: "Coach granted to \(id) until \(end.iso8601) (event #\(position) of its log; its devices see it after `ledger sync`)")
            }

            static func time(_ text: String) throws -> Timestamp {
                guard let t = ServerCommand.dateOrTime(text) else {
                    throw ValidationError("--until: give a date (YYYY-MM-DD) or an ISO 8601 time, not '\(text)'")
                }
                return t
            }
        }

        struct Create: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "create",
                abstract: "A new account and its first token → {\"accountId\",\"token\"}.",
                discussion: "Example:\n  ledger server account create alice --data ./repledger-server --json")
            @OptionGroup var target: Target
            @Argument(help: "The account's name (a lifter, or a coach with --coach).") var name: String
            @Flag(help: "A coach account (reads clients' logs while it holds a Coach product).") var coach = false
            @Option(help: "The device name of the first token.") var device = "default"

            func run() throws {
                let api = try target.api(provisioning: true)
                let account = try api.accounts.createAccount(name: name, coach: coach)
                let token = try api.accounts.createToken(account: account.accountId, device: device)
                target.print(
                    .object([("accountId", .string(account.accountId)), ("token", .string(token))]),
                    human: "Account \(account.accountId) (\(account.name))\nToken (shown once): \(token)")
            }
        }

        struct Import: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "import",
                abstract: "An account from a `ledger export jsonl` backup, byte-exact → {\"accountId\",\"token\",\"events\",\"head\"}.",
                discussion: "Example:\n  ledger server account import alice backup.jsonl --data ./repledger-server --json")
            @OptionGroup var target: Target
            @Argument(help: "The account's name.") var name: String
            @Argument(help: "The backup (ledger export jsonl).") var backup: String
            @Flag(help: "A coach account.") var coach = false
            @Option(help: "The device name of the first token.") var device = "default"

            func run() throws {
                let api = try target.api(provisioning: true)
                let text = try String(contentsOfFile: backup, encoding: .utf8)
                let account = try api.accounts.createAccount(name: name, coach: coach)
                let restored: JSONLBackup.Restored
                do {
                    restored = try api.logs.log(account.accountId).withLedger { try JSONLBackup.restore(text, into: $0.store) }
                    try api.noteCoachGrants(ofRestored: account.accountId)
                } catch {
                    try? api.logs.storage.discardLog(account.accountId)
                    try? api.accounts.removeUnusedAccount(account.accountId)
                    throw error
                }
                let token = try api.accounts.createToken(account: account.accountId, device: device)
                target.print(
                    .object([
                        ("accountId", .string(account.accountId)), ("token", .string(token)),
                        ("events", .int(Int64(restored.events))),
                        ("head", .object([("position", .int(Int64(restored.events))), ("hash", .string(restored.headHash))])),
                    ]),
                    human:
                        "Account \(account.accountId) (\(account.name)): \(restored.events) events, head \(restored.headHash)\nToken (shown once): \(token)"
                )
            }
        }
    }
}
