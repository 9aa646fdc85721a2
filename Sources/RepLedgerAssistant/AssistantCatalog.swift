import RepLedgerCore
import RepLedgerQueries

/// The tools an assistant is offered: their names, what they do, and input schemas with units and
/// ranges. Reads answer the CLI's `--json` document of the same query; writes take the head the
/// assistant last read (`expectedPosition`) and an id of the request (`requestId`).
public struct AssistantTool: Sendable {
    public var name: String
    public var title: String
    public var description: String
    /// A JSON Schema object: `type`, `properties`, `required`, `additionalProperties: false`.
    public var inputSchema: JSONValue
    public var writes: Bool
    var argumentNames: Set<String>
}

public enum AssistantCatalog {
    /// Every tool; `readOnly` leaves the writes out altogether.
    public static func tools(readOnly: Bool) -> [AssistantTool] { readOnly ? reads : reads + writes }

    public static func tool(_ name: String) -> AssistantTool? { (reads + writes).first { $0.name == name } }

    // MARK: Schema pieces

    static func text(_ description: String, maxLength: Int = 200) -> JSONValue {
        .object([("type", .string("string")), ("description", .string(description)), ("maxLength", .int(Int64(maxLength)))])
    }
    static func number(_ description: String, _ range: ClosedRange<Double>) -> JSONValue {
        .object([
            ("type", .string("number")), ("description", .string(description)), ("minimum", .number(range.lowerBound)),
            ("maximum", .number(range.upperBound)),
        ])
    }
    /// `weightLb`: the weight in pounds instead of `weightKg`, for a lifter who lifts in pounds (kept as given).
    static func pounds(_ kilograms: ClosedRange<Double>) -> (String, JSONValue) {
        ("weightLb", number("The weight in pounds, instead of weightKg.", AssistantArguments.pounds(kilograms)))
    }
    static func integer(_ description: String, _ range: ClosedRange<Int64>) -> JSONValue {
        .object([
            ("type", .string("integer")), ("description", .string(description)), ("minimum", .int(range.lowerBound)),
            ("maximum", .int(range.upperBound)),
        ])
    }
    static func flag(_ description: String) -> JSONValue { .object([("type", .string("boolean")), ("description", .string(description))]) }
    static func oneOf(_ description: String, _ choices: [String]) -> JSONValue {
        .object([("type", .string("string")), ("description", .string(description)), ("enum", .array(choices.map(JSONValue.string)))])
    }

    static let asOf: (String, JSONValue) = (
        "asOf",
        text("The log as it was recorded by then: a position (\"1200\") or an ISO 8601 time. Default: the head.", maxLength: 40)
    )
    static let until: (String, JSONValue) = (
        "until", text("Training done up to this date (YYYY-MM-DD), under today's plan. Default: all of it.", maxLength: 40)
    )
    static let workoutRef: (String, JSONValue) = (
        "workout", text("The workout: its id, a unique prefix of it, or \"last\" (default).", maxLength: 40)
    )
    static let expectedPosition: (String, JSONValue) = (
        "expectedPosition",
        integer(
            "The log's head position when you last read it (every answer's `head`, or `verify`'s `events`). If the log has moved since, nothing is appended and the answer lists what was.",
            0...Int64.max)
    )
    static let requestId: (String, JSONValue) = (
        "requestId",
        text("An id you choose for this one write (a UUID, say). Sent again, nothing more is appended and the first answer is given.", maxLength: 100)
    )
    static let setType = oneOf("The set's type.", ["normal", "warmup", "drop", "failure"])

    static func tool(
        _ name: String, _ title: String, _ description: String, _ properties: [(String, JSONValue)], required: [String] = [],
        writes: Bool = false
    ) -> AssistantTool {
        let all = writes ? properties + [expectedPosition, requestId] : properties
        let schema: JSONValue = .object([
            ("type", .string("object")), ("properties", .object(all)),
            ("required", .array((required + (writes ? ["expectedPosition", "requestId"] : [])).map(JSONValue.string))),
            ("additionalProperties", .bool(false)),
        ])
        return AssistantTool(
            name: name, title: title, description: description, inputSchema: schema, writes: writes, argumentNames: Set(all.map(\.0)))
    }

    // MARK: Reads

    static let reads: [AssistantTool] = [
        tool(
            "history", "Workout history",
            "Finished workouts, newest first, with every set (`ledger history --json`). Weights are kilograms.",
            [
                ("exercise", text("Only workouts with this exercise (a name or id).")),
                ("month", text("Only this month, YYYY-MM.", maxLength: 7)),
                ("limit", integer("At most this many workouts.", HistoryQuery.servedLimits.wide)),
                ("offset", integer("Skip this many of the newest first.", HistoryQuery.servedOffsets.wide)), asOf, until,
            ]),
        tool(
            "workout", "One workout",
            "A workout's exercises with planned and done sets, set ids, targets, rest and what to beat (`ledger workout show --json`).",
            [workoutRef, asOf, until]),
        tool(
            "records", "Personal records",
            "Per exercise: heaviest, best estimated 1RM, best set and session volume, rep maxes (`ledger prs --json`).",
            [("exercise", text("Only this exercise.")), ("timeline", flag("Every record as it was set, in order.")), asOf, until]),
        tool(
            "e1rm_trend", "Estimated 1RM trend", "The estimated one-rep max of each session of an exercise (`ledger e1rm --json`).",
            [
                ("exercise", text("The exercise, by name or id.")),
                ("formula", oneOf("The estimate's formula.", ["epley", "brzycki", "lombardi", "mayhew", "oconner", "wathan", "lander"])), asOf,
                until,
            ], required: ["exercise"]),
        tool(
            "volume", "Training volume", "Sets and tonnage (kg) by workout, week or muscle (`ledger volume --json`).",
            [("by", oneOf("How to group.", ["workout", "week", "muscle"])), asOf, until]),
        tool(
            "last_time", "Last time", "What the lifter did last time on an exercise: the date, best set and sets (`ledger hint --json`).",
            [
                ("exercise", text("The exercise, by name or id.")),
                ("workout", text("A workout whose program day to compare with (with scope programDay).", maxLength: 40)),
                ("scope", oneOf("Any session of the exercise, or the same program day.", ["exercise", "programDay"])), asOf, until,
            ], required: ["exercise"]),
        tool(
            "next_targets", "Next targets",
            "The next session's target for each exercise (weight in kg, reps, rule and reason), or for one (`ledger next --json`).",
            [
                ("exercise", text("Only this exercise.")), ("program", text("The program (id, prefix or \"active\"; default: the active one).")),
                ("all", flag("Every exercise of the program, not only the next day's.")), asOf, until,
            ]),
        tool(
            "program_today", "Today's program day",
            "The program's next day: which day, when, and each of its exercises' targets (`ledger next --json` without an exercise).",
            [("program", text("The program (id, prefix or \"active\"; default: the active one).")), asOf]),
        tool(
            "search_exercises", "Search exercises", "Exercises matching a text, best first (`ledger exercise search --json`).",
            [("text", text("What to look for, e.g. \"incline press\".")), ("limit", integer("At most this many.", 1...200))],
            required: ["text"]),
        tool(
            "calendar", "Training calendar", "A month's trained and planned days and the weekly streaks (`ledger calendar --json`).",
            [("month", text("The month, YYYY-MM (default: this one).", maxLength: 7)), asOf, until]),
        tool(
            "body_history", "Body history", "Every weigh-in (kg), measurement and progress photo, newest first (`ledger body history --json`).",
            [("site", oneOf("Only this measurement.", BodySite.allCases.map(\.rawValue))), asOf, until]),
        tool(
            "entitlements", "Entitlements", "What the lifter's purchases open (`ledger entitlements --json`).",
            [("at", text("At this ISO 8601 time (default: now).", maxLength: 40)), asOf]),
        tool("verify", "Verify the log", "Checks every event's hash chain (`ledger verify --json`): `events` is the head position.", []),
    ]

    // MARK: Writes

    static let writes: [AssistantTool] = [
        tool(
            "start_workout", "Start a workout",
            "Starts a workout (refused while another is in progress): empty, from a template or a routine of the history, a program's day, or the last finished workout again → {\"workoutId\"}.",
            [
                ("name", text("The workout's name (default: the template's, else by the time of day).")),
                ("template", text("Start from this template or routine (name or id).")),
                ("program", text("Start a day of this program (id, prefix or \"active\"); with day.")),
                ("day", integer("The program's day, 1 to its number of days.", 1...14)),
                ("repeatLast", flag("Repeat the last finished workout: its exercises and sets, planned.")),
            ],
            writes: true),
        tool(
            "log_set", "Log a set",
            "Logs a completed set: a planned set of the exercise is completed first. Weight in kilograms; reps, a duration or a distance, as the exercise measures → {\"workoutId\",\"setId\"}.",
            [
                workoutRef, ("exercise", text("The exercise, by name or id.")), ("reps", integer("Repetitions.", 0...1000)),
                ("weightKg", number("Weight in kilograms (0 or absent: bodyweight).", 0...1000)), pounds(0...1000),
                ("rpe", number("Effort, RPE 1–10 in steps of 0.5.", 1...10)), rir, ("type", setType), ("notes", text("A note on the set.")),
                duration, distance,
            ], required: ["exercise"], writes: true),
        tool(
            "edit_set", "Correct a set", "Corrects a logged set's values (appends a correction; the original stays in the log).",
            [
                workoutRef, ("set", text("The set's id or a unique prefix.", maxLength: 40)), ("reps", integer("Repetitions.", 0...1000)),
                ("weightKg", number("Weight in kilograms.", 0...1000)), pounds(0...1000),
                ("rpe", number("Effort, RPE 1–10 in steps of 0.5.", 1...10)), ("type", setType), ("notes", text("A note on the set.")),
            ], required: ["set"], writes: true),
        tool(
            "finish_workout", "Finish a workout", "Finishes a workout, with how it felt and a closing note if given.",
            [workoutRef, ("feeling", integer("How it felt: 1 (awful) to 5 (great).", 1...5)), ("note", text("A closing note.", maxLength: 1000))],
            writes: true),
        tool(
            "add_note", "Add a note", "A note on the workout, or on one of its exercises.",
            [workoutRef, ("text", text("The note.", maxLength: 1000)), ("exercise", text("The exercise the note is about."))],
            required: ["text"], writes: true),
        tool(
            "log_bodyweight", "Log bodyweight", "Records a weigh-in, in kilograms or pounds → {\"measurementId\"}.",
            [("weightKg", number("Bodyweight in kilograms (or weightLb).", 20...400)), pounds(20...400)], writes: true),
        tool(
            "complete_set", "Complete a planned set",
            "Completes a planned set, with the values done if they differ from its target → {\"workoutId\",\"setId\"}.",
            [
                workoutRef, setRef, ("reps", integer("Repetitions.", 0...1000)), ("weightKg", number("Weight in kilograms.", 0...1000)),
                pounds(0...1000), ("rpe", number("Effort, RPE 1–10 in steps of 0.5.", 1...10)), rir, duration, distance,
            ], required: ["set"], writes: true),
        tool(
            "uncomplete_set", "Un-complete a set", "Marks a completed set as not done (planned) again; its values stay.", [workoutRef, setRef],
            required: ["set"], writes: true),
        tool(
            "delete_set", "Delete a set", "Deletes a set (the log keeps that it was logged).", [workoutRef, setRef], required: ["set"], writes: true),
        tool(
            "duplicate_set", "Duplicate a set", "Adds a copy of a set to its exercise: done if the set was done, else planned → {\"setId\"}.",
            [workoutRef, setRef],
            required: ["set"], writes: true),
        tool(
            "add_exercise", "Add an exercise", "Adds an exercise to the workout, with no sets yet.",
            [workoutRef, ("exercise", text("The exercise, by name or id."))], required: ["exercise"], writes: true),
        tool(
            "remove_exercise", "Remove an exercise", "Removes an exercise and its sets from the workout.",
            [workoutRef, ("exercise", text("The exercise, by name or id."))], required: ["exercise"], writes: true),
        tool(
            "swap_exercise", "Swap an exercise", "Swaps an exercise for another: done sets stay, planned ones move without their load.",
            [workoutRef, ("exercise", text("The exercise to swap out.")), ("to", text("The exercise to swap in."))],
            required: ["exercise", "to"], writes: true),
        tool(
            "link_superset", "Make a superset", "Links two or more of the workout's exercises into a superset.",
            [
                workoutRef,
                (
                    "exercises",
                    .object([
                        ("type", .string("array")), ("description", .string("The exercises, by name or id.")),
                        ("items", text("An exercise.")), ("minItems", .int(2)), ("maxItems", .int(10)),
                    ])
                ),
            ], required: ["exercises"], writes: true),
        tool(
            "rest_timer", "Rest timer",
            "Starts the rest timer (its seconds, or the exercise's default), adds or takes seconds, pauses, resumes or dismisses it.",
            [
                workoutRef, ("action", oneOf("What to do.", ["start", "adjust", "pause", "resume", "dismiss"])),
                ("seconds", integer("start: the rest's length; adjust: seconds to add (negative to take).", -600...3600)),
            ], required: ["action"], writes: true),
        tool(
            "discard_workout", "Discard a workout", "Discards a workout in progress: it stays in the log, out of history.", [workoutRef],
            writes: true),
        tool(
            "plan_warmup", "Plan warm-up sets",
            "Plans the warm-up ramp before an exercise's working sets (added to the workout if it has not the exercise yet) → {\"workoutId\",\"setId\"}.",
            [
                workoutRef, ("exercise", text("The exercise, by name or id.")),
                ("weightKg", number("The working weight (default: the first planned working set's).", 0...1000)), pounds(0...1000),
                ("scheme", oneOf("The ramp (default: the rule set's).", WarmupScheme.known.map(\.name))),
            ], required: ["exercise"], writes: true),
        tool(
            "reorder_exercises", "Reorder exercises", "Puts the workout's exercises in this order (every one named once).",
            [workoutRef, ("exercises", exerciseList(1...50))], required: ["exercises"], writes: true),
        tool(
            "move_set", "Move a set", "Moves a set to another exercise of the workout (one logged under the wrong one) → {\"setId\"} (its new id).",
            [workoutRef, setRef, ("exercise", text("The exercise it belongs to."))], required: ["set", "exercise"], writes: true),
        tool(
            "unlink_superset", "End a superset", "Ends the superset an exercise is in.",
            [workoutRef, ("exercise", text("An exercise of the superset."))], required: ["exercise"], writes: true),
        tool(
            "pause_workout", "Pause or resume a workout", "Pauses the workout's clock, or resumes it.",
            [workoutRef, ("action", oneOf("What to do.", ["pause", "resume"]))], required: ["action"], writes: true),
        tool(
            "change_settings", "Change settings",
            "Sets the lifting unit, the bar and plates (in the lifting unit) and the default rest between sets; a setting already so is left as it is.",
            [
                ("unit", oneOf("The lifting unit.", ["kg", "lb"])),
                ("bar", number("The bar's weight, in the lifting unit (default: 20 kg or 45 lb); with plates.", 0...100)),
                (
                    "plates",
                    .object([
                        ("type", .string("array")), ("description", .string("The plate sizes you have, in the lifting unit.")),
                        ("items", number("A plate's weight.", 0.1...100)), ("minItems", .int(1)), ("maxItems", .int(20)),
                    ])
                ),
                ("restSeconds", integer("The default rest between sets, in seconds.", 10...3600)),
            ], writes: true),
        tool(
            "save_template", "Save a workout as a template",
            "A template of the workout: its exercises in order, each with the sets done, the reps they spanned and the heaviest weight → {\"templateId\"}.",
            [workoutRef, ("name", text("The template's name (default: the workout's)."))], writes: true),
    ]

    static let rir: (String, JSONValue) = ("rir", number("Reps in reserve, 0–9 in steps of 0.5 (instead of rpe).", 0...9))
    static let duration: (String, JSONValue) = ("durationSeconds", number("Duration in seconds (cardio, holds).", 0...86_400))
    static let distance: (String, JSONValue) = ("distanceMeters", number("Distance in metres.", 0...1_000_000))

    static func exerciseList(_ count: ClosedRange<Int>) -> JSONValue {
        .object([
            ("type", .string("array")), ("description", .string("The exercises, by name or id.")), ("items", text("An exercise.")),
            ("minItems", .int(Int64(count.lowerBound))), ("maxItems", .int(Int64(count.upperBound))),
        ])
    }

    static let setRef: (String, JSONValue) = ("set", text("The set's id or a unique prefix.", maxLength: 40))
}
