import Crypto
import Foundation
import RepLedgerAccounts
import RepLedgerCore

/// Accounts people make themselves, with no operator: Sign in with Apple and
/// six-digit codes sent by email. The first sign-in makes the account; later
/// ones find it (by Apple's stable user id, or by the address), and each
/// gives the device that signed in a token of its own, shown once. What the
/// tables keep of a person is hashes: of the Apple user id, of the address,
/// of the code. Every refusal is one line that never says whether an address
/// has an account; attempts are limited per caller's address and per email.
public final class SignInDesk: Sendable {
    public struct Settings: Sendable {
        /// Identity tokens are checked against these keys and this app (`--apple-keys`, `--apple-client-id`).
        public var apple: AppleIdentityVerifier?
        /// Codes leave through this command (`--mail-command`): the message on its standard input.
        public var mailCommand: String?
        /// Where the account page sends a browser to sign in with Apple (Apple's own; a test's stand-in).
        public var appleAuthorizeURL = "https://appleid.apple.com/auth/authorize"
        public var limits = SignInLimits()
        public init(apple: AppleIdentityVerifier? = nil, mailCommand: String? = nil) {
            self.apple = apple
            self.mailCommand = mailCommand
        }
    }

    /// A signed-in device: its account, whether this sign-in made it, and the device's token (shown once).
    public struct SignedIn: Sendable {
        public var accountId: String
        public var created: Bool
        public var token: String
        public var tokenId: String

        public var json: JSONValue {
            .object([("accountId", .string(accountId)), ("created", .bool(created)), ("token", .string(token)), ("tokenId", .string(tokenId))])
        }
    }

    public let accounts: AccountDirectory
    public let settings: Settings
    let counts = RateLimiter(limits: .off)
    /// Where codes wait to be mailed, off the request path (none without `--mail-command`).
    let mail: MailQueue?

    public init(accounts: AccountDirectory, settings: Settings) {
        self.accounts = accounts
        self.settings = settings
        mail = settings.mailCommand.map(MailQueue.init(command:))
    }

    /// Drops the mail still waiting and kills what is being sent (the server stopping).
    package func closeMail() { mail?.close() }

    static let codeLifetimeMillis: Int64 = 10 * 60 * 1000
    /// Wrong codes a sent code survives: a guess in 200,000 at most before it dies.
    public static let codeAttempts = 5

    // MARK: Sign in with Apple

    /// Signs in (or up) with an identity token made for the raw `nonce`; the device gets a token.
    public func signInWithApple(
        identityToken: String, nonce: String, device: String, name: String?, address: String, tokenExpiresAt: Timestamp? = nil,
        now: Timestamp = .now()
    )
        throws -> SignedIn
    {
        try limit(address: address, email: nil)
        guard let apple = settings.apple else {
            throw APIError(status: 501, code: "notConfigured", message: "this server does not offer Sign in with Apple (no --apple-keys)")
        }
        let identity: AppleIdentityVerifier.Identity, expiresAt: Int64, replayKey: String
        do {
            (identity, expiresAt, replayKey) = try apple.verify(identityToken, nonce: nonce, now: now.millis / 1000)
        } catch {
            throw APIError(status: 401, code: "signInRefused", message: error.description)
        }
        // An identity token opens one sign-in: one seen in a log or a proxy cannot open another.
        // Remembered by what it says, so a re-spelt copy (padding added, `+` for `-`, a changed unused bit) is the same token.
        guard try accounts.table.claimOnce(AccountDirectory.hash("apple-token:" + replayKey), expiresAt: (expiresAt + 60) * 1000, now: now.millis)
        else { throw APIError(status: 401, code: "signInRefused", message: "this identity token was used already: sign in again") }
        return try signIn(
            provider: "apple", subject: identity.subject, device: device, name: name ?? "Apple user", expiresAt: tokenExpiresAt, now: now)
    }

    // MARK: Email codes

    /// Sends a new six-digit code to the address (the one before it stops working). The answer is
    /// the same whether or not the address has an account, and comes at once: the message leaves from
    /// the mail queue's own threads (a slow mail command never holds the caller or a worker).
    public func startEmail(_ email: String, address: String, now: Timestamp = .now()) throws {
        let email = try Self.normalized(email)
        try limit(address: address, email: email, sending: true)
        guard let mail else {
            throw APIError(status: 501, code: "notConfigured", message: "this server does not send email (no --mail-command)")
        }
        let code = Self.newCode()
        try accounts.table.replaceCode(
            SignInCode(email: Self.emailHash(email), codeHash: Self.codeHash(code, email: email), expiresAt: now.millis + Self.codeLifetimeMillis))
        // Sent by the mail queue's own threads: a slow or hung mail command never holds a worker.
        guard mail.enqueue(.init(to: email, subject: "Your RepLedger sign-in code: \(code)", body: Self.message(code))) else {
            throw APIError(status: 503, code: "mail", message: "too many codes are being sent just now; try again in a minute", retryAfterSeconds: 30)
        }
    }

    /// Signs in (or up) with the code sent to the address; the device gets a token. A wrong code
    /// counts against it; the right one works once.
    /// A web session's token ends with the session (`tokenExpiresAt`); a device's lasts until revoked.
    public func verifyEmail(
        _ email: String, code: String, device: String, name: String?, address: String, tokenExpiresAt: Timestamp? = nil, now: Timestamp = .now()
    ) throws
        -> SignedIn
    {
        let email = try Self.normalized(email)
        try limit(address: address, email: email)
        let refused = APIError(status: 401, code: "signInRefused", message: "that code is not valid (wrong, expired or used): ask for a new one")
        let key = Self.emailHash(email), presented = Self.codeHash(code.trimmingCharacters(in: .whitespaces), email: email)
        guard let stored = try accounts.table.code(email: key), stored.expiresAt > now.millis, stored.attempts < Self.codeAttempts else {
            throw refused
        }
        guard AccountDirectory.constantTimeEqual(stored.codeHash, presented) else {
            try accounts.table.countWrongCode(email: key)
            throw refused
        }
        guard try accounts.table.consumeCode(email: key, codeHash: presented) else { throw refused }
        let local = String(email.prefix { $0 != "@" })
        return try signIn(provider: "email", subject: email, device: device, name: name ?? local, expiresAt: tokenExpiresAt, now: now)
    }

    // MARK: The one path in

    /// The account the subject opens (made now if none), and a token for the device.
    func signIn(provider: String, subject: String, device: String, name: String, expiresAt: Timestamp?, now: Timestamp) throws -> SignedIn {
        let key = AccountDirectory.hash(provider + ":" + subject)
        var created = false
        var accountId = try accounts.table.identityAccount(provider: provider, subject: key)
        if accountId == nil {
            let made = try accounts.createAccount(name: String(name.prefix(200)), coach: false)
            let holder = try accounts.table.claimIdentity(provider: provider, subject: key, account: made.accountId, at: now.millis)
            // Another first sign-in of the same person won the link: theirs is the account.
            if holder != made.accountId { try accounts.removeUnusedAccount(made.accountId) } else { created = true }
            accountId = holder
        }
        guard let accountId else { throw APIError.storage("the sign-in could not be recorded; try again") }
        let token: String
        do {
            token = try accounts.createToken(account: accountId, device: device, scope: .full, expiresAt: expiresAt, now: now)
        } catch let failure as AccountDirectory.Failure {
            throw APIError.directory(failure)
        }
        return SignedIn(accountId: accountId, created: created, token: token, tokenId: StoredToken.id(of: AccountDirectory.hash(token)))
    }

    /// 429 past the caller address's sign-in attempts, or the email's (sends, or tries).
    func limit(address: String, email: String?, sending: Bool = false) throws {
        let l = settings.limits
        var quotas = [("sign-in-address", "a:" + address, l.attemptsPerAddress)]
        if let email { quotas.append(sending ? ("codes-email", "s:" + email, l.codesPerEmail) : ("tries-email", "t:" + email, l.attemptsPerEmail)) }
        let charge = counts.charge(quotas, windowSeconds: l.windowSeconds)
        guard charge.allowed else {
            let wait = charge.retryAfterSeconds ?? l.windowSeconds
            throw APIError(
                status: 429, code: "tooManyRequests", message: "too many sign-in attempts; retry in \(wait) s", retryAfterSeconds: wait)
        }
    }

    /// The address as one account knows it: trimmed and lowercased; 400 unless it looks like one.
    static func normalized(_ email: String) throws -> String {
        let e = email.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        let parts = e.split(separator: "@", omittingEmptySubsequences: false)
        // No scalar that misleads a reader (U+202E, U+0085, U+2028), and no leading '-' a mail command could take
        // for an option (quote the address in a mail command all the same: docs/SERVER-AND-COACH.md).
        guard e.utf8.count <= 254, parts.count == 2, !parts[0].isEmpty, !e.hasPrefix("-"), parts[1].contains("."), !parts[1].hasPrefix("."),
            !parts[1].hasSuffix("."),
            e.unicodeScalars.allSatisfy({
                $0.value > 32 && !AccountDirectory.misleads($0) && !"<>,;:\"()[]\\".unicodeScalars.contains($0)
            })
        else { throw APIError.badRequest("that is not an email address") }
        return e
    }

    static func emailHash(_ email: String) -> [UInt8] { AccountDirectory.hash("email:" + email) }
    /// The code bound to its address, so one code's hash says nothing of another address's.
    static func codeHash(_ code: String, email: String) -> [UInt8] { AccountDirectory.hash("code:" + email + ":" + code) }

    static func newCode() -> String {
        var rng = SystemRandomNumberGenerator()
        return String(format: "%06d", Int.random(in: 0..<1_000_000, using: &rng))
    }

    static func message(_ code: String) -> String {
        """
        Your RepLedger sign-in code is \(code).

        It works once, for 10 minutes. If you did not ask to sign in, ignore this message: nothing happens without the code.
        """
    }
}

/// How many sign-in attempts are allowed, in windows of `windowSeconds` (10 minutes).
public struct SignInLimits: Sendable, Equatable {
    /// Sign-in requests of every kind from one address.
    public var attemptsPerAddress = 30
    /// Codes sent to one email.
    public var codesPerEmail = 5
    /// Codes tried for one email (each sent code dies after `SignInDesk.codeAttempts` wrong ones).
    public var attemptsPerEmail = 10
    public var windowSeconds = 600
    public init() {}
}
