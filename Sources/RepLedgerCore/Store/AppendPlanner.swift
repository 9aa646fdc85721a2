import Foundation

/// Where a log ends, as an append starts from it.
public struct ChainHead: Sendable, Equatable {
    public var position: Int64
    public var hash: [UInt8]
    /// The last event's time recorded (`Timestamp(millis: .min)` for an empty log).
    public var recordedAt: Timestamp

    public init(position: Int64, hash: [UInt8], recordedAt: Timestamp) {
        self.position = position
        self.hash = hash
        self.recordedAt = recordedAt
    }

    /// The head of an empty log.
    public static let genesis = ChainHead(position: 0, hash: genesisHash, recordedAt: Timestamp(millis: .min))
}

/// The append algorithm of `EventStore.append`, written once for every store:
/// positions, stream versions and the hash chain of a batch's new events,
/// with the rules of idempotency by id and of expected versions. No I/O: a
/// store asks it for each event's row, writes the row (or finds its id
/// taken), and says which.
///
/// It goes one event at a time so that each store keeps its cheapest probe:
/// SQLite inserts first and reads a stored event only when its id is taken;
/// PostgreSQL reads the batch's stored ids and versions in one round trip.
///
/// - An id already stored (or earlier in the batch) with the same content is
///   counted in `alreadyStored` and skipped; with other content it is
///   `eventIdConflict`.
/// - An expectation is checked when the first new event reaches its stream,
///   so a retry whose events are all stored is a no-op.
/// - Every new event is recorded at `max(now, head.recordedAt)`: recorded
///   times never decrease along the log, so "the log as of T" is a prefix.
public struct AppendPlanner {
    /// A row the planner proposes for one event, and its content bytes (what
    /// idempotency compares and the chain links).
    public struct Candidate {
        public var row: StoredEvent
        public var content: [UInt8]
    }

    /// Where the log ends after the events accepted so far.
    public private(set) var head: ChainHead
    public private(set) var result = AppendResult(appended: [], alreadyStored: 0)
    private let recordedAt: Timestamp
    private let expectations: [StreamName: ExpectedVersion]
    /// Each stream's version after the events accepted so far (or as stored, once read).
    private var versions: [StreamName: Int64] = [:]
    /// Streams with an expectation that a new event of this batch reached: it was checked.
    private var reached: Set<StreamName> = []
    private var seenInBatch: [UUID: [UInt8]] = [:]

    public init(head: ChainHead, now: Timestamp, expecting expectations: [StreamName: ExpectedVersion]) {
        self.head = head
        self.recordedAt = max(now, head.recordedAt)
        self.expectations = expectations
    }

    /// The row `proposed` would be stored as, after the events accepted so
    /// far; nil when the batch named its id already with the same content
    /// (counted as stored). `storedVersion` reads a stream's version in the
    /// store; it is asked once per stream at most.
    public mutating func candidate(for proposed: ProposedEvent, storedVersion: (StreamName) throws -> Int64) throws -> Candidate? {
        let type = proposed.event.eventType
        let stream = proposed.stream
        let payload = proposed.event.encodedPayload
        let content = proposed.content(stream: stream, type: type, payload: payload)
        if let earlier = seenInBatch.updateValue(content, forKey: proposed.eventId) {
            guard earlier == content else { throw StoreError.eventIdConflict(eventId: proposed.eventId, position: 0) }
            result.alreadyStored += 1
            return nil
        }
        let current: Int64
        if let known = versions[stream] {
            current = known
        } else {
            current = try storedVersion(stream)
            versions[stream] = current
        }
        let position = head.position + 1
        let version = current + 1
        let hash = CanonicalBytes.link(
            previousHash: head.hash, position: position, version: version,
            recordedAt: recordedAt, content: content)
        let row = StoredEvent(
            position: position, eventId: proposed.eventId, stream: stream, version: version, typeName: type.name,
            typeCode: type.code, schema: type.schema, occurredAt: proposed.occurredAt, recordedAt: recordedAt,
            device: proposed.device, causationId: proposed.causationId, correlationId: proposed.correlationId,
            payload: payload, hash: hash)
        return Candidate(row: row, content: content)
    }

    /// The candidate is new to the store: its stream's expectation holds (or
    /// this throws `wrongExpectedVersion`) and the head moves past it.
    public mutating func accept(_ candidate: Candidate) throws {
        let row = candidate.row
        if case .exactly(let expected)? = expectations[row.stream], reached.insert(row.stream).inserted, expected != row.version - 1 {
            throw StoreError.wrongExpectedVersion(stream: row.stream, expected: .exactly(expected), actual: row.version - 1)
        }
        versions[row.stream] = row.version
        head = ChainHead(position: row.position, hash: row.hash, recordedAt: recordedAt)
        result.appended.append(row.position)
        result.recordedAt = recordedAt
    }

    /// The candidate's id is stored already, at `position` with `content`: a
    /// retry when the content is the same (counted, nothing moves), else
    /// `eventIdConflict`.
    public mutating func alreadyStored(_ candidate: Candidate, at position: Int64, content: [UInt8]) throws {
        guard content == candidate.content else {
            throw StoreError.eventIdConflict(eventId: candidate.row.eventId, position: position)
        }
        result.alreadyStored += 1
    }

    /// A whole batch planned against what a store read beforehand (its
    /// streams' versions and its events stored already): the rows to write,
    /// in order. For stores that write a batch in one statement.
    public static func rows(
        _ events: [ProposedEvent], expecting expectations: [StreamName: ExpectedVersion], now: Timestamp,
        head: ChainHead, versions: [StreamName: Int64],
        stored: [UUID: StoredEvent]
    ) throws -> (rows: [StoredEvent], planner: AppendPlanner) {
        var planner = AppendPlanner(head: head, now: now, expecting: expectations)
        var rows: [StoredEvent] = []
        rows.reserveCapacity(events.count)
        for proposed in events {
            guard let candidate = try planner.candidate(for: proposed, storedVersion: { versions[$0] ?? 0 }) else { continue }
            if let existing = stored[proposed.eventId] {
                try planner.alreadyStored(candidate, at: existing.position, content: existing.content)
            } else {
                try planner.accept(candidate)
                rows.append(candidate.row)
            }
        }
        return (rows, planner)
    }
}
