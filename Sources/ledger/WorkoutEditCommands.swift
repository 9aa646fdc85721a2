import ArgumentParser
import LedgerShell
import RepLedgerCore

/// Editing a workout's exercises and sets: add, remove, reorder, duplicate, move.
/// A finished workout changes only with `--history-edit`.
extension WorkoutCommand {
    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add", abstract: "Add an exercise to a workout (mid-workout) → {\"workoutId\",\"entryId\"}.",
            discussion: "Example:\n  ledger workout add last \"Face Pull (Cable)\"")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The workout.") var workout: String
        @Argument(help: "The exercise.") var exercise: String
        @OptionGroup var finished: HistoryEditOption
        @OptionGroup var at: AtOption

        func run() throws {
            try recordOnWorkout(
                global, workout, at, answering: "entryId", human: { _ in "Added \(exercise)" },
                recording: {
                    try $0.addExercise($1, exercise: exercise, historyEdit: finished.historyEdit)
                })
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "remove", abstract: "Remove an exercise and its sets from a workout.",
            discussion: "Example:\n  ledger workout remove last \"Face Pull (Cable)\"")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The workout.") var workout: String
        @Argument(help: "The exercise.") var exercise: String
        @OptionGroup var finished: HistoryEditOption
        @OptionGroup var at: AtOption

        func run() throws {
            try recordOnWorkout(global, workout, at, human: "Removed \(exercise)") { session, id, _ in
                try session.removeExercise(id, exercise: exercise, historyEdit: finished.historyEdit)
            }
        }
    }

    struct Reorder: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "reorder", abstract: "Put a workout's exercises in this order (name every one).",
            discussion: "Example:\n  ledger workout reorder last squat \"Romanian Deadlift (Barbell)\" \"Leg Press\"")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The workout.") var workout: String
        @Argument(help: "Every exercise of the workout, in the new order.") var exercises: [String]
        @OptionGroup var finished: HistoryEditOption
        @OptionGroup var at: AtOption

        func run() throws {
            try recordOnWorkout(global, workout, at, human: "Reordered") { session, id, _ in
                try session.reorderExercises(id, exercises: exercises, historyEdit: finished.historyEdit)
            }
        }
    }

    struct DuplicateSet: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "duplicate-set", abstract: "Copy a set into the same exercise (done if it was done) → {\"workoutId\",\"setId\"}.",
            discussion: "Example:\n  ledger workout duplicate-set last 3f2a")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The workout.") var workout: String
        @Argument(help: "The set's id or a unique prefix.") var set: String
        @OptionGroup var finished: HistoryEditOption
        @OptionGroup var at: AtOption

        func run() throws {
            try recordOnWorkout(
                global, workout, at, answering: "setId", human: { "Copied set \(set): \($0.prefix(8))" },
                recording: {
                    try $0.duplicateSet($1, set: set, historyEdit: finished.historyEdit)
                })
        }
    }

    struct MoveSet: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "move-set", abstract: "Move a set to another exercise of the workout → {\"workoutId\",\"setId\"} (the set's new id).",
            discussion:
                "For a set logged under the wrong exercise.\n\nExample:\n  ledger workout move-set last 3f2a \"Incline Bench Press (Barbell)\"")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The workout.") var workout: String
        @Argument(help: "The set's id or a unique prefix.") var set: String
        @Argument(help: "The exercise it belongs to.") var exercise: String
        @OptionGroup var finished: HistoryEditOption
        @OptionGroup var at: AtOption

        func run() throws {
            try recordOnWorkout(
                global, workout, at, answering: "setId", human: { "Moved set \(set) to \(exercise): \($0.prefix(8))" },
                recording: {
                    try $0.moveSet($1, set: set, toExercise: exercise, historyEdit: finished.historyEdit)
                })
        }
    }

    struct Superset: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "superset", abstract: "Link exercises of a workout into a superset → {\"workoutId\",\"supersetId\"}.",
            discussion:
                "Shown as [A], [B]… in workout show, summary and history.\n\nExample:\n  ledger workout superset last \"Bench Press (Barbell)\" \"Bent Over Row (Barbell)\""
        )
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The workout.") var workout: String
        @Argument(help: "Two or more exercises of the workout.") var exercises: [String]
        @OptionGroup var at: AtOption

        func run() throws {
            try recordOnWorkout(
                global, workout, at, answering: "supersetId", human: { _ in "Superset: \(exercises.joined(separator: " + "))" },
                recording: {
                    try $0.linkSuperset($1, exercises: exercises)
                })
        }
    }

    struct Unlink: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "unlink", abstract: "End the superset an exercise is in.",
            discussion: "Example:\n  ledger workout unlink last \"Bench Press (Barbell)\"")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The workout.") var workout: String
        @Argument(help: "An exercise of the superset.") var exercise: String
        @OptionGroup var at: AtOption

        func run() throws {
            try recordOnWorkout(global, workout, at, human: "Superset ended") { session, id, _ in
                try session.unlinkSuperset(id, exercise: exercise)
            }
        }
    }
}
