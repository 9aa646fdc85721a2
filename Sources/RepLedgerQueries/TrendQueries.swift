import RepLedgerCore
import RepLedgerProjections
import RepLedgerSnapshots

/// `e1rm EXERCISE`: the estimated one-rep max by workout and by week.
public enum E1RMQuery {
    public struct Answer: Sendable {
        public var exercise: LibraryState.Exercise
        public var formula: E1RMFormula
        /// The Free plan's chart window; nil when the plan shows all time.
        public var window: ChartWindow?
        public var points: [E1RMTrendProjection.Point]
        public var unit: WeightUnit
        /// Under a window: the first and last dates of the exercise in the whole history, and how many
        /// workouts it was estimated in, so an empty window can say where the history is.
        public var history: (from: Timestamp, through: Timestamp, workouts: Int)?
        /// The workouts of the exercise the window leaves out; nil when it leaves none.
        public var hidden: ChartWindow.Hidden?
    }

    public static func answer(
        _ store: any EventStore, _ scope: QueryScope, exercise: String,
        formula: String? = nil
    ) throws -> Answer {
        var rules = scope.rules
        if let formula { rules.e1rmFormula = try vocabulary(E1RMFormula.self, "formula", formula) }
        let log = try scope.log(store)
        let x = try log.library.resolve(exercise)
        let window = ChartWindow.forPlan(log, at: try scope.answerTime(), planAt: try scope.planTime())
        let points = E1RMTrendProjection.points(window?.apply(to: log) ?? log, exerciseId: x.exerciseId, rules: rules)
        var history: (Timestamp, Timestamp, Int)?
        var hidden: ChartWindow.Hidden?
        if let window {
            let all = E1RMTrendProjection.points(log, exerciseId: x.exerciseId, rules: rules)
            if let first = all.first, let last = all.last { history = (first.date, last.date, all.count) }
            hidden = window.hidden(all.lazy.map(\.date))
        }
        return Answer(
            exercise: x, formula: rules.e1rmFormula, window: window, points: points, unit: log.account.liftingUnit,
            history: history, hidden: hidden)
    }

    public static func document(_ a: Answer) -> JSONValue {
        .object([
            ("exercise", .string(a.exercise.name)), ("exerciseId", .string(a.exercise.exerciseId)), ("formula", .string(a.formula.rawValue)),
            ("chartWindow", ChartWindowJSON.json(a.window)), ("upsell", .optional(a.window?.upsell)),
            ("hidden", ChartWindowJSON.hidden(a.hidden)),
            (
                "history",
                a.history.map { h in
                    .object([("from", .string(h.from.iso8601)), ("through", .string(h.through.iso8601)), ("workouts", .int(Int64(h.workouts)))])
                } ?? .null
            ),
            (
                "points",
                .array(
                    a.points.map { p in
                        .object([
                            ("workoutId", .string(p.workoutId.lowercased)), ("date", .string(p.date.iso8601)),
                            ("e1rmKg", .number(p.e1rmKg)), ("weightKg", .number(p.weightKg)), ("reps", .int(Int64(p.reps))),
                        ])
                    })
            ),
            ("weeks", .array(E1RMTrendProjection.weeks(a.points).map { .object([("week", .string($0.week)), ("e1rmKg", .number($0.e1rmKg))]) })),
        ])
    }
}

/// `volume --by G`: sets and tonnage by workout, week, muscle or exercise.
public enum VolumeQuery {
    public struct Answer: Sendable {
        public var grouping: VolumeProjection.Grouping
        public var window: ChartWindow?
        public var rows: [VolumeProjection.Row]
        public var unit: WeightUnit
        /// The counted workouts the window leaves out; nil when it leaves none (or there is no window).
        public var hidden: ChartWindow.Hidden?
    }

    /// `planWindow: false` shows every week whatever the plan's chart window (the inspector: an audit reads it all).
    public static func answer(_ store: any EventStore, _ scope: QueryScope, by: String = "week", planWindow: Bool = true) throws -> Answer {
        let grouping = try vocabulary(VolumeProjection.Grouping.self, "grouping", by)
        // By workout or week, from the page stored at exactly this position when there is one
        // (a device: no fold is kept between its processes); a miss at the head stores it.
        let fromPage = VolumeHeadProjection.answers(grouping) && scope.warm == nil && scope.mayUseStoredResults
        var head: Int64 = 0, target: Int64 = 0
        if fromPage {
            head = try store.headPosition()
            target = min(try scope.position(in: store), head)
            var ignored: [String] = []
            if let page = try ViewSnapshots.volumeHead(store, rules: scope.rules, at: target, ignored: &ignored) {
                scope.note?("answered from the volume page stored at #\(target)")
                let window = planWindow ? ChartWindow.forPlan(page.entitlements, at: try scope.answerTime(), planAt: try scope.planTime()) : nil
                return Answer(
                    grouping: grouping, window: window, rows: page.rows(by: grouping, window: window), unit: page.unit,
                    hidden: window?.hidden(page.workouts.lazy.map(\.startedAt)))
            }
        }
        let log = try scope.log(store)
        if fromPage, target == head, log.position == head {
            try? ViewSnapshots.saveVolumeHead(store, rules: scope.rules, at: head, VolumeHeadProjection.page(log, rules: scope.rules))
        }
        let window = planWindow ? ChartWindow.forPlan(log, at: try scope.answerTime(), planAt: try scope.planTime()) : nil
        let rows = VolumeProjection.rows(window?.apply(to: log) ?? log, by: grouping, rules: scope.rules)
        let hidden = window?.hidden(VolumeProjection.countedStarts(log, rules: scope.rules))
        return Answer(grouping: grouping, window: window, rows: rows, unit: log.account.liftingUnit, hidden: hidden)
    }

    public static func document(_ a: Answer) -> JSONValue {
        .object([
            ("by", .string(a.grouping.rawValue)), ("chartWindow", ChartWindowJSON.json(a.window)),
            ("upsell", .optional(a.window?.upsell)), ("hidden", ChartWindowJSON.hidden(a.hidden)),
            (
                "rows",
                .array(
                    a.rows.map { r in
                        .object([
                            ("key", .string(r.key)), ("label", .string(r.label)), ("sets", .int(Int64(r.sets))),
                            ("tonnageKg", .number(r.tonnageKg)), ("secondarySets", .int(Int64(r.secondarySets))),
                        ])
                    })
            ),
        ])
    }
}

/// The chart window in JSON: null when the plan shows all time.
public enum ChartWindowJSON {
    /// What the window hides: `{"workouts","from","through"}`, or null when it hides nothing.
    public static func hidden(_ h: ChartWindow.Hidden?) -> JSONValue {
        guard let h else { return .null }
        return .object([("workouts", .int(Int64(h.workouts))), ("from", .string(h.from.iso8601)), ("through", .string(h.through.iso8601))])
    }

    public static func json(_ w: ChartWindow?) -> JSONValue {
        guard let w else { return .null }
        return .object([("from", .string(w.from.iso8601)), ("through", .string(w.through.iso8601)), ("days", .int(ChartWindow.freeDays))])
    }
}
