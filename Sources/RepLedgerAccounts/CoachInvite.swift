import Crypto
import Foundation
import RepLedgerCore

/// A coach's one-time invite (SERVER-CONTRACT.md §8): a short code the coach hands a
/// client, stored only as its SHA-256, expiring, revocable. Redeeming it
/// tells the client's device which coach to grant; the grant itself is an
/// event the device records in the client's own log.
public struct CoachInvite: Sendable, Equatable {
    public var inviteId: String
    public var coachId: String
    public var codeHash: [UInt8]
    /// Sealed under the coach's key, as account names are.
    public var note: String
    public var createdAt: Int64
    public var expiresAt: Int64
    public var usedAt: Int64?
    public var usedBy: String?
    public var revokedAt: Int64?

    public init(
        inviteId: String, coachId: String, codeHash: [UInt8], note: String, createdAt: Int64, expiresAt: Int64,
        usedAt: Int64? = nil, usedBy: String? = nil, revokedAt: Int64? = nil
    ) {
        self.inviteId = inviteId
        self.coachId = coachId
        self.codeHash = codeHash
        self.note = note
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.usedAt = usedAt
        self.usedBy = usedBy
        self.revokedAt = revokedAt
    }

    /// How long a code stays usable.
    public static let lifetimeMillis: Int64 = 7 * 86_400_000

    public enum State: String, Sendable { case open, used, expired, revoked }

    public func state(at now: Int64) -> State {
        if usedAt != nil { return .used }
        if revokedAt != nil { return .revoked }
        return now >= expiresAt ? .expired : .open
    }

    /// The code's alphabet: Crockford's base 32, no I, L, O or U, so a code read aloud or
    /// copied by hand survives; 12 characters are 60 random bits, for a code that lives a week and works once.
    static let alphabet = Array("0123456789ABCDEFGHJKMNPQRSTVWXYZ")

    /// A new code, shown once: `XXXX-XXXX-XXXX`.
    package static func newCode() -> String {
        var rng = SystemRandomNumberGenerator()
        let chars = (0..<12).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &rng)] }
        return stride(from: 0, to: 12, by: 4).map { String(chars[$0..<$0 + 4]) }.joined(separator: "-")
    }

    /// The hash a code is stored and found by: of its letters, uppercased, without dashes or spaces
    /// (so `abcd efgh-jkmn` finds `ABCD-EFGH-JKMN`); nil when it cannot be a code.
    package static func hash(code: String) -> [UInt8]? {
        let letters = code.uppercased().filter { $0 != "-" && $0 != " " }
        guard letters.count == 12, letters.allSatisfy(alphabet.contains) else { return nil }
        return Array(SHA256.hash(data: Array(letters.utf8)))
    }
}
