/// A six-digit sign-in code waiting for its email address to be verified: kept
/// only as hashes (the address's and the code's), so the table names no one.
public struct SignInCode: Sendable, Equatable {
    /// SHA-256 of the normalized address.
    public var email: [UInt8]
    public var codeHash: [UInt8]
    public var expiresAt: Int64
    /// Wrong codes tried against it; at `SignInRules.codeAttempts` it is dead.
    public var attempts: Int

    public init(email: [UInt8], codeHash: [UInt8], expiresAt: Int64, attempts: Int = 0) {
        self.email = email
        self.codeHash = codeHash
        self.expiresAt = expiresAt
        self.attempts = attempts
    }
}

/// Where the accounts people make themselves keep their ways in: which Apple
/// user or email address (both as hashes) opens which account, the codes sent
/// and not yet used, the proofs used once (an Apple identity token is never
/// accepted twice), and the token hashes an erasure removed (so an erased
/// account's devices hear 410, not 401). Rows only: the rules are `SignInDesk`'s.
public protocol SignInTable: Sendable {
    /// The account (not erased) this provider's subject signs in to.
    func identityAccount(provider: String, subject: [UInt8]) throws -> String?
    /// Links the subject to `account` unless it is linked already → the account it opens (the first
    /// link wins: two first sign-ins at once make one account, and the loser's is removed).
    func claimIdentity(provider: String, subject: [UInt8], account: String, at: Int64) throws -> String
    /// The address's code, replacing any earlier one (a new code ends the old).
    func replaceCode(_ code: SignInCode) throws
    func code(email: [UInt8]) throws -> SignInCode?
    /// Counts one wrong code against the address's code.
    func countWrongCode(email: [UInt8]) throws
    /// Deletes the address's code if it is this one → false when another request used it first.
    func consumeCode(email: [UInt8], codeHash: [UInt8]) throws -> Bool
    /// Records a proof as used until `expiresAt` → false when it was used already (a replay).
    /// Proofs past their expiry are forgotten here (they are refused as expired anyway).
    func claimOnce(_ proof: [UInt8], expiresAt: Int64, now: Int64) throws -> Bool
    /// Whether an erasure removed a token with this hash.
    func wasErased(tokenHash: [UInt8]) throws -> Bool
}
