import Foundation
import RepLedgerCore
import RepLedgerProjections

/// The write tools. Each is safe to retry and never lands on a log that moved under the assistant:
///
/// - `requestId` names the request's ids: its events get ids derived from it, so a request sent
///   again finds what its first attempt stored and answers that, appending nothing;
/// - `expectedPosition` must be the head: if the lifter (or anyone) appended since, nothing is
///   appended and the refusal lists what was, so the assistant reads again instead of overwriting.
///
/// Both checks and the append are one write transaction of the log.
enum AssistantWrites {
    /// The events a request appended, found again by their derived ids.
    static func stored(_ name: String, in store: any EventStore) throws -> [EventEnvelope] {
        var events: [EventEnvelope] = []
        while let e = try store.event(id: IdentifierSource.eventId(derivedFrom: name, events.count)) { events.append(e) }
        return events
    }

    /// The answer of a write: built from what the request stored, so a retry answers the same.
    static func document(requestId: String, _ events: [EventEnvelope]) -> JSONValue {
        var fields: [(String, JSONValue)] = [("requestId", .string(requestId))]
        if let w = events.lazy.compactMap(\.event.workoutId).first { fields.append(("workoutId", .string(w.lowercased))) }
        // The set the request made or changed: a moved set's new id, not the one its deletion names.
        let kept = events.lazy.filter { if case .setDeleted = $0.event { return false } else { return true } }.compactMap(\.event.setId).first
        if let s = kept ?? events.lazy.compactMap(\.event.setId).first { fields.append(("setId", .string(s.lowercased))) }
        for e in events {
            if case .bodyweightMeasured(let m) = e.event { fields.append(("measurementId", .string(m.measurementId.lowercased))) }
            if case .templateCreated(let t) = e.event { fields.append(("templateId", .string(t.templateId.lowercased))) }
        }
        fields.append(
            (
                "appended",
                .array(
                    events.map { .object([("position", .int($0.position)), ("type", .string($0.type.name)), ("stream", .string($0.stream.raw))]) })
            ))
        if let last = events.last { fields.append(("head", .object([("position", .int(last.position)), ("hash", .string(last.hash.hex))]))) }
        return .object(fields)
    }

    /// `positionRequired`: an assistant must say the head it read; the command API's callers (an app's outbox sending
    /// what was recorded offline) may leave it out, and the deciders' own checks then stand alone.
    static func call(_ name: String, _ a: AssistantArguments, on host: any AssistantLedger, positionRequired: Bool = true) throws -> JSONValue {
        let expected = try a.int("expectedPosition", in: 0...Int64.max)
        if positionRequired, expected == nil {
            throw AssistantError.invalidArgument("expectedPosition", "is required: the head position you last read")
        }
        let requestId = try a.required("requestId", maxLength: 100)
        let record = try recorder(name, a)
        let idName = "assistant-request:" + requestId
        let fingerprint = Self.fingerprint(name, a)
        let (answer, appended) = try host.withLedger { ledger in
            try ledger.store.writeTransaction { () throws -> (JSONValue, Bool) in
                let earlier = try stored(idName, in: ledger.store)
                if let first = earlier.first {
                    // The same request again answers as the first time; the same id for another request is refused.
                    // (Events stored before requests carried their fingerprint have the command as their correlation.)
                    guard first.correlationId == fingerprint || first.correlationId == first.causationId else {
                        throw AssistantError.requestIdReused(requestId)
                    }
                    return (document(requestId: requestId, earlier), false)
                }
                if let expected {
                    let head = try ledger.store.headPosition()
                    guard expected <= head else { throw AssistantError.invalidArgument("expectedPosition", "is past the head (\(head))") }
                    guard expected == head else {
                        throw AssistantError.staleHead(expected: expected, head: head, since: try since(expected, head: head, in: ledger.store))
                    }
                }
                let (kept, keptCorrelation) = (ledger.ids, ledger.correlationId)
                ledger.ids = .derived(from: idName)
                ledger.correlationId = fingerprint
                defer { (ledger.ids, ledger.correlationId) = (kept, keptCorrelation) }
                try record(ledger)
                let events = try stored(idName, in: ledger.store)
                return (document(requestId: requestId, events), !events.isEmpty)
            }
        }
        if appended { host.appended() }
        return answer
    }

    /// The request's command and arguments as an id: its events carry it as their correlation, so the same
    /// `requestId` sent with anything else is told apart from a retry. The head it was sent at is left out: a retry
    /// may have read a newer one.
    static func fingerprint(_ name: String, _ a: AssistantArguments) -> UUID {
        let arguments = a.values.filter { $0.key != "expectedPosition" }.sorted { $0.key < $1.key }
        return UUID.derived(from: "request/\(name)/" + arguments.map { "\($0.key)=\($0.value.rendered)" }.joined(separator: "\u{0}"))
    }

    /// What was appended after `expected`: the newest 50 at most.
    static func since(_ expected: Int64, head: Int64, in store: any EventStore) throws -> [AssistantError.LoggedSince] {
        var out: [AssistantError.LoggedSince] = []
        try store.read(EventQuery(from: max(expected + 1, head - 49))) { e in
            out.append(.init(position: e.position, type: e.type.name, stream: e.stream.raw, device: e.device, occurredAt: e.occurredAt))
        }
        return out
    }

    /// The tool's command, its arguments read and checked before the log is touched.
    static func recorder(_ name: String, _ a: AssistantArguments) throws -> (Ledger) throws -> Void {
        let workoutRef = try a.string("workout", maxLength: 40) ?? "last"
        func metrics() throws -> SetMetrics {
            SetMetrics(
                weight: try a.weight(in: 0...1000), reps: try a.int("reps", in: 0...1000).map(Int.init),
                rpe: try a.number("rpe", in: 1...10), durationSeconds: try a.number("durationSeconds", in: 0...86_400),
                distanceMeters: try a.number("distanceMeters", in: 0...1_000_000))
        }
        let rir = try a.number("rir", in: 0...9)
        let type = try a.choice("type", ["normal", "warmup", "drop", "failure"]).map { try SetType.parse($0) }
        switch name {
        case "start_workout":
            let name = try a.string("name"), template = try a.string("template"), program = try a.string("program")
            let day = try a.int("day", in: 1...14).map(Int.init), repeatLast = try a.bool("repeatLast") ?? false
            if (program == nil) != (day == nil) {
                throw AssistantError.invalidArgument(program == nil ? "program" : "day", "goes with \(program == nil ? "day" : "program")")
            }
            if [template != nil, program != nil, repeatLast].filter({ $0 }).count > 1 {
                throw AssistantError.invalidArgument("template", "give one of template, program and repeatLast")
            }
            return { ledger in
                try ledger.checkNoWorkoutInProgress()
                if let program, let day {
                    _ = try ledger.startProgramDay(program: program, day: day, name: name)
                } else if repeatLast {
                    _ = try ledger.repeatLastWorkout(name: name)
                } else if let template {
                    _ = try ledger.startWorkout(template: template, name: name)
                } else {
                    _ = try ledger.execute { try $0.startWorkout(name: name ?? "") }
                }
            }
        case "log_set":
            let exercise = try a.required("exercise"), m = try metrics(), notes = try a.string("notes")
            guard m.reps != nil || m.durationSeconds != nil || m.distanceMeters != nil else {
                throw AssistantError.invalidArgument("reps", "is required (or durationSeconds, or distanceMeters, as the exercise measures)")
            }
            return { ledger in
                let id = try ledger.resolveWorkout(workoutRef)
                _ = try ledger.execute {
                    try $0.logTypedSet(id, exercise: exercise, type: type ?? .normal, metrics: m, notes: notes, timeGiven: false) { session, setId in
                        try session.recordEffort(id, setId: setId, rpe: m.rpe, rir: rir, tempo: nil)
                    }
                }
            }
        case "edit_set":
            let set = try a.required("set", maxLength: 40), m = try metrics(), notes = try a.string("notes")
            return { ledger in
                let id = try ledger.resolveWorkout(workoutRef)
                _ = try ledger.execute { try $0.editSet(id, set: set, type: type, changes: m, notes: notes) }
            }
        case "finish_workout":
            let feeling = try a.int("feeling", in: 1...5).map(Int.init), note = try a.string("note", maxLength: 1000)
            return { ledger in
                let id = try ledger.resolveWorkout(workoutRef)
                try ledger.execute { session in
                    try session.finishWorkout(id, timeGiven: false)
                    if feeling != nil || note != nil { try session.recordFeeling(id, feeling: feeling, note: note) }
                }
            }
        case "add_note":
            let text = try a.required("text", maxLength: 1000), exercise = try a.string("exercise")
            return { ledger in
                let id = try ledger.resolveWorkout(workoutRef)
                try ledger.execute { try $0.setNote(id, exercise: exercise, text: text) }
            }
        case "log_bodyweight":
            guard let weight = try a.weight(in: 20...400) else { throw AssistantError.invalidArgument("weightKg", "or weightLb is required") }
            return { ledger in _ = try ledger.execute { try $0.logBodyweight(weight) } }
        case "complete_set":
            let set = try a.required("set", maxLength: 40), m = try metrics()
            return { ledger in
                let id = try ledger.resolveWorkout(workoutRef)
                _ = try ledger.execute { session in
                    let setId = try session.completeSet(id, set: set, values: m, timeGiven: false)
                    try session.recordEffort(id, setId: setId, rpe: m.rpe, rir: rir, tempo: nil)
                }
            }
        case "uncomplete_set", "delete_set", "duplicate_set":
            let set = try a.required("set", maxLength: 40)
            return { ledger in
                let id = try ledger.resolveWorkout(workoutRef)
                switch name {
                case "uncomplete_set": try ledger.execute { try $0.uncompleteSet(id, set: set) }
                case "delete_set": try ledger.execute { try $0.deleteSet(id, set: set) }
                default: _ = try ledger.execute { try $0.duplicateSet(id, set: set) }
                }
            }
        case "add_exercise", "remove_exercise":
            let exercise = try a.required("exercise")
            return { ledger in
                let id = try ledger.resolveWorkout(workoutRef)
                if name == "add_exercise" {
                    _ = try ledger.execute { try $0.addExercise(id, exercise: exercise) }
                } else {
                    try ledger.execute { try $0.removeExercise(id, exercise: exercise) }
                }
            }
        case "swap_exercise":
            let from = try a.required("exercise"), to = try a.required("to")
            return { ledger in
                let id = try ledger.resolveWorkout(workoutRef)
                _ = try ledger.execute { try $0.swapExercise(id, from: from, to: to) }
            }
        case "link_superset":
            guard let exercises = try a.strings("exercises", count: 2...10) else { throw AssistantError.invalidArgument("exercises", "is required") }
            return { ledger in
                let id = try ledger.resolveWorkout(workoutRef)
                _ = try ledger.execute { try $0.linkSuperset(id, exercises: exercises) }
            }
        case "rest_timer":
            guard let action = try a.choice("action", ["start", "adjust", "pause", "resume", "dismiss"]) else {
                throw AssistantError.invalidArgument("action", "is required")
            }
            let seconds = try a.int("seconds", in: -600...3600).map(Int.init)
            if action == "start", let s = seconds, s < 1 { throw AssistantError.invalidArgument("seconds", "starts a rest of 1 second or more") }
            if action == "adjust", seconds == nil { throw AssistantError.invalidArgument("seconds", "is required to adjust the rest") }
            return { ledger in
                let id = try ledger.resolveWorkout(workoutRef)
                try ledger.execute { session in
                    switch action {
                    case "start": _ = try session.startRest(id, seconds: seconds)
                    case "adjust": try session.adjustRest(id, by: seconds ?? 0)
                    case "pause": try session.pauseRest(id)
                    case "resume": try session.resumeRest(id)
                    default: try session.dismissRest(id)
                    }
                }
            }
        case "discard_workout":
            return { ledger in
                let id = try ledger.resolveWorkout(workoutRef)
                try ledger.execute { try $0.discardWorkout(id) }
            }
        case "plan_warmup":
            let exercise = try a.required("exercise"), working = try a.weight(in: 0...1000)
            let scheme = try a.choice("scheme", WarmupScheme.known.map(\.name)).map { try WarmupScheme.named($0) } ?? RuleSet.default.warmupScheme
            return { ledger in
                let id = try ledger.resolveWorkout(workoutRef)
                _ = try ledger.execute {
                    try $0.planWarmup(
                        id, exercise: exercise, scheme: scheme, working: working,
                        increments: (RuleSet.default.incrementKg, RuleSet.default.incrementLb))
                }
            }
        case "reorder_exercises":
            guard let exercises = try a.strings("exercises", count: 1...50) else { throw AssistantError.invalidArgument("exercises", "is required") }
            return { ledger in
                let id = try ledger.resolveWorkout(workoutRef)
                try ledger.execute { try $0.reorderExercises(id, exercises: exercises) }
            }
        case "move_set":
            let set = try a.required("set", maxLength: 40), exercise = try a.required("exercise")
            return { ledger in
                let id = try ledger.resolveWorkout(workoutRef)
                _ = try ledger.execute { try $0.moveSet(id, set: set, toExercise: exercise) }
            }
        case "unlink_superset":
            let exercise = try a.required("exercise")
            return { ledger in
                let id = try ledger.resolveWorkout(workoutRef)
                try ledger.execute { try $0.unlinkSuperset(id, exercise: exercise) }
            }
        case "pause_workout":
            guard let action = try a.choice("action", ["pause", "resume"]) else { throw AssistantError.invalidArgument("action", "is required") }
            return { ledger in
                let id = try ledger.resolveWorkout(workoutRef)
                try ledger.execute { action == "pause" ? try $0.pauseWorkout(id) : try $0.resumeWorkout(id) }
            }
        case "change_settings":
            let unit = try a.choice("unit", ["kg", "lb"]).map { try vocabulary(WeightUnit.self, "unit", $0) }
            let bar = try a.number("bar", in: 0...100), plates = try a.numbers("plates", count: 1...20, in: 0.1...100)
            let rest = try a.int("restSeconds", in: 10...3600).map(Int.init)
            if bar != nil, plates == nil { throw AssistantError.invalidArgument("bar", "goes with plates") }
            if unit == nil, plates == nil, rest == nil { throw AssistantError.invalidArgument("unit", "give unit, plates or restSeconds") }
            return { ledger in
                // One command, each setting changed only if it differs (a setting already so is no refusal: the
                // same form saved twice appends nothing), in one append.
                try ledger.execute { session in
                    func settle(_ change: (inout CommandSession) throws -> Void) throws {
                        do { try change(&session) } catch Refusal.nothingToChange {}
                    }
                    if let unit { try settle { try $0.setLiftingUnit(unit) } }
                    if let plates {
                        // The bar and plates are in the lifting unit, the one just chosen if any.
                        let inUnit = unit ?? session.account.liftingUnit
                        try settle { try $0.setPlateInventory(unit: inUnit, bar: bar ?? PlateLoading.defaultBar(inUnit), plates: plates) }
                    }
                    if let rest { try settle { try $0.setRest(seconds: rest) } }
                }
            }
        case "save_template":
            let name = try a.string("name")
            return { ledger in
                let id = try ledger.resolveWorkout(workoutRef)
                _ = try ledger.execute { try $0.createTemplate(fromWorkout: id, name: name) }
            }
        default:
            throw AssistantError.unknownTool(name)
        }
    }
}
