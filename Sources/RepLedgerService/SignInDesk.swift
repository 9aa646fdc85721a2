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
/// has an account. Attempts are limited per source (an IPv4 address, an IPv6
/// /64) and per email *and* source: a code is bound to the source that asked
/// for it and dies after a few wrong tries, so nobody elsewhere can guess it,
/// spend it or lock its owner out (`SignInLimits`).
public final class SignInDesk: Sendable {
    public struct Settings: Sendable {
        /// Identity tokens are checked against these keys and this app (`--apple-keys`, `--apple-client-id`).
        public var apple: AppleIdentityVerifier?
        /// Codes leave through this command (`--mail-command`): the message on its standard input.
        public var mailCommand: String?
        /// Where the account page sends a browser to sign in with Apple (Apple's own; a test's stand-in).
        public var appleAuthorizeURL = "https://appleid.apple.com/auth/authorize"
        /// The server's address as people's browsers reach it (`--public-url`, no trailing slash): where
        /// Apple is told to send a browser back.
        public var publicURL: String?
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
            SignInCode(
                email: Self.codeKey(email, source: SourceAddress.key(address)), codeHash: Self.codeHash(code, email: email),
                expiresAt: now.millis + Self.codeLifetimeMillis))
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
        let key = Self.codeKey(email, source: SourceAddress.key(address))
        let presented = Self.codeHash(code.trimmingCharacters(in: .whitespaces), email: email)
        guard let stored = try accounts.table.code(email: key), stored.expiresAt > now.millis, stored.attempts < Self.codeAttempts else {
            countWrongCode(email: email, address: address)
            throw refused
        }
        guard AccountDirectory.constantTimeEqual(stored.codeHash, presented) else {
            try accounts.table.countWrongCode(email: key)
            countWrongCode(email: email, address: address)
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

    /// 429 past the limits this attempt counts against (`SignInLimits`): the source's attempts of every
    /// kind; for a send, the codes this source had sent to the email and the email's ceiling (which a
    /// source asking for the first time passes); for a try, this source's wrong codes for the email and
    /// the email's wrong codes today (which a source that tried none today passes).
    func limit(address: String, email: String?, sending: Bool = false) throws {
        let l = settings.limits, source = SourceAddress.key(address)
        var quotas = [("sign-in-address", "a:" + source, l.attemptsPerAddress)]
        if let email {
            let pair = email + "\n" + source
            if sending {
                let fresh = counts.standing("s:" + pair).count == 0
                quotas += [("codes-source", "s:" + pair, l.codesPerSource), ("codes-email", "S:" + email, fresh ? Int.max : l.codesPerEmail)]
            } else {
                let mine = counts.standing("w:" + pair), today = counts.standing("W:" + email), mineToday = counts.standing("D:" + pair)
                if mine.count >= l.wrongCodesPerSource { throw Self.tooMany(retryAfter: mine.resetSeconds) }
                if today.count >= l.wrongCodesPerEmailPerDay && mineToday.count > 0 { throw Self.tooMany(retryAfter: today.resetSeconds) }
            }
        }
        let charge = counts.charge(quotas, windowSeconds: l.windowSeconds)
        guard charge.allowed else { throw Self.tooMany(retryAfter: charge.retryAfterSeconds ?? l.windowSeconds) }
    }

    /// Counts a wrong (or dead) code against this source for the email, in the window and in the day.
    func countWrongCode(email: String, address: String) {
        let l = settings.limits, pair = email + "\n" + SourceAddress.key(address)
        _ = counts.charge([("wrong-codes", "w:" + pair, Int.max)], windowSeconds: l.windowSeconds)
        _ = counts.charge([("wrong-codes-email-day", "W:" + email, Int.max), ("wrong-codes-day", "D:" + pair, Int.max)], windowSeconds: l.daySeconds)
    }

    static func tooMany(retryAfter wait: Int) -> APIError {
        APIError(status: 429, code: "tooManyRequests", message: "too many sign-in attempts; retry in \(wait) s", retryAfterSeconds: wait)
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

    /// Where the code sent to `email` at the request of `source` is kept: one per pair, so a code asked
    /// for elsewhere never replaces, spends or exposes this one.
    static func codeKey(_ email: String, source: String) -> [UInt8] { AccountDirectory.hash("email:" + email + "\nsource:" + source) }
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

/// How many sign-in attempts are allowed, in windows of `windowSeconds` (10 minutes) unless said.
/// A source is an IPv4 address or an IPv6 /64 (`SourceAddress`).
public struct SignInLimits: Sendable, Equatable {
    /// Sign-in requests of every kind from one source.
    public var attemptsPerAddress = 30
    /// Codes one source may have sent to one email.
    public var codesPerSource = 5
    /// Codes sent to one email from every source: a ceiling against flooding an inbox, which a
    /// source asking for the first time in the window passes, so the address's owner can always get a code.
    public var codesPerEmail = 20
    /// Wrong codes one source may try for one email (each code also dies after `SignInDesk.codeAttempts`).
    public var wrongCodesPerSource = 10
    /// Wrong codes tried for one email in a day from every source, so six digits cannot be guessed
    /// window after window; past it, only a source that has tried none today is heard.
    public var wrongCodesPerEmailPerDay = 50
    public var windowSeconds = 600
    public var daySeconds = 86_400
    public init() {}
}
