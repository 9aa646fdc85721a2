import Foundation

/// Work on a thread of its own, started when it is made, and awaited later without holding a thread.
/// A child task (`async let`, a task group) starts only when the cooperative pool has a thread free,
/// and the suite's blocking CLI runs can hold both of a 2-core machine's for minutes.
final class ThreadRun: @unchecked Sendable {
    private let lock = NSLock()
    private var result: Result<Void, any Error>?
    private var waiter: CheckedContinuation<Void, any Error>?

    init(_ body: @escaping @Sendable () throws -> Void) {
        Thread { [self] in
            let outcome = Result { try body() }
            lock.lock()
            let waiting = waiter
            waiter = nil
            if waiting == nil { result = outcome }
            lock.unlock()
            waiting?.resume(with: outcome)
        }.start()
    }

    /// Returns when the work has ended; throws what it threw.
    func value() async throws {
        try await withCheckedThrowingContinuation { (waiting: CheckedContinuation<Void, any Error>) in
            lock.lock()
            if let result {
                lock.unlock()
                waiting.resume(with: result)
            } else {
                waiter = waiting
                lock.unlock()
            }
        }
    }

    /// What `body` returns, made on a thread of its own.
    static func value<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        let made = Made<T>()
        try await ThreadRun { made.set(try body()) }.value()
        return try made.get()
    }

    private final class Made<T: Sendable>: @unchecked Sendable {
        private let lock = NSLock()
        private var made: T?
        func set(_ value: T) { lock.withLock { made = value } }
        func get() throws -> T {
            guard let made = lock.withLock({ made }) else { throw CancellationError() }
            return made
        }
    }

    /// Waits for every run to end, then throws the first failure among them, if any.
    static func waitForAll(_ runs: [ThreadRun]) async throws {
        var failure: (any Error)?
        for run in runs {
            do { try await run.value() } catch { failure = failure ?? error }
        }
        if let failure { throw failure }
    }
}
