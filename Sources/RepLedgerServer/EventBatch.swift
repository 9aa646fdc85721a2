import Foundation
import RepLedgerCore

/// A pushed batch (SERVER.md §3 "Appending"):
/// `{"events":[{"eventId","stream","type","schema","occurredAt","payload"[,"causationId","correlationId"]}…],
/// "expectedVersions":{"STREAM":N,…}}`. Parsing checks the shape only; the
/// rules run on the account's state (`EventAdmission`).
public struct EventBatch: Sendable {
    public static let maximumEvents = 5000
    public static let maximumBytes = 4 << 20

    public var events: [ProposedEvent]
    public var expectedVersions: [StreamName: ExpectedVersion]

    /// The device is the token's: whatever the body says is not read.
    public init(json text: String, device: String) throws(APIError) {
        let root: JSONValue
        do { root = try JSONReader.parse(text) } catch { throw .badRequest("the body is not JSON: \(error)") }
        guard case .object(let pairs) = root else { throw .badRequest("the body must be an object with \"events\"") }
        let fields = Dictionary(pairs, uniquingKeysWith: { a, _ in a })
        guard case .array(let items)? = fields["events"] else { throw .badRequest("\"events\" must be an array of events") }
        guard items.count <= Self.maximumEvents else { throw .tooLarge }
        events = []
        events.reserveCapacity(items.count)
        for (i, item) in items.enumerated() {
            do {
                events.append(try Self.event(item, device: device))
            } catch let e as APIError {
                throw e
            } catch {
                throw .badRequest("event \(i + 1): \(error)")
            }
        }
        expectedVersions = [:]
        switch fields["expectedVersions"] {
        case nil, .null?: break
        case .object(let versions)?:
            for (stream, v) in versions {
                guard case .int(let n) = v, n >= 0 else { throw .badRequest("expectedVersions.\(stream) must be a version number (0 or more)") }
                expectedVersions[StreamName(stream)] = .exactly(n)
            }
        default: throw .badRequest("\"expectedVersions\" must be an object of stream → version")
        }
    }

    static func event(_ item: JSONValue, device: String) throws -> ProposedEvent {
        guard case .object(let pairs) = item else { throw APIError.badRequest("each event must be an object") }
        // A few keys: found by a search of the pairs (the first of a repeated key), no dictionary per event.
        func value(_ key: String) -> JSONValue? { pairs.first { $0.0 == key }?.1 }
        func get(_ key: String) throws -> JSONValue {
            guard let v = value(key) else { throw APIError.badRequest("an event needs \"\(key)\"") }
            return v
        }
        let typeName = try String(json: get("type"))
        guard let entry = EventCatalog.entry(named: typeName) else { throw APIError.badRequest("unknown event type '\(typeName)'") }
        let schema = try Int(json: get("schema"))
        guard schema == entry.type.schema else {
            throw APIError.badRequest("\(typeName) schema \(schema) is not served here (this server writes schema \(entry.type.schema))")
        }
        let event = try entry.decode(json: get("payload"))
        let stream = try String(json: get("stream"))
        guard stream == event.stream.raw else {
            throw APIError.badRequest("\(typeName) belongs to the stream \(event.stream.raw), not \(stream)")
        }
        func optionalId(_ key: String) throws -> UUID? { try value(key).map { try UUID?(json: $0) } ?? nil }
        return ProposedEvent(eventId: try UUID(json: get("eventId")), event: event, occurredAt: try Timestamp(json: get("occurredAt")),
                             device: device, causationId: try optionalId("causationId"), correlationId: try optionalId("correlationId"))
    }
}
