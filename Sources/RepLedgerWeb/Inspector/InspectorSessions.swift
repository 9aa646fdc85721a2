import Foundation

/// Who may read the inspector: `ledger inspect` prints an address with a
/// one-time code; opening it once trades the code for a session cookie and
/// redirects, so the address bar and the history keep only a spent code. The
/// server keeps SHA-256 hashes of codes and sessions, never the values, and
/// each session's CSRF token, which the Rules form carries.
package final class InspectorSessions: @unchecked Sendable {
    static let sessionLifetime: Duration = .seconds(12 * 3600)
    /// Sessions kept at once: one person's browsers, with room to spare.
    static let limit = 64

    private let lock = NSLock()
    private let codes = OneTimeCodes()
    private var sessions: [[UInt8]: (until: ContinuousClock.Instant, csrf: String)] = [:]

    package init() {}

    /// A new one-time code, valid for 15 minutes.
    package func newCode() -> String { codes.newCode() }

    /// Spends a code → a new session's cookie value, or nil for a code unknown, spent or expired.
    package func open(code: String) -> String? {
        guard codes.spend(code) else { return nil }
        return lock.withLock {
            let id = CoachWebSessions.random()
            let now = ContinuousClock.now
            sessions = sessions.filter { $0.value.until > now }
            if sessions.count >= Self.limit, let oldest = sessions.min(by: { $0.value.until < $1.value.until })?.key { sessions[oldest] = nil }
            sessions[CoachWebSessions.key(id)] = (now + Self.sessionLifetime, CoachWebSessions.random())
            return id
        }
    }

    /// The CSRF token of a live session; nil when the cookie names none.
    package func csrf(_ id: String) -> String? {
        lock.withLock {
            guard let s = sessions[CoachWebSessions.key(id)], s.until > .now else { return nil }
            return s.csrf
        }
    }
}

/// Codes that work once, for 15 minutes: what `ledger inspect` and `ledger app` print in the address to open.
/// Kept as SHA-256 hashes, never the values.
package final class OneTimeCodes: @unchecked Sendable {
    static let lifetime: Duration = .seconds(15 * 60)
    private let lock = NSLock()
    private var codes: [[UInt8]: ContinuousClock.Instant] = [:]

    package init() {}

    /// A new code.
    package func newCode() -> String {
        let code = CoachWebSessions.random()
        lock.withLock {
            let now = ContinuousClock.now
            codes = codes.filter { $0.value > now }
            codes[CoachWebSessions.key(code)] = now + Self.lifetime
        }
        return code
    }

    /// Spends a code → whether it was live (not unknown, spent or expired).
    package func spend(_ code: String) -> Bool {
        lock.withLock {
            guard let until = codes.removeValue(forKey: CoachWebSessions.key(code)) else { return false }
            return until > .now
        }
    }
}
