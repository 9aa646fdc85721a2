/// Rows of the log as a store read them, not yet decoded: the columns a
/// fold reads, with the payload (and, for a sealed file, the event id) copied
/// out of the store's memory, so that either thread of a replay can decode
/// them (`ReplayPipeline`).
public struct ReplayRows: Sendable {
    public struct Row: Sendable {
        public var position: Int64
        public var code: Int
        public var schema: Int
        public var occurredAt: Timestamp
        public var recordedAt: Timestamp
        var payload: Range<Int>
        var eventId: Range<Int>
    }

    public private(set) var rows: [Row] = []
    private var bytes: [UInt8] = []

    public init() {}

    init(capacity: Int) {
        rows.reserveCapacity(capacity)
        bytes.reserveCapacity(capacity * 128)
    }

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
