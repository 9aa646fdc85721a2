import RepLedgerCore

/// Stepping the log by training date as well as by event (the inspector's
/// As-of page): from a position, the last event of the training day before
/// its own and of the day after. A training day is the date an event
/// happened, in its own offset; an imported history's years of training,
/// recorded in one second, step day by day this way.
public enum TrainingDaySteps {
    public struct Steps: Sendable, Equatable {
        /// The last position before this one whose training day is another (nil at the start).
        public var previous: Int64?
        /// The last position of the first run of another training day after this one (nil at the head).
        public var next: Int64?

        public init(previous: Int64? = nil, next: Int64? = nil) {
            self.previous = previous
            self.next = next
        }
    }

    /// Positions read at a time, forwards for the next day, backwards in growing windows for the one before.
    static let window: Int64 = 512

    public static func around(_ store: any EventStore, position: Int64) throws -> Steps {
        let head = try store.headPosition()
        guard head > 0 else { return Steps() }
        let at = min(max(position, 0), head)
        var day: String?
        if at > 0 { try store.replay(from: at, through: at) { day = $0.occurredAt.isoDate } }
        return Steps(previous: try previous(store, before: at, day: day), next: try next(store, after: at, day: day, head: head))
    }

    static func next(_ store: any EventStore, after position: Int64, day: String?, head: Int64) throws -> Int64? {
        var other: String?, last: Int64?, from = position + 1
        while from <= head {
            let through = min(head, from + window - 1)
            var done = false
            try store.replay(from: from, through: through) { e in
                guard !done else { return }
                let d = e.occurredAt.isoDate
                if other == nil, d != day { other = d }
                if let other {
                    if d == other { last = e.position } else { done = true }
                }
            }
            if done { break }
            from = through + 1
        }
        return last
    }

    static func previous(_ store: any EventStore, before position: Int64, day: String?) throws -> Int64? {
        guard position > 1 else { return nil }
        var through = position - 1, size = window
        while through >= 1 {
            let from = max(1, through - size + 1)
            var found: Int64?
            try store.replay(from: from, through: through) { e in if e.occurredAt.isoDate != day { found = e.position } }
            if let found { return found }
            through = from - 1
            size *= 2
        }
        return nil
    }
}
