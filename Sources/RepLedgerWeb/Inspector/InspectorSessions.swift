import Foundation

/// Who may read the inspector: `ledger inspect` prints an address with a
/// one-time code; opening it once trades the code for a session cookie and
/// redirects, so the address bar and the history keep only a spent code. The
/// server keeps SHA-256 hashes of codes and sessions, never the values.
package final class InspectorSessions: @unchecked Sendable {
    static let codeLifetime: Duration = .seconds(15 * 60)
    static let sessionLifetime: Duration = .seconds(12 * 3600)
    /// Sessions kept at once: one person's browsers, with room to spare.
    static let limit = 64

    private let lock = NSLock()
    private var codes: [[UInt8]: ContinuousClock.Instant] = [:]
    private var sessions: [[UInt8]: ContinuousClock.Instant] = [:]

    package init() {}

    /// A new one-time code, valid for 15 minutes.
    package func newCode() -> String {
        let code = CoachWebSessions.random()
        lock.withLock { codes[CoachWebSessions.key(code)] = .now + Self.codeLifetime }
        return code
    }

    /// Spends a code → a new session's cookie value, or nil for a code unknown, spent or expired.
    package func open(code: String) -> String? {
        lock.withLock {
            guard let until = codes.removeValue(forKey: CoachWebSessions.key(code)), until > .now else { return nil }
            let id = CoachWebSessions.random()
            let now = ContinuousClock.now
            sessions = sessions.filter { $0.value > now }
            if sessions.count >= Self.limit, let oldest = sessions.min(by: { $0.value < $1.value })?.key { sessions[oldest] = nil }
            sessions[CoachWebSessions.key(id)] = now + Self.sessionLifetime
            return id
        }
    }

    package func isOpen(_ id: String) -> Bool {
        lock.withLock { (sessions[CoachWebSessions.key(id)] ?? .now) > .now }
    }
}
