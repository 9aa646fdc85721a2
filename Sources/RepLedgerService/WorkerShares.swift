import Foundation

/// Fair use of the blocking workers: one account runs at most `share` pieces
/// of blocking work at once, and its further work waits its turn (first come,
/// first served) without holding a worker, so another account's request finds
/// a worker free however many requests the first has in progress.
public final class WorkerShares: @unchecked Sendable {
    /// Pieces of work one account may run at once: half the workers, at least one.
    public let share: Int
    private let lock = NSLock()
    private var running: [String: Int] = [:]
    private var waiting: [String: [CheckedContinuation<Void, Never>]] = [:]

    public init(workers: Int) { share = max(1, workers / 2) }

    /// The account whose request the current task serves, set by the routes' authentication.
    @TaskLocal public static var account: String?

    /// Runs `work` within `account`'s share (unbounded when no account is known).
    public func run<T>(for account: String?, _ work: () async throws -> T) async throws -> T {
        guard let account else { return try await work() }
        await acquire(account)
        defer { release(account) }
        return try await work()
    }

    private func acquire(_ account: String) async {
        await withCheckedContinuation { continuation in
            let admitted = lock.withLock { () -> Bool in
                let n = running[account, default: 0]
                if n < share {
                    running[account] = n + 1
                    return true
                }
                waiting[account, default: []].append(continuation)
                return false
            }
            if admitted { continuation.resume() }
        }
    }

    /// The account's next waiting piece takes the place, else the place is given back.
    private func release(_ account: String) {
        let next = lock.withLock { () -> CheckedContinuation<Void, Never>? in
            if var queue = waiting[account], !queue.isEmpty {
                let first = queue.removeFirst()
                waiting[account] = queue.isEmpty ? nil : queue
                return first
            }
            let n = running[account, default: 1] - 1
            running[account] = n > 0 ? n : nil
            return nil
        }
        next?.resume()
    }
}
