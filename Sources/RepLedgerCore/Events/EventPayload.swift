import Foundation

/// The identity of an event type in the catalog.
///
/// `code` is the stable number stored with every event and used to dispatch
/// decoding; codes are never reused. `schema` is the current version of the
/// payload layout; older stored versions are read through `upcast`.
public struct EventType: Sendable, Hashable {
    public let name: String
    public let code: Int
    public let schema: Int

    public init(_ name: String, code: Int, schema: Int = 1) {
        self.name = name
        self.code = code
        self.schema = schema
    }
}

/// An event's payload: a record with a catalog identity and a stream.
public protocol EventPayload: PayloadRecord {
    static var eventType: EventType { get }
    /// The stream this event belongs to (derived from its ids, never chosen by a caller).
    var stream: StreamName { get }
    /// Reads a payload stored under an older schema version. The default
    /// refuses: a schema bump must come with an upcaster and a test against
    /// stored old events.
    static func upcast(from schema: Int, reader: inout BinaryReader) throws -> Self
}

extension EventPayload {
    public static func upcast(from schema: Int, reader: inout BinaryReader) throws -> Self {
        throw CodecError.unsupportedSchema(type: eventType.name, schema: schema, current: eventType.schema)
    }

    /// Decodes bytes stored under `schema`, insisting that every byte is consumed.
    @inline(__always)
    static func decodeStored(schema: Int, reader: inout BinaryReader) throws -> Self {
        let value =
            schema == eventType.schema
            ? try Self(from: &reader)
            : try upcast(from: schema, reader: &reader)
        if !reader.isAtEnd { throw CodecError.trailingBytes(type: eventType.name, count: reader.remaining) }
        return value
    }
}

/// A stream name: `workout-<uuid>`, `template-<uuid>`, `templates`, `account`,
/// `library`, `programs`, `import-<uuid>`.
public struct StreamName: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let raw: String
    public init(_ raw: String) { self.raw = raw }
    public var description: String { raw }
    public static func < (a: StreamName, b: StreamName) -> Bool { a.raw < b.raw }

    public static let account = StreamName("account")
    public static let library = StreamName("library")
    public static let templates = StreamName("templates")
    public static let programs = StreamName("programs")
    public static let body = StreamName("body")
    public static let exports = StreamName("exports")
    public static let coaching = StreamName("coaching")
    /// A coach's offers to clients, in the coach's log.
    public static let assignments = StreamName("assignments")
    /// A coach's notes about clients, in the coach's log.
    public static let coachNotes = StreamName("coach-notes")
    public static func workout(_ id: UUID) -> StreamName { StreamName("workout-\(id.lowercased)") }
    public static func template(_ id: UUID) -> StreamName { StreamName("template-\(id.lowercased)") }
    public static func importBatch(_ id: UUID) -> StreamName { StreamName("import-\(id.lowercased)") }
}
