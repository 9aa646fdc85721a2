import Crypto
import Foundation
import RepLedgerCore

/// Accounts and their tokens: the rules (names, token generation, hashing,
/// the constant-time compare), kept in an `AccountTable` (a SQLite file
/// beside the accounts' ledgers, or PostgreSQL). Tokens are random (256
/// bits), shown once and stored only as their SHA-256; a lookup hashes what
/// it was given and compares in constant time.
public final class AccountDirectory: @unchecked Sendable {
    public struct Account: Sendable, Equatable {
        public var accountId: String
        /// As the table holds it: sealed under the account's key (see `name(of:)`), except in what `createAccount` returns.
        public var name: String
        public var isCoach: Bool

        public init(accountId: String, name: String, isCoach: Bool) {
            self.accountId = accountId
            self.name = name
            self.isCoach = isCoach
        }
    }

    /// Who a request's token speaks for.
    public struct Caller: Sendable, Equatable {
        public var account: Account
        /// The device name of the token: the `device` of the events it appends.
        public var device: String
        /// What the token may do.
        public var scope: TokenScope = .full
        /// The first 8 bytes of the token's hash in hex (`StoredToken.id`): what limits are counted by.
        public var tokenId: String = ""
    }

    /// A token as `ledger server token list` shows it: names opened, no hash beyond its id.
    public struct TokenListing: Sendable, Equatable {
        public var id: String
        public var name: String?
        public var device: String
        public var scope: TokenScope
        public var createdAt: Timestamp
        public var expiresAt: Timestamp?
        public var revokedAt: Timestamp?
    }

    public enum Failure: Error, Equatable, CustomStringConvertible {
        case unknownAccount(String)
        case unknownToken
        case ambiguousTokenId(String)
        case invalidName(String)
        case invalidExpiry
        /// The account has `AccountDirectory.maximumDevices` tokens in use already.
        case tooManyDevices

        public var description: String {
            switch self {
            case .unknownAccount(let a): return "no account '\(a)' on this server. See `ledger server account create`"
            case .unknownToken: return "no such token on this server (revoked already, or of another server)"
            case .ambiguousTokenId(let id): return "more than one token has an id beginning '\(id)': give the whole id or the token"
            case .invalidName(let why): return why
            case .invalidExpiry: return "a token's expiry must be in the future"
            case .tooManyDevices:
                return "this account has \(AccountDirectory.maximumDevices) devices in use, the most it may: revoke one first"
            }
        }
    }

    public let table: any AccountTable
    public let keys: AccountKeyStore
    /// Device names already opened, by their sealed form (random per token): authentication, on every
    /// request, reads no key file for them. A revoked or erased token is gone from the table before this is asked.
    private let openedDevices = OpenedNames()

    public init(table: any AccountTable, keys: AccountKeyStore) {
        self.table = table
        self.keys = keys
    }

    /// Tokens in use (not revoked, not expired) an account may hold: its devices, assistants and sessions together.
    public static let maximumDevices = 100

    /// A name shown to people (an account's, a device's, a token's): `limit` characters at most after trimming, and
    /// nothing that changes how the text around it reads (control characters, C1 included; line and paragraph
    /// separators; bidirectional overrides, embeddings, isolates and marks).
    public static func displayName(_ text: String, _ what: String, limit: Int) throws(Failure) -> String {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty, trimmed.count <= limit else { throw .invalidName("\(what) takes 1 to \(limit) characters") }
        guard trimmed.unicodeScalars.allSatisfy({ !Self.misleads($0) }) else {
            throw .invalidName("\(what) may not hold control characters, line breaks or bidirectional overrides")
        }
        return trimmed
    }

    /// A scalar that is no visible text and changes how the text around it reads.
    public static func misleads(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0..<0x20, 0x7F...0x9F: true  // C0 and C1 controls (U+0085 among them)
        case 0x2028, 0x2029: true  // line and paragraph separators
        case 0x200E, 0x200F, 0x061C, 0x202A...0x202E, 0x2066...0x2069: true  // bidirectional marks, embeddings, overrides, isolates
        default: false
        }
    }

    /// A new account → its id (a UUID, lowercased). Its key is made first: an
    /// account never exists without one.
    public func createAccount(name: String, coach: Bool, id: String = UUID().uuidString.lowercased()) throws -> Account {
        let trimmed = try Self.displayName(name, "an account name", limit: 200)
        let account = Account(accountId: id, name: trimmed, isCoach: coach)
        let cipher = try keys.createKey(for: id)
        do {
            // The name is the lifter's too: stored sealed, so an old backup of the table forgets it with the key.
            var stored = account
            stored.name = try Self.sealedName(trimmed, accountId: id, cipher: cipher)
            try table.insertAccount(stored, createdAt: Timestamp.now().millis)
        } catch {
            try? keys.discardKey(of: id)
            throw error
        }
        return account
    }

    static let sealedNamePrefix = "sealed:"

    package static func sealedName(_ name: String, accountId: String, cipher: PayloadCipher, context: String = "") throws -> String {
        sealedNamePrefix + Data(try cipher.seal(Array(name.utf8), context: Array((context + accountId).utf8))).base64EncodedString()
    }

    /// A stored name in clear: sealed ones opened under the account's key (which throws the key store's
    /// failure: erased, missing), older clear ones as they are.
    package func opened(_ stored: String, accountId: String, context: String = "") throws -> String {
        guard stored.hasPrefix(Self.sealedNamePrefix) else { return stored }
        let cipher = try keys.cipher(for: accountId)
        guard let sealed = Data(base64Encoded: String(stored.dropFirst(Self.sealedNamePrefix.count))),
            let clear = try? cipher.open(Array(sealed), context: Array((context + accountId).utf8))
        else {
            throw AccountKeyStore.Failure.unreadableKey(account: accountId, reason: "a stored name does not open under the account's key")
        }
        return String(decoding: clear, as: UTF8.self)
    }

    /// Sealed names of devices are bound to this context as well as the account, so one is never read as the other.
    static let deviceContext = "device:"

    /// The account's name in clear (as stored: sealed under its key; "" once
    /// the key is gone). Names stored before sealing read as they are.
    public func name(of account: Account) -> String {
        (try? opened(account.name, accountId: account.accountId)) ?? ""
    }

    /// Renames an account (its owner's choice on the account page); the name is sealed as at creation.
    public func rename(_ id: String, to name: String) throws {
        let trimmed = try Self.displayName(name, "an account name", limit: 200)
        guard let account = try account(id) else { throw Failure.unknownAccount(id) }
        let cipher = try keys.cipher(for: account.accountId)
        try table.replaceName(account.accountId, with: try Self.sealedName(trimmed, accountId: account.accountId, cipher: cipher))
    }

    /// Removes an account that never came into use (an import that failed), key included.
    public func removeUnusedAccount(_ id: String) throws {
        try table.removeAccount(id)
        try keys.discardKey(of: id)
    }

    public func account(_ id: String) throws -> Account? {
        guard UUID(uuidString: id) != nil else { return nil }
        return try table.account(id.lowercased())
    }

    public func accounts() throws -> [Account] { try table.accounts() }

    /// A new token for the account: returned once, stored hashed. `device` stamps the events it appends;
    /// `name` says what it is for ("Coach GPT"); `expiresAt` ends it (401 after).
    public func createToken(
        account id: String, device: String, scope: TokenScope = .full, name: String? = nil, expiresAt: Timestamp? = nil,
        now: Timestamp = .now()
    ) throws -> String {
        guard let account = try account(id) else { throw Failure.unknownAccount(id) }
        let device = try Self.displayName(device, "a device name", limit: 100)
        let name = try name.map { text throws(Failure) in try Self.displayName(text, "a token's name", limit: 100) }
        if let expiresAt { guard expiresAt.millis > now.millis else { throw Failure.invalidExpiry } }
        let inUse = try table.tokens(of: account.accountId).filter { $0.revokedAt == nil && ($0.expiresAt ?? .max) > now.millis }
        guard inUse.count < Self.maximumDevices else { throw Failure.tooManyDevices }
        let token = "rl_" + Self.randomHex()
        // A device's name ("Lina's iPhone") is the lifter's too: sealed like the account's name.
        let cipher = try keys.cipher(for: account.accountId)
        func sealed(_ text: String) throws -> String {
            try Self.sealedName(text, accountId: account.accountId, cipher: cipher, context: Self.deviceContext)
        }
        try table.insertToken(
            StoredToken(
                hash: Self.hash(token), accountId: account.accountId, device: try sealed(device), name: try name.map(sealed),
                scope: scope, createdAt: now.millis, expiresAt: expiresAt?.millis))
        return token
    }

    /// The account's tokens, revoked and expired ones too, oldest first.
    public func tokens(of id: String) throws -> [TokenListing] {
        guard let account = try account(id) else { throw Failure.unknownAccount(id) }
        return try table.tokens(of: account.accountId).map { t in
            func opened(_ sealed: String) -> String {
                (try? self.opened(sealed, accountId: account.accountId, context: Self.deviceContext)) ?? ""
            }
            return TokenListing(
                id: t.id, name: t.name.map(opened), device: opened(t.device), scope: t.scope, createdAt: Timestamp(millis: t.createdAt),
                expiresAt: t.expiresAt.map { Timestamp(millis: $0) }, revokedAt: t.revokedAt.map { Timestamp(millis: $0) })
        }
    }

    /// Revokes a token; it answers 401 from the next request on.
    public func revokeToken(_ token: String) throws {
        guard try table.revokeToken(hash: Self.hash(token), at: Timestamp.now().millis) else { throw Failure.unknownToken }
    }

    /// Revokes the token a list showed with this id (or the start of it, 8 hex digits at least).
    public func revokeToken(id: String) throws {
        let hex = id.lowercased()
        guard hex.count >= 8, hex.count <= StoredToken.idBytes * 2, hex.count % 2 == 0, hex.allSatisfy(\.isHexDigit) else {
            throw Failure.unknownToken
        }
        let prefix = stride(from: 0, to: hex.count, by: 2).map { i -> UInt8 in
            let start = hex.index(hex.startIndex, offsetBy: i)
            return UInt8(hex[start..<hex.index(start, offsetBy: 2)], radix: 16)!
        }
        let found = try table.tokenHashes(withPrefix: prefix)
        guard found.count <= 1 else { throw Failure.ambiguousTokenId(id) }
        guard let hash = found.first, try table.revokeToken(hash: hash, at: Timestamp.now().millis) else { throw Failure.unknownToken }
    }

    /// The caller a bearer token speaks for; nil for an unknown or revoked token.
    /// The row is found by the token's hash; the stored hash is then compared
    /// in constant time, so timing says nothing about near misses.
    public func caller(token: String, now: Timestamp = .now()) throws -> Caller? { try caller(tokenHash: Self.hash(token), now: now) }

    /// The caller of the token with this hash (a web session keeps the hash, never the token); nil for an
    /// unknown, revoked or expired one.
    public func caller(tokenHash presented: [UInt8], now: Timestamp = .now()) throws -> Caller? {
        guard let found = try table.token(hash: presented), Self.constantTimeEqual(found.token.hash, presented) else { return nil }
        if let expiresAt = found.token.expiresAt, now.millis >= expiresAt { return nil }
        let device: String
        do {
            if let known = openedDevices[found.token.device] {
                device = known
            } else {
                device = try opened(found.token.device, accountId: found.account.accountId, context: Self.deviceContext)
                openedDevices[found.token.device] = device
            }
        } catch AccountKeyStore.Failure.erased {
            // A token a restored backup brought back: its name is gone with the key. It may still erase
            // what the backup restored; everything else answers 410.
            device = ""
        }
        return Caller(account: found.account, device: device, scope: found.token.scope, tokenId: found.token.id)
    }

    /// 256 random bits from the system's generator, in hex: tokens, secrets, session ids.
    package static func randomHex() -> String {
        var rng = SystemRandomNumberGenerator()
        return (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &rng) }.hex
    }

    public static func hash(_ token: String) -> [UInt8] { Array(SHA256.hash(data: Array(token.utf8))) }

    package static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var diff: UInt8 = 0
        for i in a.indices { diff |= a[i] ^ b[i] }
        return diff == 0
    }
}

/// Where accounts and token hashes are kept. Rows only: every rule is
/// `AccountDirectory`'s.
public protocol AccountTable: WebhookTable, SignInTable {
    func insertAccount(_ account: AccountDirectory.Account, createdAt: Int64) throws
    /// The account unless unknown or erased.
    func account(_ id: String) throws -> AccountDirectory.Account?
    /// Every account not erased, oldest first.
    func accounts() throws -> [AccountDirectory.Account]
    func insertToken(_ token: StoredToken) throws
    /// False when no unrevoked token has this hash.
    func revokeToken(hash: [UInt8], at: Int64) throws -> Bool
    /// The unrevoked token with this hash, of an account not erased (expired or not: the rule is the directory's).
    func token(hash: [UInt8]) throws -> (token: StoredToken, account: AccountDirectory.Account)?
    /// Every token of the account, revoked ones too, oldest first.
    func tokens(of account: String) throws -> [StoredToken]
    /// The hashes of the tokens (revoked ones too) whose hash begins with `prefix`: a listed id found again.
    func tokenHashes(withPrefix prefix: [UInt8]) throws -> [[UInt8]]
    /// Removes an account that never came into use (an import that failed).
    func removeAccount(_ id: String) throws
    /// Replaces the stored name (sealing the name of an account stored before names were sealed).
    func replaceName(_ id: String, with name: String) throws
    /// Notes that `client`'s log grants `coaches` read access (`CoachClientIndex`); a pair noted already is kept.
    func indexCoachClients(client: String, coaches: Set<String>) throws
    /// The accounts, not erased, noted as having granted `coach` access, oldest first.
    func indexedClients(of coach: String) throws -> [AccountDirectory.Account]
    /// Whether the logs written before the index existed have been indexed.
    func coachClientsIndexed() throws -> Bool
    func markCoachClientsIndexed() throws
    /// Stores a new invite (its code only as a hash).
    func insertInvite(_ invite: CoachInvite) throws
    /// A coach's invites, newest first.
    func invites(of coach: String) throws -> [CoachInvite]
    /// The invite whose code has this hash.
    func invite(codeHash: [UInt8]) throws -> CoachInvite?
    /// Withdraws an unused invite of this coach → false when there is none to withdraw.
    func revokeInvite(_ id: String, coach: String, at: Int64) throws -> Bool
    /// Marks an invite used by `client` if it is still open at `at` → false when another request used,
    /// revoked or outlived it first (the update is the check: two clients never both use one code).
    func useInvite(_ id: String, client: String, at: Int64) throws -> Bool
    /// Claims a store purchase (its `originalTransactionId`) for `account` unless an account claimed it
    /// first → the account that holds it. Server-wide: one purchase opens one account's Coach product.
    func claimPurchase(_ originalTransactionId: String, account: String, at: Int64) throws -> String
}

/// Sealed names and their clear text, bounded (cleared past 10,000: a server has that many devices at most in use).
final class OpenedNames: @unchecked Sendable {
    private let lock = NSLock()
    private var names: [String: String] = [:]

    package subscript(sealed: String) -> String? {
        get { lock.withLock { names[sealed] } }
        set {
            lock.withLock {
                if names.count >= 10_000 { names.removeAll() }
                names[sealed] = newValue
            }
        }
    }
}
