import ArgumentParser
import Foundation
import LedgerShell
import RepLedgerAccounts
import RepLedgerCore

extension ServerCommand {
    /// `ledger server token create|list|revoke`: a device's token, or a key made for an assistant or an
    /// integration with the least scope it needs and an end.
    struct Token: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "token", abstract: "Create, list or revoke an account's tokens and keys.",
            subcommands: [Create.self, List.self, Revoke.self])

        struct Create: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "create",
                abstract: "A token for one device of an account, or a scoped key → {\"token\",\"id\",\"device\",\"scope\",\"expiresAt\"}.",
                discussion: """
                    Scopes: read (reads only), log (also appends workouts, sets, notes and body entries), \
                    full (everything the account may do; the default). The token is shown once and stored hashed.

                    Examples:
                      ledger server token create ACCOUNT --device watch --data ./repledger-server --json
                      ledger server token create ACCOUNT --scope log --name "Coach assistant" --expires 30d
                    """)
            @OptionGroup var target: Target
            @Argument(help: "The account id.") var account: String
            @Option(help: "The device name: the `device` of every event this token appends (default: --name).") var device: String?
            @Option(help: "What the token may do: read, log or full.") var scope: String = TokenScope.full.rawValue
            @Option(help: "What the token is for, shown by `token list`.") var name: String?
            @Option(help: "When it stops working: a span (12h, 30d, 8w), a date (YYYY-MM-DD) or an ISO 8601 time (default: never).")
            var expires: String?

            func run() throws {
                guard let scope = TokenScope(rawValue: scope) else { throw ValidationError("--scope takes read, log or full, not '\(scope)'") }
                guard let device = device ?? name else { throw ValidationError("give --device (the name its events are stamped with) or --name") }
                let now = Timestamp.now()
                let end = try expires.map { try Self.end($0, from: now) }
                let accounts = try target.api().accounts
                let token = try accounts.createToken(account: account, device: device, scope: scope, name: name, expiresAt: end, now: now)
                let id = StoredToken.id(of: AccountDirectory.hash(token))
                target.print(
                    .object([
                        ("token", .string(token)), ("id", .string(id)), ("device", .string(device)), ("scope", .string(scope.rawValue)),
                        ("expiresAt", .optional(end?.iso8601)),
                    ]),
                    human: "Token \(id) for \(device), scope \(scope.rawValue)\(end.map { ", until \($0.iso8601)" } ?? "") (shown once): \(token)")
            }

            /// `30d`, `12h`, `8w` from now, or a date or time.
            static func end(_ text: String, from now: Timestamp) throws -> Timestamp {
                let units: [Character: Int64] = ["h": 3_600_000, "d": 86_400_000, "w": 604_800_000]
                if let unit = text.last.flatMap({ units[$0] }), let n = Int64(text.dropLast()), n > 0, n <= 3650 * 24 {
                    return Timestamp(millis: now.millis + n * unit)
                }
                guard let t = ServerCommand.dateOrTime(text) else {
                    throw ValidationError("--expires: give a span (12h, 30d, 8w), a date (YYYY-MM-DD) or an ISO 8601 time, not '\(text)'")
                }
                return t
            }
        }

        struct List: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "list",
                abstract:
                    "An account's tokens, revoked and expired ones too → {\"tokens\":[{\"id\",\"name\",\"device\",\"scope\",\"createdAt\",\"expiresAt\",\"revokedAt\",\"state\"}]}."
            )
            @OptionGroup var target: Target
            @Argument(help: "The account id.") var account: String

            func run() throws {
                let now = Timestamp.now()
                let tokens = try target.api().accounts.tokens(of: account)
                func state(_ t: AccountDirectory.TokenListing) -> String {
                    t.revokedAt != nil ? "revoked" : (t.expiresAt.map { $0.millis <= now.millis } ?? false) ? "expired" : "active"
                }
                let rows: [JSONValue] = tokens.map { t in
                    .object([
                        ("id", .string(t.id)), ("name", .optional(t.name)), ("device", .string(t.device)), ("scope", .string(t.scope.rawValue)),
                        ("createdAt", .string(t.createdAt.iso8601)), ("expiresAt", .optional(t.expiresAt?.iso8601)),
                        ("revokedAt", .optional(t.revokedAt?.iso8601)), ("state", .string(state(t))),
                    ])
                }
                let human = tokens.map { t in
                    "\(t.id)  \(t.scope.rawValue.padding(toLength: 4, withPad: " ", startingAt: 0))  \(state(t).padding(toLength: 7, withPad: " ", startingAt: 0))  "
                        + "\(t.name ?? t.device)  made \(t.createdAt.iso8601)\(t.expiresAt.map { ", until \($0.iso8601)" } ?? "")"
                }
                target.print(.object([("tokens", .array(rows))]), human: human.isEmpty ? "No tokens" : human.joined(separator: "\n"))
            }
        }

        struct Revoke: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "revoke", abstract: "Revoke a token, given itself or its id from `token list`: it answers 401 from now on → {}.")
            @OptionGroup var target: Target
            @Argument(help: "The token (rl_…) or its id.") var token: String

            func run() throws {
                let accounts = try target.api().accounts
                if token.hasPrefix("rl_") { try accounts.revokeToken(token) } else { try accounts.revokeToken(id: token) }
                target.print(.object([]), human: "Token revoked")
            }
        }
    }
}
