import ArgumentParser
import Foundation
import LedgerShell
import RepLedgerCore
import RepLedgerProjections

struct WorkoutCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "workout", abstract: "Record a workout: start, log sets, fix them, finish.",
        discussion: """
            A workout W is named by its id, a unique prefix of it, or `last`.

            Examples:
              ledger workout start --name "Upper A"
              ledger workout start --template "Push Day"
              ledger workout log last "Bench Press (Barbell)" --reps 8 --weight 80kg --rpe 8
              ledger workout log last deadlift --reps 5 --weight 315lb --type warmup
              ledger workout finish last
            """,
        subcommands: [
            Start.self, Log.self, Complete.self, Uncomplete.self, Autofill.self, EditSet.self, DeleteSet.self, DuplicateSet.self, MoveSet.self,
            Add.self, Remove.self, Reorder.self, Superset.self, Unlink.self, Swap.self, Note.self,
            Rest.self, Pause.self, Resume.self, Health.self, Activity.self, Feeling.self, Finish.self, Discard.self, Show.self,
            Summary.self, Analysis.self, Warmup.self, Deload.self,
        ])

    struct Start: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "start",
            abstract: "Start a workout, empty or from a template.",
            discussion: """
                --template takes a template's name or id, or the name of a routine in your history (an imported \
                Strong or Hevy workout name): its last workout is repeated as planned sets.

                Examples:
                  ledger workout start
                  ledger workout start --template "Upper A" --at 2026-11-23T18:00:00+01:00
                  ledger workout start --repeat-last
                """)
        @OptionGroup var global: GlobalOptions
        @Option(help: "The workout's name (default: the template's, else Morning/Afternoon/Evening Workout).") var name: String?
        @Option(help: "Start from this template or routine (its exercises and planned sets).") var template: String?
        @Option(help: "Start a day of this program (id, prefix or `active`); with --day.") var program: String?
        @Option(help: "The program day, 1 to the program's number of days.") var day: Int?
        @Flag(help: "Repeat your last finished workout: its exercises and sets, planned.") var repeatLast = false
        @OptionGroup var at: AtOption
        @Flag(help: "Start it even though another workout is in progress (two at once).") var also = false
        @Option(help: "What kind of session: strength (the default), running, walking, cycling, rowing, swimming, … (see `workout activity`).")
        var activity: String?
        @Flag(help: "A deload: lighter on purpose, so progression and stall counting pass over it.") var deload = false

        func validate() throws {
            if (program == nil) != (day == nil) { throw ValidationError("--program and --day go together") }
            if [program != nil, template != nil, repeatLast].filter({ $0 }).count > 1 {
                throw ValidationError("give one of --template, --program and --repeat-last")
            }
        }

        func run() throws {
            let kind = try activity.map { a throws(Refusal) in try vocabulary(WorkoutActivity.self, "activity", a) }
            let ledger = try global.openLedger()
            if !also { try ledger.checkNoWorkoutInProgress() }
            let time = try at.time()
            let id: UUID
            if let program, let day {
                id = try ledger.startProgramDay(program: program, day: day, name: name, at: time, activity: kind, deload: deload)
            } else if repeatLast {
                id = try ledger.repeatLastWorkout(name: name, at: time)
                if let kind, kind != .strength { try ledger.execute(at: time) { try $0.setActivity(id, kind) } }
                if deload { try ledger.execute(at: time) { try $0.markDeload(id, true) } }
            } else if let template {
                id = try ledger.startWorkout(template: template, name: name, at: time)
                if let kind, kind != .strength { try ledger.execute(at: time) { try $0.setActivity(id, kind) } }
                if deload { try ledger.execute(at: time) { try $0.markDeload(id, true) } }
            } else {
                id = try ledger.execute(at: time) { session in
                    let id = try session.startWorkout(name: name ?? "")
                    if let kind, kind != .strength { try session.setActivity(id, kind) }
                    if deload { try session.markDeload(id, true) }
                    return id
                }
            }
            let human =
                program != nil && day != nil ? "Started day \(day ?? 0) of the program: workout \(id.lowercased)" : "Started workout \(id.lowercased)"
            respond(global, ["workoutId": id.lowercased], human: human)
        }
    }

    /// Options that describe a set's values, shared by `log` and `edit-set`.
    struct SetValues: ParsableArguments {
        @Option(parsing: .unconditional, help: "Repetitions, 0–1000.") var reps: Int?
        @Option(parsing: .unconditional, help: "Weight: 80, 80kg or 176.5lb (a bare number uses your unit setting).") var weight: String?
        @Option(parsing: .unconditional, help: "RPE, 1–10 in steps of 0.5.") var rpe: Double?
        @Option(parsing: .unconditional, help: "Reps in reserve, 0–9 in steps of 0.5 (instead of --rpe: RPE is 10 − RIR).") var rir: Double?
        @Option(help: "Tempo: seconds down, pause, up, pause, e.g. 3-1-1-0 or 31X0 (X: explosive).") var tempo: String?
        @Option(help: "Set type: normal, warmup, drop or failure.") var type: String?
        @Option(parsing: .unconditional, help: "Duration (cardio, holds): 90, 1m30s or 1:30.") var duration: String?
        @Option(parsing: .unconditional, help: "Distance: 5000 (metres), 400m, 5km or 3.1mi.") var distance: String?
        @Option(help: "A note on the set.") var notes: String?
        @Option(help: "The band's colour, for band work (e.g. red).") var band: String?
        @Option(help: "The implement's value: a machine's seat or pin, a kettlebell, an attachment (e.g. \"seat 4\").") var implement: String?

        /// Only details that live beside the set (effort, tempo, equipment): no SetEdited is needed for them.
        var onlyDetails: Bool { rir != nil || tempo != nil || band != nil || implement != nil }

        func metrics(defaultUnit: WeightUnit) throws(Refusal) -> SetMetrics {
            SetMetrics(
                weight: try weight.map { w throws(Refusal) in try Weight.parse(w, defaultUnit: defaultUnit) },
                reps: reps, rpe: rpe, durationSeconds: try duration.map { d throws(Refusal) in try Measure.seconds(d) },
                distanceMeters: try distance.map { d throws(Refusal) in try Measure.metres(d) })
        }

        func setType() throws(Refusal) -> SetType? { try type.map { t throws(Refusal) in try SetType.parse(t) } }

        /// Records `--rir`, `--tempo`, `--band` and `--implement` on the set, when given.
        func recordDetails(_ session: inout CommandSession, _ workoutId: UUID, _ setId: UUID, historyEdit: Bool) throws {
            try session.recordEffort(workoutId, setId: setId, rpe: rpe, rir: rir, tempo: tempo, historyEdit: historyEdit)
            try session.recordEquipment(workoutId, setId: setId, band: band, implement: implement, historyEdit: historyEdit)
        }
    }

    struct Log: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "log",
            abstract: "Log a completed set.",
            discussion: """
                If the workout has a planned set of the exercise still open (from a template, a program or a \
                repeated routine) of the same type, the first one is completed with these values: a warm-up fills \
                a planned warm-up, a working set a planned working or to-failure set. --extra adds a set beyond \
                the plan instead. `workout show` lists sets in the order they were done, then those planned.

                Examples:
                  ledger workout log last "Bench Press (Barbell)" --reps 8 --weight 80kg
                  ledger workout log last squat --reps 5 --weight 225lb --rpe 8.5
                  ledger workout log last "band pull apart" --reps 15 --band red
                  ledger workout log last pull-up --reps 10          # bodyweight
                  ledger workout log last running --distance 5km --duration 25:00
                  ledger workout log last plank --duration 1m30s
                """)
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The workout.") var workout: String
        @Argument(help: "The exercise, by id or name.") var exercise: String
        @OptionGroup var values: SetValues
        @Flag(help: "Add a set beyond the plan, even if planned sets of this exercise are open.") var extra = false
        @OptionGroup var finished: HistoryEditOption
        @OptionGroup var at: AtOption

        func run() throws {
            let ledger = try global.openLedger()
            let id = try ledger.resolveWorkout(workout)
            let account = try ledger.account()
            let unit = account.liftingUnit
            let metrics = try values.metrics(defaultUnit: unit)
            let type = try values.setType() ?? .normal
            let logged = try ledger.execute(at: try at.time()) { session in
                try session.logTypedSet(
                    id, exercise: exercise, type: type, metrics: metrics, notes: values.notes, extra: extra, historyEdit: finished.historyEdit,
                    timeGiven: at.at != nil
                ) { session, setId in try values.recordDetails(&session, id, setId, historyEdit: finished.historyEdit) }
            }
            let (setId, rest, x, added) = (logged.setId, logged.rest, logged.exercise, logged.addedToWorkout)
            let what = SetText.describe(
                kg: metrics.weight?.kilograms, reps: metrics.reps, durationSeconds: metrics.durationSeconds,
                distanceMeters: metrics.distanceMeters, in: unit, distance: account.distanceUnit)
            let newEntry = added ? " (not in the workout until now: added to it)" : ""
            respondSetDone(
                global, workoutId: id, setId: setId, rest: rest, addedExercise: added ? x.exerciseId : nil,
                human: "Logged \(type == .normal ? "" : "\(type.rawValue) ")set \(setId.lowercased.shortId): \(x.name) \(what)\(newEntry)")
        }
    }

    struct EditSet: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "edit-set", abstract: "Correct a set (appends a SetEdited event).")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The workout.") var workout: String
        @Argument(help: "The set's id or a unique prefix.") var set: String
        @OptionGroup var values: SetValues
        @OptionGroup var finished: HistoryEditOption
        @OptionGroup var at: AtOption

        func run() throws {
            let type = try values.setType()
            try recordOnWorkout(global, workout, at, human: "Edited set \(set)") { session, id, unit in
                let metrics = try values.metrics(defaultUnit: unit)
                // Only reps in reserve, tempo or equipment: no SetEdited, those alone.
                let setId =
                    type == nil && metrics == SetMetrics() && values.notes == nil && values.onlyDetails
                    ? try session.resolveSet(id, set)
                    : try session.editSet(id, set: set, type: type, changes: metrics, notes: values.notes, historyEdit: finished.historyEdit)
                try values.recordDetails(&session, id, setId, historyEdit: finished.historyEdit)
            }
        }
    }

    struct DeleteSet: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "delete-set", abstract: "Delete a set (appends a SetDeleted event).")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The workout.") var workout: String
        @Argument(help: "The set's id or a unique prefix.") var set: String
        @OptionGroup var finished: HistoryEditOption
        @OptionGroup var at: AtOption

        func run() throws {
            try recordOnWorkout(global, workout, at, human: "Deleted set \(set)") { session, id, _ in
                try session.deleteSet(id, set: set, historyEdit: finished.historyEdit)
            }
        }
    }

    struct Note: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "note",
            abstract: "Note the workout, or one exercise in it (shown in history, summary, workout show, the report and the CSV export).",
            discussion: """
                A note replaces the previous one; an empty note clears it. A set's note is `--notes` on `workout log`.

                Examples:
                  ledger workout note last "Slept badly; kept it light"
                  ledger workout note last "Belt from the third set" --exercise squat
                """)
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The workout.") var workout: String
        @Argument(help: "The note (empty to clear).") var text: String
        @Option(help: "The exercise the note is about (default: the whole workout).") var exercise: String?
        @OptionGroup var at: AtOption

        func run() throws {
            try recordOnWorkout(global, workout, at, human: text.isEmpty ? "Note cleared" : "Noted") { session, id, _ in
                try session.setNote(id, exercise: exercise, text: text)
            }
        }
    }

    struct Swap: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "swap",
            abstract: "Swap an exercise for another; sets already logged stay with the first.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The workout.") var workout: String
        @Argument(help: "The exercise to replace.") var from: String
        @Argument(help: "The exercise to do instead.") var to: String
        @OptionGroup var at: AtOption

        func run() throws {
            let ledger = try global.openLedger()
            let id = try ledger.resolveWorkout(workout)
            let swapped = try ledger.execute(at: try at.time()) { try $0.swapExercise(id, from: from, to: to) }
            // The names as resolved, so a person sees which exercises the words meant.
            let planned =
                swapped.plannedSets == 0
                ? ""
                : "; its \(swapped.plannedSets) planned \(swapped.plannedSets == 1 ? "set follows" : "sets follow") without \(swapped.from.name)'s load"
            respond(
                global, ["workoutId": id.lowercased, "from": swapped.from.exerciseId, "to": swapped.to.exerciseId],
                human: "Swapped \(swapped.from.name) for \(swapped.to.name)\(planned)")
        }
    }

    struct Pause: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "pause", abstract: "Pause the clock of a workout.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The workout.") var workout: String
        @OptionGroup var at: AtOption

        func run() throws {
            try recordOnWorkout(global, workout, at, human: "Paused") { session, id, _ in try session.pauseWorkout(id) }
        }
    }

    struct Resume: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "resume", abstract: "Resume a paused workout.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The workout.") var workout: String
        @OptionGroup var at: AtOption

        func run() throws {
            try recordOnWorkout(global, workout, at, human: "Resumed") { session, id, _ in try session.resumeWorkout(id) }
        }
    }

    struct Finish: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "finish", abstract: "Finish a workout, with how it felt (1–5) and a closing note if you like.",
            discussion: """
                Examples:
                  ledger workout finish last
                  ledger workout finish last --feeling 4 --note "Shoulder fine, bench moved fast"
                """)
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The workout.") var workout: String
        @Option(parsing: .unconditional, help: "How the session felt: 1 (awful) to 5 (great).") var feeling: Int?
        @Option(help: "A closing note on the session.") var note: String?
        @OptionGroup var at: AtOption

        func run() throws {
            let ledger = try global.openLedger()
            let id = try ledger.resolveWorkout(workout)
            let time = try at.time()
            try ledger.execute(at: time) { session in
                try session.finishWorkout(id, timeGiven: time != nil)
                if feeling != nil || note != nil { try session.recordFeeling(id, feeling: feeling, note: note) }
            }
            let w = try ledger.workout(id)
            // A watch workout (heart rate or energy sampled) gets the ledger's analysis as it finishes.
            let analysed = w.heartRateSamples > 0 || w.activeEnergyKcal > 0 ? try WorkoutAnalysis.record(global, ledger, id, at: time) : false
            let minutes = (w.durationSeconds() ?? 0) / 60
            respond(
                global, ["workoutId": id.lowercased],
                human: "Finished \(w.name) after \(minutes) min\(analysed ? " (analysis: `ledger workout analysis \(id.lowercased.shortId)`)" : "")")
        }
    }

    /// `workout feeling W N [--note TEXT]`: how a session felt, given (or changed) after it ended.
    struct Feeling: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "feeling", abstract: "How a workout felt, 1 (awful) to 5 (great), with a closing note; the newer rating wins.",
            discussion: """
                Examples:
                  ledger workout feeling last 4
                  ledger workout feeling last 2 --note "Slept badly"
                """)
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The workout.") var workout: String
        @Argument(help: "1 (awful) to 5 (great).") var feeling: Int?
        @Option(help: "A closing note on the session.") var note: String?
        @OptionGroup var at: AtOption

        func run() throws {
            let human = feeling.map { "Felt \($0)/5" } ?? "Noted"
            try recordOnWorkout(global, workout, at, human: human) { session, id, _ in try session.recordFeeling(id, feeling: feeling, note: note) }
        }
    }

    /// `workout deload W on|off`: a deload, which progression and stall counting pass over.
    struct Deload: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "deload", abstract: "Mark a workout as a deload (on) or not (off): progression and stall counting pass over a deload.",
            discussion: """
                History marks it; `next` neither progresses from it nor counts it as a stall.

                Example: ledger workout deload last on
                """)
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The workout.") var workout: String
        @Argument(help: "on or off") var state: String
        @OptionGroup var at: AtOption

        func run() throws {
            guard ["on", "off"].contains(state.lowercased()) else { throw ValidationError("give on or off") }
            let on = state.lowercased() == "on"
            try recordOnWorkout(global, workout, at, human: on ? "Marked as a deload" : "No longer a deload") { session, id, _ in
                try session.markDeload(id, on)
            }
        }
    }

    /// `workout activity W KIND`: what kind of session a workout is.
    struct Activity: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "activity", abstract: "What kind of session a workout is: strength (the default), running, cycling, …",
            discussion: """
                Kinds: \(WorkoutActivity.allCases.map { kebab($0.rawValue) }.joined(separator: ", ")).

                Example:
                  ledger workout activity last running
                """)
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The workout.") var workout: String
        @Argument(help: "The kind of session.") var activity: String
        @OptionGroup var at: AtOption

        func run() throws {
            let kind = try vocabulary(WorkoutActivity.self, "activity", activity)
            try recordOnWorkout(global, workout, at, human: "Activity: \(kebab(kind.rawValue))") { session, id, _ in try session.setActivity(id, kind)
            }
        }
    }

    struct Discard: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "discard",
            abstract: "Discard a workout: it leaves history, PRs and hints but stays in the log.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The workout.") var workout: String
        @OptionGroup var at: AtOption

        func run() throws {
            try recordOnWorkout(global, workout, at, human: "Discarded") { session, id, _ in try session.discardWorkout(id) }
        }
    }
}

/// Resolves workout `ref`, runs one command on it at `--at` (with the user's
/// lifting unit for bare weights), and answers `{"workoutId"}` or `human`.
func recordOnWorkout(
    _ global: GlobalOptions, _ ref: String, _ at: AtOption, human: String,
    _ command: (inout CommandSession, UUID, WeightUnit) throws -> Void
) throws {
    let ledger = try global.openLedger()
    let id = try ledger.resolveWorkout(ref)
    let unit = try ledger.account().liftingUnit
    try ledger.execute(at: try at.time()) { try command(&$0, id, unit) }
    respond(global, ["workoutId": id.lowercased], human: human)
}

/// A command on a workout that answers the id it made (`entryId`, `setId`, `supersetId`) beside the workout's.
func recordOnWorkout(
    _ global: GlobalOptions, _ ref: String, _ at: AtOption, answering key: String, human: (String) -> String,
    recording command: (inout CommandSession, UUID) throws -> UUID
) throws {
    let ledger = try global.openLedger()
    let id = try ledger.resolveWorkout(ref)
    let made = try ledger.execute(at: try at.time()) { try command(&$0, id) }.lowercased
    respond(global, ["workoutId": id.lowercased, key: made], human: human(made))
}

/// The answer of logging or completing a set: its id, and the rest it started when auto-start is on.
func respondSetDone(_ global: GlobalOptions, workoutId: UUID, setId: UUID, rest: Int?, addedExercise: String? = nil, human: String) {
    if global.json {
        var fields: [(String, JSONValue)] = [
            ("workoutId", .string(workoutId.lowercased)), ("setId", .string(setId.lowercased)),
            ("restSeconds", rest.map { .int(Int64($0)) } ?? .null),
        ]
        // An exercise the workout did not hold until this set: a person may have meant one it holds.
        if let addedExercise { fields.append(("addedExercise", .string(addedExercise))) }
        Console.json(.object(fields))
    } else {
        Console.out(human + (rest.map { "; resting \(Measure.clock(Double($0)))" } ?? ""))
    }
}

/// The answer of a recording command: ids as JSON, or a line for a person.
func respond(_ global: GlobalOptions, _ ids: KeyValuePairs<String, String>, human: String) {
    if global.json { Console.json(.object(ids.map { ($0.key, .string($0.value)) })) } else { Console.out(human) }
}
