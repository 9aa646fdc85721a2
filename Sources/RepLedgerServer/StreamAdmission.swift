import Foundation
import RepLedgerService

/// Live streams hold a connection each for as long as they are open, so
/// they are counted apart from requests in progress: per token, per account,
/// per source address and in all, each under its own cap (429 past it), so one
/// token, account or address cannot take the connections everyone else's
/// requests need. A quarter of the budget is kept for accounts that hold no
/// stream: accounts anyone can make cannot fill it between them.
final class StreamAdmission: Sendable {
    let limits: ConnectionLimits
    private let counts = CountsByKey()

    init(limits: ConnectionLimits) { self.limits = limits }

    /// An open stream's place, given back once: when its client goes away, or when the stream's
    /// response is gone (however it ended), whichever comes first.
    final class Slot: @unchecked Sendable {
        private let lock = NSLock()
        private var giveBack: (@Sendable () -> Void)?
        init(release: @escaping @Sendable () -> Void) { giveBack = release }
        func release() {
            lock.withLock { () -> (@Sendable () -> Void)? in
                defer { giveBack = nil }; return giveBack
            }?()
        }
        deinit { release() }
    }

    /// A place for one more stream of `account` through the token with id `tokenId` (its hash's first bytes: the
    /// token itself is never kept, even in memory), from `address`, or 429.
    func admit(account: String, tokenId: String, address: String) throws -> Slot {
        let token = "token:" + tokenId
        let accountKey = "account:" + account, budget = limits.streamBudget
        // Accounts already streaming share three quarters; the last quarter is only for an account's first stream.
        let holdsNone = counts.held(accountKey) == 0
        let keys = [
            ("all", holdsNone ? budget : max(1, budget - budget / 4), "the server"),
            ("address:" + SourceAddress.key(address), limits.maximumStreamsPerAddress, "this address"),
            (accountKey, limits.maximumStreamsPerAccount, "this account"), (token, limits.maximumStreamsPerToken, "this token"),
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
