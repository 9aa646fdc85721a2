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
    /// The shortest range a replica reads (with `--postgres-read`).
    static let replicaMinimum: Int64 = 64

    typealias Head = ChainHead

    /// Seals every payload before it leaves the process: the database only
    /// ever holds ciphertext (nil: plaintext, for tests of the store alone).
    public let cipher: PayloadCipher?

    /// Hot standbys that may serve reads of ranges; nil: the primary reads all.
    let replicas: PostgresReplicas?

    public init(accountId: UUID, pool: PostgresPool, cipher: PayloadCipher? = nil, replicas: PostgresReplicas? = nil) {
        self.accountId = accountId
        self.pool = pool
        self.cipher = cipher
        self.replicas = replicas
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

    /// The account's head row, locked until commit: one round trip once the
    /// account has a head, three the first time (created at the genesis hash).
    private func lockHead(_ c: PostgresConnection) throws -> Head {
        let select: PostgresQuery = "SELECT position, hash, recorded_at, recorded_offset FROM heads WHERE account_id = \(accountId) FOR UPDATE"
        var rows = try pool.run(c, select)
        if rows.rows.first == nil {
            try pool.run(
                c,
                """
                INSERT INTO heads (account_id, position, hash, recorded_at, recorded_offset)
                VALUES (\(accountId), 0, \(ByteBuffer(bytes: genesisHash)), \(Int64.min), 0) ON CONFLICT (account_id) DO NOTHING
                """)
            rows = try pool.run(c, select)
        }
        guard let row = rows.rows.first else { throw StoreError.database("the account's head row vanished during an append") }
        let (position, hash, recordedAt, offset) = try row.decode((Int64, ByteBuffer, Int64, Int32).self)
        return Head(position: position, hash: hash, recordedAt: recordedAt, offset: offset)
    }

    /// Runs `body` on the transaction's connection, or on a connection of its own.
    func reading<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        if let t = transaction { return try body(t.connection) }
        return try pool.withConnection(body)
    }

    // MARK: Appending

    @discardableResult
    public func append(_ events: [ProposedEvent], expecting expectations: [StreamName: ExpectedVersion], now: Timestamp) throws -> AppendResult {
        if transaction != nil || events.isEmpty { return try writeTransaction { try appendLocked(events, expectations, now, probed: nil) } }
        if events.count <= Self.chunk, let result = try appendOptimistically(events, expectations, now) { return result }
        // Under contention (or for the first append, or a long batch) the
        // head is locked by the statement that probes the batch: four round
        // trips (BEGIN, lock and probe, insert, COMMIT).
        return try pool.transaction { c in
            let (head, probed) = try lockHeadProbing(events, c)
            transaction = (c, head)
            defer { transaction = nil }
            return try appendLocked(events, expectations, now, probed: probed)
        }
    }

    /// Two round trips and no lock held between them: the probe reads the
    /// head with the batch's streams and ids, and one statement (its own
    /// transaction) moves the head from exactly that position and inserts the
    /// rows only if it did. The position is the head's compare-and-set, so
    /// the probe's versions and stored ids still held when it succeeds. Nil
    /// when another append moved the head first, when the account has no head
    /// yet, or when the probe's view refuses the batch (a refusal is decided
    /// again under the lock, where it is authoritative).
    private func appendOptimistically(
        _ events: [ProposedEvent], _ expectations: [StreamName: ExpectedVersion],
        _ now: Timestamp
    ) throws -> AppendResult? {
        try pool.withConnection { c in
            let streams = AppendProbe.streams(events).map(\.raw)
            let rows = try pool.run(
                c,
                PostgresQuery(
                    unsafeSQL: """
                        SELECT h.position, h.hash, h.recorded_at, h.recorded_offset, \(Self.probeColumns) FROM heads h WHERE h.account_id = $1
                        """, binds: Self.probeBinds(accountId, streams, events.map(\.eventId))))
            guard let row = rows.rows.first else { return nil }
            let (position, hash, recordedAt, offset, versions, stored) =
                try row.decode((Int64, ByteBuffer, Int64, Int32, [Int64], [UUID]).self)
            let head = Head(position: position, hash: hash, recordedAt: recordedAt, offset: offset)
            let probe = try self.probe(head, streams, versions, stored, c)
            guard let planned = try? AppendPlanner.rows(events, expecting: expectations, now: now, probed: probe, head: head) else {
                return nil
            }
            if planned.rows.isEmpty { return planned.planner.result }
            return try insert(planned.rows, from: head, to: planned.planner.head, c) ? planned.planner.result : nil
        }
    }

    /// Locks the head and probes the batch in one statement. The probe reads
    /// the statement's snapshot, taken before the lock was granted; it is used
    /// only when that snapshot already saw the locked head (no append
    /// committed in between), and made again otherwise.
    private func lockHeadProbing(_ events: [ProposedEvent], _ c: PostgresConnection) throws -> (Head, AppendProbe?) {
        let streams = AppendProbe.streams(events).map(\.raw)
        let rows = try pool.run(
            c,
            PostgresQuery(
                unsafeSQL: """
                    SELECT h.position, h.hash, h.recorded_at, h.recorded_offset, (SELECT position FROM heads WHERE account_id = $1),
                        \(Self.probeColumns) FROM heads h WHERE h.account_id = $1 FOR UPDATE OF h
                    """, binds: Self.probeBinds(accountId, streams, events.map(\.eventId))))
        guard let row = rows.rows.first else { return (try lockHead(c), nil) }
        let (position, hash, recordedAt, offset, seen, versions, stored) =
            try row.decode((Int64, ByteBuffer, Int64, Int32, Int64, [Int64], [UUID]).self)
        let head = Head(position: position, hash: hash, recordedAt: recordedAt, offset: offset)
        return (head, seen == position ? try probe(head, streams, versions, stored, c) : nil)
    }

    private func appendLocked(
        _ events: [ProposedEvent], _ expectations: [StreamName: ExpectedVersion], _ now: Timestamp,
        probed: AppendProbe?
    ) throws -> AppendResult {
        guard let head = transaction?.head, let c = transaction?.connection else { throw StoreError.database("append outside a transaction") }
        guard !events.isEmpty else { return AppendResult(appended: [], alreadyStored: 0) }
        let probe = try probed ?? probe(ids: events.map(\.eventId), streams: AppendProbe.streams(events))
        let planned = try AppendPlanner.rows(events, expecting: expectations, now: now, probed: probe, head: head)
        guard !planned.rows.isEmpty else { return planned.planner.result }
        guard try insert(planned.rows, from: head, to: planned.planner.head, c) else {
            throw StoreError.database("the account's head moved while its lock was held")
        }
        transaction?.head = planned.planner.head
        return planned.planner.result
    }

    /// Appends events planned on a probe read in the write transaction in
    /// progress (see `EventStore.append(_:expecting:now:probed:)`).
    @discardableResult
    public func append(
        _ events: [ProposedEvent], expecting expectations: [StreamName: ExpectedVersion], now: Timestamp, probed probe: AppendProbe
    ) throws -> AppendResult {
        guard transaction != nil else { throw StoreError.database("an append planned on a probe must run in the probe's write transaction") }
        return try appendLocked(events, expectations, now, probed: probe)
    }

    /// What the account holds of a batch, in one round trip under the head
    /// lock of the write transaction in progress (and a second to read the
    /// stored events whole, only when some are).
    public func probe(ids: [UUID], streams: [StreamName]) throws -> AppendProbe {
        try writeTransaction {
            guard let head = transaction?.head, let c = transaction?.connection else { throw StoreError.database("a probe outside a transaction") }
            let names = streams.map(\.raw)
            let rows = try pool.run(c, PostgresQuery(unsafeSQL: "SELECT \(Self.probeColumns)", binds: Self.probeBinds(accountId, names, ids)))
            guard let row = rows.rows.first else { throw StoreError.database("the probe of an append returned no row") }
            let (versions, stored) = try row.decode(([Int64], [UUID]).self)
            return try probe(head, names, versions, stored, c)
        }
    }

    /// The probe from its columns: `versions` are those of `streams`, in
    /// order; the stored ids' events are read whole.
    private func probe(_ head: Head, _ streams: [String], _ versions: [Int64], _ storedIds: [UUID], _ c: PostgresConnection) throws -> AppendProbe {
        let stored = storedIds.isEmpty ? [:] : try storedEvents(ids: storedIds, c)
        return AppendProbe(
            head: head, versions: Dictionary(zip(streams.map(StreamName.init), versions)) { a, _ in a }, stored: stored)
    }

    /// The probe as two array columns over `probeBinds`: the version of each
    /// stream ($2, 0 when new) and the stored ids among $3, each an index
    /// lookup a value at a time (a MAX over a GROUP BY read every version of
    /// a long stream).
    ///
    /// Every query of `events` names the account as `(SELECT $1::uuid)`, a
    /// value the planner cannot look up in its statistics. An account newer
    /// than the last ANALYZE is estimated at one row; any index leading with
    /// the account then looks as good as another, and lookups by id went
    /// through the stream index and reads by position sorted the whole
    /// account, for every id and every page. Unknown, the account is
    /// estimated at the table's average, and each query takes its own index.
    static let probeColumns = """
        ARRAY(SELECT COALESCE((SELECT e.stream_version FROM events e WHERE e.account_id = (SELECT $1::uuid) AND e.stream = s.stream
                                ORDER BY e.stream_version DESC LIMIT 1), 0)
              FROM unnest($2::text[]) WITH ORDINALITY AS s(stream, n) ORDER BY s.n),
        ARRAY(SELECT i.id FROM unnest($3::uuid[]) AS i(id)
              WHERE (SELECT true FROM events e WHERE e.account_id = (SELECT $1::uuid) AND e.event_id = i.id))
        """

    static func probeBinds(_ account: UUID, _ streams: [String], _ ids: [UUID]) -> PostgresBindings {
        var binds = PostgresBindings(capacity: 3)
        binds.append(account)
        binds.append(streams)
        binds.append(ids)
        return binds
    }

    /// Names this process in the notifications of its appends
    /// ("account:position:process"), so that a listener can pass over its
    /// own: the process woke its subscribers when its append returned.
    public static let processTag = UUID().uuidString.lowercased()

    /// Rows per INSERT statement.
    static let chunk = 5000

    /// The rows as column arrays through `unnest` (a short statement that
    /// parses in microseconds, where a VALUES list of 17 parameters a row took
    /// milliseconds), in chunks of `chunk` rows. The last chunk's statement
    /// also moves the head from `old` to `new` and notifies listeners
    /// (delivered on commit, to every server process: live subscriptions), and
    /// inserts its rows only if the head was still at `old`: false when it was
    /// not, and nothing of that statement happened.
    private func insert(_ rows: [StoredEvent], from old: Head, to new: Head, _ c: PostgresConnection) throws -> Bool {
        for start in stride(from: 0, to: rows.count, by: Self.chunk) {
            let chunk = rows[start..<min(rows.count, start + Self.chunk)]
            let last = chunk.endIndex == rows.endIndex
            var binds = PostgresBindings(capacity: 24)
            binds.append(accountId)
            binds.append(new.recordedAt.millis)
            binds.append(Int32(new.recordedAt.offsetMinutes))
            binds.append(chunk.map(\.position))
            binds.append(chunk.map(\.eventId))
            binds.append(chunk.map(\.stream.raw))
            binds.append(chunk.map(\.version))
            binds.append(chunk.map(\.typeName))
            binds.append(chunk.map { Int32($0.typeCode) })
            binds.append(chunk.map { Int32($0.schema) })
            binds.append(chunk.map(\.occurredAt.millis))
            binds.append(chunk.map { Int32($0.occurredAt.offsetMinutes) })
            binds.append(chunk.map(\.device))
            binds.append(chunk.map { $0.causationId != nil })
            binds.append(chunk.map { $0.causationId ?? UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)) })
            binds.append(chunk.map { $0.correlationId != nil })
            binds.append(chunk.map { $0.correlationId ?? UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)) })
            let seal = PayloadSeal(cipher)
            binds.append(try chunk.map { e in ByteBuffer(bytes: try seal.sealed(e.payload, eventId: e.eventId)) })
            binds.append(chunk.map { ByteBuffer(bytes: $0.hash) })
            let columns = """
                INSERT INTO events (account_id, position, event_id, stream, stream_version, type, type_code, schema, occurred_at,
                    occurred_offset, recorded_at, recorded_offset, device, causation_id, correlation_id, payload, hash)
                SELECT $1, p, e, s, v, t, tc, sc, oa, oo, $2, $3, d, CASE WHEN hc THEN c END, CASE WHEN hr THEN r END, pl, h
                FROM unnest($4::bigint[], $5::uuid[], $6::text[], $7::bigint[], $8::text[], $9::integer[], $10::integer[],
                    $11::bigint[], $12::integer[], $13::text[], $14::boolean[], $15::uuid[], $16::boolean[], $17::uuid[],
                    $18::bytea[], $19::bytea[]) AS x(p, e, s, v, t, tc, sc, oa, oo, d, hc, c, hr, r, pl, h)
                """
            guard last else {
                try pool.run(c, PostgresQuery(unsafeSQL: columns, binds: binds))
                continue
            }
            binds.append(new.position)
            binds.append(ByteBuffer(bytes: new.hash))
            binds.append(accountId.uuidString.lowercased() + ":" + String(new.position) + ":" + Self.processTag)
            binds.append(old.position)
            binds.append(ByteBuffer(bytes: old.hash))
            // The head is compared whole (position and hash): an account erased
            // and imported again may pass through the same position with another chain.
            let moved = try pool.run(
                c,
                PostgresQuery(
                    unsafeSQL: """
                        WITH moved AS (UPDATE heads SET position = $20, hash = $21, recorded_at = $2, recorded_offset = $3
                                       WHERE account_id = $1 AND position = $23 AND hash = $24 RETURNING 1),
                        appended AS (\(columns) WHERE EXISTS (SELECT 1 FROM moved))
                        SELECT pg_notify('repledger_events', $22) FROM moved
                        """, binds: binds))
            return moved.rows.first != nil
        }
        return true
    }

    /// (Lookups by id name the account as `(SELECT $1::uuid)`: see `probeColumns`.)
    func storedEvents(ids: [UUID], _ c: PostgresConnection) throws -> [UUID: StoredEvent] {
        let rows = try pool.run(
            c,
            PostgresQuery(
                unsafeSQL:
                    "SELECT \(Self.columns) FROM unnest($2::uuid[]) AS i(id) JOIN events ON account_id = (SELECT $1::uuid) AND event_id = i.id",
                binds: try Self.binds(accountId, ids)))
        var out: [UUID: StoredEvent] = [:]
        for row in rows.rows {
            let e = try storedEvent(row)
            out[e.eventId] = e
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

    func storedEvent(_ row: PostgresRow) throws -> StoredEvent {
        let (
            position, eventId, stream, version, type, code, schema, occurred, occurredOffset, recorded, recordedOffset, device,
            causation, correlation, payload, hash
        ) =
            try row.decode(
                (
                    Int64, UUID, String, Int64, String, Int32, Int32, Int64, Int32, Int64, Int32, String, UUID?, UUID?,
                    ByteBuffer, ByteBuffer
                ).self)
        return StoredEvent(
            position: position, eventId: eventId, stream: StreamName(stream), version: version, typeName: type,
            typeCode: Int(code), schema: Int(schema),
            occurredAt: Timestamp(millis: occurred, offsetMinutes: Int(occurredOffset)),
            recordedAt: Timestamp(millis: recorded, offsetMinutes: Int(recordedOffset)), device: device,
            causationId: causation, correlationId: correlation,
            payload: try opened(payload, eventId: eventId, position: position), hash: Array(hash.readableBytesView))
    }

    /// A stored payload's plaintext (opened with the account's key when it is sealed).
    func opened(_ payload: ByteBuffer, eventId: UUID, position: Int64) throws -> [UInt8] {
        try payload.withUnsafeReadableBytes { stored in
            try withUnsafeBytes(of: eventId.uuid) { try PayloadSeal(cipher).opened(stored, eventId: $0, position: position) }
        }
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
            let rows = try pool.run(
                c,
                """
                SELECT COALESCE(MAX(stream_version), 0)::bigint FROM events WHERE account_id = (SELECT \(accountId)::uuid) AND stream = \(stream.raw)
                """)
            return try rows.rows.first?.decode(Int64.self) ?? 0
        }
    }

    /// One statement for every stream (a push asks for a batch's streams at once).
    public func versions(of streams: [StreamName]) throws -> [StreamName: Int64] {
        guard !streams.isEmpty else { return [:] }
        return try reading { c in
            let rows = try pool.run(
                c,
                PostgresQuery(
                    unsafeSQL: """
                        SELECT s.stream, (SELECT COALESCE(MAX(e.stream_version), 0) FROM events e
                                          WHERE e.account_id = (SELECT $1::uuid) AND e.stream = s.stream)::bigint
                        FROM unnest($2::text[]) AS s(stream)
                        """, binds: try Self.binds(accountId, streams.map(\.raw))))
            var out: [StreamName: Int64] = [:]
            for row in rows.rows {
                let (stream, version) = try row.decode((String, Int64).self)
                out[StreamName(stream)] = version
            }
            return out
        }
    }

    public func position(recordedAtOrBefore time: Timestamp) throws -> Int64 {
        try reading { c in
            let rows = try pool.run(
                c,
                """
                SELECT COALESCE(MAX(position), 0)::bigint FROM events WHERE account_id = (SELECT \(accountId)::uuid) AND recorded_at <= \(time.millis)
                """)
            return try rows.rows.first?.decode(Int64.self) ?? 0
        }
    }

    /// Every row in `from...through` matching `filter`, a page per round trip, in position order.
    ///
    /// Without a filter a page is a window of `page` positions, not a LIMIT:
    /// positions are gapless, so a short window is the head, and a page costs
    /// at most `page` rows whatever the planner believes. (A LIMIT over an
    /// account the statistics think tiny was planned as a bitmap scan of the
    /// rest of the account and a sort, for every page.)
    /// `order` is how the rows of a filtered read are walked: by `stream_version` when one stream is
    /// read (the same order as positions within a stream), so the planner takes the stream's index
    /// instead of every event of the account after `from` (an account's settings stream, read from
    /// its last event, made each push scan the log since then).
    private func rows(
        from: Int64, through: Int64, columns: String, filter: String = "", order: String = "position",
        filterBinds: (inout PostgresBindings) throws -> Void = { _ in },
        _ body: (PostgresRow) throws -> Void
    ) throws {
        var next = max(1, from)
        let windowed = filter.isEmpty
        // Outside a write, a replica that has replayed the primary's head reads the range; a few rows
        // (a warm fold's continuity check, a snapshot's link) cost the primary less than the two head reads.
        var replica: PostgresPool?
        if transaction == nil, let replicas, through - next >= Self.replicaMinimum - 1 {
            replica = replicas.pool(for: accountId, reaching: min(through, try head().position))
        }
        while next <= through {
            let end = windowed && through - next >= Int64(Self.page) ? next + Int64(Self.page) - 1 : through
            var binds = PostgresBindings(capacity: 8)
            binds.append(accountId)
            binds.append(next)
            binds.append(end)
            try filterBinds(&binds)
            let sql = """
                SELECT \(columns) FROM events WHERE account_id = (SELECT $1::uuid) AND position BETWEEN $2 AND $3\(filter)
                ORDER BY \(windowed ? "position" : order + " LIMIT \(Self.page)")
                """
            let query = PostgresQuery(unsafeSQL: sql, binds: binds)
            var page: PostgresQueryResult?
            if let source = replica {
                do {
                    page = try source.withConnection { c in try source.run(c, query) }
                } catch {
                    // The rest of the range from the primary, from the same position: nothing missed or repeated.
                    replicas?.failed(source)
                    replica = nil
                }
            }
            let rows = try page ?? reading { c in try pool.run(c, query) }
            for row in rows.rows { try body(row) }
            if windowed {
                guard rows.rows.count == Int(end - next + 1), end < through else { return }
                next = end + 1
            } else {
                guard rows.rows.count == Self.page, let last = rows.rows.last else { return }
                next = try last.decode(Int64.self) + 1
            }
        }
    }

    public func read(_ query: EventQuery, _ body: (EventEnvelope) throws -> Void) throws {
        var filter = ""
        var n = 3
        if query.stream != nil { n += 1; filter += " AND stream = $\(n)" }
        if query.types != nil { n += 1; filter += " AND type = ANY($\(n))" }
        if query.recordedFrom != nil { n += 1; filter += " AND recorded_at >= $\(n)" }
        if query.recordedThrough != nil { n += 1; filter += " AND recorded_at <= $\(n)" }
        let binds: (inout PostgresBindings) throws -> Void = { b in
            if let s = query.stream { b.append(s.raw) }
            if let t = query.types { b.append(t) }
            if let t = query.recordedFrom { b.append(t.millis) }
            if let t = query.recordedThrough { b.append(t.millis) }
        }
        try rows(
            from: query.fromPosition, through: query.throughPosition, columns: Self.columns, filter: filter,
            order: query.stream == nil ? "position" : "stream_version", filterBinds: binds
        ) { row in try body(try storedEvent(row).envelope()) }
    }

    public func replay(from: Int64, through: Int64, _ body: (RecordedEvent) throws -> Void) throws {
        let seal = PayloadSeal(cipher)
        try rows(
            from: from, through: through,
            columns: "position, type_code, schema, occurred_at, occurred_offset, recorded_at, recorded_offset, payload, event_id"
        ) { row in
            let (position, code, schema, occurred, occurredOffset, recorded, recordedOffset, payload, eventId) =
                try row.decode((Int64, Int32, Int32, Int64, Int32, Int64, Int32, ByteBuffer, UUID).self)
            let event = try payload.withUnsafeReadableBytes { stored in
                try withUnsafeBytes(of: eventId.uuid) {
                    try seal.event(code: Int(code), schema: Int(schema), stored: stored, eventId: $0, position: position)
                }
            }
            try body(
                RecordedEvent(
                    position: position, occurredAt: Timestamp(millis: occurred, offsetMinutes: Int(occurredOffset)),
                    recordedAt: Timestamp(millis: recorded, offsetMinutes: Int(recordedOffset)), event: event))
        }
    }

    public func storedEvents(from: Int64, through: Int64, _ body: (StoredEvent) throws -> Void) throws {
        try rows(from: from, through: through, columns: Self.columns) { row in try body(try storedEvent(row)) }
    }

    public func event(id: UUID) throws -> EventEnvelope? {
        try reading { c in
            let rows = try pool.run(
                c,
                PostgresQuery(
                    unsafeSQL: "SELECT \(Self.columns) FROM events WHERE account_id = (SELECT $1::uuid) AND event_id = $2",
                    binds: {
                        var b = PostgresBindings(); b.append(accountId); b.append(id); return b
                    }()))
            return try rows.rows.first.map { try storedEvent($0).envelope() }
        }
    }

    public func streams(prefix: String) throws -> [(stream: StreamName, firstPosition: Int64)] {
        try reading { c in
            let rows = try pool.run(
                c,
                """
                SELECT stream, position FROM events WHERE account_id = (SELECT \(accountId)::uuid) AND starts_with(stream, \(prefix))
                    AND stream_version = 1 ORDER BY position
                """)
            return try rows.rows.map { row in
                let (stream, position) = try row.decode((String, Int64).self)
                return (StreamName(stream), position)
            }
        }
    }

    public func newestStream(prefix: String) throws -> StreamName? {
        try reading { c in
            let rows = try pool.run(
                c,
                """
                SELECT stream FROM events WHERE account_id = (SELECT \(accountId)::uuid) AND starts_with(stream, \(prefix))
                    AND stream_version = 1 ORDER BY position DESC LIMIT 1
                """)
            return try rows.rows.first.map { StreamName(try $0.decode(String.self)) }
        }
    }

    public func count() throws -> Int64 {
        try reading { c in
            try pool.run(c, "SELECT COUNT(*)::bigint FROM events WHERE account_id = (SELECT \(accountId)::uuid)").rows.first?.decode(Int64.self) ?? 0
        }
    }
}

extension PostgresEventStore.Head {
    /// The columns `position, hash, recorded_at, recorded_offset` of a `heads` row.
    init(position: Int64, hash: ByteBuffer, recordedAt: Int64, offset: Int32) {
        self.init(position: position, hash: Array(hash.readableBytesView), recordedAt: Timestamp(millis: recordedAt, offsetMinutes: Int(offset)))
    }
}
