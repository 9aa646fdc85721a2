import RepLedgerCore

/// DOMAIN.md §10: all-time charts are Pro; Free sees the last 30 days. The
/// charts (`e1rm`, `volume`, the report's trend and volume charts) read the
/// fold through this window; records, history and exports are never windowed.
public struct ChartWindow: Sendable, Equatable {
    public static let freeDays: Int64 = 30

    /// The first and last instants a Free chart shows.
    public var from: Timestamp
    public var through: Timestamp

    /// What the lifter is told, naming the products that lift the limit.
    public var upsell: String {
        "Free shows the last \(Self.freeDays) days of charts (since \(from.isoDate)); all-time charts come with Pro "
            + "(\(Product.allCases.filter { !$0.grantsCoach }.map(\.rawValue).joined(separator: ", ")))"
    }

    /// The window of the 30 days up to `time`, when the plan the lifter holds
    /// at `planAt` (default: `time`) is Free; nil when that plan shows all time
    /// (Pro or Coach). The plan is the lifter's now, not at a training date
    /// asked about: a Pro lifter looking at 2023 sees all of it.
    /// Whole local days: that day and the 29 before it, so every answer given that day shows the same window.
    public static func forPlan(_ log: TrainingLogProjection, at time: Timestamp, planAt: Timestamp? = nil) -> ChartWindow? {
        forPlan(log.account.entitlements, at: time, planAt: planAt)
    }

    /// The same window from the purchases alone (a stored result has no fold).
    public static func forPlan(_ entitlements: EntitlementState, at time: Timestamp, planAt: Timestamp? = nil) -> ChartWindow? {
        guard !entitlements.isPro(at: planAt ?? time) else { return nil }
        let dayMillis: Int64 = 86_400_000
        let offset = Int64(time.offsetMinutes) * 60_000
        let startOfToday = time.local.daysSinceEpoch * dayMillis - offset
        return ChartWindow(
            from: Timestamp(millis: startOfToday - (freeDays - 1) * dayMillis, offsetMinutes: time.offsetMinutes),
            through: Timestamp(millis: startOfToday + dayMillis - 1, offsetMinutes: time.offsetMinutes))
    }

    /// The fold with only the workouts started inside the window.
    public func apply(to log: TrainingLogProjection) -> TrainingLogProjection {
        log.keepingWorkouts { w in w.startedAt.map(contains) ?? false }
    }

    /// Whether a workout started at `t` is charted.
    public func contains(_ t: Timestamp) -> Bool { t >= from && t <= through }

    /// The training a window leaves out of a chart: how many workouts, from when to when.
    public struct Hidden: Sendable, Equatable {
        public var workouts: Int
        public var from: Timestamp
        public var through: Timestamp
    }

    /// What the window leaves out of the workouts started at `starts` (in any order); nil when it shows them all.
    public func hidden(_ starts: some Sequence<Timestamp>) -> Hidden? {
        var found: Hidden?
        for t in starts where !contains(t) {
            if var h = found {
                h.workouts += 1
                h.from = min(h.from, t)
                h.through = max(h.through, t)
                found = h
            } else {
                found = Hidden(workouts: 1, from: t, through: t)
            }
        }
        return found
    }

    /// One sentence a chart that hides training ends with: what is hidden, and the three ways to see it
    /// (Pro, `--until` on Free, or a view that is never windowed).
    public func hiddenNote(_ h: Hidden, everyPlan: String) -> String {
        "Free's chart window shows the \(Self.freeDays) days \(from.isoDate) to \(through.isoDate) and hides "
            + "\(h.workouts) workout\(h.workouts == 1 ? "" : "s") from \(h.from.isoDate) to \(h.through.isoDate): "
            + "all-time charts come with Pro (\(Product.allCases.filter { !$0.grantsCoach }.map(\.rawValue).joined(separator: ", "))), "
            + "`--until \(h.through.isoDate)` charts the \(Self.freeDays) days up to then on Free, and \(everyPlan) on every plan"
    }
}

extension TrainingLogProjection {
    /// The same fold with only the workouts that pass `keep` (library, settings, purchases and templates unchanged).
    public func keepingWorkouts(_ keep: (WorkoutState) -> Bool) -> TrainingLogProjection {
        var copy = self
        copy.workouts = workouts.filter { keep($0.value) }
        copy.order = order.filter { copy.workouts[$0.id] != nil }
        return copy
    }
}
