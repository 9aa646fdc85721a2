import ArgumentParser
import LedgerShell
import RepLedgerCore

extension WorkoutCommand {
    struct Complete: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "complete",
            abstract: "Complete a planned set (from a template or a repeated workout), with the values you did.",
            discussion: """
                Values you give replace the plan's; without any, the plan is what you did.

                Examples:
                  ledger workout complete last 3f2a --reps 8 --weight 80kg
                  ledger workout complete last 3f2a
                """)
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The workout.") var workout: String
        @Argument(help: "The planned set's id or a unique prefix (see `ledger workout summary W`).") var set: String
        @OptionGroup var values: SetValues
        @OptionGroup var finished: HistoryEditOption
        @OptionGroup var at: AtOption

        func run() throws {
            let type = try values.setType()
            let ledger = try global.openLedger()
            let id = try ledger.resolveWorkout(workout)
            let unit = try ledger.account().liftingUnit
            let (setId, rest) = try ledger.execute(at: try at.time()) { session in
                let setId = try session.completeSet(
                    id, set: set, type: type, values: try values.metrics(defaultUnit: unit), notes: values.notes,
                    historyEdit: finished.historyEdit, timeGiven: at.at != nil)
                try values.recordDetails(&session, id, setId, historyEdit: finished.historyEdit)
                return (setId, try session.autoStartRest(id, afterSet: setId))
            }
            respondSetDone(global, workoutId: id, setId: setId, rest: rest, human: "Completed set \(set)")
        }
    }

    struct Uncomplete: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "uncomplete",
            abstract: "Turn a completed set back into a planned one (it stops counting; its values stay).")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The workout.") var workout: String
        @Argument(help: "The set's id or a unique prefix.") var set: String
        @OptionGroup var finished: HistoryEditOption
        @OptionGroup var at: AtOption

        func run() throws {
            try recordOnWorkout(global, workout, at, human: "Set \(set) is planned again") { session, id, _ in
                try session.uncompleteSet(id, set: set, historyEdit: finished.historyEdit)
            }
        }
    }
}
