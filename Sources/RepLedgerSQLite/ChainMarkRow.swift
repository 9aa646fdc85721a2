import RepLedgerCore

/// The file's memory of how far its chain was verified (migration 5's
/// `chain_verified` row), so that every query checks the chain at the cost
/// of what was appended since the last read, not of the whole log.
///
/// Beside the mark it keeps the schema cookie it was verified under. An
/// append never moves the cookie; dropping the triggers that refuse edits
/// does, so a file edited through SQLite is walked whole on its next read,
/// wherever the edit is. (The sync rebase drops them too, and says so here
/// in its own transaction.) A byte changed below the mark without SQLite is
/// `verify`'s and `rebuild`'s to find: they walk the whole chain.
extension SQLiteEventStore {
    /// What the row holds: the mark and the schema cookie it was kept under.
    struct KeptMark: Equatable {
        var mark: ChainMark
        var schemaVersion: Int64
    }

    /// The last verified position and hash; genesis when nothing was
    /// verified yet (or the file predates the row and is open read-only).
    public func verifiedMark() throws -> ChainMark { try keptMark()?.mark ?? .genesis }

    func keptMark() throws -> KeptMark? {
        guard try db.scalarInt("SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = 'chain_verified'") == 1 else {
            return nil
        }
        return try db.with("SELECT position, hash, schema_version FROM chain_verified WHERE id = 1") { s in
            guard try s.step() else { return nil }
            return KeptMark(mark: ChainMark(position: s.int(0), hash: [UInt8](s.blob(1))), schemaVersion: s.int(2))
        }
    }

    /// Verifies what was appended since the kept mark (the whole chain when
    /// the schema cookie moved since) and keeps the head reached. Throws
    /// `ChainDamage` with the first bad position. A file that cannot be
    /// written (read-only, a full disk) is still checked; it only cannot
    /// remember, so its next read walks the same events again.
    public func checkChain() throws {
        let kept = try keptMark()
        let schemaVersion = try db.scalarInt("PRAGMA schema_version")
        let mark = kept?.mark ?? .genesis
        let reached = try verifiedHead(since: mark, walkAll: kept.map { $0.schemaVersion != schemaVersion } ?? false)
        let now = KeptMark(mark: reached, schemaVersion: schemaVersion)
        guard now != kept, !isReadOnly else { return }
        // Kept only while the event is still the one verified, in one statement: a sync rebase in
        // another process between the walk and this write leaves the mark it lowered.
        try? db.with(
            """
            INSERT INTO chain_verified (id, position, hash, schema_version)
            SELECT 1, ?1, ?2, ?3 WHERE ?1 = 0 OR EXISTS (SELECT 1 FROM events WHERE position = ?1 AND hash = ?2)
            ON CONFLICT (id) DO UPDATE SET position = excluded.position, hash = excluded.hash, schema_version = excluded.schema_version
            """
        ) { s in
            try s.bind(1, reached.position)
            try s.bind(2, reached.hash)
            try s.bind(3, schemaVersion)
            try s.run()
        }
    }

    /// Lowers the mark to `position` when it stands above it: the sync
    /// rebase replaces the events after the confirmed position, whose
    /// hashes were verified as they were. Call inside that transaction.
    func lowerVerifiedMark(to position: Int64) throws {
        let hash = position == 0 ? Self.genesisHash : try hash(at: position)
        try db.with("UPDATE chain_verified SET position = ?, hash = ? WHERE id = 1 AND position > ?") { s in
            try s.bind(1, position)
            try s.bind(2, hash)
            try s.bind(3, position)
            try s.run()
        }
    }

    /// Whether the schema cookie is still the one the mark was kept under
    /// (the rebase asks before it drops its triggers).
    func schemaUnchangedSinceMark() throws -> Bool {
        try keptMark()?.schemaVersion == db.scalarInt("PRAGMA schema_version")
    }

    /// Keeps the schema cookie the rebase's own trigger changes leave, at
    /// the end of its transaction: they are not an edit of the log. Only
    /// when the cookie had not moved before the rebase began: an edit made
    /// before it is still walked for on the next read.
    func keepSchemaVersionAfterRebase() throws {
        let schemaVersion = try db.scalarInt("PRAGMA schema_version")
        try db.with("UPDATE chain_verified SET schema_version = ? WHERE id = 1") { s in
            try s.bind(1, schemaVersion)
            try s.run()
        }
    }
}
