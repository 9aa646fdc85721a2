import Foundation
import NIOCore
import PostgresNIO
import RepLedgerCore

/// One account's log in a shared PostgreSQL database: the same positions,
/// versions, recorded times and hash chain as `SQLiteEventStore` (the same
/// `CanonicalBytes`), so an account moves between the two byte-exact.
///
/// Appends to one account are serialized by its row in `heads`, locked
/// `FOR UPDATE` for the length of the write transaction: positions are
/// gapless whatever the number of writers and server processes (a rolled-back
/// transaction consumed nothing), and a reader never sees position n+1 before
/// n (n+1's writer waited for n's commit). Other accounts' heads are other
/// rows: their appends never wait on each other.
public final class PostgresEventStore: EventStore, @unchecked Sendable {
    public let accountId: UUID
    let pool: PostgresPool
    /// The connection of the write transaction in progress: every read and
    /// append inside `writeTransaction` goes through it, under the head lock.
    private var transaction: (connection: PostgresConnection, head: Head)?
    /// Rows fetched per round trip when reading a range.
    static let page = 5000

    struct Head {
        var position: Int64
        var hash: [UInt8]
        var recordedAt: Timestamp
    }

    public init(accountId: UUID, pool: PostgresPool) {
        self.accountId = accountId
        self.pool = pool
    }

    // MARK: Transactions

    public func writeTransaction<T>(_ body: () throws -> T) throws -> T {
        if transaction != nil { return try body() }
        return try pool.transaction { c in
            transaction = (c, try lockHead(c))
            defer { transaction = nil }
            return try body()
        }
    }

    /// The account's head row, created at the genesis hash if missing, locked until commit.
    private func lockHead(_ c: PostgresConnection) throws -> Head {
        try pool.run(c, """
            INSERT INTO heads (account_id, position, hash, recorded_at, recorded_offset)
            VALUES (\(accountId), 0, \(ByteBuffer(bytes: genesisHash)), \(Int64.min), 0) ON CONFLICT (account_id) DO NOTHING
            """)
        let rows = try pool.run(c, "SELECT position, hash, recorded_at, recorded_offset FROM heads WHERE account_id = \(accountId) FOR UPDATE")
        guard let row = rows.rows.first else { throw StoreError.database("the account's head row vanished during an append") }
        let (position, hash, recordedAt, offset) = try row.decode((Int64, ByteBuffer, Int64, Int32).self)
        return Head(position: position, hash: Array(hash.readableBytesView), recordedAt: Timestamp(millis: recordedAt, offsetMinutes: Int(offset)))
    }

    /// Runs `body` on the transaction's connection, or on a connection of its own.
    private func reading<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        if let t = transaction { return try body(t.connection) }
        return try pool.withConnection(body)
    }

    // MARK: Appending

    @discardableResult
    public func append(_ events: [ProposedEvent], expecting expectations: [StreamName: ExpectedVersion], now: Timestamp) throws -> AppendResult {
        try writeTransaction { try appendLocked(events, expectations, now) }
    }

    private func appendLocked(_ events: [ProposedEvent], _ expectations: [StreamName: ExpectedVersion], _ now: Timestamp) throws -> AppendResult {
        guard var head = transaction?.head, let c = transaction?.connection else { throw StoreError.database("append outside a transaction") }
        var result = AppendResult(appended: [], alreadyStored: 0)
        guard !events.isEmpty else { return result }
        let recordedAt = max(now, head.recordedAt)
        // Two round trips for the whole batch: which ids are stored, and where each stream stands.
        let stored = try storedEvents(ids: events.map(\.eventId), c)
        var versions = try streamVersions(Array(Set(events.map(\.stream))), c)
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
            if let existing = stored[proposed.eventId] {
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
            let hash = Digest.sha256(CanonicalBytes.chained(previousHash: head.hash, position: position, version: version,
                                                            recordedAt: recordedAt, content: content))
            rows.append(StoredEvent(position: position, eventId: proposed.eventId, stream: stream, version: version, typeName: type.name,
                                    typeCode: type.code, schema: type.schema, occurredAt: proposed.occurredAt, recordedAt: recordedAt,
                                    device: proposed.device, causationId: proposed.causationId, correlationId: proposed.correlationId,
                                    payload: payload, hash: hash))
            versions[stream] = version
            head = Head(position: position, hash: hash, recordedAt: recordedAt)
            result.appended.append(position)
        }
        guard !rows.isEmpty else { return result }
        try insert(rows, c)
        try pool.run(c, """
            UPDATE heads SET position = \(head.position), hash = \(ByteBuffer(bytes: head.hash)), recorded_at = \(head.recordedAt.millis),
                recorded_offset = \(Int32(head.recordedAt.offsetMinutes)) WHERE account_id = \(accountId)
            """)
        // Delivered on commit, to every server process listening (live subscriptions).
        try pool.run(c, "SELECT pg_notify('repledger_events', \(accountId.uuidString.lowercased() + ":" + String(head.position)))")
        transaction?.head = head
        return result
    }

    /// Multi-row INSERTs of at most 1,000 rows (16,000 parameters; the protocol allows 65,535).
    private func insert(_ rows: [StoredEvent], _ c: PostgresConnection) throws {
        for start in stride(from: 0, to: rows.count, by: 1000) {
            let chunk = rows[start..<min(rows.count, start + 1000)]
            var binds = PostgresBindings(capacity: chunk.count * 17)
            var sql = """
                INSERT INTO events (account_id, position, event_id, stream, stream_version, type, type_code, schema, occurred_at,
                    occurred_offset, recorded_at, recorded_offset, device, causation_id, correlation_id, payload, hash) VALUES
                """
            sql.reserveCapacity(sql.utf8.count + chunk.count * 120)
            var n = 0
            for (i, row) in chunk.enumerated() {
                sql += i == 0 ? "(" : ",("
                for column in 0..<17 {
                    n += 1
                    sql += column == 0 ? "$\(n)" : ",$\(n)"
                }
                sql += ")"
                binds.append(accountId)
                binds.append(row.position)
                binds.append(row.eventId)
                binds.append(row.stream.raw)
                binds.append(row.version)
                binds.append(row.typeName)
                binds.append(Int32(row.typeCode))
                binds.append(Int32(row.schema))
                binds.append(row.occurredAt.millis)
                binds.append(Int32(row.occurredAt.offsetMinutes))
                binds.append(row.recordedAt.millis)
                binds.append(Int32(row.recordedAt.offsetMinutes))
                binds.append(row.device)
                binds.append(row.causationId)
                binds.append(row.correlationId)
                binds.append(ByteBuffer(bytes: row.payload))
                binds.append(ByteBuffer(bytes: row.hash))
            }
            try pool.run(c, PostgresQuery(unsafeSQL: sql, binds: binds))
        }
    }

    private func storedEvents(ids: [UUID], _ c: PostgresConnection) throws -> [UUID: StoredEvent] {
        let rows = try pool.run(c, PostgresQuery(unsafeSQL: "SELECT \(Self.columns) FROM events WHERE account_id = $1 AND event_id = ANY($2)",
                                                 binds: try Self.binds(accountId, ids)))
        var out: [UUID: StoredEvent] = [:]
        for row in rows.rows {
            let e = try Self.storedEvent(row)
            out[e.eventId] = e
        }
        return out
    }

    private func streamVersions(_ streams: [StreamName], _ c: PostgresConnection) throws -> [StreamName: Int64] {
        let rows = try pool.run(c, PostgresQuery(unsafeSQL: """
            SELECT stream, MAX(stream_version) FROM events WHERE account_id = $1 AND stream = ANY($2) GROUP BY stream
            """, binds: try Self.binds(accountId, streams.map(\.raw))))
        var out: [StreamName: Int64] = [:]
        for row in rows.rows {
            let (stream, version) = try row.decode((String, Int64).self)
            out[StreamName(stream)] = version
        }
        return out
    }

    private static func binds<A: PostgresArrayEncodable & PostgresNonThrowingEncodable>(_ account: UUID, _ values: [A]) throws -> PostgresBindings {
        var b = PostgresBindings(capacity: 2)
        b.append(account)
        b.append(values)
        return b
    }

    // MARK: Reading

    static let columns = """
        position, event_id, stream, stream_version, type, type_code, schema, occurred_at, occurred_offset, \
        recorded_at, recorded_offset, device, causation_id, correlation_id, payload, hash
        """

    static func storedEvent(_ row: PostgresRow) throws -> StoredEvent {
        let (position, eventId, stream, version, type, code, schema, occurred, occurredOffset, recorded, recordedOffset, device,
             causation, correlation, payload, hash) =
            try row.decode((Int64, UUID, String, Int64, String, Int32, Int32, Int64, Int32, Int64, Int32, String, UUID?, UUID?,
                            ByteBuffer, ByteBuffer).self)
        return StoredEvent(position: position, eventId: eventId, stream: StreamName(stream), version: version, typeName: type,
                           typeCode: Int(code), schema: Int(schema),
                           occurredAt: Timestamp(millis: occurred, offsetMinutes: Int(occurredOffset)),
                           recordedAt: Timestamp(millis: recorded, offsetMinutes: Int(recordedOffset)), device: device,
                           causationId: causation, correlationId: correlation,
                           payload: Array(payload.readableBytesView), hash: Array(hash.readableBytesView))
    }

    public func head() throws -> (position: Int64, hash: [UInt8]) {
        if let t = transaction { return (t.head.position, t.head.hash) }
        let rows = try pool.withConnection { c in try pool.run(c, "SELECT position, hash FROM heads WHERE account_id = \(accountId)") }
        guard let row = rows.rows.first else { return (0, genesisHash) }
        let (position, hash) = try row.decode((Int64, ByteBuffer).self)
        return (position, Array(hash.readableBytesView))
    }

    public func version(of stream: StreamName) throws -> Int64 {
        try reading { c in
            let rows = try pool.run(c, """
                SELECT COALESCE(MAX(stream_version), 0)::bigint FROM events WHERE account_id = \(accountId) AND stream = \(stream.raw)
                """)
            return try rows.rows.first?.decode(Int64.self) ?? 0
        }
    }

    public func position(recordedAtOrBefore time: Timestamp) throws -> Int64 {
        try reading { c in
            let rows = try pool.run(c, """
                SELECT COALESCE(MAX(position), 0)::bigint FROM events WHERE account_id = \(accountId) AND recorded_at <= \(time.millis)
                """)
            return try rows.rows.first?.decode(Int64.self) ?? 0
        }
    }

    /// Every row in `from...through` matching `filter`, a page per round trip, in position order.
    private func rows(from: Int64, through: Int64, columns: String, filter: String = "", filterBinds: (inout PostgresBindings) throws -> Void = { _ in },
                      _ body: (PostgresRow) throws -> Void) throws {
        var next = max(1, from)
        while next <= through {
            var binds = PostgresBindings(capacity: 8)
            binds.append(accountId)
            binds.append(next)
            binds.append(through)
            try filterBinds(&binds)
            let sql = """
                SELECT \(columns) FROM events WHERE account_id = $1 AND position BETWEEN $2 AND $3\(filter)
                ORDER BY position LIMIT \(Self.page)
                """
            let page = try reading { c in try pool.run(c, PostgresQuery(unsafeSQL: sql, binds: binds)) }
            for row in page.rows { try body(row) }
            guard page.rows.count == Self.page, let last = page.rows.last else { return }
            next = try last.decode(Int64.self) + 1
        }
    }

    public func read(_ query: EventQuery, _ body: (EventEnvelope) throws -> Void) throws {
        var filter = ""
        var n = 3
        if query.stream != nil { n += 1; filter += " AND stream = $\(n)" }
        if query.types != nil { n += 1; filter += " AND type = ANY($\(n))" }
        if query.recordedFrom != nil { n += 1; filter += " AND recorded_at >= $\(n)" }
        if query.recordedThrough != nil { n += 1; filter += " AND recorded_at <= $\(n)" }
        try rows(from: query.fromPosition, through: query.throughPosition, columns: Self.columns, filter: filter, filterBinds: { b in
            if let s = query.stream { b.append(s.raw) }
            if let t = query.types { b.append(t) }
            if let t = query.recordedFrom { b.append(t.millis) }
            if let t = query.recordedThrough { b.append(t.millis) }
        }) { row in try body(try Self.storedEvent(row).envelope()) }
    }

    public func replay(from: Int64, through: Int64, _ body: (RecordedEvent) throws -> Void) throws {
        try rows(from: from, through: through,
                 columns: "position, type_code, schema, occurred_at, occurred_offset, recorded_at, recorded_offset, payload") { row in
            let (position, code, schema, occurred, occurredOffset, recorded, recordedOffset, payload) =
                try row.decode((Int64, Int32, Int32, Int64, Int32, Int64, Int32, ByteBuffer).self)
            let event: LedgerEvent
            do {
                event = try payload.withUnsafeReadableBytes { try LedgerEvent.decode(code: Int(code), schema: Int(schema), payload: $0) }
            } catch let e as CodecError {
                throw StoreError.unreadableEvent(position: position, reason: e.description)
            }
            try body(RecordedEvent(position: position, occurredAt: Timestamp(millis: occurred, offsetMinutes: Int(occurredOffset)),
                                   recordedAt: Timestamp(millis: recorded, offsetMinutes: Int(recordedOffset)), event: event))
        }
    }

    public func storedEvents(from: Int64, through: Int64, _ body: (StoredEvent) throws -> Void) throws {
        try rows(from: from, through: through, columns: Self.columns) { row in try body(try Self.storedEvent(row)) }
    }

    public func event(id: UUID) throws -> EventEnvelope? {
        try reading { c in
            let rows = try pool.run(c, PostgresQuery(unsafeSQL: "SELECT \(Self.columns) FROM events WHERE account_id = $1 AND event_id = $2",
                                                     binds: { var b = PostgresBindings(); b.append(accountId); b.append(id); return b }()))
            return try rows.rows.first.map { try Self.storedEvent($0).envelope() }
        }
    }

    public func devices(ofStored ids: [UUID]) throws -> [UUID: String] {
        guard !ids.isEmpty else { return [:] }
        return try reading { c in
            let rows = try pool.run(c, PostgresQuery(unsafeSQL: "SELECT event_id, device FROM events WHERE account_id = $1 AND event_id = ANY($2)",
                                                     binds: try Self.binds(accountId, ids)))
            var out: [UUID: String] = [:]
            for row in rows.rows {
                let (id, device) = try row.decode((UUID, String).self)
                out[id] = device
            }
            return out
        }
    }

    public func streams(prefix: String) throws -> [(stream: StreamName, firstPosition: Int64)] {
        try reading { c in
            let rows = try pool.run(c, """
                SELECT stream, position FROM events WHERE account_id = \(accountId) AND starts_with(stream, \(prefix))
                    AND stream_version = 1 ORDER BY position
                """)
            return try rows.rows.map { row in
                let (stream, position) = try row.decode((String, Int64).self)
                return (StreamName(stream), position)
            }
        }
    }

    public func count() throws -> Int64 {
        try reading { c in
            try pool.run(c, "SELECT COUNT(*)::bigint FROM events WHERE account_id = \(accountId)").rows.first?.decode(Int64.self) ?? 0
        }
    }
}
