import RepLedgerCore
import RepLedgerProjections
import RepLedgerSnapshots

/// What every query reads the log under: a point of the log (`asOf`, audit
/// time), a training date (`until`) and a rule set. The CLI builds it from
/// `--as-of`, `--until` and `--rules`; the server from `asOf` and `until`.
public struct QueryScope: Sendable {
    /// A global position or an ISO 8601 time: the log as it stood then.
    public var asOf: String?
    /// A training date (YYYY, YYYY-MM, YYYY-MM-DD or a time): training done up to then.
    public var until: String?
    public var rules: RuleSet
    /// Where to say which snapshot answered (`--verbose`); nil says nothing.
    public var note: (@Sendable (String) -> Void)?
    /// Told when `asOf` is a time before the log began in a log that holds
    /// training dated by then (see `LogTimeMismatch`); it may be told more than once.
    public var beforeLog: (@Sendable (LogTimeMismatch) -> Void)?
    /// A fold kept between queries (the server's, per account): answers at
    /// the head come from it, advanced to the head just read.
    public var warm: WarmFold?
    /// Positions left out (`--without`): every view as if those events had
    /// never happened. Nothing is written: no snapshot or stored result
    /// answers such a fold, or is kept from it.
    public var without: Set<Int64> = []

    public init(
        asOf: String? = nil, until: String? = nil, rules: RuleSet = .default, note: (@Sendable (String) -> Void)? = nil,
        beforeLog: (@Sendable (LogTimeMismatch) -> Void)? = nil, warm: WarmFold? = nil
    ) {
        self.asOf = asOf
        self.until = until
        self.rules = rules
        self.note = note
        self.beforeLog = beforeLog
        self.warm = warm
    }

    /// The kept fold answers: no point of the log or training date asked for.
    public var atHead: WarmFold? { asOf == nil && until == nil && without.isEmpty ? warm : nil }

    /// Stored results (snapshots, milestones) answer only for the log as recorded, not for a training date
    /// or with events left out.
    public var mayUseStoredResults: Bool { until == nil && without.isEmpty }

    /// The last position to fold.
    public func position(in store: any EventStore) throws -> Int64 {
        guard let asOf else { return .max }
        let position = try Self.position(asOf, in: store)
        if position == 0, let beforeLog, let mismatch = try LogTimeMismatch.check(asOf, in: store) { beforeLog(mismatch) }
        return position
    }

    /// A point of the log: a position as given, or the last position recorded at or before a time.
    public static func position(_ text: String, in store: any EventStore) throws -> Int64 {
        if let p = Int64(text), p >= 0 { return p }
        return try store.position(recordedAtOrBefore: try parseTime(text))
    }

    /// The last instant of training counted, when a training date is given.
    public func trainedUntil() throws -> Timestamp? { try until.map(Self.endOf) }

    /// A bare date runs to the end of that day, a month to the end of that month, a year to its end.
    public static func endOf(_ text: String) throws(Refusal) -> Timestamp {
        let parts = text.split(separator: "-")
        func pad(_ n: Int, _ width: Int) -> String { String(repeating: "0", count: max(0, width - String(n).count)) + String(n) }
        if text.count == 4, let y = Int(text) {
            return try parseTime("\(pad(y + 1, 4))-01-01").adding(milliseconds: -1)
        }
        if text.count == 7, parts.count == 2, let y = Int(parts[0]), let m = Int(parts[1]), (1...12).contains(m) {
            let next = m == 12 ? "\(pad(y + 1, 4))-01-01" : "\(pad(y, 4))-\(pad(m + 1, 2))-01"
            return try parseTime(next).adding(milliseconds: -1)
        }
        let t = try parseTime(text)
        return text.count == 10 ? t.adding(milliseconds: 86_400_000 - 1) : t
    }

    /// The time a time-dependent answer is given for: `at`, else the training date, else the as-of time, else now.
    public func answerTime(at: String? = nil) throws -> Timestamp {
        if let at { return try parseTime(at) }
        if let t = try trainedUntil() { return t }
        if let asOf, Int64(asOf) == nil { return try parseTime(asOf) }
        return .now()
    }

    /// When the lifter's plan is read: the as-of time (the log as it stood
    /// then), else now. Never the training date: `--until` asks about the
    /// past, under the plan the lifter holds.
    public func planTime() throws -> Timestamp {
        if let asOf, Int64(asOf) == nil { return try parseTime(asOf) }
        return .now()
    }

    /// The training log as it stood at `asOf`: the newest usable snapshot at or
    /// before it plus the events after. With `until`, folded from the start
    /// with the training done after that date left out.
    public func log(_ store: any EventStore) throws -> TrainingLogProjection {
        if let atHead { return try atHead.current(store) }
        if !without.isEmpty { return try logWithout(store) }
        if let until = try trainedUntil() {
            let log = try TrainingLogProjection.build(from: store, through: try position(in: store), trainedUntil: until)
            note?("folded from the start of the log, training up to \(until.iso8601), up to #\(log.position)")
            return log
        }
        let (log, report) = try TrainingLogSnapshots.load(store, through: try position(in: store))
        if let note {
            for reason in report.ignored { note("snapshot ignored: \(reason)") }
            let from = report.snapshot.map { "snapshot \($0.id) at #\($0.position)" } ?? "the start of the log"
            note("answered from \(from) plus \(report.tailEvents) events, up to #\(log.position)")
        }
        return log
    }

    /// The fold with `without`'s events left out: from the newest snapshot before the first of them (a
    /// snapshot after it holds it), then every later event but those, up to `asOf` and, with `until`,
    /// the training done by then.
    func logWithout(_ store: any EventStore) throws -> TrainingLogProjection {
        let head = try store.headPosition()
        if let outside = without.sorted().first(where: { !(1...max(1, head)).contains($0) || head == 0 }) {
            throw QueryError.invalidParameter("--without takes positions of the log (1 to \(head)), not \(outside)")
        }
        let through = try position(in: store)
        let until = try trainedUntil()
        var log = TrainingLogProjection()
        if until == nil, let first = without.min() { log = try TrainingLogSnapshots.load(store, through: min(first - 1, through)).0 }
        try store.replay(from: log.position + 1, through: through) { e in
            if without.contains(e.position) { return }
            if let until, e.occurredAt > until, e.event.workoutId != nil { return }
            log.apply(e)
        }
        note?("folded without #\(without.sorted().map(String.init).joined(separator: ", #")), up to #\(log.position)")
        return log
    }
}
