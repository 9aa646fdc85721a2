import Crypto
import Foundation
import RepLedgerCore

/// A device ledger's side of sync (SERVER-CONTRACT.md §5): where it syncs to, which
/// events are confirmed by the server, and the rebase that makes the device's
/// log the server's log followed by what is still pending.
public struct SyncState: Sendable, Equatable {
    public var remote: String
    public var account: String
    public var tokenFile: String
    /// Events at or below this position are the server's, byte for byte.
    public var confirmedPosition: Int64
    public var lastSyncAt: Timestamp?
}

/// A pending event the server refused (422), kept with its answer.
public struct RejectedEvent: Sendable, Equatable {
    public var eventId: UUID
    /// The event's canonical line as it was pending.
    public var line: String
    public var code: String
    public var message: String
    public var rejectedAt: Timestamp

    public init(eventId: UUID, line: String, code: String, message: String, rejectedAt: Timestamp) {
        self.eventId = eventId
        self.line = line
        self.code = code
        self.message = message
        self.rejectedAt = rejectedAt
    }
}

extension SQLiteEventStore {
    public func syncState() throws -> SyncState? {
        try db.with("SELECT remote, account, token_file, confirmed_position, last_sync_at FROM sync_state WHERE id = 1") { s in
            guard try s.step() else { return nil }
            return SyncState(
                remote: s.text(0), account: s.text(1), tokenFile: s.text(2), confirmedPosition: s.int(3),
                lastSyncAt: s.isNull(4) ? nil : Timestamp(millis: s.int(4), offsetMinutes: 0))
        }
    }

    /// Remembers where this ledger syncs to. Changing the remote or account of
    /// a ledger that has synced is refused by the caller, not here.
    public func saveSyncTarget(remote: String, account: String, tokenFile: String) throws {
        try db.with(
            """
            INSERT INTO sync_state (id, remote, account, token_file, confirmed_position) VALUES (1, ?, ?, ?, 0)
            ON CONFLICT (id) DO UPDATE SET remote = excluded.remote, account = excluded.account, token_file = excluded.token_file
            """
        ) { s in
            try s.bind(1, remote)
            try s.bind(2, account)
            try s.bind(3, tokenFile)
            try s.run()
        }
    }

    public func rejectedEvents() throws -> [RejectedEvent] {
        try db.with("SELECT event_id, line, code, message, rejected_at FROM sync_rejected ORDER BY rejected_at, line") { s in
            var out: [RejectedEvent] = []
            while try s.step() {
                let raw = s.blob(0)
                guard raw.count == 16 else { continue }
                let id = raw.withMemoryRebound(to: UInt8.self) {
                    UUID(
                        uuid: (
                            $0[0], $0[1], $0[2], $0[3], $0[4], $0[5], $0[6], $0[7], $0[8], $0[9], $0[10], $0[11], $0[12], $0[13], $0[14], $0[15]
                        ))
                }
                out.append(
                    RejectedEvent(
                        eventId: id, line: s.text(1), code: s.text(2), message: s.text(3),
                        rejectedAt: Timestamp(millis: s.int(4), offsetMinutes: 0)))
            }
            return out
        }
    }

    /// The events after the confirmed position: recorded here, not yet on the server.
    public func pendingEvents(after confirmed: Int64) throws -> [EventEnvelope] {
        var out: [EventEnvelope] = []
        try read(Query(from: confirmed + 1)) { out.append($0) }
        return out
    }

    /// The check that pulled lines continue this ledger's chain at
    /// `confirmed`, made a page at a time (a sync checks each page while the
    /// next one is on its way).
    public func pulledChain(after confirmed: Int64) throws -> PulledChain {
        PulledChain(previous: confirmed == 0 ? Self.genesisHash : (try event(at: confirmed)?.hash ?? Self.genesisHash), next: confirmed + 1)
    }

    /// Makes the log the server's log followed by what is still pending, in
    /// one transaction: the pending events after `confirmed` are taken out,
    /// the pulled events go in at their positions with their hashes, and the
    /// pending events the server does not hold yet (nor refused) are appended
    /// again after them. Rejected events are kept aside with the server's
    /// answer. Snapshots past `confirmed` are dropped (their positions moved),
    /// except those on restamped events.
    ///
    /// This is the one place events leave the log: pending events are the
    /// device's own, not yet part of the shared history, and each one either
    /// comes back at once (re-appended, or as the server's copy) or is kept in
    /// `sync_rejected`. A crash at any point leaves the transaction undone.
    ///
    /// The server's copy comes as `pushed` batches (this device's own events,
    /// chained here with what the server stamped on them and confirmed only if
    /// each batch ends at the hash the server answered; otherwise
    /// `PushedCopyDiffers` and nothing is applied), then the `pulled` lines.
    public func rebase(
        confirmed: Int64, pushed: [PushedBatch] = [], pulled: [PulledEvent], rejected: [RejectedEvent],
        now: Timestamp = .now()
    ) throws -> Int64 {
        do {
            return try db.transaction {
                let pending = try pendingEvents(after: confirmed)
                var serverIds = Set(pulled.map(\.eventId))
                for batch in pushed { serverIds.formUnion(batch.events.map(\.eventId)) }
                let rejectedIds = Set(rejected.map(\.eventId))
                let unedited = try schemaUnchangedSinceMark()
                try lowerVerifiedMark(to: confirmed)
                // The pushed events are already here at the server's positions: they stay, restamped.
                let kept = try restamp(after: confirmed, pushed)
                try db.execute("DROP TRIGGER events_no_delete")
                try db.with("DELETE FROM events WHERE position > ?") { s in
                    try s.bind(1, kept); try s.run()
                }
                try db.execute(Schema.noDeleteTrigger)
                // A snapshot on a restamped event stands on the same fold (no fold reads the time
                // recorded or the device): it is linked to the new hash, not dropped. The rest moved.
                try db.with(
                    """
                    UPDATE snapshots SET position_hash = (SELECT hash FROM events WHERE events.position = snapshots.position)
                    WHERE position > ? AND position <= ?
                    """
                ) { s in
                    try s.bind(1, confirmed)
                    try s.bind(2, kept)
                    try s.run()
                }
                try db.with("DELETE FROM snapshots WHERE position > ?") { s in
                    try s.bind(1, kept); try s.run()
                }
                // The server appended in batches of one recorded time: so are its events here, and a
                // batch whose last hash is the server's is the server's whole (each hash chains the one before).
                var start = pulled.startIndex
                while start < pulled.endIndex {
                    let time = pulled[start].recordedAt
                    let end = pulled[start...].firstIndex { $0.recordedAt != time } ?? pulled.endIndex
                    let batch = pulled[start..<end]
                    let result = try appendInTransaction(batch.map(\.proposed), [:], time)
                    guard result.appended == batch.map(\.position), try readHead().hash.hex == batch.last?.hash else {
                        throw RemoteHistoryRewritten(position: batch.first?.position ?? confirmed)
                    }
                    start = end
                }
                let newConfirmed = try headPosition()
                let again = pending.filter { !serverIds.contains($0.eventId) && !rejectedIds.contains($0.eventId) }
                _ = try appendInTransaction(again.map(ProposedEvent.init), [:], now)
                for r in rejected {
                    try db.with(
                        """
                        INSERT INTO sync_rejected (event_id, line, code, message, rejected_at) VALUES (?, ?, ?, ?, ?)
                        ON CONFLICT (event_id) DO NOTHING
                        """
                    ) { s in
                        try s.bind(1, r.eventId.bytes16)
                        try s.bind(2, r.line)
                        try s.bind(3, r.code)
                        try s.bind(4, r.message)
                        try s.bind(5, r.rejectedAt.millis)
                        try s.run()
                    }
                }
                try db.with("UPDATE sync_state SET confirmed_position = ?, last_sync_at = ? WHERE id = 1") { s in
                    try s.bind(1, newConfirmed)
                    try s.bind(2, now.millis)
                    try s.run()
                }
                if unedited { try keepSchemaVersionAfterRebase() }
                return newConfirmed
            }
        } catch let e as SQLiteError {
            throw StoreError.engine(e)
        }
    }
}

extension SQLiteEventStore {
    /// Gives the pending events the server stored as `pushed` the time, device
    /// and hash the server gave them, in place (their positions, versions and
    /// content are the server's already); the position up to which the log is
    /// now the server's. Throws `PushedCopyDiffers` when the events here are
    /// not those, in that order, or a batch does not end at the server's hash.
    func restamp(after confirmed: Int64, _ pushed: [PushedBatch]) throws -> Int64 {
        guard !pushed.isEmpty else { return confirmed }
        var previous = confirmed == 0 ? Self.genesisHash : (try event(at: confirmed)?.hash ?? Self.genesisHash)
        var position = confirmed
        try db.execute("DROP TRIGGER events_no_update")
        for batch in pushed {
            var rows: [StoredEvent] = []
            rows.reserveCapacity(batch.events.count)
            try storedEvents(from: position + 1, through: position + Int64(batch.events.count)) { rows.append($0) }
            guard rows.count == batch.events.count else { throw PushedCopyDiffers(position: batch.headPosition) }
            for (event, var row) in zip(batch.events, rows) {
                position += 1
                guard row.position == position, row.eventId == event.eventId else { throw PushedCopyDiffers(position: batch.headPosition) }
                row.device = event.device
                row.recordedAt = batch.recordedAt
                previous = row.link(after: previous)
                try db.with("UPDATE events SET recorded_at = ?, recorded_offset = ?, device = ?, hash = ? WHERE position = ?") { s in
                    try s.bind(1, row.recordedAt.millis)
                    try s.bind(2, Int64(row.recordedAt.offsetMinutes))
                    try s.bind(3, row.device)
                    try s.bind(4, previous)
                    try s.bind(5, position)
                    try s.run()
                }
            }
            guard position == batch.headPosition, previous.hex == batch.headHash else { throw PushedCopyDiffers(position: batch.headPosition) }
        }
        try db.execute(Schema.noUpdateTrigger)
        return position
    }
}
