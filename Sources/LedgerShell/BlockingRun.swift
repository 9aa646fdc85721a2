import Foundation

/// Runs async work from a synchronous command: the main thread waits while
/// the concurrency pool does the work.
public func blockingRun(_ work: @escaping @Sendable () async throws -> Void) throws {
    final class Outcome: @unchecked Sendable { var error: Error? }
    let outcome = Outcome()
    let done = DispatchSemaphore(value: 0)
    Task {
        do { try await work() } catch { outcome.error = error }
        done.signal()
    }
    done.wait()
    if let error = outcome.error { throw error }
}
