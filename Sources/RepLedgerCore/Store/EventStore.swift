import Foundation

/// The event log as the core sees it: append-only, hash-chained, gapless
/// positions from 1. `SQLiteEventStore` (a device's file, or one account's
/// file on the server), `PostgresEventStore` (one account of a shared
/// database) and `InMemoryEventStore` (tests and previews) implement it;
/// `Tests/RepLedgerCoreTests/EventStoreConformance` holds all three to one suite. Commands, projections, queries, verify and the
/// JSONL backup are written against this protocol only.
///
/// Calls are synchronous and a store is used by one thread at a time (the
/// server's `AccountLog` serializes them); a PostgreSQL store blocks its
/// caller on the database's answer, so it is called off the event loop.
public protocol EventStore: AnyObject {
    /// Runs `body` inside one write transaction: what it reads and what it
    /// appends (through `append`, which joins the transaction) happen under
    /// the account's write lock, so a decision cannot be invalidated by
    /// another writer between reading and appending.
    func writeTransaction<T>(_ body: () throws -> T) throws -> T

    /// Appends events atomically: all land or none do.
    ///
    /// - An event whose id is stored already with identical content is skipped
    ///   (retries, restores and re-sent watch workouts are safe); with other
    ///   content the whole append fails with `eventIdConflict`.
    /// - For each stream in `expectations`, the stream must be at that version
    ///   when new events are written to it, else `wrongExpectedVersion`.
    /// - `recordedAt` is `max(now, the head's recordedAt)`: it never decreases
    ///   along the log, so "the log as of time T" is a prefix.
    @discardableResult
    func append(_ events: [ProposedEvent], expecting expectations: [StreamName: ExpectedVersion], now: Timestamp) throws -> AppendResult

    /// What the store holds of a batch: the head, the versions of `streams`
    /// and the events of `ids` stored already. Read it inside the write
    /// transaction that appends the batch with `append(_:expecting:now:probed:)`.
    func probe(ids: [UUID], streams: [StreamName]) throws -> AppendProbe

    /// Appends events as `append(_:expecting:now:)` does, planned on `probe`
    /// (which must cover the events' ids and streams) instead of asking the
    /// store again; refused, with nothing appended, if the log has moved
    /// since the probe was read.
    @discardableResult
    func append(
        _ events: [ProposedEvent], expecting expectations: [StreamName: ExpectedVersion], now: Timestamp, probed probe: AppendProbe
    ) throws -> AppendResult

    /// The last event's position and chain hash (0 and the genesis hash for an empty log).
    func head() throws -> (position: Int64, hash: [UInt8])

    /// The current version of a stream; 0 when it does not exist.
    func version(of stream: StreamName) throws -> Int64

    /// The current versions of several streams (0 for those that do not
    /// exist), in one statement where a round trip costs.
    func versions(of streams: [StreamName]) throws -> [StreamName: Int64]

    /// The last position recorded at or before `time` (0 if none): the log "as of" that time.
    func position(recordedAtOrBefore time: Timestamp) throws -> Int64

    /// Calls `body` with each matching event in position order, without
    /// holding the whole log in memory.
    func read(_ query: EventQuery, _ body: (EventEnvelope) throws -> Void) throws

    /// The replay path for folds: events in position order with only what a fold reads.
    /// `body` must not use this store: a long replay may be reading ahead on
    /// another thread through the same connection (`ReplayPipeline`).
    func replay(from: Int64, through: Int64, _ body: (RecordedEvent) throws -> Void) throws

    /// The stored rows, undecoded, in position order: what `verify` rechecks.
    func storedEvents(from: Int64, through: Int64, _ body: (StoredEvent) throws -> Void) throws

    /// The stored chain hash of the event at `position` (the genesis hash for 0; throws past the head).
    /// A store answers it from the hash column alone where it can: a command asks it for each state it keeps.
    func hash(at position: Int64) throws -> [UInt8]

    func event(id: UUID) throws -> EventEnvelope?

    /// Streams whose name starts with `prefix`, with the position of their first event.
    func streams(prefix: String) throws -> [(stream: StreamName, firstPosition: Int64)]

    /// Of those streams, the one whose first event is the latest (`workout last`), without listing them all.
    func newestStream(prefix: String) throws -> StreamName?

    func count() throws -> Int64

    /// The key payloads are sealed under (nil: stored in clear, as on a device).
    var cipher: PayloadCipher? { get }

    /// Where this store keeps snapshots of folds beside its events (both
    /// stores do; `SnapshotStore` reads and writes them).
    var snapshotRows: (any SnapshotRows)? { get }
}

/// A filter for `EventStore.read`. Positions are inclusive.
public struct EventQuery: Sendable {
    public var stream: StreamName?
    public var types: [String]?
    public var fromPosition: Int64 = 1
    public var throughPosition: Int64 = .max
    public var recordedFrom: Timestamp?
    public var recordedThrough: Timestamp?
    public init(stream: StreamName? = nil, types: [String]? = nil, from: Int64 = 1, through: Int64 = .max) {
        self.stream = stream
        self.types = types
        self.fromPosition = from
        self.throughPosition = through
    }
}

public let genesisHash = [UInt8](repeating: 0, count: 32)

extension EventStore {
    public func newestStream(prefix: String) throws -> StreamName? { try streams(prefix: prefix).last?.stream }

    @discardableResult
    public func append(_ events: [ProposedEvent], expecting expectations: [StreamName: ExpectedVersion] = [:]) throws -> AppendResult {
        try append(events, expecting: expectations, now: .now())
    }

    public func read(_ body: (EventEnvelope) throws -> Void) throws { try read(EventQuery(), body) }

    public func replay(_ body: (RecordedEvent) throws -> Void) throws { try replay(from: 1, through: .max, body) }

    public func replay(from: Int64, _ body: (RecordedEvent) throws -> Void) throws { try replay(from: from, through: .max, body) }

    public func replay(through: Int64, _ body: (RecordedEvent) throws -> Void) throws { try replay(from: 1, through: through, body) }

    /// The position of the last event; 0 for an empty log.
    public func headPosition() throws -> Int64 { try head().position }

    /// One lookup per stream: what a store in the same process does.
    public func versions(of streams: [StreamName]) throws -> [StreamName: Int64] {
        var out: [StreamName: Int64] = [:]
        for stream in streams { out[stream] = try version(of: stream) }
        return out
    }

    /// The events of one stream, in version order.
    public func read(stream: StreamName, through: Int64 = .max) throws -> [EventEnvelope] {
        var out: [EventEnvelope] = []
        try read(EventQuery(stream: stream, through: through)) { out.append($0) }
        return out
    }

    /// One event by position.
    public func event(at position: Int64) throws -> EventEnvelope? {
        var found: EventEnvelope?
        try read(EventQuery(from: position, through: position)) { found = $0 }
        return found
    }
}

/// The result of an append.
public struct AppendResult: Sendable, Equatable {
    /// Positions of the events written now, in order.
    public var appended: [Int64]
    /// Events skipped because the same id was already stored with the same content.
    public var alreadyStored: Int
    /// The time stamped on the events written now (one for the whole batch); nil when none was written.
    public var recordedAt: Timestamp?

    public init(appended: [Int64], alreadyStored: Int, recordedAt: Timestamp? = nil) {
        self.appended = appended
        self.alreadyStored = alreadyStored
        self.recordedAt = recordedAt
    }
}

extension ProposedEvent {
    /// The events with the device of their stored copy, given the devices of
    /// the ids stored already (`AppendProbe.storedDevices`, which a caller
    /// may have read for other checks too).
    public static func adopting(_ events: [ProposedEvent], storedDevices stored: [UUID: String]) -> [ProposedEvent] {
        guard !stored.isEmpty else { return events }
        var out = events
        for i in out.indices {
            if let device = stored[out[i].eventId] { out[i].device = device }
        }
        return out
    }
}
