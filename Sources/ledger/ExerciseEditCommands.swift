import ArgumentParser
import LedgerShell
import RepLedgerCore
import RepLedgerQueries

/// Changing the exercise library (issue 31 point 5): rename, edit, archive,
/// unarchive, favourites. Each answers the exercise as `exercise show` does.
extension ExerciseCommand {
    struct Rename: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rename", abstract: "Rename an exercise → {\"exerciseId\",\"name\"}; its history follows (it keeps its id).",
            discussion: "Example: ledger exercise rename \"Squat (Barbell)\" \"Back Squat\"")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The exercise, by id or name.") var exercise: String
        @Argument(help: "The new name.") var name: String
        @OptionGroup var at: AtOption

        func run() throws {
            try changeExercise(global, exercise, at, done: "Renamed") { try $0.renameExercise(exercise, to: name) }
        }
    }

    struct Edit: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "edit",
            abstract: "Correct an exercise's muscles, equipment, kind, notes or unilateral flag → {\"exerciseId\",…}.",
            discussion: """
                Options you leave out keep their values; a list given replaces the old one. A unilateral exercise \
                is logged per side (the weight and reps of one side); its volume counts each side once, so a set \
                of 20 kg × 8 is 320 kg. Records (heaviest, e1RM, rep maxes) stay per side.

                Examples:
                  ledger exercise edit "Bulgarian Split Squat" --unilateral on
                  ledger exercise edit "Lat Pulldown (Cable)" --notes "seat 4, thigh pad 2"
                  ledger exercise edit my-sled-push --kind cardio --equipment machine
                """)
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The exercise, by id or name.") var exercise: String
        @Option(help: "Primary muscle (repeat for several; replaces the list).") var muscle: [String] = []
        @Option(help: "Secondary muscle (repeatable; `none` clears them).") var secondary: [String] = []
        @Option(help: "Equipment (repeatable; replaces the list).") var equipment: [String] = []
        @Option(help: "Kind: \(ExerciseKind.allCases.map { kebab($0.rawValue) }.joined(separator: ", ")).") var kind: String?
        @Option(help: "Logged per side: on or off.") var unilateral: String?
        @Option(help: "Your note on the exercise (\"\" clears it).") var notes: String?
        @OptionGroup var at: AtOption

        func run() throws {
            var changes = CommandSession.ExerciseChanges()
            if !muscle.isEmpty { changes.primaryMuscles = try muscle.map { try vocabulary(Muscle.self, "muscle", $0) } }
            if !secondary.isEmpty {
                changes.secondaryMuscles = secondary == ["none"] ? [] : try secondary.map { try vocabulary(Muscle.self, "muscle", $0) }
            }
            if !equipment.isEmpty { changes.equipment = try equipment.map { try vocabulary(Equipment.self, "equipment", $0) } }
            changes.kind = try kind.map { try vocabulary(ExerciseKind.self, "kind", $0) }
            changes.unilateral = try unilateral.map { try onOff($0, "unilateral") }
            changes.notes = notes
            let given =
                [changes.primaryMuscles != nil, changes.secondaryMuscles != nil, changes.equipment != nil]
                + [changes.kind != nil, changes.unilateral != nil, changes.notes != nil]
            guard given.contains(true) else {
                throw Refusal.invalidInput("give what to change: --muscle, --secondary, --equipment, --kind, --unilateral or --notes")
            }
            try changeExercise(global, exercise, at, done: "Edited") { try $0.editExercise(exercise, changes) }
        }
    }

    struct Archive: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "archive",
            abstract: "Archive an exercise → {\"exerciseId\",…}: it keeps its history and records, and leaves the pickers.",
            discussion:
                "It is no longer listed (see `exercise list --all`) nor offered for new sets. Example: ledger exercise archive \"Upright Row (Barbell)\""
        )
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The exercise, by id or name.") var exercise: String
        @OptionGroup var at: AtOption

        func run() throws {
            try changeExercise(global, exercise, at, done: "Archived") { try $0.archiveExercise(exercise) }
        }
    }

    struct Unarchive: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "unarchive", abstract: "Offer an archived exercise again → {\"exerciseId\",…}.",
            discussion: "Give its id or whole name. Example: ledger exercise unarchive upright-row")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The exercise, by id or whole name.") var exercise: String
        @OptionGroup var at: AtOption

        func run() throws {
            try changeExercise(global, exercise, at, done: "Unarchived") { try $0.unarchiveExercise(exercise) }
        }
    }

    struct Favourite: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "favourite", abstract: "Mark an exercise as a favourite (--off: no longer) → {\"exerciseId\",…}.",
            discussion: "`exercise list --favourites` lists them. Example: ledger exercise favourite \"Bench Press (Barbell)\"",
            aliases: ["favorite"])
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The exercise, by id or name.") var exercise: String
        @Flag(help: "No longer a favourite.") var off = false
        @OptionGroup var at: AtOption

        func run() throws {
            try changeExercise(global, exercise, at, done: off ? "Unmarked" : "Marked as a favourite") {
                try $0.favouriteExercise(exercise, !off)
            }
        }
    }
}

extension ExerciseCommand {
    struct Merge: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "merge",
            abstract: "Merge one exercise into another → {\"exerciseId\",\"intoExerciseId\",\"setsJoined\",\"workoutsJoined\"}.",
            discussion: """
                For an exercise an import made that the library has under another name. FROM's sets count as \
                INTO's in every view from then on (history, records, trends, volume, last-time hints), FROM's name \
                finds INTO, and FROM leaves the pickers. The sets' own events are not changed: the log as of a \
                point before the merge (`--as-of`) still shows the two apart.

                Example:
                  ledger exercise merge "Chest Fly" "Chest Fly (Dumbbell)"
                """)
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The exercise merged away, by id or name.") var from: String
        @Argument(help: "The exercise it joins, by id or name.") var into: String
        @OptionGroup var at: AtOption

        func run() throws {
            let ledger = try global.openLedger()
            let library = try ledger.library()
            let (source, target) = (try library.resolve(from), try library.resolve(into))
            let joined = ExerciseMergeQuery.done(try QueryScope().log(ledger.store), exerciseId: source.exerciseId)
            try ledger.execute(at: try at.time()) { try $0.mergeExercise(from, into: into) }
            if global.json {
                Console.json(
                    .object([
                        ("exerciseId", .string(source.exerciseId)), ("intoExerciseId", .string(target.exerciseId)),
                        ("setsJoined", .int(Int64(joined.sets))), ("workoutsJoined", .int(Int64(joined.workouts))),
                    ]))
            } else {
                Console.out(
                    "Merged \(source.name) into \(target.name): \(joined.sets) sets in \(joined.workouts) workouts now count as \(target.name)")
            }
        }
    }
}

/// `on`/`off` as people type it.
func onOff(_ text: String, _ what: String) throws -> Bool {
    switch text.lowercased() {
    case "on", "yes", "true": return true
    case "off", "no", "false": return false
    default: throw Refusal.unknownVocabulary(kind: what, value: text, allowed: ["on", "off"])
    }
}

/// Records one library change, then answers the exercise as it stands.
private func changeExercise(
    _ global: GlobalOptions, _ exercise: String, _ at: AtOption, done: String, _ command: (inout CommandSession) throws -> Void
) throws {
    let ledger = try global.openLedger()
    let before = try Ledger.offered(try ledger.library()).resolve(exercise)
    try ledger.execute(at: try at.time()) { try command(&$0) }
    let x = try ledger.library().exercises[before.exerciseId] ?? before
    if global.json {
        Console.json(.object(ExerciseShowQuery.fields(x)))
    } else {
        Console.out("\(done) \(x.name) (id \(x.exerciseId))")
    }
}
