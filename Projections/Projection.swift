import RepLedgerCore

/// A fold over the log: pure and deterministic. It never reads the database
/// or the clock; whatever it needs comes in the events. Its name and version
/// key its snapshots, so a change to the fold must bump the version.
public protocol Projection: Sendable {
    static var name: String { get }
    static var version: Int { get }
    init()
    mutating func apply(_ event: RecordedEvent)
}

/// A read model computed from a fold's state under a rule set (and, where it
/// speaks of time, an explicit "as of" time). Views never hold state of
/// their own, so an edit, a deletion or a rule change can never leave one
/// stale: rebuilding under other rules needs no replay of the log.
public protocol ProjectionView {
    static var name: String { get }
    static var version: Int { get }
}

extension Projection {
    /// Folds events from a store, from scratch, up to and including `position`.
    public static func build(from store: any EventStore, through position: Int64 = .max) throws -> Self {
        var p = Self()
        try store.replay(through: position) { p.apply($0) }
        return p
    }

    /// Folds the log as it stood in training time: events of a workout that
    /// occurred after `trainedUntil` are left out (the workouts started later,
    /// and sets, edits and finishes done later), while the library, settings,
    /// templates and purchases are read up to `position` as usual. "My
    /// records as of January 2023" on a history imported today.
    public static func build(from store: any EventStore, through position: Int64 = .max, trainedUntil: Timestamp) throws -> Self {
        var p = Self()
        try store.replay(through: position) { e in
            if e.occurredAt > trainedUntil, e.event.workoutId != nil { return }
            p.apply(e)
        }
        return p
    }

    public mutating func apply(_ envelope: EventEnvelope) { apply(RecordedEvent(envelope)) }
}
