import RepLedgerCore
import RepLedgerProjections

/// When each set of a workout began and ended, for formats that place sets in
/// time (FIT, Health Connect), in the order history shows them.
///
/// Sets logged live carry their completion times: when those rise set after set,
/// a set ends when it was completed and began its active time before (no earlier
/// than the set before it ended), and the gap between is rest. An imported
/// history has one time for every set, so its sets are spread evenly over the
/// workout, each slot an active time and then rest. A set's active time is its
/// own duration when it was timed, else 3 s a rep (5 s to 2 min), else 30 s. A
/// workout with no recorded end is given the active times and 90 s rests.
public struct SetTimeline: Sendable {
    public struct TimedSet: Sendable {
        public var exercise: WorkoutHistoryProjection.ExerciseRow
        public var set: WorkoutHistoryProjection.SetRow
        /// Where the set is in its exercise's entry, from 0.
        public var indexInEntry: Int
        public var start: Timestamp
        public var end: Timestamp
        /// The rest after the set, in milliseconds, until the next one begins (0 after the last).
        public var restAfterMillis: Int64
    }

    public var sets: [TimedSet]
    public var start: Timestamp
    public var end: Timestamp

    static let restWithoutEndMillis: Int64 = 90_000

    public init(_ w: WorkoutHistoryProjection.WorkoutRow, state: WorkoutState?) {
        let rows = w.exercises.flatMap { x in x.sets.enumerated().map { (x, $0.element, $0.offset) } }
        let completed = Dictionary(
            (state?.sets ?? []).compactMap { s in s.completedAt.map { (s.setId, $0.millis) } }, uniquingKeysWith: { a, _ in a })
        let active = rows.map { Self.activeMillis($0.1) }
        let times = rows.compactMap { completed[$0.1.setId] }
        let live = times.count == rows.count && zip(times, times.dropFirst()).allSatisfy { $0 < $1 }
        start = w.startedAt
        var spans: [(Int64, Int64)] = []
        if live {
            var previousEnd = w.startedAt.millis
            for (i, end) in times.enumerated() {
                let begin = max(previousEnd, end - active[i])
                spans.append((begin, max(begin, end)))
                previousEnd = max(begin, end)
            }
        } else {
            let total =
                w.finishedAt.map { $0.millis - w.startedAt.millis }.flatMap { $0 > 0 ? $0 : nil }
                ?? active.reduce(0, +) + Self.restWithoutEndMillis * Int64(max(0, rows.count - 1))
            // Whole seconds, as FIT counts them.
            let slot = rows.isEmpty ? 0 : total / Int64(rows.count) / 1000 * 1000
            for i in rows.indices {
                let begin = w.startedAt.millis + Int64(i) * slot
                spans.append((begin, begin + min(active[i], slot)))
            }
        }
        sets = rows.indices.map { i in
            let rest = i + 1 < spans.count ? max(0, spans[i + 1].0 - spans[i].1) : 0
            return TimedSet(
                exercise: rows[i].0, set: rows[i].1, indexInEntry: rows[i].2,
                start: Timestamp(millis: spans[i].0, offsetMinutes: w.startedAt.offsetMinutes),
                end: Timestamp(millis: spans[i].1, offsetMinutes: w.startedAt.offsetMinutes), restAfterMillis: rest)
        }
        let last = max(w.finishedAt?.millis ?? .min, spans.last?.1 ?? w.startedAt.millis)
        end = Timestamp(millis: last, offsetMinutes: (w.finishedAt ?? w.startedAt).offsetMinutes)
    }

    static func activeMillis(_ s: WorkoutHistoryProjection.SetRow) -> Int64 {
        if let d = s.metrics.durationSeconds, d > 0 { return Int64(d * 1000) }
        if let reps = s.reps, reps > 0 { return Int64(min(120, max(5, reps * 3))) * 1000 }
        return 30_000
    }
}
