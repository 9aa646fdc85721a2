import AsyncHTTPClient
import Foundation
import RepLedgerCore
import RepLedgerProjections
import RepLedgerQueries
import RepLedgerSQLite
import RepLedgerSnapshots
import RepLedgerSync

/// A workout ledger in one file on a device, as an app holds it.
///
/// Every command appends to an immutable, hash-chained log through the same
/// deciders the `ledger` command line uses, so a refused command appends
/// nothing and throws a ``Refusal``. Reads answer from the queries the CLI and
/// the server print (their value types, `Sendable`), at the head or as the log
/// stood at an earlier position (`asOf`).
///
/// `RepLedger` is an actor: calls take turns, and a UI observes
/// ``changes()`` for the new head and the streams each append touched.
public actor RepLedger {
    /// The log's head: how many events it holds, and the hash that chains them.
    public struct Head: Sendable, Equatable {
        /// The number of events in the log (0 for an empty one): the last event's position.
        public var position: Int64
        /// The last event's chain hash in hex: equal heads hold the same log, byte for byte.
        public var hash: String
    }

    /// What one command appended: the head after it and the streams it touched, in log order.
    public struct Change: Sendable, Equatable {
        /// The head after the append.
        public var head: Head
        /// The streams the append touched (`workout-<id>`, `library`, `body`, …), in the order first touched.
        public var streams: [String]
    }

    let store: SQLiteEventStore
    let ledger: Ledger
    private var observers: [UUID: AsyncStream<Change>.Continuation] = [:]

    /// Opens the ledger at `path` (made on first use); what this device records carries `device`.
    public init(path: String, device: String = "app") throws {
        store = try SQLiteEventStore(path: path, access: .create)
        ledger = Ledger(store: store, device: device)
        ledger.afterAppend = { try SnapshotPolicy.apply($0) }
    }

    /// The head now.
    public var head: Head {
        get throws {
            let (position, hash) = try store.head()
            return Head(position: position, hash: hash.hex)
        }
    }

    // MARK: Recording

    /// Starts a workout → its id.
    public func startWorkout(name: String = "") throws -> UUID {
        try record { try $0.startWorkout(name: name) }
    }

    /// Logs a set of `exercise` (an id or a name the library knows) in the workout → the set's id.
    public func logSet(
        _ exercise: String, weightKg: Double? = nil, reps: Int? = nil, rpe: Double? = nil, type: SetType = .normal, in workout: UUID
    ) throws -> UUID {
        let metrics = SetMetrics(weight: weightKg.map { Weight($0, .kg) }, reps: reps, rpe: rpe)
        return try record { try $0.logTypedSet(workout, exercise: exercise, type: type, metrics: metrics, notes: nil, timeGiven: false).setId }
    }

    /// Records a heart-rate sample (beats a minute) during the workout, as a watch does.
    public func recordHeartRate(_ beatsPerMinute: Double, in workout: UUID) throws {
        try record { try $0.recordHealthSample(workout, kind: .heartRate, value: beatsPerMinute) }
    }

    /// Finishes the workout.
    public func finishWorkout(_ workout: UUID) throws {
        try record { try $0.finishWorkout(workout, timeGiven: false) }
    }

    /// Runs one decision and tells observers what it appended.
    private func record<T>(_ decide: (inout CommandSession) throws -> T) throws -> T {
        let before = try store.headPosition()
        let result = try ledger.execute(decide)
        try announce(after: before)
        return result
    }

    // MARK: Observing

    /// The changes from now on, one for each command that appended.
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

    // MARK: Reading

    /// Workouts, newest first, with their sets; `asOf` is a position (or an ISO 8601 time) of the log.
    public func history(limit: Int? = nil, asOf: String? = nil) throws -> [WorkoutHistoryProjection.WorkoutRow] {
        try HistoryQuery.answer(store, QueryScope(asOf: asOf), limit: limit).rows
    }

    /// Every exercise's personal records.
    public func records(asOf: String? = nil) throws -> [PersonalRecordsProjection.ExerciseRecords] {
        try RecordsQuery.records(store, QueryScope(asOf: asOf))
    }
}

// MARK: Sync

extension RepLedger {
    /// Syncs with the account on a server: pushes what this device recorded, pulls what others
    /// pushed, and leaves this log holding the server's byte for byte (plus anything still pending).
    /// The first time names the server, the account and the file holding this device's token
    /// (read at every sync, never copied); later syncs take none.
    public func sync(server: String? = nil, account: String? = nil, tokenFile: String? = nil) async throws -> SyncClient.Outcome {
        if let server {
            guard let account, let tokenFile else { throw SyncClient.Failure.notConfigured }
            try store.saveSyncTarget(remote: server, account: account.lowercased(), tokenFile: tokenFile)
        }
        let before = try store.headPosition()
        let http = HTTPClient(eventLoopGroupProvider: .singleton, configuration: SyncClient.httpConfiguration)
        let outcome: SyncClient.Outcome
        do {
            outcome = try await SyncClient(store: store, client: http).run()
        } catch {
            try? await http.shutdown()
            throw error
        }
        try await http.shutdown()
        if outcome.pulled > 0 || outcome.pushed > 0 { try SnapshotPolicy.apply(store) }
        // A pull rebases the log on the server's: observers hear of what it brought.
        if outcome.pulled > 0 { try announce(after: min(before, outcome.headPosition - Int64(outcome.pulled))) }
        return outcome
    }
}
