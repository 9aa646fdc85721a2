import Foundation
import RepLedgerCore
import RepLedgerQueries

/// Resources an assistant may read by address: a workout (`ledger://workouts/{id}`, the `workout`
/// tool's document) and the log itself (`ledger://log?after=N`: `ledger log`'s lines after position N,
/// 500 at most; ask again after the last to read on).
public enum AssistantResources {
    public static let workoutTemplate = "ledger://workouts/{id}"
    public static let logTemplate = "ledger://log?after={position}"
    public static let logPage = 500

    /// The text and its MIME type.
    public static func read(_ uri: String, on host: any AssistantLedger) throws -> (text: String, mimeType: String) {
        let workoutPrefix = "ledger://workouts/", logPrefix = "ledger://log"
        if uri.hasPrefix(workoutPrefix) {
            let id = String(uri.dropFirst(workoutPrefix.count))
            guard !id.isEmpty, id.count <= 40, !id.contains("/") else { throw AssistantError.unknownResource(uri) }
            let doc = try host.withLedger { ledger in
                WorkoutPlanQuery.document(try WorkoutPlanQuery.answer(ledger.store, QueryScope(rules: .default, warm: host.warm), workout: id))
            }
            return (doc.rendered, "application/json")
        }
        if uri == logPrefix || uri.hasPrefix(logPrefix + "?") {
            var after: Int64 = 0
            if let query = URLComponents(string: uri)?.queryItems {
                for item in query {
                    guard item.name == "after", let n = item.value.flatMap({ Int64($0) }), n >= 0 else { throw AssistantError.unknownResource(uri) }
                    after = n
                }
            }
            let lines = try host.withLedger { ledger in
                var lines: [String] = []
                try ledger.store.read(EventQuery(from: after + 1, through: after + Int64(logPage))) { lines.append($0.canonicalJSON) }
                return lines
            }
            return (lines.map { $0 + "\n" }.joined(), "application/jsonl")
        }
        throw AssistantError.unknownResource(uri)
    }
}

/// Conversations an assistant may start from: a week's review and the next session's plan, each
/// naming the tools that answer it.
public enum AssistantPrompts {
    public struct Prompt: Sendable {
        public var name: String
        public var description: String
        public var arguments: [(name: String, description: String)]
    }

    public static let all: [Prompt] = [
        Prompt(
            name: "weekly_review", description: "Review the last week of training: sessions, volume, records and what to change.",
            arguments: [("focus", "An exercise or goal to look at closely (optional).")]),
        Prompt(
            name: "plan_next_session", description: "Plan the next session from the program and last time's numbers, then log it set by set.",
            arguments: [("exercise", "Plan only this exercise (optional).")]),
    ]

    /// The prompt's text for the user's side of the conversation.
    public static func text(_ name: String, arguments: [String: String]) throws -> String {
        switch name {
        case "weekly_review":
            let focus = arguments["focus"].map { " Look closely at \($0)." } ?? ""
            return """
                Review my last week of training from my RepLedger log. Call `history` (limit 10) and `calendar` for the sessions, \
                `volume` by week and by muscle for the load, and `records` for anything new. Weights are in kilograms. \
                Say what went well, what stalled, and one or two changes for next week.\(focus)
                """
        case "plan_next_session":
            let only = arguments["exercise"].map { " Only for \($0): call `next_targets` with it and `last_time` for it." } ?? ""
            return """
                Plan my next session from my RepLedger log. Call `program_today` for the day and its targets, and `last_time` for \
                each exercise, then give me the sets to do. While I train, log each set I tell you with `log_set`, passing the \
                head position you last read as `expectedPosition` and a new `requestId` per set; if a write is refused because \
                the log moved, read again before writing.\(only)
                """
        default:
            throw AssistantError.unknownPrompt(name)
        }
    }
}
