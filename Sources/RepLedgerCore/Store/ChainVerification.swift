import Crypto

/// What `verify` found.
public struct VerificationReport: Sendable, Equatable {
    public var ok: Bool { firstBadPosition == nil }
    /// Events checked (all of them when ok; up to the first bad one otherwise).
    public var events: Int64
    public var firstBadPosition: Int64?
    public var reason: String?
    /// Hex hash of the last event: keep it elsewhere to detect a truncated tail,
    /// which no chain can reveal on its own.
    public var headHash: String
}

extension EventStore {
    /// Walks the whole log in position order, recomputing every hash from the
    /// previous one, and checks that positions are gapless and payloads decode.
    /// Stops at the first bad event: everything after it is unverifiable.
    public func verify() throws -> VerificationReport { try verify(after: .genesis) }

    /// The same walk from the event after `mark`, taking the mark's hash as
    /// the previous one: what was appended since a verification. `events`
    /// counts the events walked now.
    public func verify(after mark: ChainMark) throws -> VerificationReport {
        var previous = mark.hash
        var expected: Int64 = mark.position + 1
        var checked: Int64 = 0
        var found: VerificationReport?
        func bad(_ position: Int64, _ reason: String) -> VerificationReport {
            VerificationReport(events: checked, firstBadPosition: position, reason: reason, headHash: previous.hex)
        }
        do {
            try storedEvents(from: expected, through: .max) { row in
                if row.position != expected {
                    found = bad(
                        expected,
                        row.position > expected
                            ? "position \(expected) is missing (next stored is \(row.position)): an event was deleted"
                            : "position \(row.position) appears out of order")
                    throw VerificationStop()
                }
                let hash = row.link(after: previous)
                guard hash == row.hash else {
                    found = bad(row.position, "hash mismatch: the event or one before it was altered, removed or reordered")
                    throw VerificationStop()
                }
                do { _ = try row.decodeEvent() } catch {
                    found = bad(row.position, "\(error)")
                    throw VerificationStop()
                }
                previous = hash
                expected += 1
                checked += 1
            }
        } catch is VerificationStop {
        } catch let e as StoreError {
            // A row that cannot even be read (an id of the wrong size) is the first bad event.
            guard case .unreadableEvent = e else { throw e }
            return bad(expected, "\(e)")
        }
        return found ?? VerificationReport(events: checked, firstBadPosition: nil, reason: nil, headHash: previous.hex)
    }
}

extension EventStore {
    /// The stored chain hash of the event at `position` (the genesis hash for 0).
    public func hash(at position: Int64) throws -> [UInt8] {
        guard position > 0 else { return genesisHash }
        var found: [UInt8]?
        try storedEvents(from: position, through: position) { found = $0.hash }
        guard let found else { throw StoreError.unreadableEvent(position: position, reason: "the event is missing") }
        return found
    }

    /// Checks the one event a snapshot stands on, in one read of two rows: it
    /// is stored, decodes, chains from the event before it, and carries
    /// `expectedHash` (when the snapshot recorded one). Damage to older
    /// events is `verify`'s to find: seeing it needs the whole log read.
    public func checkLink(at position: Int64, expectedHash: [UInt8]?) throws {
        guard position > 0 else { return }
        var rows: [StoredEvent] = []
        try storedEvents(from: position - 1, through: position) { rows.append($0) }
        guard let row = rows.last, row.position == position else {
            throw StoreError.unreadableEvent(position: position, reason: "the event a snapshot was taken at is missing")
        }
        let previous = position == 1 ? genesisHash : rows.count == 2 ? rows[0].hash : try hash(at: position - 1)
        let hash = row.link(after: previous)
        guard hash == row.hash, expectedHash.map({ $0 == row.hash }) ?? true else {
            throw StoreError.unreadableEvent(position: position, reason: "it no longer matches its hash chain")
        }
        _ = try row.decodeEvent()
    }
}

extension EventStore {
    /// Verifies what the log gained since `mark` (an earlier verification's
    /// head) and answers the head it reached: a read pays for the events
    /// appended since the last one, not for the whole log. Throws
    /// `ChainDamage` with the first bad position.
    ///
    /// A log that no longer holds the mark's event with the mark's hash is
    /// walked whole, so damage is named where it is. Where nothing may take
    /// back what was verified (a device's file: the sync rebase lowers the
    /// mark before it replaces the unsent tail), a log that ends before the
    /// mark, or holds another event there, is damaged even when its chain
    /// holds: a tail cut off or a log rewritten, which no chain shows on its
    /// own. `headMayMoveBack` is for a log whose tail a failover may replace
    /// (the server's): a chain that holds is then sound.
    ///
    /// `walkAll` walks the whole chain even when the mark holds: a store that
    /// sees its file was changed in a way no append makes (SQLite's schema
    /// cookie moves when the triggers that refuse edits are dropped) asks for it.
    public func verifiedHead(since mark: ChainMark, headMayMoveBack: Bool = false, walkAll: Bool = false) throws -> ChainMark {
        let (position, hash) = try head()
        if position == mark.position, hash == mark.hash, !walkAll { return mark }
        let continues = mark.position <= position && (try? self.hash(at: mark.position)) == mark.hash
        let report = continues && !walkAll ? try verify(after: mark) : try verify()
        if let bad = report.firstBadPosition {
            throw ChainDamage(position: bad, reason: report.reason ?? "")
        }
        if !continues, !headMayMoveBack {
            throw position < mark.position
                ? ChainDamage(
                    position: position + 1,
                    reason:
                        "the log ends at position \(position), but position \(mark.position) was verified before: events were removed from its end")
                : ChainDamage(
                    position: mark.position,
                    reason: "the event here is not the one verified before: the log was rewritten up to it")
        }
        return ChainMark(position: position, hash: hash)
    }
}

/// How far a log was verified: the last position walked and its chain hash.
public struct ChainMark: Sendable, Equatable {
    public var position: Int64
    public var hash: [UInt8]
    public init(position: Int64, hash: [UInt8]) {
        self.position = position
        self.hash = hash
    }
    /// Before the first event: nothing verified yet.
    public static let genesis = ChainMark(position: 0, hash: genesisHash)
}

/// A read found the log's chain broken: the first bad position and why.
/// Every front door answers it as `verify` does (the CLI exits 3).
public struct ChainDamage: Error, Sendable, Equatable, CustomStringConvertible {
    public let position: Int64
    public let reason: String
    public init(position: Int64, reason: String) {
        self.position = position
        self.reason = reason
    }
    public var description: String { "the log fails verification at position \(position): \(reason)" }
}

/// Ends the walk at the first bad event (the report is already made).
private struct VerificationStop: Error {}

/// That some events are in the chain: each one's stored hash recomputed from
/// the event before it, and every event after it re-linked up to the head,
/// so the head's hash (kept elsewhere, or read on another device) vouches
/// for each of them.
public struct ChainProof: Sendable, Equatable {
    public struct Link: Sendable, Equatable {
        public var position: Int64
        /// Hex.
        public var hash: String
    }
    /// The events asked about, in position order, with their hashes.
    public var links: [Link]
    /// The first position re-linked (the earliest asked about) and the head reached.
    public var from: Int64
    public var headPosition: Int64
    public var headHash: String
    /// Where the walk found a hash that does not follow from the one before (nil: every link holds).
    public var firstBadPosition: Int64?
    public var ok: Bool { firstBadPosition == nil }
}

extension EventStore {
    /// Re-links the chain from the earliest of `positions` to the head.
    public func prove(_ positions: [Int64]) throws -> ChainProof {
        let wanted = Set(positions.filter { $0 > 0 })
        let from = try wanted.min() ?? headPosition() + 1
        var previous = try hash(at: from - 1)
        var links: [ChainProof.Link] = []
        var head = from - 1
        var bad: Int64?
        try storedEvents(from: from, through: .max) { row in
            if bad == nil, row.position != head + 1 || row.link(after: previous) != row.hash { bad = row.position }
            if wanted.contains(row.position) { links.append(.init(position: row.position, hash: row.hash.hex)) }
            previous = row.hash
            head = row.position
        }
        return ChainProof(links: links, from: from, headPosition: head, headHash: previous.hex, firstBadPosition: bad)
    }
}
