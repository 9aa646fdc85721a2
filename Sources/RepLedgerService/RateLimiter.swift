import Foundation

/// The published limits: requests and appends a minute, per key (token) and per account (its keys
/// together). 0 turns one off. Each server process counts its own.
public struct RateLimits: Sendable, Equatable {
    public var requestsPerKey = 600
    public var requestsPerAccount = 1200
    public var appendsPerKey = 300
    public var appendsPerAccount = 600
    /// Every limit counts in windows of this many seconds (a minute; tests take longer ones).
    public var windowSeconds = 60

    public init() {}

    /// No limit at all.
    public static var off: RateLimits {
        var l = RateLimits()
        (l.requestsPerKey, l.requestsPerAccount, l.appendsPerKey, l.appendsPerAccount) = (0, 0, 0, 0)
        return l
    }
}

/// Counts requests and appends per key and per account, each in windows of a minute that begin
/// with its first request (fixed windows, so `RateLimit` can say exactly when one ends), and says
/// whether one more is within every limit (if not, nothing is counted).
public final class RateLimiter: @unchecked Sendable {
    public enum Kind: String, Sendable { case requests, appends }

    /// One limit as it stands after a charge: its name (`requests-key`, `appends-account`, …), its quota,
    /// what remains of it and the seconds until its window ends.
    public struct Standing: Sendable, Equatable {
        public var policy: String
        public var quota: Int
        public var remaining: Int
        public var resetSeconds: Int
    }

    public struct Charge: Sendable {
        public var allowed: Bool
        /// The limits this charge counted against (or, refused, would have).
        public var standings: [Standing]
        /// The exhausted one's wait, when refused.
        public var retryAfterSeconds: Int? { allowed ? nil : standings.filter { $0.remaining == 0 }.map(\.resetSeconds).max() }
    }

    public let limits: RateLimits
    /// The most keys kept at once: past it, ended windows go, then the oldest half (so no stream of
    /// new keys, refused or not, grows the memory without end).
    public let maximumKeys: Int
    private let lock = NSLock()
    /// Each counted key's window: when it began, how long it lasts and what it counted.
    private var windows: [String: (start: Double, length: Double, count: Int)] = [:]

    public init(limits: RateLimits, maximumKeys: Int = 100_000) {
        self.limits = limits
        self.maximumKeys = maximumKeys
    }

    /// The policies in force, for `RateLimit-Policy`.
    public var policies: [(name: String, quota: Int)] {
        [
            ("requests-key", limits.requestsPerKey), ("requests-account", limits.requestsPerAccount), ("appends-key", limits.appendsPerKey),
            ("appends-account", limits.appendsPerAccount),
        ].filter { $0.1 > 0 }
    }

    /// How many keys are counted just now.
    public var keyCount: Int { lock.withLock { windows.count } }

    /// Counts one `kind` for the key and its account, unless a limit is reached (then counts nothing).
    public func charge(_ kind: Kind, key: String, account: String, now: Date = Date()) -> Charge {
        let quotas: [(String, String, Int)] =
            kind == .requests
            ? [("requests-key", "k:" + key, limits.requestsPerKey), ("requests-account", "a:" + account, limits.requestsPerAccount)]
            : [("appends-key", "K:" + key, limits.appendsPerKey), ("appends-account", "A:" + account, limits.appendsPerAccount)]
        return charge(quotas, windowSeconds: limits.windowSeconds, now: now)
    }

    /// What `key` has counted in its window so far and the seconds until that window ends (0 and 0
    /// once it ended, or if it never counted).
    public func standing(_ key: String, now: Date = Date()) -> (count: Int, resetSeconds: Int) {
        let t = now.timeIntervalSince1970
        return lock.withLock {
            guard let w = windows[key], t < w.start + w.length else { return (0, 0) }
            return (w.count, max(1, Int((w.start + w.length - t).rounded(.up))))
        }
    }

    /// Counts one against each quota (its policy's name, the key it counts, its size; 0 is no limit) in
    /// windows of `windowSeconds`, unless one is reached (then counts nothing, and keeps no new key).
    /// The sign-in limits use it too.
    public func charge(_ quotas: [(String, String, Int)], windowSeconds: Int, now: Date = Date()) -> Charge {
        let applied = quotas.filter { $0.2 > 0 }
        guard !applied.isEmpty else { return Charge(allowed: true, standings: []) }
        let t = now.timeIntervalSince1970, window = Double(windowSeconds)
        return lock.withLock {
            let current = applied.map { q -> (start: Double, length: Double, count: Int) in
                guard let w = windows[q.1], t < w.start + w.length else { return (t, window, 0) }
                return w
            }
            let allowed = zip(applied, current).allSatisfy { $0.1.count < $0.0.2 }
            if allowed {
                for (q, w) in zip(applied, current) { windows[q.1] = (w.start, w.length, w.count + 1) }
                if windows.count > maximumKeys { shed(at: t) }
            }
            return Charge(
                allowed: allowed,
                standings: zip(applied, current).map { q, w in
                    Standing(
                        policy: q.0, quota: q.2, remaining: max(0, q.2 - w.count - (allowed ? 1 : 0)),
                        resetSeconds: max(1, Int((w.start + w.length - t).rounded(.up))))
                })
        }
    }

    /// Drops the ended windows, then, if that is not enough, the oldest half (under the lock).
    private func shed(at t: Double) {
        windows = windows.filter { t < $0.value.start + $0.value.length }
        guard windows.count > maximumKeys / 2 else { return }
        let cut = windows.values.map(\.start).sorted()[windows.count / 2]
        windows = windows.filter { $0.value.start > cut }
    }
}
