import Foundation

/// The body of a push (SERVER-CONTRACT.md §3 "Appending"), written by a device and
/// read by the server through this one codec:
/// `{"events":[{"eventId","stream","type","schema","occurredAt","payload"[,"causationId","correlationId"]}…],
/// "expectedVersions":{"STREAM":N,…}}`, payloads in canonical JSON. Reading
/// checks the shape only; the rules run on the account's state
/// (`EventAdmission`). The device named in the events is not sent: the
/// token's counts.
///
/// A batch is read where it stands (`readInPlace`), payloads straight from
/// the body's bytes; any failure or unusual shape reads it again as a tree
/// (`init(tree:)`), which alone words the errors. Both accept the same
/// batches and read them to the same events.
public struct PushBatch: Sendable {
    /// Why a body is not a batch. The words are the HTTP answer's message.
    public enum Malformed: Error, Equatable, CustomStringConvertible {
        /// More than `maximumEvents` events (or bytes, checked by the server as it reads the body).
        case tooLarge
        case invalid(String)

        public var description: String {
            switch self {
            case .tooLarge: return "the body is too large: send at most 4 MiB and 5000 events per request"
            case .invalid(let why): return why
            }
        }
    }

    public static let maximumEvents = 5000
    public static let maximumBytes = 4 << 20

    public var events: [ProposedEvent]
    public var expectedVersions: [StreamName: ExpectedVersion]

    /// The device is the token's: whatever the body says is not read.
    public init(json text: String, device: String) throws(Malformed) {
        if let batch = Self.readInPlace(Array(text.utf8), device: device) {
            self = batch
        } else {
            try self.init(tree: text, device: device)
        }
    }

    public init(events: [ProposedEvent], expectedVersions: [StreamName: ExpectedVersion] = [:]) {
        self.events = events
        self.expectedVersions = expectedVersions
    }

    // MARK: Writing

    /// The body a device sends: events in the order the server reads in
    /// place, then the expectations when there are any.
    public var json: String {
        var j = JSONWriter()
        j.beginObject()
        j.key("events")
        j.beginArray()
        for e in events {
            j.beginObject()
            j.key("eventId"); j.string(e.eventId.lowercased)
            j.key("stream"); j.string(e.event.stream.raw)
            j.key("type"); j.string(e.event.eventType.name)
            j.key("schema"); j.int(Int64(e.event.eventType.schema))
            j.key("occurredAt"); j.string(e.occurredAt.iso8601)
            j.key("causationId"); e.causationId.writeJSON(to: &j)
            j.key("correlationId"); e.correlationId.writeJSON(to: &j)
            j.key("payload"); e.event.payload.writeJSON(to: &j)
            j.endObject()
        }
        j.endArray()
        if !expectedVersions.isEmpty {
            j.key("expectedVersions")
            j.beginObject()
            for (stream, expected) in expectedVersions.sorted(by: { $0.key.raw < $1.key.raw }) {
                guard case .exactly(let n) = expected else { continue }
                j.key(stream.raw); j.int(n)
            }
            j.endObject()
        }
        j.endObject()
        return j.string
    }

    // MARK: In place

    /// The batch, or nil for whatever the tree reader should answer.
    static func readInPlace(_ bytes: [UInt8], device: String) -> PushBatch? {
        var r = JSONReader(utf8: bytes)
        do {
            var events: [ProposedEvent]?
            var versions: JSONValue?, versionsSeen = false
            try r.readObject { key, r in
                // The first of a repeated key counts, as in the tree.
                switch key {
                case "events" where events == nil: events = try Self.events(&r, device: device)
                case "expectedVersions" where !versionsSeen: versions = try r.readValue(depth: 1); versionsSeen = true
                default: _ = try r.readValue(depth: 1)
                }
            }
            guard r.atEnd(), let events else { return nil }
            return PushBatch(events: events, expectedVersions: try Self.expectedVersions(versions))
        } catch {
            return nil
        }
    }

    private static func events(_ r: inout JSONReader, device: String) throws -> [ProposedEvent] {
        var events: [ProposedEvent] = []
        events.reserveCapacity(512)
        try r.readArray { r in
            guard events.count < maximumEvents else { throw Malformed.tooLarge }
            events.append(try event(&r, device: device))
        }
        return events
    }

    private static func event(_ r: inout JSONReader, device: String) throws -> ProposedEvent {
        let e = try EnvelopeInPlace(&r, depth: 2)
        guard e.servedEntry != nil, let eventId = e.eventId, let occurredAt = e.occurredAt, let event = e.event,
            e.stream == event.stream.raw
        else { throw EnvelopeInPlace.Unread() }
        return ProposedEvent(
            eventId: eventId, event: event, occurredAt: occurredAt, device: device,
            causationId: e.causationId ?? nil, correlationId: e.correlationId ?? nil)
    }

    // MARK: As a tree

    init(tree text: String, device: String) throws(Malformed) {
        let root: JSONValue
        do { root = try JSONReader.parse(text) } catch { throw .invalid("the body is not JSON: \(error)") }
        guard case .object(let pairs) = root else { throw .invalid("the body must be an object with \"events\"") }
        let fields = Dictionary(pairs, uniquingKeysWith: { a, _ in a })
        guard case .array(let items)? = fields["events"] else { throw .invalid("\"events\" must be an array of events") }
        guard items.count <= Self.maximumEvents else { throw .tooLarge }
        events = []
        events.reserveCapacity(items.count)
        for (i, item) in items.enumerated() {
            do {
                events.append(try Self.event(item, device: device))
            } catch let e as Malformed {
                throw e
            } catch {
                throw .invalid("event \(i + 1): \(error)")
            }
        }
        expectedVersions = try Self.expectedVersions(fields["expectedVersions"])
    }

    static func expectedVersions(_ value: JSONValue?) throws(Malformed) -> [StreamName: ExpectedVersion] {
        var expected: [StreamName: ExpectedVersion] = [:]
        switch value {
        case nil, .null?: break
        case .object(let versions)?:
            for (stream, v) in versions {
                guard case .int(let n) = v, n >= 0 else { throw .invalid("expectedVersions.\(stream) must be a version number (0 or more)") }
                expected[StreamName(stream)] = .exactly(n)
            }
        default: throw .invalid("\"expectedVersions\" must be an object of stream → version")
        }
        return expected
    }

    static func event(_ item: JSONValue, device: String) throws -> ProposedEvent {
        guard case .object(let pairs) = item else { throw Malformed.invalid("each event must be an object") }
        // A few keys: found by a search of the pairs (the first of a repeated key), no dictionary per event.
        func value(_ key: String) -> JSONValue? { pairs.first { $0.0 == key }?.1 }
        func get(_ key: String) throws -> JSONValue {
            guard let v = value(key) else { throw Malformed.invalid("an event needs \"\(key)\"") }
            return v
        }
        let typeName = try String(json: get("type"))
        guard let entry = EventCatalog.entry(named: typeName) else { throw Malformed.invalid("unknown event type '\(typeName)'") }
        let schema = try Int(json: get("schema"))
        guard schema == entry.type.schema else {
            throw Malformed.invalid("\(typeName) schema \(schema) is not served here (this server writes schema \(entry.type.schema))")
        }
        let event = try entry.decode(json: get("payload"))
        let stream = try String(json: get("stream"))
        guard stream == event.stream.raw else {
            throw Malformed.invalid("\(typeName) belongs to the stream \(event.stream.raw), not \(stream)")
        }
        func optionalId(_ key: String) throws -> UUID? { try value(key).map { try UUID?(json: $0) } ?? nil }
        return ProposedEvent(
            eventId: try UUID(json: get("eventId")), event: event, occurredAt: try Timestamp(json: get("occurredAt")),
            device: device, causationId: try optionalId("causationId"), correlationId: try optionalId("correlationId"))
    }
}
