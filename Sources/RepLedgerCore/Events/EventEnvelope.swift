import Foundation

/// An event as stored: the payload plus everything the log knows about it.
public struct EventEnvelope: Sendable, Equatable {
    /// Global, gapless, assigned in commit order, starting at 1.
    public var position: Int64
    public var eventId: UUID
    public var stream: StreamName
    /// Version within the stream, gapless from 1.
    public var version: Int64
    /// When the user did it (from the device; may be in the past).
    public var occurredAt: Timestamp
    /// When the ledger stored it; never decreases along the log.
    public var recordedAt: Timestamp
    public var device: String
    /// The command (or import batch) that produced the event.
    public var causationId: UUID?
    /// Groups the events of one conversation (a command, a watch sync, an import).
    public var correlationId: UUID?
    public var event: LedgerEvent
    /// SHA-256 over the previous event's hash and this event's chained bytes.
    public var hash: [UInt8]

    public var type: EventType { event.eventType }
}

/// An event a command decided on, before the store gives it a position.
public struct ProposedEvent: Sendable, Equatable {
    public var eventId: UUID
    public var event: LedgerEvent
    public var occurredAt: Timestamp
    public var device: String
    public var causationId: UUID?
    public var correlationId: UUID?

    public init(
        eventId: UUID, event: LedgerEvent, occurredAt: Timestamp, device: String,
        causationId: UUID? = nil, correlationId: UUID? = nil
    ) {
        self.eventId = eventId
        self.event = event
        self.occurredAt = occurredAt
        self.device = device
        self.causationId = causationId
        self.correlationId = correlationId
    }

    public var stream: StreamName { event.stream }

    /// The content bytes this event is compared and chained by.
    public var content: [UInt8] { content(stream: stream, type: event.eventType, payload: event.encodedPayload) }

    /// The content bytes, given the stream, type and payload the caller has
    /// at hand already (each is computed from the event).
    public func content(stream: StreamName, type: EventType, payload: [UInt8]) -> [UInt8] {
        CanonicalBytes.content(
            eventId: eventId, stream: stream, type: type, occurredAt: occurredAt, device: device,
            causationId: causationId, correlationId: correlationId, payload: payload)
    }
}

/// The bytes that identify an event's content and feed its hash. They depend
/// only on the event (ids, stream, type name, schema, times, device, causation
/// and the payload's binary form), never on the Swift runtime or dictionary order.
public enum CanonicalBytes {
    /// What the client said: compared to decide whether a re-sent event id is
    /// the same event (a no-op) or a conflict.
    public static func content(
        eventId: UUID, stream: StreamName, type: EventType, occurredAt: Timestamp,
        device: String, causationId: UUID?, correlationId: UUID?,
        payload: some Collection<UInt8>
    ) -> [UInt8] {
        var w = BinaryWriter(capacity: 96 + payload.count)
        w.writeBytes(eventId.bytes16)
        w.writeString(stream.raw)
        w.writeString(type.name)
        w.writeVarint(UInt64(type.schema))
        occurredAt.encode(to: &w)
        w.writeString(device)
        causationId.encode(to: &w)
        correlationId.encode(to: &w)
        w.writeVarint(UInt64(payload.count))
        w.writeBytes(payload)
        return w.bytes
    }

    /// An event's hash: SHA-256 of what `chained` lays out. Every store, every
    /// check of a chain and every device's copy of a pushed event link through here.
    public static func link(
        previousHash: [UInt8], position: Int64, version: Int64,
        recordedAt: Timestamp, content: [UInt8]
    ) -> [UInt8] {
        Digest.sha256(chained(previousHash: previousHash, position: position, version: version, recordedAt: recordedAt, content: content))
    }

    /// What the ledger adds, chained: previous hash, position, stream version, recordedAt, content.
    public static func chained(
        previousHash: [UInt8], position: Int64, version: Int64,
        recordedAt: Timestamp, content: [UInt8]
    ) -> [UInt8] {
        var w = BinaryWriter(capacity: 64 + content.count)
        w.writeBytes(previousHash)
        w.writeFixed64(UInt64(position))
        w.writeFixed64(UInt64(version))
        recordedAt.encode(to: &w)
        w.writeBytes(content)
        return w.bytes
    }
}
