import Foundation

/// The fields of an event envelope object read where it stands in a body
/// (a pushed event, a pulled line), as the tree readers read them: the
/// first of a repeated key counts, unknown keys are skipped, and the payload
/// is decoded once its type is known (at once when `type` comes first, as
/// devices and servers write it). Any failure is for the caller to answer
/// by reading the body as a tree, which words the errors.
public struct EnvelopeInPlace {
    public var eventId: UUID?
    public var stream: String?
    public var typeName: String?
    public var schema: Int?
    public var occurredAt: Timestamp?
    public var causationId: UUID??
    public var correlationId: UUID??
    public var device: String?
    public var position: Int?
    public var version: Int?
    public var recordedAt: Timestamp?
    public var hash: String?
    /// The payload, decoded as its type's current schema (the caller checks `schema`).
    public var event: LedgerEvent?

    /// A type this build does not serve, or no payload.
    public struct Unread: Error { public init() {} }

    /// Reads the object at `r`, which stands `depth` deep in its document.
    public init(_ r: inout JSONReader, depth: Int) throws {
        var payloadAt: Int?
        let values = depth + 1
        try r.readObject { key, r in
            switch key {
            case "eventId" where eventId == nil: eventId = try UUID(json: r.readValue(depth: values))
            case "stream" where stream == nil: stream = try String(json: r.readValue(depth: values))
            case "type" where typeName == nil: typeName = try String(json: r.readValue(depth: values))
            case "schema" where schema == nil: schema = try Int(json: r.readValue(depth: values))
            case "occurredAt" where occurredAt == nil: occurredAt = try Timestamp(json: r.readValue(depth: values))
            case "causationId" where causationId == nil: causationId = .some(try UUID?(json: r.readValue(depth: values)))
            case "correlationId" where correlationId == nil: correlationId = .some(try UUID?(json: r.readValue(depth: values)))
            case "device" where device == nil: device = try String(json: r.readValue(depth: values))
            case "position" where position == nil: position = try Int(json: r.readValue(depth: values))
            case "version" where version == nil: version = try Int(json: r.readValue(depth: values))
            case "recordedAt" where recordedAt == nil: recordedAt = try Timestamp(json: r.readValue(depth: values))
            case "hash" where hash == nil: hash = try String(json: r.readValue(depth: values))
            case "payload" where event == nil && payloadAt == nil:
                if let typeName {
                    guard let entry = EventCatalog.entry(named: typeName) else { throw Unread() }
                    event = try entry.decode(jsonReader: &r)
                } else {
                    // The type comes later: the payload is read once it is known.
                    payloadAt = r.offset
                    _ = try r.readValue(depth: values)
                }
            default: _ = try r.readValue(depth: values)
            }
        }
        if let payloadAt {
            guard let typeName, let entry = EventCatalog.entry(named: typeName) else { throw Unread() }
            var later = r
            later.offset = payloadAt
            event = try entry.decode(jsonReader: &later)
        }
    }

    /// The catalog's entry for the type, when the envelope names one this build writes at its schema.
    public var servedEntry: EventCatalog.Entry? {
        guard let typeName, let schema, let entry = EventCatalog.entry(named: typeName), entry.type.schema == schema else { return nil }
        return entry
    }
}
