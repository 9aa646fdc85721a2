import Foundation

/// One stored event as its columns hold it, before or without payload
/// decoding: what every store reads back and what `verify` rechecks.
public struct StoredEvent: Sendable {
    public var position: Int64
    public var eventId: UUID
    public var stream: StreamName
    public var version: Int64
    public var typeName: String
    public var typeCode: Int
    public var schema: Int
    public var occurredAt: Timestamp
    public var recordedAt: Timestamp
    public var device: String
    public var causationId: UUID?
    public var correlationId: UUID?
    public var payload: [UInt8]
    public var hash: [UInt8]

    public init(
        position: Int64, eventId: UUID, stream: StreamName, version: Int64, typeName: String, typeCode: Int, schema: Int,
        occurredAt: Timestamp, recordedAt: Timestamp, device: String, causationId: UUID?, correlationId: UUID?,
        payload: [UInt8], hash: [UInt8]
    ) {
        self.position = position
        self.eventId = eventId
        self.stream = stream
        self.version = version
        self.typeName = typeName
        self.typeCode = typeCode
        self.schema = schema
        self.occurredAt = occurredAt
        self.recordedAt = recordedAt
        self.device = device
        self.causationId = causationId
        self.correlationId = correlationId
        self.payload = payload
        self.hash = hash
    }

    /// The hash this row links to when it follows `previous` (what it stores, unless it was altered).
    public func link(after previous: [UInt8]) -> [UInt8] {
        CanonicalBytes.link(previousHash: previous, position: position, version: version, recordedAt: recordedAt, content: content)
    }

    /// The content bytes, rebuilt from the stored columns (type by its stored name and schema).
    public var content: [UInt8] {
        CanonicalBytes.content(
            eventId: eventId, stream: stream, type: EventType(typeName, code: typeCode, schema: schema),
            occurredAt: occurredAt, device: device, causationId: causationId,
            correlationId: correlationId, payload: payload)
    }

    public func decodeEvent() throws -> LedgerEvent {
        do {
            let entry = try EventCatalog.entry(code: typeCode)
            guard entry.type.name == typeName else {
                throw StoreError.unreadableEvent(position: position, reason: "type code \(typeCode) is \(entry.type.name), the row says \(typeName)")
            }
            return try payload.withUnsafeBytes { try LedgerEvent.decode(code: typeCode, schema: schema, payload: $0) }
        } catch let e as CodecError {
            throw StoreError.unreadableEvent(position: position, reason: e.description)
        }
    }

    public func envelope() throws -> EventEnvelope {
        EventEnvelope(
            position: position, eventId: eventId, stream: stream, version: version, occurredAt: occurredAt,
            recordedAt: recordedAt, device: device, causationId: causationId, correlationId: correlationId,
            event: try decodeEvent(), hash: hash)
    }
}
