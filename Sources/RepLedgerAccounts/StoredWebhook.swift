/// A webhook's row: where an account's events are delivered, which ones, the secret that signs them
/// (sealed under the account's key: it must be read to sign, so it cannot be kept as a hash) and how
/// far along the log its deliveries are.
public struct StoredWebhook: Sendable, Equatable {
    public var hookId: String
    public var accountId: String
    public var url: String
    /// Event type names, and `RecordSet` (a finished workout that set records).
    public var events: [String]
    /// Sealed.
    public var secret: String
    public var createdAt: Int64
    public var removedAt: Int64?
    /// The last log position whose deliveries are done: the next delivery is of an event after it.
    public var cursor: Int64

    public init(
        hookId: String, accountId: String, url: String, events: [String], secret: String, createdAt: Int64, removedAt: Int64? = nil,
        cursor: Int64
    ) {
        self.hookId = hookId
        self.accountId = accountId
        self.url = url
        self.events = events
        self.secret = secret
        self.createdAt = createdAt
        self.removedAt = removedAt
        self.cursor = cursor
    }
}

/// One attempt to deliver: what, when, and the receiver's answer (its HTTP status, 0 when none came).
public struct WebhookAttempt: Sendable, Equatable {
    public var hookId: String
    public var deliveryId: String
    public var position: Int64
    public var type: String
    public var attempt: Int
    public var status: Int
    public var error: String?
    public var at: Int64

    public init(hookId: String, deliveryId: String, position: Int64, type: String, attempt: Int, status: Int, error: String?, at: Int64) {
        self.hookId = hookId
        self.deliveryId = deliveryId
        self.position = position
        self.type = type
        self.attempt = attempt
        self.status = status
        self.error = error
        self.at = at
    }

    public var delivered: Bool { (200..<300).contains(status) }
}

/// Where webhooks and their delivery log are kept (rows only; the rules are `Webhooks`').
public protocol WebhookTable: Sendable {
    func insertWebhook(_ hook: StoredWebhook) throws
    /// The hooks not removed: of one account, or of every account not erased.
    func webhooks(of account: String?) throws -> [StoredWebhook]
    /// The hook, removed or not.
    func webhook(_ hookId: String) throws -> StoredWebhook?
    /// False when no hook of this id is in force.
    func removeWebhook(_ hookId: String, at: Int64) throws -> Bool
    /// Its deliveries are done through `position`.
    func advanceWebhook(_ hookId: String, to position: Int64) throws
    func insertAttempt(_ attempt: WebhookAttempt) throws
    /// The hook's attempts, newest first.
    func attempts(of hookId: String, limit: Int) throws -> [WebhookAttempt]
}
