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
/// oldest), so one coach signing in again and again signs out nobody else;
/// and past `limit` in all, the fullest account gives up its oldest, so
/// throw-away accounts cannot sign out the people using the site.
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
    /// Sessions in all, a bound on memory (about 25 MB), not a quota: past it, the account holding the
    /// most sessions loses its oldest, so accounts made to fill it sign out only each other.
    package let limit: Int

    private let lock = NSLock()
    private var sessions: [[UInt8]: Session] = [:]
    /// Each account's sessions, oldest first.
    private var byAccount: [String: [[UInt8]]] = [:]

    package init(limit: Int = 100_000) { self.limit = limit }

    /// A new session of `account` for the token with this hash → (cookie value, CSRF token).
    package func open(tokenHash: [UInt8], account: String) -> (id: String, csrf: String) {
        let id = Self.random(), csrf = Self.random()
        lock.withLock {
            let now = ContinuousClock.now
            for key in byAccount[account] ?? [] where sessions[key].map({ $0.expiresAt <= now }) ?? true { remove(key) }
            // One sign-in too many ends this account's oldest, and no one else's.
            while let own = byAccount[account], own.count >= Self.perAccount { remove(own[0]) }
            if sessions.count >= limit {
                for (key, session) in sessions where session.expiresAt <= now { remove(key) }
                while sessions.count >= limit, let fullest = byAccount.max(by: { $0.value.count < $1.value.count })?.value.first { remove(fullest) }
            }
            let key = Self.key(id)
            sessions[key] = Session(tokenHash: tokenHash, account: account, csrf: csrf, expiresAt: now + Self.lifetime)
            byAccount[account, default: []].append(key)
        }
        return (id, csrf)
    }

    /// Forgets a session (under the lock).
    private func remove(_ key: [UInt8]) {
        guard let session = sessions.removeValue(forKey: key) else { return }
        byAccount[session.account]?.removeAll { $0 == key }
        if byAccount[session.account]?.isEmpty == true { byAccount[session.account] = nil }
    }

    /// The live session of a cookie value.
    package func session(_ id: String) -> Session? {
        lock.withLock {
            let key = Self.key(id)
            guard let s = sessions[key] else { return nil }
            guard s.expiresAt > .now else {
                remove(key)
                return nil
            }
            return s
        }
    }

    package func close(_ id: String) { lock.withLock { remove(Self.key(id)) } }

    package static func key(_ id: String) -> [UInt8] { Array(SHA256.hash(data: Array(id.utf8))) }

    /// 256 random bits, hex.
    package static func random() -> String { AccountDirectory.randomHex() }

    /// Compares two secrets in constant time.
    package static func same(_ a: String, _ b: String) -> Bool { AccountDirectory.constantTimeEqual(Array(a.utf8), Array(b.utf8)) }
}
