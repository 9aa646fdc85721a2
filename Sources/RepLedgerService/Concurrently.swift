import Foundation

/// Blocking work that is independent per index (each account's log), done
/// on every core by `DispatchQueue.concurrentPerform`.
enum Concurrently {
    /// `make(0..<count)` in index order; the first error by index is rethrown.
    package static func map<T: Sendable>(_ count: Int, _ make: @Sendable (Int) throws -> T) throws -> [T] {
        let slots = Slots<T>(count: count)
        DispatchQueue.concurrentPerform(iterations: count) { i in
            do { slots.set(i, .success(try make(i))) } catch { slots.set(i, .failure(error)) }
        }
        return try slots.values()
    }

    private final class Slots<T: Sendable>: @unchecked Sendable {
        private let lock = NSLock()
        private var results: [Result<T, any Error>?]

        init(count: Int) { results = Array(repeating: nil, count: count) }

        func set(_ i: Int, _ result: Result<T, any Error>) { lock.withLock { results[i] = result } }

        func values() throws -> [T] { try lock.withLock { try results.map { try $0!.get() } } }
    }
}
