import Foundation

/// What a store holds of a batch, read once inside the write transaction
/// that appends it: where the log ends, each stream's version, and the
/// batch's events stored already (a retry, a re-sent sync), whole.
///
/// A caller that checks rules of its own before appending (the server's
/// push: stored devices, expected versions, admission) reads them here and
/// hands the probe to `EventStore.append(_:expecting:now:probed:)`, so the
/// store is asked about the batch once, never once for the caller and again
/// for the append.
public struct AppendProbe: Sendable {
    /// Where the log ended when the probe was read; an append planned on it
    /// is refused if the log has moved since.
    public var head: ChainHead
    /// The versions of the streams probed (0: a new stream).
    public var versions: [StreamName: Int64]
    /// The probed events stored already, by id.
    public var stored: [UUID: StoredEvent]

    public init(head: ChainHead, versions: [StreamName: Int64], stored: [UUID: StoredEvent]) {
        self.head = head
        self.versions = versions
        self.stored = stored
    }

    /// A stream's version when probed; 0 for a new stream (or one not probed).
    public func version(of stream: StreamName) -> Int64 { versions[stream] ?? 0 }

    /// The device each stored event was stored with.
    public var storedDevices: [UUID: String] { stored.mapValues(\.device) }

    /// The streams to probe for `events` and `also`, each once, in order of first appearance.
    public static func streams(_ events: [ProposedEvent], also: some Sequence<StreamName> = []) -> [StreamName] {
        var seen: Set<StreamName> = []
        return (events.map(\.stream) + Array(also)).filter { seen.insert($0).inserted }
    }
}

extension AppendPlanner {
    /// The rows of `events` planned on `probe`, after checking that the log
    /// has not moved since it was read (`head` is where it ends now).
    public static func rows(
        _ events: [ProposedEvent], expecting expectations: [StreamName: ExpectedVersion], now: Timestamp,
        probed probe: AppendProbe, head: ChainHead
    ) throws -> (rows: [StoredEvent], planner: AppendPlanner) {
        guard head == probe.head else {
            throw StoreError.database("the log moved from position \(probe.head.position) to \(head.position) after the append's probe was read")
        }
        return try rows(events, expecting: expectations, now: now, head: head, versions: probe.versions, stored: probe.stored)
    }
}

extension EventStore {
    /// Appends `events` after one probe of them, in one write transaction:
    /// events stored already keep the device of their stored copy (the same
    /// event re-sent through another device is the same event).
    @discardableResult
    public func appendAdoptingStoredDevices(
        _ events: [ProposedEvent], expecting expectations: [StreamName: ExpectedVersion], now: Timestamp
    ) throws -> AppendResult {
        try writeTransaction {
            let probe = try probe(ids: events.map(\.eventId), streams: AppendProbe.streams(events))
            let adopted = ProposedEvent.adopting(events, storedDevices: probe.storedDevices)
            return try append(adopted, expecting: expectations, now: now, probed: probe)
        }
    }
}
