import Foundation
import RepLedgerCore
import RepLedgerProjections

/// The inspector's As-of page: the lifter's views as the log stood at one
/// position, from one fold, by the projections the CLI's queries read and in
/// their documents (`prs`, `volume --by week`, `history`, `entitlements`,
/// `program list`, all `--as-of N`), so the page and the CLI never differ.
/// Volume shows every week: the plan's chart window is the app's, and an
/// audit reads the whole log.
public enum AsOfQuery {
    public struct Answer {
        public var position: Int64
        public var headPosition: Int64
        /// The event at `position` (nil at 0, the empty log).
        public var event: EventEnvelope?
        /// Its change in words, when it is a workout's event.
        public var change: String?
        public var records: [PersonalRecordsProjection.ExerciseRecords]
        public var volume: VolumeQuery.Answer
        public var history: HistoryQuery.Answer
        public var entitlements: EntitlementsQuery.Answer
        public var programs: ProgramCatalogState
        public var unit: WeightUnit
    }

    /// Workouts the page lists, newest first.
    public static let historyRows = 5

    /// The views at `position` (0 to the head), under `rules`, from one fold: `folds`' (kept between
    /// steps) when given, else the newest snapshot at or before the position plus the events after.
    public static func answer(_ store: any EventStore, position: Int64, rules: RuleSet = .default, folds: AsOfFolds? = nil) throws -> Answer {
        let head = try store.headPosition()
        guard position >= 0, position <= head else {
            throw QueryError.invalidParameter("position \(position) is past the head (\(head))")
        }
        let log = try folds?.log(store, at: position) ?? QueryScope(asOf: String(position), rules: rules).log(store)
        let event = position == 0 ? nil : try store.event(at: position)
        var change: String?
        if let id = event?.event.workoutId {
            let steps = WorkoutReplayProjection.steps(
                try store.read(stream: .workout(id), through: position), workoutId: id, library: log.library, unit: log.account.liftingUnit)
            change = steps.last?.change
        }
        let unit = log.account.liftingUnit
        // From the kept folds, only what the events since the last step touched is computed again.
        let views =
            try folds?.views(store, log, rules: rules)
            ?? (
                records: PersonalRecordsProjection.compute(log, rules: rules, timeline: false),
                volume: VolumeProjection.rows(log, by: .week, rules: rules)
            )
        // Entitlements as of the moment the event was recorded: `entitlements --as-of N --at T`.
        let at = event?.recordedAt ?? .now()
        return Answer(
            position: position, headPosition: head, event: event, change: change,
            records: views.records,
            volume: VolumeQuery.Answer(grouping: .week, window: nil, rows: views.volume, unit: unit),
            history: HistoryQuery.Answer(
                rows: WorkoutHistoryProjection.workouts(log, rules: rules, limit: historyRows), unit: unit,
                distanceUnit: log.account.distanceUnit, effortScale: log.account.effortScale),
            entitlements: EntitlementsQuery.Answer(state: EntitlementsProjection.state(log, at: at), at: at), programs: log.programs, unit: unit)
    }

    /// The page's JSON: each view under the key of its own CLI document.
    public static func document(_ a: Answer) -> JSONValue {
        .object([
            ("position", .int(a.position)), ("headPosition", .int(a.headPosition)),
            ("event", a.event.map { .raw($0.canonicalJSON) } ?? .null), ("change", .optional(a.change)),
            ("records", RecordsQuery.document(a.records, timeline: false)), ("volume", VolumeQuery.document(a.volume)),
            ("history", HistoryQuery.document(a.history)), ("entitlements", EntitlementsQuery.document(a.entitlements)),
            ("programs", ProgramQuery.listDocument(a.programs)),
        ])
    }
}
