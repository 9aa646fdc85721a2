import ArgumentParser
import Foundation
import LedgerShell
import RepLedgerAccounts
import RepLedgerCore
import RepLedgerService

extension ServerCommand {
    /// `ledger server webhook add|list|remove|log`: an account's events posted to a URL as they are appended.
    struct Webhook: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "webhook", abstract: "Post an account's events to a URL, signed, as they are appended.",
            subcommands: [Add.self, List.self, Remove.self, Log.self])

        struct Add: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "add", abstract: "A webhook for an account's events → {\"hookId\",\"secret\"} (the secret is shown once).",
                discussion: """
                    Each delivery is a POST of JSON with the headers RepLedger-Delivery (its id: the same on every \
                    retry), RepLedger-Event, and RepLedger-Signature: t=UNIX,v1=HEX, where HEX is the HMAC-SHA256 \
                    under the secret of "t.body". Events appended after the hook is added are delivered, in the \
                    log's order, at least once; a failed delivery is retried (1 s, 2 s, 4 s, … up to 5 min apart).

                    Example:
                      ledger server webhook add ACCOUNT https://example.com/hooks/repledger --events WorkoutFinished,RecordSet
                    """)
            @OptionGroup var target: Target
            @Argument(help: "The account id.") var account: String
            @Argument(help: "Where to post: an http:// or https:// URL.") var url: String
            @Option(help: "Event types, comma-separated (WorkoutFinished, SetLogged, BodyweightMeasured, …), and RecordSet.") var events: String

            func run() throws {
                let api = try target.api()
                guard try api.accounts.account(account) != nil else { throw AccountDirectory.Failure.unknownAccount(account) }
                let head = try api.logs.log(account.lowercased()).withLedger { try $0.store.headPosition() }
                let made = try Webhooks(accounts: api.accounts).add(
                    account: account, url: url, events: events.split(separator: ",").map(String.init), head: head)
                target.print(
                    .object([("hookId", .string(made.hookId)), ("secret", .string(made.secret))]),
                    human: "Webhook \(made.hookId) posts to \(url)\nSecret (shown once): \(made.secret)")
            }
        }

        struct List: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "list",
                abstract:
                    "An account's webhooks → {\"webhooks\":[{\"hookId\",\"url\",\"events\",\"createdAt\",\"deliveredThrough\",\"lastAttempt\"}]}.")
            @OptionGroup var target: Target
            @Argument(help: "The account id.") var account: String

            func run() throws {
                let api = try target.api()
                guard try api.accounts.account(account) != nil else { throw AccountDirectory.Failure.unknownAccount(account) }
                let hooks = try api.accounts.table.webhooks(of: account.lowercased())
                let rows: [JSONValue] = try hooks.map { h in
                    .object([
                        ("hookId", .string(h.hookId)), ("url", .string(h.url)), ("events", .array(h.events.map(JSONValue.string))),
                        ("createdAt", .string(Timestamp(millis: h.createdAt).iso8601)), ("deliveredThrough", .int(h.cursor)),
                        ("lastAttempt", try api.accounts.table.attempts(of: h.hookId, limit: 1).first.map(Log.json) ?? .null),
                    ])
                }
                let human = hooks.map { "\($0.hookId)  \($0.url)  \($0.events.joined(separator: ","))  delivered through #\($0.cursor)" }
                target.print(.object([("webhooks", .array(rows))]), human: human.isEmpty ? "No webhooks" : human.joined(separator: "\n"))
            }
        }

        struct Remove: ParsableCommand {
            static let configuration = CommandConfiguration(commandName: "remove", abstract: "Stop a webhook's deliveries → {}.")
            @OptionGroup var target: Target
            @Argument(help: "The webhook's id.") var hook: String

            func run() throws {
                try Webhooks(accounts: try target.api().accounts).remove(hook)
                target.print(.object([]), human: "Webhook removed")
            }
        }

        struct Log: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "log",
                abstract:
                    "A webhook's delivery attempts, newest first → {\"attempts\":[{\"deliveryId\",\"position\",\"type\",\"attempt\",\"status\",\"error\",\"at\"}]}."
            )
            @OptionGroup var target: Target
            @Argument(help: "The webhook's id.") var hook: String
            @Option(help: "At most this many (1–1000).") var limit = 50

            func run() throws {
                guard (1...1000).contains(limit) else { throw ValidationError("--limit takes 1 to 1000") }
                let table = try target.api().accounts.table
                guard try table.webhook(hook.lowercased()) != nil else { throw Webhooks.Failure.unknownHook(hook) }
                let attempts = try table.attempts(of: hook.lowercased(), limit: limit)
                let human = attempts.map {
                    "\(Timestamp(millis: $0.at).iso8601)  #\($0.position) \($0.type)  attempt \($0.attempt): \($0.delivered ? "delivered" : ($0.error ?? "failed"))"
                }
                target.print(
                    .object([("attempts", .array(attempts.map(Self.json)))]),
                    human: human.isEmpty ? "No deliveries yet" : human.joined(separator: "\n"))
            }

            static func json(_ a: WebhookAttempt) -> JSONValue {
                .object([
                    ("deliveryId", .string(a.deliveryId)), ("position", .int(a.position)), ("type", .string(a.type)),
                    ("attempt", .int(Int64(a.attempt))),
                    ("status", .int(Int64(a.status))), ("error", .optional(a.error)), ("at", .string(Timestamp(millis: a.at).iso8601)),
                ])
            }
        }
    }
}
