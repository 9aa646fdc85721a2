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

/// What a store read about a batch before planning it: the version of each
/// of its streams (absent: a new stream) and those of its events already
/// stored, whole.
public struct AppendProbe: Sendable {
    public var versions: [StreamName: Int64]
    public var stored: [UUID: StoredEvent]

    public init(versions: [StreamName: Int64] = [:], stored: [UUID: StoredEvent] = [:]) {
        self.versions = versions
        self.stored = stored
    }
}

/// The rows a batch appends, as they will be stored, and where the log then ends.
public struct AppendPlan: Sendable {
    public var rows: [StoredEvent]
    public var result: AppendResult
    public var head: ChainHead
}

/// The append algorithm, once for every store (`EventStore.append`): given
/// the head and what the store read of the batch, the positions, stream
/// versions and hash chain of its new events, with the rules of idempotency
/// by id and of expected versions. No I/O: a store reads the probe, plans,
/// and writes the rows.
public enum AppendPlanner {
    /// - An id already stored (or earlier in the batch) with the same content
    ///   is counted in `alreadyStored` and skipped; with other content it is
    ///   `eventIdConflict`.
    /// - An expectation is checked when the first new event reaches its
    ///   stream, so a retry whose events are all stored is a no-op.
    /// - Every new event is recorded at `max(now, head.recordedAt)`: recorded
    ///   times never decrease along the log, so "the log as of T" is a prefix.
    public static func plan(_ events: [ProposedEvent], expecting expectations: [StreamName: ExpectedVersion], now: Timestamp,
                            head start: ChainHead, probe: AppendProbe) throws -> AppendPlan {
        var head = start
        var result = AppendResult(appended: [], alreadyStored: 0)
        let recordedAt = max(now, head.recordedAt)
        var versions = probe.versions
        var touched: Set<StreamName> = []
        var seenInBatch: [UUID: [UInt8]] = [:]
        var rows: [StoredEvent] = []
        rows.reserveCapacity(events.count)

        for proposed in events {
            let type = proposed.event.eventType
            let stream = proposed.stream
            let payload = proposed.event.encodedPayload
            let content = CanonicalBytes.content(
                eventId: proposed.eventId, stream: stream, type: type, occurredAt: proposed.occurredAt,
                device: proposed.device, causationId: proposed.causationId, correlationId: proposed.correlationId,
                payload: payload)
            if let earlier = seenInBatch[proposed.eventId] {
                guard earlier == content else { throw StoreError.eventIdConflict(eventId: proposed.eventId, position: 0) }
                result.alreadyStored += 1
                continue
            }
            seenInBatch[proposed.eventId] = content
            if let existing = probe.stored[proposed.eventId] {
                guard existing.content == content else {
                    throw StoreError.eventIdConflict(eventId: proposed.eventId, position: existing.position)
                }
                result.alreadyStored += 1
                continue
            }
            let current = versions[stream] ?? 0
            if !touched.contains(stream), case .exactly(let expected)? = expectations[stream], expected != current {
                throw StoreError.wrongExpectedVersion(stream: stream, expected: .exactly(expected), actual: current)
            }
            touched.insert(stream)
            let position = head.position + 1
            let version = current + 1
            let hash = CanonicalBytes.link(previousHash: head.hash, position: position, version: version,
                                           recordedAt: recordedAt, content: content)
            rows.append(StoredEvent(position: position, eventId: proposed.eventId, stream: stream, version: version, typeName: type.name,
                                    typeCode: type.code, schema: type.schema, occurredAt: proposed.occurredAt, recordedAt: recordedAt,
                                    device: proposed.device, causationId: proposed.causationId, correlationId: proposed.correlationId,
                                    payload: payload, hash: hash))
            versions[stream] = version
            head = ChainHead(position: position, hash: hash, recordedAt: recordedAt)
            result.appended.append(position)
        }
        if !result.appended.isEmpty { result.recordedAt = recordedAt }
        return AppendPlan(rows: rows, result: result, head: head)
    }

    /// The batch's streams, each once, in order of first appearance.
    public static func streams(_ events: [ProposedEvent]) -> [StreamName] {
        var seen: Set<StreamName> = []
        return events.compactMap { seen.insert($0.stream).inserted ? $0.stream : nil }
    }
}
