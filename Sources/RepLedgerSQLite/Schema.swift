import RepLedgerCore

/// The database schema, as an ordered list of migrations. `PRAGMA user_version`
/// records how many have run. A migration is never edited once released; a
/// change is a new migration appended here.
enum Schema {
    static let migrations: [String] = [
        // 1: the event log. Positions are the rowid, so position order is storage order.
        // Only the indexes appends need: every extra one costs on every append.
        // "As of a time" needs none (recorded_at is monotonic: a binary search
        // over positions), and filtering by type is an audit-time scan.
        """
        CREATE TABLE events (
            position        INTEGER PRIMARY KEY,
            event_id        BLOB    NOT NULL UNIQUE,
            stream          TEXT    NOT NULL,
            stream_version  INTEGER NOT NULL,
            type            TEXT    NOT NULL,
            type_code       INTEGER NOT NULL,
            schema          INTEGER NOT NULL,
            occurred_at     INTEGER NOT NULL,
            occurred_offset INTEGER NOT NULL,
            recorded_at     INTEGER NOT NULL,
            recorded_offset INTEGER NOT NULL,
            device          TEXT    NOT NULL,
            causation_id    BLOB,
            correlation_id  BLOB,
            payload         BLOB    NOT NULL,
            hash            BLOB    NOT NULL,
            UNIQUE (stream, stream_version)
        ) STRICT;
        -- The log is append-only: the database itself refuses edits and deletions.
        CREATE TRIGGER events_no_update BEFORE UPDATE ON events
            BEGIN SELECT RAISE(ABORT, 'events are immutable: append a correcting event instead'); END;
        CREATE TRIGGER events_no_delete BEFORE DELETE ON events
            BEGIN SELECT RAISE(ABORT, 'events are immutable: append a correcting event instead'); END;
        """,
        // 2: snapshots of projection state, in the same file so a backup copies one file.
        // They are caches, not facts: pruning deletes rows here, never events.
        """
        CREATE TABLE snapshots (
            id                 INTEGER PRIMARY KEY,
            projection         TEXT    NOT NULL,
            projection_version INTEGER NOT NULL,
            rules_id           TEXT    NOT NULL,
            rules_version      INTEGER NOT NULL,
            position           INTEGER NOT NULL,
            created_at         INTEGER NOT NULL,
            size               INTEGER NOT NULL,
            checksum           BLOB    NOT NULL,
            state              BLOB    NOT NULL
        ) STRICT;
        CREATE INDEX snapshots_by_projection ON snapshots (projection, position);
        """,
        // 3: the chain hash of the event a snapshot was taken at, so a query
        // answered from a snapshot can check that the log under it is still
        // the log it was folded from. NULL for snapshots taken before.
        """
        ALTER TABLE snapshots ADD COLUMN position_hash BLOB;
        """,
        // 4: device sync (SERVER-CONTRACT.md §5). Events after `confirmed_position` are
        // pending: recorded here, not yet in the server's log. Refused ones
        // leave the log for `sync_rejected`, with the server's answer.
        """
        CREATE TABLE sync_state (
            id                 INTEGER PRIMARY KEY CHECK (id = 1),
            remote             TEXT    NOT NULL,
            account            TEXT    NOT NULL,
            token_file         TEXT    NOT NULL,
            confirmed_position INTEGER NOT NULL,
            last_sync_at       INTEGER
        ) STRICT;
        CREATE TABLE sync_rejected (
            event_id    BLOB    PRIMARY KEY,
            line        TEXT    NOT NULL,
            code        TEXT    NOT NULL,
            message     TEXT    NOT NULL,
            rejected_at INTEGER NOT NULL
        ) STRICT;
        """,
        // 5: how far the chain was last verified (`ChainMarkRow`): every read
        // walks only what was appended since, so a changed byte is caught on
        // the next read at the cost of the events new since the last one, and
        // the schema cookie then, which moves when the triggers that refuse
        // edits are dropped: a read that sees it moved walks the whole chain.
        """
        CREATE TABLE chain_verified (
            id             INTEGER PRIMARY KEY CHECK (id = 1),
            position       INTEGER NOT NULL,
            hash           BLOB    NOT NULL,
            schema_version INTEGER NOT NULL
        ) STRICT;
        """,
    ]

    /// Migration 1's trigger that refuses deletions, recreated by the sync
    /// rebase after it replaces the pending events (`SQLiteEventStore.rebase`).
    static let noDeleteTrigger = """
        CREATE TRIGGER events_no_delete BEFORE DELETE ON events
            BEGIN SELECT RAISE(ABORT, 'events are immutable: append a correcting event instead'); END;
        """

    /// Migration 1's trigger that refuses edits, recreated by the sync rebase
    /// after it restamps the events the server confirmed (`SQLiteEventStore.restamp`).
    static let noUpdateTrigger = """
        CREATE TRIGGER events_no_update BEFORE UPDATE ON events
            BEGIN SELECT RAISE(ABORT, 'events are immutable: append a correcting event instead'); END;
        """

    static var currentVersion: Int64 { Int64(migrations.count) }

    /// Brings the file up to the current schema and stamps it as a ledger
    /// (`LedgerFileIdentity.applicationId`), in one transaction.
    static func migrate(_ db: SQLiteDatabase) throws {
        let found = try db.scalarInt("PRAGMA user_version")
        if found > currentVersion { throw StoreError.newerSchema(found: found, supported: currentVersion) }
        let stamped = try db.scalarInt("PRAGMA application_id") == LedgerFileIdentity.applicationId
        guard found < currentVersion || !stamped else { return }
        try db.transaction {
            // Re-read under the write lock: another process may have migrated meanwhile.
            let now = try db.scalarInt("PRAGMA user_version")
            for (i, sql) in migrations.enumerated() where Int64(i) >= now {
                try db.execute(sql)
            }
            try db.execute("PRAGMA user_version = \(currentVersion)")
            try db.execute("PRAGMA application_id = \(LedgerFileIdentity.applicationId)")
        }
    }
}
