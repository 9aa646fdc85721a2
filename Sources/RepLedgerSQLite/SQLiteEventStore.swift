import CSQLite
import Crypto
import Foundation
import RepLedgerCore

/// How hard a commit waits for the disk. The default is `.full`: with WAL,
/// every commit is fsynced before `append` returns, so a committed event
/// survives a crash or power loss. `.normal` syncs at checkpoints only: a
/// power cut may lose the last commits (never corrupt the file); it is for
/// bulk work that can be re-run, such as benchmarks.
public enum Durability: String, Sendable {
    case full = "FULL"
    case normal = "NORMAL"
}

/// The event log in one SQLite file: append-only, hash-chained, gapless.
public final class SQLiteEventStore: EventStore {
    public let path: String
    let db: SQLiteDatabase
    /// The connection, for other tables of the same file (snapshots).
    public var database: SQLiteDatabase { db }
    /// How long a writer waits for another process's lock before failing busy.
    public static let busyTimeoutMilliseconds = 5_000
    public static let genesisHash = RepLedgerCore.genesisHash

    /// How a caller opens the file.
    public enum Access: Sendable {
        /// Create the ledger if the file does not exist (recording commands, restores).
        case create
        /// The file must exist already (queries: a mistyped path is an error, not a new ledger).
        case existing
        /// Never write, not even the schema or the journal mode (`verify` on a read-only file or a full disk).
        case readOnly
    }

    /// True when the file is open for reading only (`.readOnly`, or an
    /// `.existing` file that cannot be written: queries still answer).
    public let isReadOnly: Bool

    /// Seals payloads and snapshot states at rest (an account's file on the
    /// server); nil on a device, whose file is the lifter's own.
    public let cipher: PayloadCipher?

    /// Opens the ledger at `path`. A file that is another application's
    /// database is refused before anything is written to it.
    public init(path: String, durability: Durability = .full, access: Access = .create, cipher: PayloadCipher? = nil) throws {
        self.path = path
        self.cipher = cipher
        if access != .create, path != ":memory:", !FileManager.default.fileExists(atPath: path) {
            throw StoreError.noLedger(path: path)
        }
        do {
            switch access {
            case .readOnly:
                db = try Self.openReadOnly(path)
                isReadOnly = true
            case .create:
                do {
                    db = try Self.openWritable(path, durability)
                } catch  where Self.readOnlyMedium(error) && !Self.diskFull(error) && FileManager.default.fileExists(atPath: path) {
                    // An existing ledger that cannot be written: say so, not "cannot be opened".
                    throw StoreError.engine(SQLiteError(code: SQLITE_READONLY, message: "read-only", context: "opening \(path)"))
                }
                isReadOnly = false
            case .existing:
                do {
                    db = try Self.openWritable(path, durability)
                    isReadOnly = false
                } catch  where Self.readOnlyMedium(error) {
                    db = try Self.openReadOnly(path)
                    isReadOnly = true
                }
            }
        } catch let e as SQLiteError {
            throw StoreError.engine(e)
        }
    }

    private static func openWritable(_ path: String, _ durability: Durability) throws -> SQLiteDatabase {
        let db = try SQLiteDatabase(path: path)
        try db.execute("PRAGMA busy_timeout = \(busyTimeoutMilliseconds)")
        // Before the first write (journal mode included): another app's file stays byte-identical.
        try LedgerFileIdentity.check(db, path: path)
        // journal_mode=WAL persists in the file; readers never block the writer.
        try db.execute("PRAGMA journal_mode = WAL")
        try db.execute("PRAGMA synchronous = \(durability.rawValue)")
        try Schema.migrate(db)
        return db
    }

    /// Never writes. A WAL ledger on a read-only medium (or a full disk) has
    /// no shared-memory file and cannot make one; with no pending WAL content
    /// it is read as immutable, which is exact: the database file holds the
    /// whole log, and nothing can write it there.
    private static func openReadOnly(_ path: String) throws -> SQLiteDatabase {
        func open(immutable: Bool) throws -> SQLiteDatabase {
            let db = try SQLiteDatabase(path: path, readOnly: true, immutable: immutable)
            try db.execute("PRAGMA busy_timeout = \(busyTimeoutMilliseconds)")
            try LedgerFileIdentity.check(db, path: path)
            let found = try db.scalarInt("PRAGMA user_version")
            if found > Schema.currentVersion { throw StoreError.newerSchema(found: found, supported: Schema.currentVersion) }
            return db
        }
        do {
            return try open(immutable: false)
        } catch  where cannotOpen(error) && (walSize(path) ?? 0) == 0 {
            return try open(immutable: true)
        }
    }

    /// The SQLite error behind a failure to open, bare or wrapped.
    private static func sqliteError(_ error: Error) -> SQLiteError? {
        switch error {
        case let e as SQLiteError: return e
        case StoreError.engine(let e as SQLiteError): return e
        default: return nil
        }
    }

    private static func readOnlyMedium(_ error: Error) -> Bool { sqliteError(error)?.isReadOnlyMedium ?? false }
    private static func diskFull(_ error: Error) -> Bool { sqliteError(error)?.isDiskFull ?? false }
    private static func cannotOpen(_ error: Error) -> Bool { sqliteError(error)?.isSharedMemoryFailure ?? false }

    private static func walSize(_ path: String) -> Int? {
        try? FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int
    }

    /// Runs `body` inside one write transaction: what it reads and what it
    /// appends (through `append`, which joins the transaction) happen under
    /// the write lock, so a decision cannot be invalidated by another writer
    /// between reading and appending (the Free template limit, for one).
    public func writeTransaction<T>(_ body: () throws -> T) throws -> T {
        do {
            return try db.transaction(body)
        } catch let e as SQLiteError {
            throw StoreError.engine(e)
        }
    }

    // MARK: Appending

    /// Appends events atomically (see `EventStore.append`).
    @discardableResult
    public func append(
        _ events: [ProposedEvent], expecting expectations: [StreamName: ExpectedVersion],
        now: Timestamp
    ) throws -> AppendResult {
        do {
            return try db.transaction { try appendInTransaction(events, expectations, now) }
        } catch let e as SQLiteError {
            throw StoreError.engine(e)
        }
    }

    func appendInTransaction(
        _ events: [ProposedEvent], _ expectations: [StreamName: ExpectedVersion],
        _ now: Timestamp
    ) throws -> AppendResult {
        var planner = AppendPlanner(head: try readHead(), now: now, expecting: expectations)
        let seal = PayloadSeal(cipher)
        for proposed in events {
            guard let candidate = try planner.candidate(for: proposed, storedVersion: version(of:)) else { continue }
            // New ids are the common case: try the insert, and look at the stored
            // event only when its id turns out to be taken.
            if try insertIfNew(candidate.row, seal) {
                try planner.accept(candidate)
            } else {
                guard let stored = try storedContent(of: proposed.eventId) else {
                    throw StoreError.eventIdConflict(eventId: proposed.eventId, position: 0)
                }
                try planner.alreadyStored(candidate, at: stored.position, content: stored.content)
            }
        }
        return planner.result
    }

    /// One prepared lookup per id and per stream, under the transaction the caller holds.
    public func probe(ids: [UUID], streams: [StreamName]) throws -> AppendProbe {
        do {
            var stored: [UUID: StoredEvent] = [:]
            if !ids.isEmpty {
                try db.with("SELECT \(Self.columns) FROM events WHERE event_id = ?") { s in
                    for id in ids {
                        s.reset()
                        try s.bind(1, id.bytes16)
                        if try s.step() { stored[id] = try StoredEvent(s, cipher: cipher) }
                    }
                }
            }
            var versions: [StreamName: Int64] = [:]
            for stream in streams where versions[stream] == nil { versions[stream] = try version(of: stream) }
            return AppendProbe(head: try readHead(), versions: versions, stored: stored)
        } catch let e as SQLiteError {
            throw StoreError.engine(e)
        }
    }

    /// Appends events planned on `probe` (see `EventStore.append(_:expecting:now:probed:)`).
    @discardableResult
    public func append(
        _ events: [ProposedEvent], expecting expectations: [StreamName: ExpectedVersion], now: Timestamp, probed probe: AppendProbe
    ) throws -> AppendResult {
        do {
            return try db.transaction {
                let planned = try AppendPlanner.rows(events, expecting: expectations, now: now, probed: probe, head: try readHead())
                let seal = PayloadSeal(cipher)
                for row in planned.rows where try !insertIfNew(row, seal) {
                    throw StoreError.database("event \(row.eventId.lowercased) was stored after the append's probe was read")
                }
                return planned.planner.result
            }
        } catch let e as SQLiteError {
            throw StoreError.engine(e)
        }
    }

    func readHead() throws -> ChainHead {
        try db.with("SELECT position, hash, recorded_at, recorded_offset FROM events ORDER BY position DESC LIMIT 1") { s in
            guard try s.step() else { return .genesis }
            return ChainHead(position: s.int(0), hash: s.bytes(1), recordedAt: Timestamp(millis: s.int(2), offsetMinutes: Int(s.int(3))))
        }
    }

    private func storedContent(of eventId: UUID) throws -> (position: Int64, content: [UInt8])? {
        try db.with("SELECT \(Self.columns) FROM events WHERE event_id = ?") { s in
            try s.bind(1, eventId.bytes16)
            guard try s.step() else { return nil }
            let row = try StoredEvent(s, cipher: cipher)
            return (row.position, row.content)
        }
    }

    /// Inserts the row unless its id is stored already; false when it was.
    private func insertIfNew(_ row: StoredEvent, _ seal: PayloadSeal) throws -> Bool {
        try db.with(
            """
            INSERT INTO events (position, event_id, stream, stream_version, type, type_code, schema,
                occurred_at, occurred_offset, recorded_at, recorded_offset, device, causation_id, correlation_id, payload, hash)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (event_id) DO NOTHING
            """
        ) { s in
            try s.bind(1, row.position)
            try s.bind(2, row.eventId.bytes16)
            try s.bind(3, row.stream.raw)
            try s.bind(4, row.version)
            try s.bind(5, row.typeName)
            try s.bind(6, Int64(row.typeCode))
            try s.bind(7, Int64(row.schema))
            try s.bind(8, row.occurredAt.millis)
            try s.bind(9, Int64(row.occurredAt.offsetMinutes))
            try s.bind(10, row.recordedAt.millis)
            try s.bind(11, Int64(row.recordedAt.offsetMinutes))
            try s.bind(12, row.device)
            try s.bind(13, row.causationId?.bytes16)
            try s.bind(14, row.correlationId?.bytes16)
            try s.bind(15, try seal.sealed(row.payload, eventId: row.eventId))
            try s.bind(16, row.hash)
            try s.run()
            return db.changes == 1
        }
    }

    // MARK: Reading

    static let columns = """
        position, event_id, stream, stream_version, type, type_code, schema, occurred_at, occurred_offset, \
        recorded_at, recorded_offset, device, causation_id, correlation_id, payload, hash
        """

    /// The current version of a stream; 0 when it does not exist.
    public func version(of stream: StreamName) throws -> Int64 {
        try db.with("SELECT MAX(stream_version) FROM events WHERE stream = ?") { s in
            try s.bind(1, stream.raw)
            return try s.step() ? s.int(0) : 0
        }
    }

    /// The last event's position and chain hash (0 and the genesis hash for an
    /// empty log), read from its row without decoding the event.
    public func head() throws -> (position: Int64, hash: [UInt8]) {
        let h = try readHead()
        return (h.position, h.hash)
    }

    /// The position of the last event; 0 for an empty log.
    public func headPosition() throws -> Int64 {
        try db.scalarInt("SELECT COALESCE(MAX(position), 0) FROM events")
    }

    /// The last position recorded at or before `time` (0 if none): the log "as of" that time.
    /// recordedAt never decreases along the log, so this is a binary search
    /// over positions (about 20 point reads for a million events), no index needed.
    public func position(recordedAtOrBefore time: Timestamp) throws -> Int64 {
        var low: Int64 = 0, high = try headPosition()
        while low < high {
            let mid = low + (high - low + 1) / 2
            let recorded = try db.with("SELECT recorded_at FROM events WHERE position = ?") { s in
                try s.bind(1, mid)
                return try s.step() ? s.int(0) : Int64.max
            }
            if recorded <= time.millis { low = mid } else { high = mid - 1 }
        }
        return low
    }

    public typealias Query = EventQuery

    /// Calls `body` with each matching event in position order, one row at a
    /// time: the log is never held in memory as a whole.
    public func read(_ query: EventQuery, _ body: (EventEnvelope) throws -> Void) throws {
        var sql = "SELECT \(Self.columns) FROM events WHERE position BETWEEN ? AND ?"
        if query.stream != nil { sql += " AND stream = ?" }
        if let types = query.types { sql += " AND type IN (\(types.map { _ in "?" }.joined(separator: ",")))" }
        if query.recordedFrom != nil { sql += " AND recorded_at >= ?" }
        if query.recordedThrough != nil { sql += " AND recorded_at <= ?" }
        sql += " ORDER BY position"
        try db.with(sql) { s in
            var i: Int32 = 1
            try s.bind(i, query.fromPosition); i += 1
            try s.bind(i, query.throughPosition); i += 1
            if let stream = query.stream { try s.bind(i, stream.raw); i += 1 }
            for t in query.types ?? [] { try s.bind(i, t); i += 1 }
            if let t = query.recordedFrom { try s.bind(i, t.millis); i += 1 }
            if let t = query.recordedThrough { try s.bind(i, t.millis); i += 1 }
            while try s.step() {
                try body(try StoredEvent(s, cipher: cipher).envelope())
            }
        }
    }

    /// The replay path for folds: events in position order with only what a
    /// fold reads. Rows are copied out of the statement a batch at a time
    /// (`ReplayRows`) and decoded from the copy; a long replay reads on a
    /// second thread while the caller folds (`ReplayPipeline`).
    public func replay(from: Int64, through: Int64, _ body: (RecordedEvent) throws -> Void) throws {
        try db.with(
            """
            SELECT position, type_code, schema, occurred_at, occurred_offset, recorded_at, recorded_offset, payload\(cipher == nil ? "" : ", event_id")
            FROM events WHERE position BETWEEN ? AND ? ORDER BY position
            """
        ) { s in
            try s.bind(1, from)
            try s.bind(2, through)
            let seal = PayloadSeal(cipher)
            let sealed = cipher != nil
            try ReplayPipeline.run(
                fill: { rows, limit in
                    while rows.count < limit {
                        guard try s.step() else { return false }
                        rows.append(
                            position: s.int(0), code: Int(s.int(1)), schema: Int(s.int(2)),
                            occurredAt: Timestamp(millis: s.int(3), offsetMinutes: Int(s.int(4))),
                            recordedAt: Timestamp(millis: s.int(5), offsetMinutes: Int(s.int(6))), payload: s.blob(7),
                            eventId: sealed ? s.blob(8) : UnsafeRawBufferPointer(start: nil, count: 0))
                    }
                    return true
                },
                decode: { row, payload, eventId in
                    try seal.event(code: row.code, schema: row.schema, stored: payload, eventId: eventId, position: row.position)
                }, body)
        }
    }

    public func event(id: UUID) throws -> EventEnvelope? {
        try db.with("SELECT \(Self.columns) FROM events WHERE event_id = ?") { s in
            try s.bind(1, id.bytes16)
            guard try s.step() else { return nil }
            return try StoredEvent(s, cipher: cipher).envelope()
        }
    }

    /// Streams whose name starts with `prefix`, with the position of their first event.
    public func streams(prefix: String) throws -> [(stream: StreamName, firstPosition: Int64)] {
        // A range on the (stream, stream_version) index instead of LIKE, which would scan.
        try db.with("SELECT stream, position FROM events WHERE stream >= ? AND stream < ? AND stream_version = 1 ORDER BY position") { s in
            try s.bind(1, prefix)
            try s.bind(2, prefix + "\u{10FFFF}")
            var out: [(stream: StreamName, firstPosition: Int64)] = []
            while try s.step() { out.append((StreamName(s.text(0)), s.int(1))) }
            return out
        }
    }

    public func newestStream(prefix: String) throws -> StreamName? {
        // Backwards by position with the stream index turned off (`+stream`): the newest stream starts near the head,
        // where the index's range would read every event of every such stream and sort them.
        try db.with(
            "SELECT stream FROM events WHERE +stream >= ? AND +stream < ? AND stream_version = 1 ORDER BY position DESC LIMIT 1"
        ) { s in
            try s.bind(1, prefix)
            try s.bind(2, prefix + "\u{10FFFF}")
            return try s.step() ? StreamName(s.text(0)) : nil
        }
    }

    public func count() throws -> Int64 { try db.scalarInt("SELECT COUNT(*) FROM events") }

    /// One indexed read of the hash column (`EventStore.hash(at:)`).
    public func hash(at position: Int64) throws -> [UInt8] {
        guard position > 0 else { return Self.genesisHash }
        return try db.with("SELECT hash FROM events WHERE position = ?") { s in
            try s.bind(1, position)
            guard try s.step() else { throw StoreError.unreadableEvent(position: position, reason: "the event is missing") }
            return s.bytes(0)
        }
    }

    public func storedEvents(from: Int64, through: Int64, _ body: (StoredEvent) throws -> Void) throws {
        try db.with("SELECT \(Self.columns) FROM events WHERE position BETWEEN ? AND ? ORDER BY position") { s in
            try s.bind(1, from)
            try s.bind(2, through)
            while try s.step() { try body(try StoredEvent(s, cipher: cipher)) }
        }
    }
}

extension StoredEvent {
    /// A row of `SELECT \(SQLiteEventStore.columns)`, its payload opened with `cipher` when the file is sealed.
    init(_ s: SQLiteStatement, cipher: PayloadCipher?) throws {
        let payload = try PayloadSeal(cipher).opened(s.blob(14), eventId: s.blob(1), position: s.int(0))
        self.init(
            position: s.int(0), eventId: try Self.uuid(s.blob(1), position: s.int(0)), stream: StreamName(s.text(2)),
            version: s.int(3), typeName: s.text(4), typeCode: Int(s.int(5)), schema: Int(s.int(6)),
            occurredAt: Timestamp(millis: s.int(7), offsetMinutes: Int(s.int(8))),
            recordedAt: Timestamp(millis: s.int(9), offsetMinutes: Int(s.int(10))), device: s.text(11),
            causationId: s.isNull(12) ? nil : try Self.uuid(s.blob(12), position: s.int(0)),
            correlationId: s.isNull(13) ? nil : try Self.uuid(s.blob(13), position: s.int(0)),
            payload: payload, hash: s.bytes(15))
    }

    private static func uuid(_ raw: UnsafeRawBufferPointer, position: Int64) throws -> UUID {
        guard raw.count == 16 else { throw StoreError.unreadableEvent(position: position, reason: "an id is not 16 bytes") }
        var r = BinaryReader(raw)
        return try UUID(from: &r)
    }
}
