import Foundation
import RepLedgerCore
import RepLedgerProjections
import RepLedgerSQLite
import RepLedgerSnapshots

/// A workout ledger in one file on a device, as an app holds it.
///
/// Every command appends to an immutable, hash-chained log through the same
/// deciders the `ledger` command line uses, so a refused command appends
/// nothing and throws a `Refusal` whose description is one line a person can
/// read. Reads answer from the queries the CLI and the server print (their
/// value types, `Sendable`), at the head or as the log stood at an earlier
/// point (``LogPoint``).
///
/// `RepLedger` is an actor: calls take turns, so two commands never interleave
/// and a read never sees half of one. A UI observes ``changes()`` for the new
/// head and the streams each append touched.
///
/// ```swift
/// let ledger = try RepLedger(path: "watch.sqlite", device: "watch")
/// let workout = try await ledger.startWorkout(name: "Push")
/// _ = try await ledger.logSet("Bench Press (Barbell)", weightKg: 80, reps: 8, in: workout)
/// try await ledger.finishWorkout(workout)
/// ```
public actor RepLedger {
    /// The log's head: how many events it holds, and the hash that chains them.
    public struct Head: Sendable, Equatable {
        /// The number of events in the log (0 for an empty one): the last event's position.
        public var position: Int64
        /// The last event's chain hash in hex: equal heads hold the same log, byte for byte.
        public var hash: String
    }

    /// What one command (or one sync's pull) appended: the head after it and the streams it touched.
    public struct Change: Sendable, Equatable {
        /// The head after the append.
        public var head: Head
        /// The streams the append touched (`workout-<id>`, `library`, `body`, …), in the order first touched.
        public var streams: [String]
    }

    let store: SQLiteEventStore
    let ledger: Ledger
    /// The rules every read folds under: how records, e1RM, volume and hints are computed.
    public private(set) var rules: RuleSet = .default
    private var observers: [UUID: AsyncStream<Change>.Continuation] = [:]

    /// Opens the ledger at `path`, making the file on first use.
    ///
    /// - Parameters:
    ///   - path: The SQLite file holding the log.
    ///   - device: The name each event recorded here carries (`watch`, `phone`, …).
    /// - Throws: A store error when the file cannot be opened or made, or holds a log this version cannot read.
    public init(path: String, device: String = "app") throws {
        store = try SQLiteEventStore(path: path, access: .create)
        ledger = Ledger(store: store, device: device)
        ledger.afterAppend = { try SnapshotPolicy.apply($0) }
    }

    /// Reads from now on under `rules`: the same log, its numbers computed again by the new rules.
    ///
    /// - Parameter rules: The rule set, `RuleSet.default` or one loaded with `RuleSet.load(path:)`.
    public func use(rules: RuleSet) { self.rules = rules }

    /// The head now.
    public var head: Head {
        get throws {
            let (position, hash) = try store.head()
            return Head(position: position, hash: hash.hex)
        }
    }

    // MARK: Recording

    /// Runs any of the command line's deciders as one command: what it decides is appended at once,
    /// or, when it throws, nothing is.
    ///
    /// The typed commands (``startWorkout(name:)``, ``logSet(_:weightKg:reps:rpe:type:in:)``, …) cover what
    /// an app records most; `perform` reaches every other command the CLI has, with the same rules.
    ///
    /// ```swift
    /// try await ledger.perform { try $0.setNote(workout, exercise: "Bench Press (Barbell)", text: "paused reps") }
    /// ```
    ///
    /// - Parameters:
    ///   - time: When it happened; `nil` is now, as the lifter's device clock reads.
    ///   - decide: The decision, made on the state the log holds now.
    /// - Returns: What `decide` returned.
    /// - Throws: What `decide` throws (a `Refusal`, usually): nothing is appended.
    @discardableResult
    public func perform<T: Sendable>(at time: Date? = nil, _ decide: (inout CommandSession) throws -> T) throws -> T {
        let before = try store.headPosition()
        let result = try ledger.execute(at: time.map { Timestamp(date: $0) }, decide)
        try announce(after: before)
        return result
    }

    // MARK: Observing

    /// The changes from now on: one for each command that appended, and one for each sync that pulled.
    ///
    /// The stream ends when its consumer stops iterating; each call makes an observer of its own.
    ///
    /// - Returns: An `AsyncStream` of ``Change``s, in log order.
    public func changes() -> AsyncStream<Change> {
        let (stream, continuation) = AsyncStream<Change>.makeStream()
        let id = UUID()
        observers[id] = continuation
        continuation.onTermination = { [weak self] _ in Task { await self?.stopObserving(id) } }
        return stream
    }

    private func stopObserving(_ id: UUID) { observers[id] = nil }

    func announce(after position: Int64) throws {
        guard !observers.isEmpty else { return }
        var streams: [String] = []
        try store.read(EventQuery(from: position + 1)) { e in if !streams.contains(e.stream.raw) { streams.append(e.stream.raw) } }
        guard !streams.isEmpty else { return }
        let change = Change(head: try head, streams: streams)
        for continuation in observers.values { continuation.yield(change) }
    }
}
