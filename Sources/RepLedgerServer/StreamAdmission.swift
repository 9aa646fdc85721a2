import Crypto
import Foundation
import RepLedgerService

/// Live streams hold a connection each for as long as they are open, so
/// they are counted apart from requests in progress: per token, per account
/// and in all, each under its own cap (429 past it), so one token or one
/// account cannot take the connections everyone else's requests need.
final class StreamAdmission: Sendable {
    let limits: ConnectionLimits
    private let counts = CountsByKey()

    init(limits: ConnectionLimits) { self.limits = limits }

    /// An open stream's place, given back when the stream's response is gone (however it ended).
    final class Slot: Sendable {
        private let release: @Sendable () -> Void
        init(release: @escaping @Sendable () -> Void) { self.release = release }
        deinit { release() }
    }

    /// A place for one more stream of `account` through the token of `authorization`, or 429.
    func admit(account: String, authorization: String?) throws -> Slot {
        // The token itself is never kept, even in memory: its hash names it.
        let token = "token:" + SHA256.hash(data: Data((authorization ?? "").utf8)).map { String($0, radix: 16) }.joined()
        let keys = [
            ("all", limits.streamBudget, "the server"), ("account:" + account, limits.maximumStreamsPerAccount, "this account"),
            (token, limits.maximumStreamsPerToken, "this token"),
        ]
        var admitted: [String] = []
        for (key, limit, whose) in keys {
            guard counts.admit(key, limit: limit) else {
                for key in admitted { counts.release(key) }
                throw APIError(
                    status: 429, code: "tooManyRequests",
                    message: "\(whose) has \(limit) live streams open; close one, or retry in a moment", retryAfterSeconds: 1)
            }
            admitted.append(key)
        }
        return Slot { [counts, admitted] in for key in admitted { counts.release(key) } }
    }
}
