import ArgumentParser
import Foundation
import LedgerShell
import RepLedgerCore
import RepLedgerQueries
import RepLedgerSnapshots

extension WorkoutCommand {
    /// `workout analysis W [--record] [--engine NAME (--file F | --text T)]`.
    struct Analysis: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "analysis",
            abstract:
                "A workout's analyses → {\"workoutId\",\"analyses\",\"ledgerAnalysis\"}: the ledger's own, and any an outside engine filled in.",
            discussion: """
                The ledger's analysis is Markdown made only of the log: planned against done, the records set, \
                the last sessions of the same kind, heart rate and energy. Finishing a watch workout (one with \
                heart-rate or energy samples) records it; --record records it for any workout.

                When REPLEDGER_ANALYSIS_HOOK is set, the ledger runs it (with /bin/sh) after recording its \
                analysis, and for each watch workout a sync or a watch's batch brings: the Markdown on its \
                standard input, REPLEDGER_WORKOUT_ID and REPLEDGER_DB in its environment. --record on an \
                analysis recorded already appends nothing and runs the hook again. An outside engine (an assistant, a coach's tool) can then fill in its own with \
                --engine. Nothing runs, and nothing is sent anywhere, unless you set it.

                Examples:
                  ledger workout analysis last
                  ledger workout analysis last --record
                  ledger workout analysis last --engine assistant --file review.md
                """)
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The workout.") var workout: String
        @Flag(help: "Record the ledger's analysis now.") var record = false
        @Option(help: "Record an outside engine's analysis under this name (with --file or --text).") var engine: String?
        @Option(help: "The engine's analysis, a Markdown file.") var file: String?
        @Option(help: "The engine's analysis, as text.") var text: String?
        @OptionGroup var at: AtOption

        func validate() throws {
            if engine != nil, (file == nil) == (text == nil) { throw ValidationError("--engine takes its analysis with --file or --text") }
            if engine == nil, file != nil || text != nil { throw ValidationError("--file and --text go with --engine NAME") }
            if record, engine != nil { throw ValidationError("give --record or --engine, not both") }
        }

        func run() throws {
            if let engine {
                let markdown = try file.map { try String(contentsOfFile: $0, encoding: .utf8) } ?? text ?? ""
                let ledger = try global.openLedger()
                let id = try ledger.resolveWorkout(workout)
                try ledger.execute(at: try at.time()) { try $0.recordAnalysis(id, engine: engine, markdown: markdown) }
                respond(global, ["workoutId": id.lowercased], human: "Recorded \(engine)'s analysis of workout \(id.lowercased.shortId)")
                return
            }
            if record {
                let ledger = try global.openLedger()
                let id = try ledger.resolveWorkout(workout)
                if try WorkoutAnalysis.record(global, ledger, id, at: try at.time()) {
                    respond(global, ["workoutId": id.lowercased], human: "Recorded the ledger's analysis of workout \(id.lowercased.shortId)")
                    return
                }
                // Recorded already, here or on the device that finished it: this device's hook still hears of it.
                guard let markdown = try AnalysisHook.recorded(ledger.store, id) else { throw Refusal.nothingToChange }
                AnalysisHook.run(global, id, markdown)
                let ran = AnalysisHook.command == nil ? "" : "; the hook ran"
                respond(
                    global, ["workoutId": id.lowercased],
                    human: "The ledger's analysis of workout \(id.lowercased.shortId) is recorded already, as it stands\(ran)")
                return
            }
            let store = try global.openStore()
            let id = try Ledger(store: store).resolveWorkout(workout)
            let recorded = try WorkoutAnalysisQuery.recorded(store, workoutId: id)
            let current = WorkoutAnalysisQuery.facts(try QueryScope().log(store), workoutId: id).map(WorkoutAnalysisText.markdown)
            if global.json {
                Console.json(WorkoutAnalysisQuery.document(workoutId: id, recorded: recorded, current: current))
                return
            }
            for r in recorded {
                Console.out("<!-- \(r.engine), recorded \(r.at.iso8601) at #\(r.position) -->\n\(r.markdown)")
            }
            if recorded.isEmpty, let current {
                Console.out("<!-- the ledger's analysis, not recorded yet (`ledger workout analysis \(workout) --record`) -->\n\(current)")
            } else if recorded.isEmpty {
                Console.out("No analysis: the workout has not started.")
            }
        }
    }
}

/// Recording the ledger's analysis, and the hook that tells an outside engine.
enum WorkoutAnalysis {
    /// Records the ledger's analysis of `id` unless the latest one it recorded says the same;
    /// then runs the hook, if one is set. Answers whether it recorded.
    @discardableResult
    static func record(_ global: GlobalOptions, _ ledger: Ledger, _ id: UUID, at time: Timestamp?) throws -> Bool {
        guard let facts = WorkoutAnalysisQuery.facts(try QueryScope().log(ledger.store), workoutId: id) else { return false }
        let markdown = WorkoutAnalysisText.markdown(facts)
        guard try AnalysisHook.recorded(ledger.store, id) != markdown else { return false }
        try ledger.execute(at: time) { try $0.recordAnalysis(id, engine: WorkoutAnalysisQuery.ledgerEngine, markdown: markdown) }
        AnalysisHook.run(global, id, markdown)
        return true
    }

    /// The watch workouts a merge brought (`AnalysisHook.deliverArrived`): the hook runs for each with its
    /// recorded analysis, and one that came with none gets the ledger's now.
    static func arrived(_ global: GlobalOptions, _ ledger: Ledger, before: Set<UUID>) throws {
        for id in try AnalysisHook.deliverArrived(global, ledger.store, before: before) { try record(global, ledger, id, at: nil) }
    }
}
