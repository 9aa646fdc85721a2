import Crypto
import Foundation
import RepLedgerAccounts
import RepLedgerCore

/// The coach dashboard's signed-in browsers. A session is a random id in an
/// `HttpOnly`, `SameSite=Strict` cookie; the server keeps only its SHA-256,
/// the hash of the token that signed in (so a revoked token ends the session
/// at its next request), and the session's CSRF token, which every form
/// carries. Sessions live in this process's memory for 12 hours: a restart,
/// or another server process, asks the coach to sign in again. Each account
/// keeps at most `perAccount` sessions (a sign-in past it ends that account's
/// oldest), so one coach signing in again and again signs out nobody else.
package final class CoachWebSessions: @unchecked Sendable {
    package struct Session: Sendable {
        package var tokenHash: [UInt8]
        package var account: String
        package var csrf: String
        package var expiresAt: ContinuousClock.Instant
    }

    static let lifetime: Duration = .seconds(12 * 3600)
    /// Sessions of one account: its coach's browsers and devices, with room to spare.
    package static let perAccount = 16
    /// Beyond this many in all (625 accounts at their cap), the oldest half goes: a bound on memory, not a quota.
    package static let limit = 10_000

    private let lock = NSLock()
    private var sessions: [[UInt8]: Session] = [:]

    package init() {}

    /// A new session of `account` for the token with this hash → (cookie value, CSRF token).
    package func open(tokenHash: [UInt8], account: String) -> (id: String, csrf: String) {
        let id = Self.random(), csrf = Self.random()
        lock.withLock {
            let now = ContinuousClock.now
            sessions = sessions.filter { $0.value.expiresAt > now }
            let own = sessions.filter { $0.value.account == account }
            if own.count >= Self.perAccount {
                for key in own.sorted(by: { $0.value.expiresAt < $1.value.expiresAt }).prefix(own.count - Self.perAccount + 1).map(\.key) {
                    sessions[key] = nil
                }
            }
            if sessions.count >= Self.limit {
                for key in sessions.sorted(by: { $0.value.expiresAt < $1.value.expiresAt }).prefix(Self.limit / 2).map(\.key) { sessions[key] = nil }
            }
            sessions[Self.key(id)] = Session(tokenHash: tokenHash, account: account, csrf: csrf, expiresAt: now + Self.lifetime)
        }
        return (id, csrf)
    }

    /// The live session of a cookie value.
    package func session(_ id: String) -> Session? {
        lock.withLock {
            let key = Self.key(id)
            guard let s = sessions[key] else { return nil }
            guard s.expiresAt > .now else {
                sessions[key] = nil
                return nil
            }
            return s
        }
    }

    package func close(_ id: String) { _ = lock.withLock { sessions.removeValue(forKey: Self.key(id)) } }

    package static func key(_ id: String) -> [UInt8] { Array(SHA256.hash(data: Array(id.utf8))) }

    /// 256 random bits, hex.
    package static func random() -> String { AccountDirectory.randomHex() }

    /// Compares two secrets in constant time.
    package static func same(_ a: String, _ b: String) -> Bool { AccountDirectory.constantTimeEqual(Array(a.utf8), Array(b.utf8)) }
}
