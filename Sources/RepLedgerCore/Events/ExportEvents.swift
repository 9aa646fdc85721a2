import Foundation

/// A file the ledger wrote outside itself (a backup, a CSV, a report), by
/// absolute path, so that erasing the account can remove it too (DOMAIN.md §11).
/// The SHA-256 of what was written lets erasure remove the file only while it
/// is still that file (a restored backup's paths may name another's files).
public struct ExportWritten: EventPayload {
    public static let eventType = EventType("ExportWritten", code: 82)
    public var path = ""
    public var format = ""
    public var sha256 = ""
    public var stream: StreamName { .exports }
    public init() {}
    public init(path: String, format: String, sha256: String) {
        self.path = path
        self.format = format
        self.sha256 = sha256
    }
    public mutating func fields<C: PayloadCoder>(_ c: inout C) throws {
        try c.field("path", &path)
        try c.field("format", &format)
        try c.field("sha256", &sha256)
    }
}

/// A shared template or program imported from its document (`template
/// import`, `program import`): what it became, and the document's SHA-256,
/// its origin. The same document again records nothing.
public struct SharedDocumentImported: EventPayload {
    public static let eventType = EventType("SharedDocumentImported", code: 83)
    public var kind: SharedDocument.Kind = .template
    /// The template or program the import made.
    public var id = UUID.zero
    public var documentHash = ""
    public var stream: StreamName { .programs }
    public init() {}
    public mutating func fields<C: PayloadCoder>(_ c: inout C) throws {
        try c.field("kind", &kind)
        try c.field("id", &id)
        try c.field("documentHash", &documentHash)
    }
}
