import Foundation
import RepLedgerCore
import RepLedgerProjections

/// The inspector's As-of page: the lifter's views as the log stood at one
/// position, each from the query the CLI answers with (`prs`, `volume`,
/// `history`, `entitlements`, `program list`, all `--as-of N`), so the page
/// and the CLI never differ. Volume shows every week: the plan's chart window
/// is the app's, and an audit reads the whole log. Folds come from the newest snapshot at or before
/// the position plus the events after it.
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

    /// The views at `position` (0 to the head), under `rules`.
    public static func answer(_ store: any EventStore, position: Int64, rules: RuleSet = .default) throws -> Answer {
        let head = try store.headPosition()
        guard position >= 0, position <= head else {
            throw QueryError.invalidParameter("position \(position) is past the head (\(head))")
        }
        let scope = QueryScope(asOf: String(position), rules: rules)
        let log = try scope.log(store)
        let event = position == 0 ? nil : try store.event(at: position)
        var change: String?
        if let event, case let raw = event.stream.raw, raw.hasPrefix("workout-"), let id = UUID(uuidString: String(raw.dropFirst(8))) {
            let steps = WorkoutReplayProjection.steps(
                try store.read(stream: .workout(id), through: position), workoutId: id, library: log.library, unit: log.account.liftingUnit)
            change = steps.last?.change
        }
        // Entitlements as of the moment the event was recorded: `entitlements --as-of N --at T`.
        let at = event?.recordedAt.iso8601
        return Answer(
            position: position, headPosition: head, event: event, change: change,
            records: try RecordsQuery.records(store, scope), volume: try VolumeQuery.answer(store, scope, by: "week", planWindow: false),
            history: try HistoryQuery.answer(store, scope, limit: historyRows),
            entitlements: try EntitlementsQuery.answer(store, scope, at: at), programs: log.programs, unit: log.account.liftingUnit)
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
