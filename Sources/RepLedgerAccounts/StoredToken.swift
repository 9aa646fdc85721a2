import RepLedgerCore

/// A token's row: its hash (never the token), whose it is and what it may do.
/// Names are sealed under the account's key, as the table keeps them.
public struct StoredToken: Sendable, Equatable {
    public var hash: [UInt8]
    public var accountId: String
    /// Sealed: the `device` of every event the token appends.
    public var device: String
    /// Sealed; nil when the token was made without one.
    public var name: String?
    public var scope: TokenScope
    public var createdAt: Int64
    /// Past it the token answers 401; nil: never.
    public var expiresAt: Int64?
    public var revokedAt: Int64?

    public init(
        hash: [UInt8], accountId: String, device: String, name: String?, scope: TokenScope, createdAt: Int64, expiresAt: Int64?,
        revokedAt: Int64? = nil
    ) {
        self.hash = hash
        self.accountId = accountId
        self.device = device
        self.name = name
        self.scope = scope
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.revokedAt = revokedAt
    }

    /// How a list names the token: the first 8 bytes of its hash, in hex (the token itself is never kept).
    public var id: String { Self.id(of: hash) }
    public static func id(of hash: [UInt8]) -> String { Array(hash.prefix(idBytes)).hex }
    public static let idBytes = 8
}
