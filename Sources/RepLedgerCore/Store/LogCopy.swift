extension EventStore {
    /// Appends `source`'s events up to `position` to this store (empty, or
    /// holding `source`'s events before them), each run of one recorded time
    /// at that time and at most 5,000 events at once: the copy chains as
    /// `source` does, event for event, and no log is held in memory whole.
    /// Callers check the copy's head hash against `source`'s, in their words.
    public func appendCopy(of source: any EventStore, through position: Int64 = .max) throws {
        var batch: [ProposedEvent] = [], recordedAt: Timestamp?
        func flush() throws {
            if let recordedAt, !batch.isEmpty { try append(batch, expecting: [:], now: recordedAt) }
            batch.removeAll(keepingCapacity: true)
        }
        try source.read(EventQuery(through: position)) { e in
            if e.recordedAt != recordedAt || batch.count == 5_000 {
                try flush()
                recordedAt = e.recordedAt
            }
            batch.append(ProposedEvent(e))
        }
        try flush()
    }
}
