import Crypto
import Foundation
import RepLedgerAccounts
import RepLedgerCore
import RepLedgerProjections
import RepLedgerQueries

/// An account's webhooks: the rules for adding one (a URL, the events it takes, a secret shown once),
/// and what is due to each: its deliveries are read from the log after its cursor, so none is lost
/// when the server stops, and each is signed with the hook's secret.
public struct Webhooks: Sendable {
    public let accounts: AccountDirectory

    public init(accounts: AccountDirectory) { self.accounts = accounts }

    /// Not an event type: a finished workout that set personal records, delivered with them.
    public static let recordSet = "RecordSet"
    /// Every name `--events` takes.
    public static var eventNames: [String] { EventCatalog.entries.map(\.type.name) + [recordSet] }
    /// Hooks one account may have: each is delivered by its account's own task, one after another.
    public static let maximumPerAccount = 20
    /// Secrets are sealed bound to this context, so one is never read as a name.
    static let secretContext = "webhook:"

    public enum Failure: Error, Equatable, CustomStringConvertible {
        case invalidURL(String)
        case unknownEvent(String)
        case noEvents
        case unknownHook(String)
        /// The account has `Webhooks.maximumPerAccount` hooks already.
        case tooManyHooks(Int)

        public var description: String {
            switch self {
            case .invalidURL(let u): return "'\(u)' is not an http:// or https:// URL a webhook can be delivered to"
            case .unknownEvent(let e):
                return "no event '\(e)'; --events takes event types (WorkoutFinished, SetLogged, BodyweightMeasured, …) and RecordSet"
            case .noEvents: return "give the events to deliver: --events WorkoutFinished,RecordSet"
            case .unknownHook(let h): return "no webhook '\(h)' on this server (removed already?)"
            case .tooManyHooks(let n): return "this account has \(n) webhooks, the most it may have: remove one first"
            }
        }
    }

    /// A new hook of the account for `events`, delivering what is appended after `head` → its id and its secret (shown once).
    public func add(
        account id: String, url: String, events: [String], head: Int64, now: Timestamp = .now()
    ) throws -> (hookId: String, secret: String) {
        guard let account = try accounts.account(id) else { throw AccountDirectory.Failure.unknownAccount(id) }
        guard url.count <= 2000, let parsed = URL(string: url), ["http", "https"].contains(parsed.scheme?.lowercased() ?? ""),
            !(parsed.host ?? "").isEmpty
        else { throw Failure.invalidURL(url) }
        let names = Set(Self.eventNames)
        let wanted = events.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard !wanted.isEmpty else { throw Failure.noEvents }
        if let unknown = wanted.first(where: { !names.contains($0) }) { throw Failure.unknownEvent(unknown) }
        guard try accounts.table.webhooks(of: account.accountId).count < Self.maximumPerAccount else {
            throw Failure.tooManyHooks(Self.maximumPerAccount)
        }
        let secret = "whsec_" + AccountDirectory.randomHex()
        let hookId = UUID().uuidString.lowercased()
        let sealed = try AccountDirectory.sealedName(
            secret, accountId: account.accountId, cipher: try accounts.keys.cipher(for: account.accountId), context: Self.secretContext)
        try accounts.table.insertWebhook(
            StoredWebhook(
                hookId: hookId, accountId: account.accountId, url: url, events: Array(Set(wanted)).sorted(), secret: sealed,
                createdAt: now.millis, cursor: head))
        return (hookId, secret)
    }

    public func remove(_ hookId: String, now: Timestamp = .now()) throws {
        guard try accounts.table.removeWebhook(hookId.lowercased(), at: now.millis) else { throw Failure.unknownHook(hookId) }
    }

    /// The hook's secret in clear, to sign with.
    public func secret(of hook: StoredWebhook) throws -> String {
        try accounts.opened(hook.secret, accountId: hook.accountId, context: Self.secretContext)
    }

    /// `RepLedger-Signature`: `t=UNIX,v1=HEX`, HEX the HMAC-SHA256 under the secret of `t.body`.
    public static func signature(secret: String, timestamp: Int64, body: String) -> String {
        let mac = HMAC<SHA256>.authenticationCode(for: Array("\(timestamp).\(body)".utf8), using: SymmetricKey(data: Array(secret.utf8)))
        return "t=\(timestamp),v1=" + Array(mac).hex
    }

    /// One delivery: its id (the same every time it is tried), the event's position and type, the JSON body.
    public struct Delivery: Sendable, Equatable {
        public var deliveryId: String
        public var position: Int64
        public var type: String
        public var body: String
    }

    /// The hook's deliveries among the events after its cursor, `scan` events at most → them, and the
    /// position they were read through (the cursor's next place once they are all delivered).
    public static func due(_ hook: StoredWebhook, store: any EventStore, scan: Int64 = 200) throws -> (deliveries: [Delivery], through: Int64) {
        let head = try store.headPosition()
        let through = min(head, hook.cursor + scan)
        guard through > hook.cursor else { return ([], hook.cursor) }
        let wanted = Set(hook.events)
        var out: [Delivery] = []
        var finished: [(Int64, UUID)] = []
        try store.read(EventQuery(from: hook.cursor + 1, through: through)) { e in
            if wanted.contains(e.type.name) {
                out.append(delivery(hook, e.position, e.type.name, [("event", .raw(e.canonicalJSON))]))
            }
            if wanted.contains(recordSet), case .workoutFinished(let f) = e.event { finished.append((e.position, f.workoutId)) }
        }
        for (position, workoutId) in finished {
            let records = try RecordsQuery.records(store, QueryScope(asOf: String(position)), timeline: true)
            let set: [JSONValue] = records.flatMap { r in
                r.timeline.filter { $0.workoutId == workoutId }.map { t in
                    JSONValue.object([
                        ("exerciseId", .string(r.exerciseId)), ("exercise", .string(r.exercise)), ("kind", .string(t.kind.rawValue)),
                        ("repMax", .optional(t.repMax)), ("value", .number(t.value)), ("weightKg", .optional(t.weightKg)),
                        ("reps", .optional(t.reps)),
                        ("setId", .optional(t.setId?.lowercased)),
                    ])
                }
            }
            guard !set.isEmpty else { continue }
            out.append(delivery(hook, position, recordSet, [("workoutId", .string(workoutId.lowercased)), ("records", .array(set))]))
        }
        // In the log's order; at one position the event before the records it set.
        out.sort { ($0.position, $0.type == recordSet ? 1 : 0) < ($1.position, $1.type == recordSet ? 1 : 0) }
        return (out, through)
    }

    static func delivery(_ hook: StoredWebhook, _ position: Int64, _ type: String, _ fields: [(String, JSONValue)]) -> Delivery {
        let id = UUID.derived(from: "webhook:\(hook.hookId):\(position):\(type)").lowercased
        let body: JSONValue = .object(
            [
                ("deliveryId", .string(id)), ("hookId", .string(hook.hookId)), ("accountId", .string(hook.accountId)), ("type", .string(type)),
                ("position", .int(position)),
            ] + fields)
        return Delivery(deliveryId: id, position: position, type: type, body: body.rendered)
    }
}
