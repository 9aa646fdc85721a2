import Foundation

/// Opens an import batch. The events of the import name the batch as their
/// causation; `fileDigest` (SHA-256, hex) is how a re-import is recognised.
public struct ImportBatchStarted: EventPayload {
    public static let eventType = EventType("ImportBatchStarted", code: 80)
    public var batchId = UUID.zero
    public var source: ImportSource = .strong
    public var fileName = ""
    public var fileDigest = ""
    public var rows = 0
    public var stream: StreamName { .importBatch(batchId) }
    public init() {}
    public mutating func fields<C: PayloadCoder>(_ c: inout C) throws {
        try c.field("batchId", &batchId)
        try c.field("source", &source)
        try c.field("fileName", &fileName)
        try c.field("fileDigest", &fileDigest)
        try c.field("rows", &rows)
    }
}

public struct ImportBatchFinished: EventPayload {
    public static let eventType = EventType("ImportBatchFinished", code: 81)
    public var batchId = UUID.zero
    public var workouts = 0
    public var sets = 0
    public var exercisesCreated = 0
    public var skipped = 0
    public var stream: StreamName { .importBatch(batchId) }
    public init() {}
    public mutating func fields<C: PayloadCoder>(_ c: inout C) throws {
        try c.field("batchId", &batchId)
        try c.field("workouts", &workouts)
        try c.field("sets", &sets)
        try c.field("exercisesCreated", &exercisesCreated)
        try c.field("skipped", &skipped)
    }
}
