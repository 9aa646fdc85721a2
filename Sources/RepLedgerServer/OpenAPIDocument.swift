import RepLedgerAssistant
import RepLedgerCore
import RepLedgerQueries

/// The OpenAPI 3.1 document of the API, served at `GET /v1/openapi.json`,
/// built here from the same few shapes every operation shares.
/// `OpenAPITests` checks it against the routes `LedgerRoutes` serves, and
/// CI fuzzes a live server from it with schemathesis (`.ci/fuzz-api`).
enum OpenAPIDocument {
    static let bytes: [UInt8] = Array(document.rendered.utf8)

    // MARK: Shapes

    typealias J = JSONValue
    static let string: J = .object([("type", .string("string"))])
    static let integer: J = .object([("type", .string("integer"))])
    /// An integer within a bound a front door declares once (`HistoryQuery.servedLimits`).
    static func bounded(_ range: ClosedRange<Int>) -> J {
        .object([("type", .string("integer")), ("minimum", .int(Int64(range.lowerBound))), ("maximum", .int(Int64(range.upperBound)))])
    }
    static let number: J = .object([("type", .string("number"))])
    static let boolean: J = .object([("type", .string("boolean"))])
    static func nullable(_ type: String) -> J { .object([("type", .array([.string(type), .string("null")]))]) }
    static func array(_ items: J? = nil) -> J { .object([("type", .string("array"))] + (items.map { [("items", $0)] } ?? [])) }
    static func ref(_ name: String, in section: String = "schemas") -> J { .object([("$ref", .string("#/components/\(section)/\(name)"))]) }
    static func object(_ properties: [(String, J)], required: [String] = []) -> J {
        .object(
            [("type", .string("object")), ("properties", .object(properties))]
                + (required.isEmpty ? [] : [("required", .array(required.map { .string($0) }))]))
    }

    static func json(_ schema: J, _ description: String = "OK") -> (String, J) {
        ("200", .object([("description", .string(description)), ("content", .object([("application/json", .object([("schema", schema)]))]))]))
    }
    static func created(_ schema: J) -> (String, J) {
        ("201", .object([("description", .string("Created")), ("content", .object([("application/json", .object([("schema", schema)]))]))]))
    }
    static func body(_ schema: J, required: Bool = true) -> (String, J) {
        ("requestBody", .object([("required", .bool(required)), ("content", .object([("application/json", .object([("schema", schema)]))]))]))
    }
    static func errors(_ codes: [Int]) -> [(String, J)] { codes.map { ("\($0)", ref("Error", in: "responses")) } }
    static func query(_ name: String, _ description: String, _ schema: J = string) -> J {
        .object([
            ("name", .string(name)), ("in", .string("query")), ("required", .bool(false)), ("schema", schema),
            ("description", .string(description)),
        ])
    }
    static func path(_ name: String, _ description: String) -> J {
        .object([
            ("name", .string(name)), ("in", .string("path")), ("required", .bool(true)), ("schema", string),
            ("description", .string(description)),
        ])
    }
    static func operation(_ summary: String, parameters: [J] = [], responses: [(String, J)], extra: [(String, J)] = []) -> J {
        .object(
            [("summary", .string(summary))] + (parameters.isEmpty ? [] : [("parameters", .array(parameters))]) + extra
                + [("responses", .object(responses))])
    }

    static let account = ref("Account", in: "parameters")
    static let exercise = path("exercise", "An exercise id or name.")
    static let workout = path("workout", "A workout id, unique prefix, or `last`.")
    static let scope = [ref("AsOf", in: "parameters"), ref("Until", in: "parameters")]

    /// A query: the CLI's `--json` document for the same log.
    static func queryPath(_ summary: String, _ schema: String, path extra: [J] = [], _ options: [J] = []) -> J {
        .object([
            ("parameters", .array([account] + extra)),
            (
                "get",
                operation(
                    summary, parameters: scope + options, responses: [json(ref(schema))] + errors([400, 401, 403, 404, 410, 414, 429, 431, 503]))
            ),
        ])
    }

    // MARK: Schemas

    static func orNull(_ schema: J) -> J { .object([("anyOf", .array([schema, .object([("type", .string("null"))])]))]) }

    /// A client's figures (`ClientProgress`): a roster row's and the progress document's.
    static let progressFields: [(String, J)] = [
        ("lastWorkoutAt", nullable("string")), ("daysSinceLastWorkout", nullable("integer")), ("workoutsLast7Days", integer),
        ("recordsLast7Days", integer), ("program", nullable("string")),
        (
            "compliance",
            orNull(
                object(
                    [("sessions7", number), ("sessions30", number), ("sets7", number), ("sets30", number)],
                    required: ["sessions7", "sessions30", "sets7", "sets30"]))
        ),
        ("previousSessions30", nullable("number")), ("weeklyVolumeKg", number), ("weeklyVolumeChangeKg", number),
        ("bodyweightKg", nullable("number")), ("bodyweightChange30DaysKg", nullable("number")), ("needsAttention", boolean),
        ("reasons", array(string)),
    ]
    static let progressRequired = [
        "lastWorkoutAt", "daysSinceLastWorkout", "workoutsLast7Days", "recordsLast7Days", "compliance", "weeklyVolumeKg",
        "weeklyVolumeChangeKg", "bodyweightKg", "bodyweightChange30DaysKg", "needsAttention", "reasons",
    ]
    static let progressDetail: [(String, J)] = [
        ("records7", array(object([("exercise", string), ("kind", string), ("value", number), ("at", string)]))),
        ("weeks", array(object([("monday", string), ("planned", nullable("number")), ("done", integer), ("trainedDays", array(string))]))),
        ("lastSession", orNull(object([("workoutId", string), ("name", string), ("startedAt", string), ("sets", array(object([])))]))),
    ]

    static let head = object(
        [
            ("position", .object([("type", .string("integer")), ("minimum", .int(0))])),
            ("hash", .object([("type", .string("string")), ("pattern", .string("^[0-9a-f]{64}$"))])),
        ],
        required: ["position", "hash"])
    static let chartWindow: J = .object([
        (
            "oneOf",
            .array([
                .object([("type", .string("null"))]),
                object([("from", string), ("through", string), ("days", integer)], required: ["from", "through", "days"]),
            ])
        )
    ])
    /// What Free's chart window leaves out: null when it leaves nothing.
    static let hiddenByWindow: J = .object([
        (
            "oneOf",
            .array([
                .object([("type", .string("null"))]),
                object([("workouts", integer), ("from", string), ("through", string)], required: ["workouts", "from", "through"]),
            ])
        )
    ])

    static let schemas: [(String, J)] = [
        (
            "Error",
            object(
                [
                    (
                        "error",
                        object(
                            [
                                ("code", string), ("message", string), ("stream", string), ("expected", integer),
                                ("actual", integer), ("eventId", string),
                            ], required: ["code", "message"])
                    )
                ], required: ["error"])
        ),
        ("Head", head),
        (
            "Envelope",
            object(
                [
                    ("position", integer), ("eventId", string), ("stream", string), ("version", integer), ("type", string),
                    ("schema", integer), ("occurredAt", string), ("recordedAt", string), ("device", string),
                    ("causationId", nullable("string")), ("correlationId", nullable("string")),
                    ("payload", .object([("type", .string("object"))])), ("hash", string),
                ],
                required: [
                    "position", "eventId", "stream", "version", "type", "schema", "occurredAt", "recordedAt", "device",
                    "payload", "hash",
                ])
        ),
        (
            "PushBody",
            object(
                [
                    (
                        "events",
                        .object([
                            ("type", .string("array")), ("maxItems", .int(5000)),
                            (
                                "items",
                                object(
                                    [
                                        ("eventId", .object([("type", .string("string")), ("format", .string("uuid"))])), ("stream", string),
                                        ("type", string),
                                        ("schema", integer), ("occurredAt", string), ("payload", .object([("type", .string("object"))])),
                                        ("causationId", nullable("string")), ("correlationId", nullable("string")),
                                    ], required: ["eventId", "stream", "type", "schema", "occurredAt", "payload"])
                            ),
                        ])
                    ),
                    (
                        "expectedVersions",
                        .object([
                            ("type", .string("object")),
                            ("additionalProperties", .object([("type", .string("integer")), ("minimum", .int(0))])),
                        ])
                    ),
                ], required: ["events"])
        ),
        (
            "Records",
            object(
                [
                    (
                        "exercises",
                        array(
                            object(
                                [
                                    ("exercise", string), ("exerciseId", string), ("heaviestKg", nullable("number")),
                                    ("bestE1rmKg", nullable("number")), ("repMaxesKg", .object([("type", .string("object"))])),
                                ],
                                required: ["exercise", "exerciseId"]))
                    )
                ], required: ["exercises"])
        ),
        (
            "History",
            object(
                [
                    (
                        "workouts",
                        array(
                            object(
                                [
                                    ("workoutId", string), ("name", string), ("startedAt", string),
                                    ("finishedAt", nullable("string")), ("durationSeconds", nullable("integer")),
                                    ("sets", integer), ("tonnageKg", number), ("exercises", array()),
                                ],
                                required: ["workoutId", "name", "startedAt", "sets", "tonnageKg", "exercises"]))
                    )
                ],
                required: ["workouts"])
        ),
        (
            "Next",
            object(
                [
                    (
                        "targets",
                        array(
                            object(
                                [
                                    ("exercise", string), ("exerciseId", string), ("weightKg", nullable("number")), ("repsMin", integer),
                                    ("repsMax", integer), ("rule", string), ("reason", string),
                                ], required: ["exercise", "exerciseId", "repsMin", "repsMax", "rule", "reason"]))
                    ),
                    ("scheduledOn", nullable("string")),
                    ("day", nullable("object")),
                ],
                required: ["targets"])
        ),
        (
            "Body",
            object(
                [
                    (
                        "measurements",
                        array(
                            object(
                                [
                                    ("measurementId", string), ("date", string), ("weightKg", number),
                                    ("entered", object([("value", number), ("unit", string)])),
                                ],
                                required: ["measurementId", "date", "weightKg"]))
                    ),
                    (
                        "measures",
                        array(object([("measurementId", string), ("date", string), ("site", string)], required: ["measurementId", "date", "site"]))
                    ),
                    ("photos", array(object([("photoId", string), ("date", string), ("pose", string)], required: ["photoId", "date", "pose"]))),
                ],
                required: ["measurements", "measures", "photos"])
        ),
        (
            "Volume",
            object(
                [
                    ("by", string), ("chartWindow", chartWindow), ("upsell", nullable("string")), ("hidden", hiddenByWindow),
                    (
                        "rows",
                        array(
                            object(
                                [
                                    ("key", string), ("label", string), ("sets", integer), ("tonnageKg", number),
                                    ("secondarySets", integer),
                                ], required: ["key", "label", "sets", "tonnageKg", "secondarySets"]))
                    ),
                ],
                required: ["by", "rows"])
        ),
        (
            "Entitlements",
            object(
                [
                    ("isPro", boolean), ("isCoach", boolean), ("activeProducts", array(string)),
                    // {"product":"coach","until":ISO 8601} while a self-hosted server's operator grants Coach.
                    ("operatorGrant", nullable("object")),
                    ("templateLimit", nullable("integer")), ("softUpsell", boolean), ("at", string),
                    ("completedWorkouts", integer), ("liveTemplates", integer),
                ],
                required: ["isPro", "isCoach", "activeProducts", "templateLimit", "softUpsell", "at"])
        ),
        (
            "Hint",
            object(
                [
                    ("exercise", string), ("exerciseId", string), ("lastWorkoutId", nullable("string")), ("date", nullable("string")),
                    ("ago", nullable("string")), ("bestSet", nullable("object")), ("sets", array()),
                ],
                required: ["exercise", "exerciseId", "sets"])
        ),
        (
            "E1RM",
            object(
                [
                    ("exercise", string), ("exerciseId", string), ("formula", string), ("chartWindow", chartWindow),
                    ("upsell", nullable("string")), ("hidden", hiddenByWindow), ("history", nullable("object")), ("points", array()),
                    ("weeks", array()),
                ],
                required: ["exercise", "exerciseId", "formula", "points", "weeks"])
        ),
        (
            "Summary",
            object(
                [
                    ("workout", .object([("type", .string("object"))])), ("records", array()), ("exercises", array()),
                    ("comparison", nullable("object")), ("durationSeconds", nullable("integer")), ("heartRate", nullable("object")),
                    ("activeEnergyKcal", number),
                ], required: ["workout", "records", "exercises"])
        ),
        (
            "Plates",
            object(
                [
                    ("weight", number), ("unit", string), ("bar", number), ("plates", array(number)), ("exact", boolean),
                    ("perSide", nullable("array")), ("below", nullable("object")), ("above", nullable("object")),
                ], required: ["weight", "unit", "bar", "plates", "exact", "perSide", "below", "above"])
        ),
        (
            "Settings",
            object(
                [
                    ("unit", string), ("bodyweight", string), ("distance", string), ("effort", string),
                    ("plates", object([("unit", string), ("bar", number), ("plates", array(number)), ("default", boolean)])),
                    ("rest", object([("restSeconds", integer), ("autoStart", boolean), ("exercises", array())])),
                ], required: ["unit", "bodyweight", "distance", "effort", "plates", "rest"])
        ),
        (
            "Workout",
            object(
                [
                    ("workoutId", string), ("name", string), ("status", string), ("origin", string), ("startedAt", string),
                    ("plannedSets", integer), ("doneSets", integer), ("rest", nullable("object")), ("exercises", array()),
                ], required: ["workoutId", "name", "status", "startedAt", "plannedSets", "doneSets", "rest", "exercises"])
        ),
        (
            "Prompt",
            object(
                [
                    ("prompt", nullable("string")), ("variant", nullable("string")), ("title", nullable("string")),
                    ("message", nullable("string")), ("headline", nullable("string")), ("explanation", nullable("string")),
                    ("line", nullable("string")), ("reps", nullable("array")), ("range", nullable("string")),
                ], required: ["prompt", "variant", "title", "message", "headline", "explanation", "line", "reps", "range"])
        ),
        ("RepCount", object([("excessReps", integer), ("previousWorkoutId", nullable("string"))], required: ["excessReps", "previousWorkoutId"])),
        (
            "Verify",
            object(
                [
                    ("ok", boolean), ("events", integer), ("firstBadPosition", nullable("integer")), ("reason", nullable("string")),
                    ("headHash", string),
                ], required: ["ok", "events", "firstBadPosition", "reason", "headHash"])
        ),
        (
            "Clients",
            object(
                [
                    (
                        "clients",
                        array(
                            object(
                                [("accountId", string), ("name", string)] + progressFields,
                                required: ["accountId", "name"] + progressRequired))
                    )
                ],
                required: ["clients"])
        ),
        ("Progress", object(progressFields + progressDetail, required: progressRequired + ["records7", "weeks", "lastSession"])),
        (
            "Invite",
            object(
                [
                    ("inviteId", string), ("note", string), ("createdAt", string), ("expiresAt", string), ("state", string),
                    ("usedBy", nullable("string")), ("usedByName", nullable("string")),
                ],
                required: ["inviteId", "note", "createdAt", "expiresAt", "state", "usedBy", "usedByName"])
        ),
        ("Invites", object([("invites", array(ref("Invite")))], required: ["invites"])),
        ("InviteMade", object([("inviteId", string), ("code", string), ("expiresAt", string)], required: ["inviteId", "code", "expiresAt"])),
        (
            "SignedIn",
            object(
                [("accountId", string), ("created", boolean), ("token", string), ("tokenId", string)],
                required: ["accountId", "created", "token", "tokenId"])
        ),
        (
            "Device",
            object(
                [
                    ("id", string), ("device", string), ("scope", string), ("createdAt", string), ("expiresAt", nullable("string")),
                    ("current", boolean),
                ], required: ["id", "device", "scope", "createdAt", "expiresAt", "current"])
        ),
        (
            "InviteAccepted",
            object([("inviteId", string), ("coachAccountId", string), ("coachName", string)], required: ["inviteId", "coachAccountId", "coachName"])
        ),
        (
            "Assignments",
            object(
                [
                    (
                        "assignments",
                        array(
                            object(
                                [
                                    ("assignmentId", string), ("offerEventId", string), ("coachAccountId", string), ("coachName", string),
                                    ("kind", string), ("name", string), ("offeredAt", string), ("status", string),
                                    ("offer", object([])), ("targets", nullable("object")),
                                ],
                                required: [
                                    "assignmentId", "offerEventId", "coachAccountId", "kind", "name", "offeredAt", "status", "offer", "targets",
                                ]))
                    )
                ],
                required: ["assignments"])
        ),
        (
            "Erasure",
            object(
                [
                    ("accountId", string), ("events", integer), ("snapshots", integer), ("tokens", integer),
                    ("keyDestroyed", boolean), ("at", string),
                ], required: ["accountId", "events", "snapshots", "tokens", "keyDestroyed", "at"])
        ),
    ]

    // MARK: Paths

    static let paths: [(String, J)] = [
        (
            "/v1/health",
            .object([
                (
                    "get",
                    operation(
                        "Liveness and version (no token).",
                        responses: [
                            json(object([("ok", boolean), ("version", string)], required: ["ok", "version"]))
                        ], extra: [("security", .array([]))])
                )
            ])
        ),
        (
            "/v1/openapi.json",
            .object([
                (
                    "get",
                    operation(
                        "This document (no token).", responses: [json(.object([("type", .string("object"))]))],
                        extra: [("security", .array([]))])
                )
            ])
        ),
        (
            "/v1/accounts/{account}",
            .object([
                ("parameters", .array([account])),
                (
                    "delete",
                    operation(
                        "Erase the account (DOMAIN.md §11), by the account's own token.",
                        responses: [json(ref("Erasure"), "The erasure report.")] + errors([401, 403, 414, 429, 431, 503]))
                ),
            ])
        ),
        (
            "/v1/accounts/{account}/events",
            .object([
                ("parameters", .array([account])),
                (
                    "get",
                    operation(
                        "Envelopes after a position, ascending (exactly the lines of `ledger log`).",
                        parameters: [
                            query("after", "Only events after this position (default 0).", integer),
                            query("limit", "At most this many (default 1000, max 10000).", integer),
                        ],
                        responses: [json(object([("events", array(ref("Envelope"))), ("head", ref("Head"))], required: ["events", "head"]))]
                            + errors([400, 401, 403, 410, 414, 429, 431, 503]))
                ),
                (
                    "post",
                    operation(
                        "Append a batch atomically (re-validated as the CLI would; re-sent event ids are skipped). On a server that checks the store's signed transactions (`--storekit-root`), each `PurchaseReceiptAttached` must verify (three certificates with the store's markers, the app's bundle id, the `--storekit-environment`; 16 KB at most; one per transaction and 1,000 per account), else `422 receiptRefused`; a purchase another account holds is `409 purchaseClaimed`. The request must arrive whole within `--request-timeout` (60 s).",
                        responses: [
                            json(
                                object(
                                    [
                                        ("appended", array(integer)), ("alreadyStored", integer), ("head", ref("Head")),
                                        ("recordedAt", string), ("device", string),
                                    ],
                                    required: ["appended", "alreadyStored", "head"]))
                        ] + errors([400, 401, 403, 409, 410, 413, 414, 422, 429, 431, 503]),
                        extra: [
                            (
                                "requestBody",
                                .object([
                                    ("required", .bool(true)),
                                    (
                                        "content",
                                        .object([
                                            ("application/json", .object([("schema", ref("PushBody"))]))
                                        ])
                                    ),
                                ])
                            )
                        ])
                ),
            ])
        ),
        (
            "/v1/accounts/{account}/events/live",
            .object([
                ("parameters", .array([account])),
                (
                    "get",
                    operation(
                        "Every event after a position, then each new one as it is appended (Server-Sent Events: `id:` the position, `data:` the envelope, `: keep-alive` every 15 s). Open streams are capped per token (`--max-streams-per-token`, 8), per account (`--max-streams-per-account`, 32) and in all (`--max-streams`, a quarter of `--max-connections`): `429 tooManyRequests` with `Retry-After: 1` past each.",
                        parameters: [query("after", "Start after this position (or the Last-Event-ID header).", integer)],
                        responses: [
                            (
                                "200",
                                .object([
                                    ("description", .string("An event stream.")),
                                    (
                                        "content",
                                        .object([
                                            ("text/event-stream", .object([("schema", string)]))
                                        ])
                                    ),
                                ])
                            )
                        ] + errors([400, 401, 403, 410, 414, 429, 431, 503]))
                ),
            ])
        ),
        (
            "/v1/accounts/{account}/verify",
            .object([
                ("parameters", .array([account])),
                (
                    "get",
                    operation(
                        "The `ledger verify --json` document.", responses: [json(ref("Verify"))] + errors([401, 403, 410, 414, 429, 431, 503]))
                ),
            ])
        ),
        (
            "/v1/accounts/{account}/prs",
            queryPath(
                "Personal records (`ledger prs --json`).", "Records",
                [query("exercise", "Only this exercise."), query("timeline", "true: every record ever set.")])
        ),
        (
            "/v1/accounts/{account}/history",
            queryPath(
                "Workouts, newest first (`ledger history --json`).", "History",
                [
                    query("exercise", "Only workouts with this exercise."), query("month", "YYYY-MM."),
                    query("limit", "At most this many workouts.", bounded(HistoryQuery.servedLimits)),
                    query("offset", "Skip this many of the newest first.", bounded(HistoryQuery.servedOffsets)),
                ])
        ),
        (
            "/v1/accounts/{account}/volume",
            queryPath(
                "Sets and tonnage (`ledger volume --json`).", "Volume",
                [query("by", "workout, week, muscle or exercise.")])
        ),
        (
            "/v1/accounts/{account}/entitlements",
            queryPath(
                "Free, Pro or Coach (`ledger entitlements --json`).", "Entitlements",
                [query("at", "The time to answer for.")])
        ),
        (
            "/v1/accounts/{account}/body",
            queryPath(
                "Weigh-ins, body measurements and progress photos, newest first (`ledger body history --json`).", "Body",
                [query("site", "Only this measurement (waist, chest, …), and no weigh-ins or photos.")])
        ),
        (
            "/v1/accounts/{account}/next",
            queryPath(
                "The next session: the program's next day (or the exercises lately done), each target with its rule and reason (`ledger next --json`).",
                "Next", [query("program", "This program (id, a prefix or active)."), query("all", "true: every exercise of the program.")])
        ),
        (
            "/v1/accounts/{account}/hint/{exercise}",
            queryPath(
                "Last-time hint (`ledger hint --json`).", "Hint", path: [exercise],
                [
                    query("scope", "exercise, programDay or auto (the default: the program day inside a program workout, else the exercise)."),
                    query("at", "The time the hint is for."), query("workout", "Take the time from this workout."),
                ])
        ),
        (
            "/v1/accounts/{account}/e1rm/{exercise}",
            queryPath(
                "e1RM trend (`ledger e1rm --json`).", "E1RM", path: [exercise],
                [query("formula", "epley, brzycki, lombardi, mayhew, oconner, wathan, lander or rpe-table (effort through RTS's table).")])
        ),
        ("/v1/accounts/{account}/summary/{workout}", queryPath("Workout summary (`ledger workout summary --json`).", "Summary", path: [workout])),
        (
            "/v1/accounts/{account}/plates/{weight}",
            queryPath(
                "The plates a side for a weight, with the lifter's bar and plates (`ledger plates --json`).", "Plates",
                path: [
                    .object([
                        ("name", .string("weight")), ("in", .string("path")), ("required", .bool(true)),
                        ("description", .string("A bare number in the lifting unit, or 102.5kg, 225lb.")), ("schema", string),
                    ])
                ])
        ),
        ("/v1/accounts/{account}/settings", queryPath("Every setting at once (`ledger settings show --json`).", "Settings")),
        (
            "/v1/accounts/{account}/workout/{workout}",
            queryPath(
                "A workout's plan and sets, planned and done, with targets, last time and the rest (`ledger workout show --json`).", "Workout",
                path: [workout])
        ),
        (
            "/v1/accounts/{account}/prompt/{workout}/{exercise}",
            queryPath(
                "Progression prompt (`ledger prompt --json`).", "Prompt",
                path: [workout, exercise], [query("range", "MIN-MAX, e.g. 8-12.")])
        ),
        (
            "/v1/accounts/{account}/repcount/{workout}/{exercise}",
            queryPath(
                "Rep counter (`ledger repcount --json`).", "RepCount",
                path: [workout, exercise],
                [query("scope", "exercise, programDay or auto (the default: the program day inside a program workout, else the exercise).")])
        ),
        (
            "/v1/coach/clients",
            .object([
                (
                    "get",
                    operation(
                        "A coach's clients, needs-attention first, with compliance and progress (needs an active Coach product).",
                        responses: [json(ref("Clients"))] + errors([401, 403, 410, 503]))
                )
            ])
        ),
        (
            "/v1/coach/invites",
            .object([
                (
                    "get",
                    operation("A coach's invites and their state (never a code).", responses: [json(ref("Invites"))] + errors([401, 403, 410, 503]))
                ),
                (
                    "post",
                    operation(
                        "A one-time invite code (a week, once), shown in this answer only; the server keeps its hash.",
                        responses: [created(ref("InviteMade"))] + errors([400, 401, 403, 410, 413, 503]),
                        extra: [body(object([("note", string)]), required: false)])
                ),
            ])
        ),
        (
            "/v1/coach/invites/accept",
            .object([
                (
                    "post",
                    operation(
                        "Redeem an invite code with the client's token → which coach to grant (the device records the grant in its own log).",
                        responses: [json(ref("InviteAccepted"))] + errors([400, 401, 404, 410, 413, 503]),
                        extra: [body(object([("code", string)], required: ["code"]))])
                )
            ])
        ),
        (
            "/v1/coach/invites/{invite}",
            .object([
                ("parameters", .array([path("invite", "The invite's id.")])),
                (
                    "delete",
                    operation(
                        "Withdraw an unused invite.",
                        responses: [json(object([("inviteId", string), ("state", string)]))] + errors([401, 404, 410, 503]))
                ),
            ])
        ),
        (
            "/v1/auth/apple",
            .object([
                (
                    "post",
                    operation(
                        "Sign in (or up) with a Sign in with Apple identity token made for the raw `nonce` (no token; needs `--apple-keys`): the first sign-in makes the account; the device gets a token, shown once. Limited per address (429).",
                        responses: [json(ref("SignedIn"))] + errors([400, 401, 409, 413, 429, 501, 503]),
                        extra: [
                            body(
                                object(
                                    [("identityToken", string), ("nonce", string), ("device", string), ("name", string)],
                                    required: ["identityToken", "nonce", "device"])), ("security", .array([])),
                        ])
                )
            ])
        ),
        (
            "/v1/auth/email/start",
            .object([
                (
                    "post",
                    operation(
                        "Mail a six-digit sign-in code to the address (no token; needs `--mail-command`): valid 10 minutes and for 5 tries, from the source (IPv4 address, IPv6 /64) that asked for it; the answer is the same whether or not the address has an account. Limited per source and per email and source (429).",
                        responses: [
                            (
                                "202",
                                .object([
                                    ("description", .string("Sent")),
                                    ("content", .object([("application/json", .object([("schema", object([("sent", boolean)]))]))])),
                                ])
                            )
                        ] + errors([400, 413, 429, 501, 503]),
                        extra: [body(object([("email", string)], required: ["email"])), ("security", .array([]))])
                )
            ])
        ),
        (
            "/v1/auth/email/verify",
            .object([
                (
                    "post",
                    operation(
                        "Sign in (or up) with the code mailed to the address (no token): the first sign-in makes the account; the device gets a token, shown once.",
                        responses: [json(ref("SignedIn"))] + errors([400, 401, 409, 413, 429, 501, 503]),
                        extra: [
                            body(
                                object(
                                    [("email", string), ("code", string), ("device", string), ("name", string)],
                                    required: ["email", "code", "device"])),
                            ("security", .array([])),
                        ])
                )
            ])
        ),
        (
            "/v1/devices",
            .object([
                (
                    "get",
                    operation(
                        "The account's devices in use (tokens not revoked or expired), oldest first; `current` marks the caller's.",
                        responses: [json(object([("devices", array(ref("Device")))]))] + errors([401, 410, 429, 503]))
                ),
                (
                    "post",
                    operation(
                        "Add a device to the caller's account (a `full` token): its token is shown once.",
                        responses: [created(object([("token", string), ("tokenId", string), ("device", string)]))]
                            + errors([400, 401, 403, 409, 410, 413, 429, 503]),
                        extra: [body(object([("device", string)], required: ["device"]))])
                ),
            ])
        ),
        (
            "/v1/devices/{device}",
            .object([
                ("parameters", .array([path("device", "The device's id, as the list gives it.")])),
                (
                    "delete",
                    operation(
                        "Revoke one of the account's devices: it answers 401 from its next request.",
                        responses: [json(object([("revoked", string), ("device", string)]))] + errors([401, 403, 404, 410, 429, 503]))
                ),
            ])
        ),
        (
            "/v1/accounts/{account}/assignments",
            .object([
                ("parameters", .array([account])),
                (
                    "get",
                    operation(
                        "Programs and templates coaches offered this account, with its answers (a coach sees its own offers).",
                        responses: [json(ref("Assignments"))] + errors([401, 403, 410, 414, 429, 431, 503]))
                ),
            ])
        ),
        (
            "/v1/accounts/{account}/progress",
            .object([
                ("parameters", .array([account])),
                (
                    "get",
                    operation(
                        "What a coach watches: compliance with the active program, attention, volume, bodyweight, four weeks, the last session.",
                        responses: [json(ref("Progress"))] + errors([401, 403, 410, 414, 429, 431, 503]))
                ),
            ])
        ),
        (
            "/v1/accounts/{account}/commands",
            .object([
                ("parameters", .array([account])),
                (
                    "post",
                    operation(
                        "Run one command of a workout (the assistant's write tools, the CLI's deciders): the appended positions and the workout after it. "
                            + "A `requestId` sent again appends nothing and answers as the first time.",
                        responses: [json(commandAnswer)] + errors([400, 401, 403, 404, 409, 410, 413, 422, 429, 503]),
                        extra: [body(commandBody)])
                ),
            ])
        ),
    ]

    /// The command API's body: a command's name and its arguments, each command's arguments the schema of its tool
    /// (`AssistantTools.commands`), without the `requestId` and `expectedPosition` that go beside them.
    static var commandBody: J {
        let commands = AssistantTools.commands
        let args: [J] = commands.map { tool in
            guard case .object(let fields) = tool.inputSchema else { return .object([]) }
            return .object(
                fields.map { key, value -> (String, J) in
                    switch (key, value) {
                    case ("properties", .object(let properties)):
                        return (key, .object(properties.filter { $0.0 != "requestId" && $0.0 != "expectedPosition" }))
                    case ("required", .array(let names)):
                        return (key, .array(names.filter { $0 != .string("requestId") && $0 != .string("expectedPosition") }))
                    default: return (key, value)
                    }
                } + [("title", .string(tool.name))])
        }
        return .object([
            ("type", .string("object")),
            (
                "properties",
                .object([
                    ("command", .object([("type", .string("string")), ("enum", .array(commands.map { .string($0.name) }))])),
                    ("args", .object([("anyOf", .array(args))])),
                    ("requestId", .object([("type", .string("string")), ("minLength", .int(1)), ("maxLength", .int(100))])),
                    ("expectedPosition", .object([("type", .string("integer")), ("minimum", .int(0))])),
                ])
            ),
            ("required", .array([.string("command"), .string("requestId")])),
            ("additionalProperties", .bool(false)),
        ])
    }

    /// What a command answers: its request, what it appended and the head after it, and the workout it touched.
    static let commandAnswer: J = object(
        [
            ("requestId", string), ("workoutId", string), ("setId", string), ("measurementId", string),
            ("appended", array(object([("position", integer), ("type", string), ("stream", string)]))),
            ("head", object([("position", integer), ("hash", string)])), ("workout", orNull(ref("Summary"))),
        ], required: ["requestId", "appended"])

    static let document: J = .object([
        ("openapi", .string("3.1.0")),
        (
            "info",
            .object([
                ("title", .string("RepLedger server")), ("version", .string(LedgerRoutes.version)),
                (
                    "description",
                    .string(
                        "Each account's hash-chained workout log, device sync and the CLI's queries over HTTP (docs/SERVER-CONTRACT.md). Every non-2xx answer is {\"error\":{\"code\",\"message\"}}. Limits (each a `ledger serve` flag; docs/OPERATIONS.md and docs/SECURITY.md): a request arrives whole within 60 s (`--request-timeout`); a connection answered before its body arrived (401, 405, 413, 429) is closed, not drained; connections still sending a request share half of `--max-connections` (`--max-reading-connections`), the slowest (fewest bytes a second) closed first; an account's requests in progress are 8 (`--max-requests-per-account`, then 429) and take at most half the blocking workers; live streams are capped per token, per account, per address and in all (429). Published limits, counted by each server process in windows of a minute that begin with a key's (or account's) first request: 600 requests per key (`--key-requests-per-minute`) and 1200 per account, its keys together (`--account-requests-per-minute`); 300 appends per key (`--key-appends-per-minute`: a push, or an assistant's write on /mcp) and 600 per account (`--account-appends-per-minute`). Every authenticated answer carries `RateLimit-Policy` (e.g. `\"requests-key\";q=600;w=60`) and `RateLimit` (`\"requests-key\";r=599;t=42`: remaining, seconds to the window's end); past a limit, `429 tooManyRequests` with `Retry-After`. Keys may be scoped (`ledger server token create --scope read|log|full`): a `read` key appending, or a `log` key appending anything but workouts and body entries, is `403 scope`."
                    )
                ),
            ])
        ),
        ("servers", .array([.object([("url", .string("http://127.0.0.1:8787"))])])),
        ("security", .array([.object([("bearer", .array([]))])])),
        (
            "components",
            .object([
                ("securitySchemes", .object([("bearer", .object([("type", .string("http")), ("scheme", .string("bearer"))]))])),
                (
                    "parameters",
                    .object([
                        ("Account", path("account", "The account id (a UUID).")),
                        ("AsOf", query("asOf", "A global position or an ISO 8601 time: the log as it stood then.")),
                        ("Until", query("until", "A training date (YYYY, YYYY-MM, YYYY-MM-DD or a time).")),
                    ])
                ),
                ("schemas", .object(schemas)),
                (
                    "responses",
                    .object([
                        (
                            "Error",
                            .object([
                                ("description", .string("An error: {\"error\":{\"code\",\"message\"}}")),
                                ("content", .object([("application/json", .object([("schema", ref("Error"))]))])),
                            ])
                        )
                    ])
                ),
            ])
        ),
        ("paths", .object(paths)),
    ])
}
