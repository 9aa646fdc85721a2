import RepLedgerCore

/// What a device stores at its head to answer `volume --by week` and
/// `--by workout` without a fold: every counted workout's total under one
/// rule set, and the purchases that decide the chart window. The rows are
/// `VolumeProjection`'s, added in the same order, so they are the same to
/// the last bit; the window is applied to the totals as it is to the fold.
public struct VolumeHeadProjection: ProjectionView {
    public static let name = "volume-head"
    public static let version = 1

    public struct Page: Sendable, Equatable, PayloadRecord {
        public var workouts: [VolumeProjection.WorkoutTotal] = []
        public var entitlements = EntitlementState()
        public var unit = WeightUnit.kg
        public init() {}

        public mutating func fields<C: PayloadCoder>(_ c: inout C) throws {
            try c.field("workouts", &workouts)
            try c.field("entitlements", &entitlements)
            try c.field("unit", &unit)
        }

        /// The rows by `grouping` (`workout` or `week`) of the workouts the window charts (all without one).
        public func rows(by grouping: VolumeProjection.Grouping, window: ChartWindow?) -> [VolumeProjection.Row] {
            guard let window else { return VolumeProjection.rows(workouts, by: grouping) }
            return VolumeProjection.rows(workouts.lazy.filter { window.contains($0.startedAt) }, by: grouping)
        }
    }

    /// Whether the stored page answers this grouping: the others count sets, not workouts.
    public static func answers(_ grouping: VolumeProjection.Grouping) -> Bool { grouping == .workout || grouping == .week }

    public static func page(_ log: TrainingLogProjection, rules: RuleSet) -> Page {
        var page = Page()
        page.workouts = VolumeProjection.workoutTotals(log, rules: rules)
        page.entitlements = log.account.entitlements
        page.unit = log.account.liftingUnit
        return page
    }
}

extension VolumeProjection.WorkoutTotal: PayloadRecord {
    public init() { self.init(startedAt: Timestamp(millis: 0), workoutKey: "", weekKey: "", label: "", sets: 0, tonnageKg: 0) }

    public mutating func fields<C: PayloadCoder>(_ c: inout C) throws {
        try c.field("startedAt", &startedAt)
        try c.field("workoutKey", &workoutKey)
        try c.field("weekKey", &weekKey)
        try c.field("label", &label)
        try c.field("sets", &sets)
        try c.field("tonnageKg", &tonnageKg)
    }
}
