import CSQLite
import RepLedgerCore

#if canImport(Glibc)
    import Glibc
#endif

/// An error from SQLite, carrying its result code and message.
public struct SQLiteError: StorageEngineFailure {
    public let code: Int32
    public let message: String
    public let context: String
    /// The operating system's error number behind an I/O error (ENOSPC: the disk is full), 0 if none.
    public var systemErrno: Int32 = 0

    public init(code: Int32, message: String, context: String, systemErrno: Int32 = 0) {
        self.code = code
        self.message = message
        self.context = context
        self.systemErrno = systemErrno
    }

    /// The full technical text (statement and SQLite's message), for logs and tests.
    public var description: String { "\(context): \(message) (SQLite code \(code))" }

    /// One line for a person: what happened and what to do about the file,
    /// never SQL text nor a command (the CLI adds its own: `shellMessage`).
    public var plainMessage: String {
        if isDiskFull { return "the disk is full: free space and retry; nothing was written" }
        switch code & 0xFF {
        case SQLITE_FULL:
            return "the disk is full: free space and retry; nothing was written"
        case SQLITE_READONLY:
            return "the ledger file is read-only: make it (and its folder) writable and retry; nothing was written"
        case SQLITE_CORRUPT, SQLITE_NOTADB:
            return "the ledger file is damaged"
        case SQLITE_CANTOPEN:
            return "the ledger file cannot be opened: check that its folder exists and that you may read and write it"
        case SQLITE_IOERR:
            return "the disk reported an input/output error: check the disk and retry; nothing was written"
        case SQLITE_BUSY, SQLITE_LOCKED:
            return "the ledger is busy: another process held it for more than 5 s; retry when it is done; nothing was written"
        case SQLITE_PERM, SQLITE_AUTH:
            return "permission denied on the ledger file: check its owner and mode; nothing was written"
        case SQLITE_NOMEM:
            return "out of memory while reading the ledger: close other programs and retry; nothing was written"
        default:
            return "the database failed (SQLite code \(code))"
        }
    }

    /// The file is read-only (queries still answer).
    public var isReadOnlyFile: Bool { code & 0xFF == SQLITE_READONLY }
    /// Damage to the file itself, which only `verify` and a backup can answer.
    public var isDamage: Bool { code & 0xFF == SQLITE_CORRUPT || code & 0xFF == SQLITE_NOTADB }
    /// A failure with no known cause: retrying may help.
    public var isUnclassified: Bool {
        ![
            SQLITE_FULL, SQLITE_READONLY, SQLITE_CORRUPT, SQLITE_NOTADB, SQLITE_CANTOPEN, SQLITE_IOERR, SQLITE_BUSY, SQLITE_LOCKED,
            SQLITE_PERM, SQLITE_AUTH, SQLITE_NOMEM,
        ].contains(code & 0xFF) && !isDiskFull
    }
    /// The file or its folder cannot be written (a read-only file or medium, or a full disk).
    public var isReadOnlyMedium: Bool { code & 0xFF == SQLITE_READONLY || code & 0xFF == SQLITE_CANTOPEN || isDiskFull }
    /// No space left: SQLITE_FULL, or an I/O error whose cause was ENOSPC (growing the WAL or its shared memory).
    public var isDiskFull: Bool {
        code & 0xFF == SQLITE_FULL || (code & 0xFF == SQLITE_IOERR && (systemErrno == ENOSPC || code == Self.ioerrShmSize))
    }
    // Extended codes that the C macros build with shifts (not imported into Swift).
    static let ioerrShmOpen = SQLITE_IOERR | (18 << 8)
    static let ioerrShmSize = SQLITE_IOERR | (19 << 8)
    static let ioerrShmMap = SQLITE_IOERR | (21 << 8)

    /// Shared memory for the WAL could not be set up (no space, or a read-only medium).
    var isSharedMemoryFailure: Bool {
        code & 0xFF == SQLITE_CANTOPEN || code == Self.ioerrShmOpen || code == Self.ioerrShmSize || code == Self.ioerrShmMap
            || isDiskFull
    }
    /// SQLITE_BUSY or SQLITE_LOCKED: another process holds the file longer than the busy timeout.
    public var isBusy: Bool { code & 0xFF == SQLITE_BUSY || code & 0xFF == SQLITE_LOCKED }
    /// The file is not a database, or is damaged.
    public var isCorrupt: Bool { code & 0xFF == SQLITE_NOTADB || code & 0xFF == SQLITE_CORRUPT }
}

// SQLite copies bound text and blobs when given this destructor.
private let sqliteTransient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// One connection. Not thread-safe by design: a connection belongs to one
/// caller; two processes share a file through WAL and the busy timeout.
public final class SQLiteDatabase {
    let handle: OpaquePointer
    private var cache: [String: SQLiteStatement] = [:]

    /// Opens (creating if needed) the file at `path`. `immutable` (read-only
    /// only) promises SQLite that nothing changes the file, so it reads a WAL
    /// database on a read-only medium without the shared-memory file it cannot create.
    public init(path: String, readOnly: Bool = false, immutable: Bool = false) throws(SQLiteError) {
        var db: OpaquePointer?
        var flags = (readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE) | SQLITE_OPEN_NOMUTEX
        var name = path
        if immutable {
            flags |= SQLITE_OPEN_URI
            let escaped = path.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "?", with: "%3f")
                .replacingOccurrences(of: "#", with: "%23")
            name = "file:\(escaped)?immutable=1"
        }
        let rc = sqlite3_open_v2(name, &db, flags, nil)
        guard rc == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close_v2(db)
            throw SQLiteError(code: rc, message: message, context: "opening \(path)")
        }
        handle = db
        sqlite3_extended_result_codes(db, 1)
    }

    deinit {
        cache.removeAll()  // finalizes statements before the connection closes
        sqlite3_close_v2(handle)
    }

    func error(_ rc: Int32, _ context: String) -> SQLiteError {
        SQLiteError(code: rc, message: String(cString: sqlite3_errmsg(handle)), context: context, systemErrno: sqlite3_system_errno(handle))
    }

    /// Runs one or more statements that return no rows we need.
    public func execute(_ sql: String) throws(SQLiteError) {
        let rc = sqlite3_exec(handle, sql, nil, nil, nil)
        guard rc == SQLITE_OK else { throw error(rc, sql) }
    }

    /// Runs `body` with the cached prepared statement for `sql`, and resets it
    /// afterwards however `body` ends. A statement left mid-result would keep
    /// its read transaction open, pinning this connection to an old snapshot
    /// (stale reads, and SQLITE_BUSY_SNAPSHOT on the next write).
    /// Re-entrant: if the cached statement is in use (a nested read of the same
    /// query), a fresh one is prepared for the inner call.
    public func with<T>(_ sql: String, _ body: (SQLiteStatement) throws -> T) throws -> T {
        let cached = try statement(sql)
        let s = cached.inUse ? try prepare(sql) : cached
        s.inUse = true
        defer { s.inUse = false; s.reset() }
        return try body(s)
    }

    /// A prepared statement, cached by its text for the connection's life.
    /// Prefer `with(_:_:)`, which resets it when done.
    public func statement(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
        if let s = cache[sql] {
            if !s.inUse { s.reset() }
            return s
        }
        let s = try prepare(sql)
        cache[sql] = s
        return s
    }

    private func prepare(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
        var raw: OpaquePointer?
        let rc = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &raw, nil)
        guard rc == SQLITE_OK, let raw else { throw error(rc, "preparing \(sql)") }
        return SQLiteStatement(raw, db: self, sql: sql)
    }

    /// True while a transaction is open on this connection.
    public var inTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

    /// Runs `body` in a transaction: committed if it returns, rolled back if it throws.
    /// `IMMEDIATE` takes the write lock up front, so two writers queue on the
    /// busy timeout instead of failing on a lock upgrade.
    /// Inside an open transaction `body` simply joins it: the outer one commits
    /// or rolls back everything (a command decided and appended under one lock).
    public func transaction<T>(immediate: Bool = true, _ body: () throws -> T) throws -> T {
        if inTransaction { return try body() }
        try execute(immediate ? "BEGIN IMMEDIATE" : "BEGIN")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// Rows changed by the last INSERT, UPDATE or DELETE.
    public var changes: Int32 { sqlite3_changes(handle) }

    /// The single integer of a query such as `PRAGMA user_version`.
    public func scalarInt(_ sql: String) throws -> Int64 {
        try with(sql) { s in try s.step() ? s.int(0) : 0 }
    }
}

/// A prepared statement. Bind indices and column indices follow SQLite (bind from 1, columns from 0).
public final class SQLiteStatement {
    let raw: OpaquePointer
    unowned let db: SQLiteDatabase
    let sql: String
    /// Set while a `with` body is stepping it.
    var inUse = false

    init(_ raw: OpaquePointer, db: SQLiteDatabase, sql: String) {
        self.raw = raw
        self.db = db
        self.sql = sql
    }

    deinit { sqlite3_finalize(raw) }

    public func reset() {
        sqlite3_reset(raw)
        sqlite3_clear_bindings(raw)
    }

    private func check(_ rc: Int32) throws(SQLiteError) {
        guard rc == SQLITE_OK else { throw db.error(rc, "binding for \(sql)") }
    }

    public func bind(_ i: Int32, _ v: Int64) throws(SQLiteError) { try check(sqlite3_bind_int64(raw, i, v)) }
    public func bind(_ i: Int32, _ v: String) throws(SQLiteError) { try check(sqlite3_bind_text(raw, i, v, -1, sqliteTransient)) }
    public func bindNull(_ i: Int32) throws(SQLiteError) { try check(sqlite3_bind_null(raw, i)) }
    public func bind(_ i: Int32, _ v: [UInt8]) throws(SQLiteError) {
        let rc = v.withUnsafeBytes { sqlite3_bind_blob(raw, i, $0.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32($0.count), sqliteTransient) }
        try check(rc)
    }
    public func bind(_ i: Int32, _ v: [UInt8]?) throws(SQLiteError) {
        if let v { try bind(i, v) } else { try bindNull(i) }
    }

    /// Advances: true when a row is available, false when done.
    @inline(__always)
    public func step() throws(SQLiteError) -> Bool {
        let rc = sqlite3_step(raw)
        if rc == SQLITE_ROW { return true }
        if rc == SQLITE_DONE { return false }
        throw db.error(rc, sql)
    }

    /// Steps a statement that returns no rows.
    public func run() throws(SQLiteError) {
        while try step() {}
    }

    @inline(__always) public func int(_ c: Int32) -> Int64 { sqlite3_column_int64(raw, c) }
    @inline(__always) public func isNull(_ c: Int32) -> Bool { sqlite3_column_type(raw, c) == SQLITE_NULL }
    public func text(_ c: Int32) -> String {
        guard let p = sqlite3_column_text(raw, c) else { return "" }
        return String(cString: p)
    }
    /// Borrowed bytes, valid until the next step or reset.
    @inline(__always)
    public func blob(_ c: Int32) -> UnsafeRawBufferPointer {
        let p = sqlite3_column_blob(raw, c)
        let n = Int(sqlite3_column_bytes(raw, c))
        return UnsafeRawBufferPointer(start: p, count: n)
    }
    public func bytes(_ c: Int32) -> [UInt8] { Array(blob(c)) }
}
