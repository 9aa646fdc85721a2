import Foundation

// What a device checks of a sync server's answers, whichever store it keeps:
// the chain of pulled pages, and pushed batches as the server stored them.

/// The pulled events do not chain to the device's confirmed log: the server rewrote history.
public struct RemoteHistoryRewritten: Error, CustomStringConvertible {
    public var position: Int64
    public init(position: Int64) { self.position = position }
    public var description: String {
        "the server's event \(position) does not chain to this device's confirmed log (the server's history was rewritten); nothing was applied"
    }
}

/// Where a pulled chain has reached: the hash the next line must link to.
public struct PulledChain: Sendable {
    var previous: [UInt8]
    var next: Int64

    /// A chain whose next line is at `next` and links to `previous`.
    public init(previous: [UInt8], next: Int64) {
        self.previous = previous
        self.next = next
    }

    /// Each line at the next position, its hash recomputed from its content
    /// and the previous hash; `RemoteHistoryRewritten` at the first that is not.
    public mutating func check(_ lines: [PulledEvent]) throws {
        for line in lines {
            guard line.line.position == next else { throw RemoteHistoryRewritten(position: line.line.position) }
            let hash = line.line.link(after: previous)
            guard hash.hex == line.line.hash else { throw RemoteHistoryRewritten(position: line.line.position) }
            previous = hash
            next += 1
        }
    }
}

/// A batch this device pushed, as the server's answer says it stored it: the
/// events as sent, with the device and the time the server stamped on them,
/// the last of them at `headPosition` with the hash `headHash`.
public struct PushedBatch: Sendable {
    public var events: [ProposedEvent]
    public var recordedAt: Timestamp
    public var headPosition: Int64
    public var headHash: String

    public init(events: [ProposedEvent], recordedAt: Timestamp, headPosition: Int64, headHash: String) {
        self.events = events
        self.recordedAt = recordedAt
        self.headPosition = headPosition
        self.headHash = headHash
    }
}

/// The device's own chain of a pushed batch does not end at the hash the
/// server answered: the server's copy must be pulled instead.
public struct PushedCopyDiffers: Error, CustomStringConvertible {
    public var position: Int64
    public init(position: Int64) { self.position = position }
    public var description: String { "the pushed events chained here do not reach the server's hash at \(position)" }
}

/// One event as the server's `GET …/events` gives it, parsed.
public struct PulledEvent: Sendable {
    let line: JSONLBackup.Line
    public var position: Int64 { line.position }
    public var eventId: UUID { line.proposed.eventId }
    public var proposed: ProposedEvent { line.proposed }
    public var recordedAt: Timestamp { line.recordedAt }
    /// The server's chain hash of this event, in hex.
    public var hash: String { line.hash }

    public init(json: String) throws { line = try JSONLBackup.Line(parsing: json) }

    /// From an envelope already parsed (an element of a page's `events`).
    public init(envelope: JSONValue) throws { line = try JSONLBackup.Line(json: envelope) }

    private init(line: JSONLBackup.Line) { self.line = line }

    /// The events of a pull page (`{"events":[envelopes…],…}`) read in place,
    /// payloads straight from the bytes; nil for anything the tree reader
    /// should answer (which reads the same events, or words the error).
    public static func pageInPlace(_ body: String) -> [PulledEvent]? {
        var r = JSONReader(utf8: Array(body.utf8))
        do {
            var events: [PulledEvent]?
            try r.readObject { key, r in
                guard key == "events", events == nil else { _ = try r.readValue(depth: 1); return }
                var page: [PulledEvent] = []
                try r.readArray { page.append(PulledEvent(line: try JSONLBackup.Line(&$0, depth: 2))) }
                events = page
            }
            return r.atEnd() ? events : nil
        } catch {
            return nil
        }
    }
}

extension ProposedEvent {
    /// The event as its device recorded it, to append again after a rebase.
    public init(_ e: EventEnvelope) {
        self.init(
            eventId: e.eventId, event: e.event, occurredAt: e.occurredAt, device: e.device,
            causationId: e.causationId, correlationId: e.correlationId)
    }
}
