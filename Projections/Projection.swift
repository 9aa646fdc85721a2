import RepLedgerCore

/// A read model: a pure, deterministic fold over the log. It never reads the
/// database or the clock; whatever it needs comes in the events. Its name and
/// version key its snapshots, so a change to the fold must bump the version.
public protocol Projection: Sendable {
    static var name: String { get }
    static var version: Int { get }
    init()
    mutating func apply(_ envelope: EventEnvelope)
}

extension Projection {
    /// Folds events from a store, from scratch, up to and including `position`.
    public static func build(from store: SQLiteEventStore, through position: Int64 = .max) throws -> Self {
        var p = Self()
        try store.read(SQLiteEventStore.Query(through: position)) { p.apply($0) }
        return p
    }
}
