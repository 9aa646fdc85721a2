import Foundation
import RepLedgerCore

/// The inspector's Log page: one page of events at a time, never the whole
/// log, filtered by type, stream, workout, device and recorded time, and a
/// count of the filtered events per day or week over the whole log (by the
/// day they happened, so an import shows the training it holds).
public enum LogPageQuery {
    /// What the page is filtered by; every field optional.
    public struct Filter: Sendable, Hashable {
        public var types: [String] = []
        public var stream: String?
        /// A workout id or a unique prefix of one: its stream.
        public var workout: String?
        public var device: String?
        /// Recorded at or after / at or before (ISO 8601), as `log --since/--until`.
        public var since: String?
        public var until: String?
        /// The events of one correlation (a command, an import run, a sync push, an assistant's or the command
        /// API's request): its id, or a prefix of it.
        public var correlation: String?
        /// The events the command of the event at this position appended (its causation), and those it caused.
        public var causedBy: Int64?
        /// Text in an event's names and notes (any field whose name holds "name" or "note", or `text`), any case.
        public var grep: String?
        /// Every event that touched one exercise, workout or set (`LogTouching.swift`).
        public var touching: Touching?
        /// `causedBy` found in the log (`resolved(in:)`): the causation ids it stands for.
        var causes: Set<UUID> = []
        public init() {}

        /// Whether an event the store's query returned passes the filters the store does not apply
        /// (device, correlation, causation, text); `resolved(in:)` first when `causedBy` is given.
        public func admits(_ e: EventEnvelope) -> Bool {
            if let device, device != e.device { return false }
            if let correlation, !(e.correlationId?.lowercased.hasPrefix(correlation.lowercased()) ?? false) { return false }
            if causedBy != nil, !(e.causationId.map(causes.contains) ?? false) && !causes.contains(e.eventId) { return false }
            if let grep, !Self.mentions(e, grep) { return false }
            if let touching, !touching.admits(e) { return false }
            return true
        }

        /// The filter with `causedBy` looked up (the causation of the event there, and the event's own id: what
        /// it caused) and `touching`'s reference turned into the ids it stands for.
        public func resolved(in store: any EventStore) throws -> Filter {
            var f = self
            f.touching = try touching?.resolved(in: store)
            guard let position = causedBy else { return f }
            var found: EventEnvelope?
            try store.read(EventQuery(from: position)) { e in if found == nil, e.position == position { found = e } }
            guard let cause = found else { throw QueryError.invalidParameter("position \(position) is not in the log") }
            f.causes = Set([cause.eventId] + (cause.causationId.map { [$0] } ?? []))
            return f
        }

        /// Whether `text` is in one of the event's names or notes.
        static func mentions(_ e: EventEnvelope, _ text: String) -> Bool {
            let json = e.event.payloadJSON, needle = text.lowercased()
            guard json.lowercased().contains(needle) || json.contains("\\u") else { return false }
            guard let object = try? JSONSerialization.jsonObject(with: Data(json.utf8)) else { return false }
            func search(_ value: Any, key: String) -> Bool {
                switch value {
                case let s as String:
                    let k = key.lowercased()
                    return (k.contains("name") || k.contains("note") || k == "text") && s.lowercased().contains(needle)
                case let d as [String: Any]: return d.contains { search($0.value, key: $0.key) }
                case let a as [Any]: return a.contains { search($0, key: key) }
                default: return false
                }
            }
            return search(object, key: "")
        }

        public var isEmpty: Bool {
            types.isEmpty && stream == nil && workout == nil && device == nil && since == nil && until == nil && correlation == nil
                && causedBy == nil && grep == nil && touching == nil
        }
    }

    public enum Period: String, Sendable, CaseIterable {
        case day, week
    }

    public struct Page: Sendable {
        public var events: [EventEnvelope]
        /// The first position this page read from.
        public var from: Int64
        /// Where the next page starts, if any event after this page matches.
        public var next: Int64?
        /// Where the page before this one starts, if any event before it matches.
        public var previous: Int64?
        public var headPosition: Int64
    }

    public static let pageSize = 100
    public static let largestPage = 1_000

    /// The filter as an `EventQuery` (types checked, a workout resolved to its stream).
    public static func query(_ store: any EventStore, _ filter: Filter) throws -> EventQuery {
        for t in filter.types where EventCatalog.entry(named: t) == nil {
            throw QueryError.invalidParameter("unknown event type '\(t)'")
        }
        var stream = filter.stream.map(StreamName.init)
        if let workout = filter.workout {
            let id = try Ledger(store: store).resolveWorkout(workout)
            if let stream, stream != .workout(id) {
                throw QueryError.invalidParameter("the stream and the workout name different streams")
            }
            stream = .workout(id)
        }
        var query = EventQuery(stream: stream, types: filter.types.isEmpty ? nil : filter.types)
        query.recordedFrom = try filter.since.map(parseTime)
        query.recordedThrough = try filter.until.map(parseTime)
        return query
    }

    /// Up to `limit` matching events from position `from` on.
    public static func page(_ store: any EventStore, _ filter: Filter, from: Int64 = 1, limit: Int = pageSize) throws -> Page {
        let filter = try filter.resolved(in: store)
        guard (1...largestPage).contains(limit) else { throw QueryError.invalidParameter("a page holds 1 to \(largestPage) events") }
        guard from >= 1 else { throw QueryError.invalidParameter("a position is 1 or more") }
        let head = try store.headPosition()
        var query = try query(store, filter)
        query.fromPosition = from
        var events: [EventEnvelope] = []
        var next: Int64?
        try readUntilStopped(store, query) { e in
            guard filter.admits(e) else { return true }
            if events.count == limit {
                next = e.position
                return false
            }
            events.append(e)
            return true
        }
        return Page(
            events: events, from: from, next: next, previous: try previousStart(store, filter, query: query, before: from, limit: limit),
            headPosition: head)
    }

    /// Where the page of `limit` matching events ending just before `before` starts: read backwards
    /// in windows that double, so a sparse filter costs a few reads, not the whole log.
    static func previousStart(_ store: any EventStore, _ filter: Filter, query: EventQuery, before: Int64, limit: Int) throws -> Int64? {
        guard before > 1 else { return nil }
        var found: [Int64] = []
        var upper = before - 1, window = Int64(limit) * 2
        while upper >= 1, found.count < limit {
            var q = query
            q.fromPosition = max(1, upper - window + 1)
            q.throughPosition = upper
            var chunk: [Int64] = []
            try store.read(q) { e in
                if filter.admits(e) { chunk.append(e.position) }
            }
            found = chunk + found
            upper = q.fromPosition - 1
            window *= 2
        }
        return found.isEmpty ? nil : found[max(0, found.count - limit)]
    }

    /// The matching events per day or week (the local date they happened), oldest first.
    public static func counts(_ store: any EventStore, _ filter: Filter, by period: Period) throws -> [(key: String, events: Int)] {
        let filter = try filter.resolved(in: store)
        let query = try query(store, filter)
        var counts: [String: Int] = [:]
        try store.read(query) { e in
            guard filter.admits(e) else { return }
            let key = period == .day ? e.occurredAt.isoDate : e.occurredAt.local.isoWeekKey
            counts[key, default: 0] += 1
        }
        return counts.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    /// The position a jump goes to: a position as given (at most the head), or the last one recorded at or before a time.
    public static func jump(_ store: any EventStore, to text: String) throws -> Int64 {
        let head = try store.headPosition()
        if let p = Int64(text) {
            guard p >= 1, p <= head else { throw QueryError.invalidParameter("position \(p) is not in the log (1 to \(head))") }
            return p
        }
        guard let time = try? parseTime(text) else {
            throw QueryError.invalidParameter("jump to a position (1 to \(head)) or an ISO 8601 time, not '\(text)'")
        }
        return max(1, try store.position(recordedAtOrBefore: time))
    }

    /// The page's JSON: each event as `log --json` prints it, the links, and the counts when given.
    public static func document(_ page: Page, counts: [(key: String, events: Int)]?, by period: Period) -> JSONValue {
        var pairs: [(String, JSONValue)] = [
            ("from", .int(page.from)), ("next", page.next.map { .int($0) } ?? .null),
            ("previous", page.previous.map { .int($0) } ?? .null), ("headPosition", .int(page.headPosition)),
            ("events", .array(page.events.map { .raw($0.canonicalJSON) })),
        ]
        if let counts {
            pairs.append(("countsBy", .string(period.rawValue)))
            pairs.append(("counts", .array(counts.map { .object([("key", .string($0.key)), ("events", .int(Int64($0.events)))]) })))
        }
        return .object(pairs)
    }

    /// Reads until `body` says stop (false).
    private static func readUntilStopped(_ store: any EventStore, _ query: EventQuery, _ body: (EventEnvelope) -> Bool) throws {
        struct Stop: Error {}
        do {
            try store.read(query) { if !body($0) { throw Stop() } }
        } catch is Stop {}
    }
}
