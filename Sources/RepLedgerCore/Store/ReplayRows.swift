/// Rows of the log as a store read them, not yet decoded: the columns a
/// fold reads, with the payload (and, for a sealed file, the event id) copied
/// out of the store's memory, so that either thread of a replay can decode
/// them (`ReplayPipeline`).
public struct ReplayRows: Sendable {
    /// One row: what a decoder needs beside the bytes, and what the event is recorded with.
    public struct Row: Sendable {
        /// The event's place in the log.
        public var position: Int64
        /// The event's type code and schema version: which decoder (and upcaster) reads the payload.
        public var code: Int
        public var schema: Int
        public var occurredAt: Timestamp
        public var recordedAt: Timestamp
        var payload: Range<Int>
        var eventId: Range<Int>
    }

    private(set) var rows: [Row] = []
    /// Every row's payload and event id, one after the other.
    private var bytes: [UInt8] = []

    init(capacity: Int) {
        rows.reserveCapacity(capacity)
        bytes.reserveCapacity(capacity * 128)
    }

    /// The rows read so far.
    public var count: Int { rows.count }

    /// Copies one row in; `payload` and `eventId` may be the store's memory, valid only for this call.
    public mutating func append(
        position: Int64, code: Int, schema: Int, occurredAt: Timestamp, recordedAt: Timestamp,
        payload: UnsafeRawBufferPointer, eventId: UnsafeRawBufferPointer
    ) {
        let p = bytes.count..<(bytes.count + payload.count)
        bytes.append(contentsOf: payload)
        let e = bytes.count..<(bytes.count + eventId.count)
        bytes.append(contentsOf: eventId)
        rows.append(Row(position: position, code: code, schema: schema, occurredAt: occurredAt, recordedAt: recordedAt, payload: p, eventId: e))
    }

    /// Calls `body` with each row's event, decoded by `decode` (given the row, its payload and its event id), in order.
    /// A row that does not decode stops it with the decoder's error, after every row before it.
    func forEach(
        decode: (Row, UnsafeRawBufferPointer, UnsafeRawBufferPointer) throws -> LedgerEvent, _ body: (RecordedEvent) throws -> Void
    ) throws {
        try bytes.withUnsafeBytes { all in
            for row in rows {
                let event = try decode(row, UnsafeRawBufferPointer(rebasing: all[row.payload]), UnsafeRawBufferPointer(rebasing: all[row.eventId]))
                try body(RecordedEvent(position: row.position, occurredAt: row.occurredAt, recordedAt: row.recordedAt, event: event))
            }
        }
    }
}
