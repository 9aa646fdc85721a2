/// An event as a fold needs it: its position, its times and its payload.
/// The replay path reads only these columns (no ids, stream or device
/// strings, no hash), and decodes the payload straight from SQLite's memory.
public struct RecordedEvent: Sendable {
    public var position: Int64
    public var occurredAt: Timestamp
    public var recordedAt: Timestamp
    public var event: LedgerEvent

    public init(position: Int64, occurredAt: Timestamp, recordedAt: Timestamp, event: LedgerEvent) {
        self.position = position
        self.occurredAt = occurredAt
        self.recordedAt = recordedAt
        self.event = event
    }

    public init(_ e: EventEnvelope) {
        self.init(position: e.position, occurredAt: e.occurredAt, recordedAt: e.recordedAt, event: e.event)
    }
}
