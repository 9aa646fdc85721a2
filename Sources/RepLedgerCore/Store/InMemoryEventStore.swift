import Foundation

/// An event log held in memory: the third `EventStore`, for tests and
/// previews that need a log and no file. It keeps the rows a store keeps
/// (positions, versions, the hash chain, recorded times) through the same
/// `AppendPlanner`, and passes the same conformance suite as SQLite and
/// PostgreSQL, so a test that runs deciders, views and queries on it runs
/// them on what the other stores would hold.
///
/// Handles made by `handle()` share one log, as two connections to one
/// file do: a write transaction holds the log's lock, so a decision and its
/// append are never split by another handle's.
public final class InMemoryEventStore: EventStore, @unchecked Sendable {
    /// The log every handle of it reads and writes.
    final class Log: @unchecked Sendable {
        let lock = NSRecursiveLock()
        var rows: [StoredEvent] = []
        var positionById: [UUID: Int64] = [:]
        var versions: [StreamName: Int64] = [:]
        let snapshots = InMemorySnapshotRows()
    }

    private let log: Log

    public init() { log = Log() }

    private init(sharing log: Log) { self.log = log }

    /// Another handle on the same log.
    public func handle() -> InMemoryEventStore { InMemoryEventStore(sharing: log) }

    public var cipher: PayloadCipher? { nil }
    public var snapshotRows: (any SnapshotRows)? { log.snapshots }

    private func locked<T>(_ body: () throws -> T) rethrows -> T {
        log.lock.lock()
        defer { log.lock.unlock() }
        return try body()
    }

    /// Runs `body` under the log's lock; what it appended is taken back if it throws, as a rolled-back transaction.
    public func writeTransaction<T>(_ body: () throws -> T) throws -> T {
        try locked {
            let saved = (log.rows.count, log.versions)
            do {
                return try body()
            } catch {
                rollBack(to: saved)
                throw error
            }
        }
    }

    private func rollBack(to saved: (count: Int, versions: [StreamName: Int64])) {
        for row in log.rows[saved.count...] { log.positionById[row.eventId] = nil }
        log.rows.removeSubrange(saved.count...)
        log.versions = saved.versions
    }

    @discardableResult
    public func append(_ events: [ProposedEvent], expecting expectations: [StreamName: ExpectedVersion], now: Timestamp) throws -> AppendResult {
        try writeTransaction {
            try append(events, expecting: expectations, now: now, probed: probe(ids: events.map(\.eventId), streams: AppendProbe.streams(events)))
        }
    }

    public func probe(ids: [UUID], streams: [StreamName]) throws -> AppendProbe {
        locked {
            var stored: [UUID: StoredEvent] = [:]
            for id in ids { if let p = log.positionById[id] { stored[id] = row(p) } }
            return AppendProbe(head: currentHead(), versions: Dictionary(streams.map { ($0, log.versions[$0] ?? 0) }) { a, _ in a }, stored: stored)
        }
    }

    @discardableResult
    public func append(
        _ events: [ProposedEvent], expecting expectations: [StreamName: ExpectedVersion], now: Timestamp, probed probe: AppendProbe
    ) throws -> AppendResult {
        try writeTransaction {
            let planned = try AppendPlanner.rows(events, expecting: expectations, now: now, probed: probe, head: currentHead())
            for row in planned.rows {
                log.rows.append(row)
                log.positionById[row.eventId] = row.position
                log.versions[row.stream] = row.version
            }
            return planned.planner.result
        }
    }

    private func currentHead() -> ChainHead {
        log.rows.last.map { ChainHead(position: $0.position, hash: $0.hash, recordedAt: $0.recordedAt) } ?? .genesis
    }

    private func row(_ position: Int64) -> StoredEvent { log.rows[Int(position) - 1] }

    /// Rows from `from` through `through` (inclusive), in position order.
    private func rows(from: Int64, through: Int64) -> ArraySlice<StoredEvent> {
        locked {
            let count = Int64(log.rows.count)
            let low = max(from, 1), high = min(through, count)
            return low > high ? [] : log.rows[Int(low - 1)..<Int(high)]
        }
    }

    public func head() throws -> (position: Int64, hash: [UInt8]) {
        locked { log.rows.last.map { ($0.position, $0.hash) } ?? (0, genesisHash) }
    }

    public func version(of stream: StreamName) throws -> Int64 { locked { log.versions[stream] ?? 0 } }

    public func position(recordedAtOrBefore time: Timestamp) throws -> Int64 {
        locked { log.rows.last { $0.recordedAt.millis <= time.millis }?.position ?? 0 }
    }

    public func read(_ query: EventQuery, _ body: (EventEnvelope) throws -> Void) throws {
        for row in rows(from: query.fromPosition, through: query.throughPosition) {
            if let stream = query.stream, row.stream != stream { continue }
            if let types = query.types, !types.contains(row.typeName) { continue }
            if let t = query.recordedFrom, row.recordedAt.millis < t.millis { continue }
            if let t = query.recordedThrough, row.recordedAt.millis > t.millis { continue }
            try body(try row.envelope())
        }
    }

    public func replay(from: Int64, through: Int64, _ body: (RecordedEvent) throws -> Void) throws {
        for row in rows(from: from, through: through) {
            try body(RecordedEvent(position: row.position, occurredAt: row.occurredAt, recordedAt: row.recordedAt, event: try row.decodeEvent()))
        }
    }

    public func storedEvents(from: Int64, through: Int64, _ body: (StoredEvent) throws -> Void) throws {
        for row in rows(from: from, through: through) { try body(row) }
    }

    public func event(id: UUID) throws -> EventEnvelope? {
        try locked { try log.positionById[id].map { try row($0).envelope() } }
    }

    public func streams(prefix: String) throws -> [(stream: StreamName, firstPosition: Int64)] {
        locked { log.rows.filter { $0.version == 1 && $0.stream.raw.hasPrefix(prefix) }.map { ($0.stream, $0.position) } }
    }

    public func count() throws -> Int64 { locked { Int64(log.rows.count) } }
}

/// Snapshot rows held in memory, beside an `InMemoryEventStore`'s events.
final class InMemorySnapshotRows: SnapshotRows, @unchecked Sendable {
    private let lock = NSLock()
    private var rows: [(info: SnapshotInfo, row: StoredSnapshot)] = []
    private var nextId: Int64 = 1

    func insertSnapshot(_ info: SnapshotInfo, _ row: StoredSnapshot) throws -> Int64 {
        lock.withLock {
            var info = info
            info.id = nextId
            nextId += 1
            rows.append((info, row))
            return info.id
        }
    }

    func snapshotInfos(projection: String?, atOrBefore position: Int64) throws -> [SnapshotInfo] {
        lock.withLock {
            rows.map(\.info).filter { ($0.key.projection == projection || projection == nil) && $0.position <= position }
                .sorted { ($0.position, $0.id) > ($1.position, $1.id) }
        }
    }

    func snapshotRow(id: Int64) throws -> StoredSnapshot? { lock.withLock { rows.first { $0.info.id == id }?.row } }

    func deleteSnapshots(ids: [Int64]) throws { lock.withLock { rows.removeAll { ids.contains($0.info.id) } } }

    func snapshotCount() throws -> Int64 { lock.withLock { Int64(rows.count) } }
}
