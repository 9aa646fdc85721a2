import RepLedgerCore
import RepLedgerProjections
import RepLedgerQueries

/// The read tools: each builds the document the CLI prints with `--json` for the same query, through
/// the same query code, under the log's lock.
enum AssistantReads {
    /// The document, and the log's head it was read at (what a write's `expectedPosition` takes).
    static func call(_ name: String, _ a: AssistantArguments, on host: any AssistantLedger) throws -> (document: JSONValue, head: JSONValue) {
        let scope = QueryScope(
            asOf: try a.string("asOf", maxLength: 40), until: try a.string("until", maxLength: 40), rules: .default, warm: host.warm)
        return try host.withLedger { ledger in
            let (position, hash) = try ledger.store.head()
            let head: JSONValue = .object([("position", .int(position)), ("hash", .string(hash.hex))])
            return (try document(name, a, scope, ledger.store), head)
        }
    }

    private static func document(_ name: String, _ a: AssistantArguments, _ scope: QueryScope, _ store: any EventStore) throws -> JSONValue {
        switch name {
        case "history":
            return HistoryQuery.document(
                try HistoryQuery.answer(
                    store, scope, exercise: try a.string("exercise"), month: try a.string("month", maxLength: 7),
                    limit: try a.int("limit", in: HistoryQuery.servedLimits.wide).map(Int.init),
                    offset: Int(try a.int("offset", in: HistoryQuery.servedOffsets.wide) ?? 0)))
        case "workout":
            return WorkoutPlanQuery.document(try WorkoutPlanQuery.answer(store, scope, workout: try a.string("workout", maxLength: 40) ?? "last"))
        case "records":
            let timeline = try a.bool("timeline") ?? false
            return RecordsQuery.document(
                try RecordsQuery.records(store, scope, exercise: try a.string("exercise"), timeline: timeline), timeline: timeline)
        case "e1rm_trend":
            var rules = scope.rules
            if let f = try a.string("formula") { rules.e1rmFormula = try vocabulary(E1RMFormula.self, "formula", f) }
            var s = scope
            s.rules = rules
            return E1RMQuery.document(try E1RMQuery.answer(store, s, exercise: try a.required("exercise")))
        case "volume":
            return VolumeQuery.document(try VolumeQuery.answer(store, scope, by: try a.choice("by", ["workout", "week", "muscle"]) ?? "week"))
        case "last_time":
            return HintQuery.document(
                try HintQuery.answer(
                    store, scope, exercise: try a.required("exercise"), hintScope: try a.choice("scope", ["exercise", "programDay"]),
                    workout: try a.string("workout", maxLength: 40)))
        case "next_targets", "program_today":
            let log = try scope.log(store)
            let exercise = name == "next_targets" ? try a.string("exercise") : nil
            let all = name == "next_targets" ? try a.bool("all") ?? false : false
            let next = try ProgressionQuery.next(
                log, exercise: exercise, program: try a.string("program"), all: all, rules: scope.rules, now: try scope.answerTime())
            return ProgressionQuery.document(log, next)
        case "search_exercises":
            return ExerciseSearchQuery.document(
                try ExerciseSearchQuery.answer(store, scope, text: try a.required("text"), limit: Int(try a.int("limit", in: 1...200) ?? 20)))
        case "calendar":
            return CalendarQuery.document(try CalendarQuery.answer(store, scope, month: try a.string("month", maxLength: 7)))
        case "body_history":
            let site = try a.choice("site", BodySite.allCases.map(\.rawValue)).flatMap(BodySite.init(rawValue:))
            return BodyHistoryQuery.document(BodyHistoryQuery.answer(try scope.log(store), site: site))
        case "entitlements":
            return EntitlementsQuery.document(try EntitlementsQuery.answer(store, scope, at: try a.string("at", maxLength: 40)))
        case "verify":
            return VerifyQuery.document(try store.verify())
        default:
            throw AssistantError.unknownTool(name)
        }
    }
}
