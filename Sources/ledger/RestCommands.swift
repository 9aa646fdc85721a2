import ArgumentParser
import LedgerShell
import RepLedgerCore
import RepLedgerQueries

extension WorkoutCommand {
    /// `workout rest W start [DURATION]|+15s|-15s|dismiss`: the rest timer of a workout in progress.
    struct Rest: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rest",
            abstract: "The rest timer → {\"workoutId\",\"rest\"}: start it, give or take seconds, pause, resume or dismiss it.",
            discussion: """
                start counts the rest after your last set (its exercise's rest, see `settings rest`) or the \
                length you give; +15s and -15s change the rest counting down; pause holds it and resume \
                counts on from where it stopped (the held time is not rest taken); dismiss ends it (you start the \
                next set now). `workout show` shows the time left; `workout summary` the rest planned and taken.

                Examples:
                  ledger workout rest last start
                  ledger workout rest last start 2m
                  ledger workout rest last +15s
                  ledger workout rest last -15s
                  ledger workout rest last pause
                  ledger workout rest last resume
                  ledger workout rest last dismiss
                """)
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The workout.") var workout: String
        // All unrecognised words, so `-15s` is read as the action rather than as an option.
        @Argument(parsing: .allUnrecognized, help: "start [LENGTH] (e.g. 90, 2m, 1:30), +SECONDS, -SECONDS, pause, resume or dismiss.")
        var words: [String] = []
        @OptionGroup var at: AtOption

        enum Action {
            case start(Int?)
            case adjust(Int)
            case dismiss
            case pause
            case resume
        }

        func parsed() throws -> Action {
            guard let action = words.first, words.count <= 2 else {
                throw ValidationError("give start [LENGTH], +15s, -15s, pause, resume or dismiss, e.g. `ledger workout rest last +15s`")
            }
            let length = words.count == 2 ? words[1] : nil
            switch action.lowercased() {
            case "start":
                return .start(try length.map { Int(try Measure.seconds($0).rounded()) })
            case "dismiss", "skip", "stop":
                guard length == nil else { throw ValidationError("dismiss takes no length") }
                return .dismiss
            case "pause", "hold":
                guard length == nil else { throw ValidationError("pause takes no length") }
                return .pause
            case "resume":
                guard length == nil else { throw ValidationError("resume takes no length") }
                return .resume
            default:
                guard length == nil, let sign = action.first, sign == "+" || sign == "-" || sign == "−" else {
                    throw ValidationError("give start [LENGTH], +15s, -15s, pause, resume or dismiss, e.g. `ledger workout rest last +15s`")
                }
                let seconds = Int(try Measure.seconds(String(action.dropFirst())).rounded())
                return .adjust(sign == "+" ? seconds : -seconds)
            }
        }

        func run() throws {
            let what = try parsed()
            let ledger = try global.openLedger()
            let id = try ledger.resolveWorkout(workout)
            let time = try at.time()
            try ledger.execute(at: time) { session in
                switch what {
                case .start(let seconds): try session.startRest(id, seconds: seconds)
                case .adjust(let delta): try session.adjustRest(id, by: delta)
                case .dismiss: try session.dismissRest(id)
                case .pause: try session.pauseRest(id)
                case .resume: try session.resumeRest(id)
                }
            }
            let rest = try ledger.workout(id).rests.last
            let human: String
            switch what {
            case .dismiss: human = "Rest dismissed"
            case .pause: human = "Rest paused with \(Measure.clock(Double(rest?.secondsLeft(at: time ?? .now()) ?? 0))) left"
            case .resume: human = "Resting \(Measure.clock(Double(rest?.secondsLeft(at: time ?? .now()) ?? 0))) more"
            case .start, .adjust: human = "Resting \(Measure.clock(Double(rest?.plannedSeconds ?? 0)))"
            }
            if global.json {
                let state: JSONValue =
                    rest.map { r in
                        .object([
                            ("plannedSeconds", .int(Int64(r.plannedSeconds))), ("startedAt", .string(r.startedAt.iso8601)),
                            ("endsAt", .string(r.endsAt.iso8601)), ("dismissedAt", .optional(r.dismissedAt?.iso8601)),
                            ("paused", .bool(r.isPaused)), ("pausedSeconds", .int(r.pausedMillis / 1000)),
                        ])
                    } ?? .null
                Console.json(.object([("workoutId", .string(id.lowercased)), ("rest", state)]))
            } else {
                Console.out(human)
            }
        }
    }
}

extension SettingsCommand {
    /// `settings rest [DURATION] [--exercise X] [--auto on|off]`.
    struct Rest: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rest",
            abstract: "Your rest between sets → {\"restSeconds\",\"autoStart\",\"exercises\"}: the default, an exercise's own, auto-start.",
            discussion: """
                Without arguments, shows them. A workout from a program rests as the program says; otherwise an \
                exercise's own rest, else the default. With auto-start on, logging or completing a set starts \
                its rest (in a superset, only after the group's last exercise). 0 for an exercise removes its own rest.

                Examples:
                  ledger settings rest 90s
                  ledger settings rest 3m --exercise "Squat (Barbell)"
                  ledger settings rest --auto on
                """)
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The rest, e.g. 90, 90s, 2m or 1:30.") var length: String?
        @Option(help: "Only this exercise's rest.") var exercise: String?
        @Option(help: "Start the timer after each completed set: on or off.") var auto: String?
        @OptionGroup var at: AtOption

        func run() throws {
            if exercise != nil, length == nil {
                throw Refusal.invalidMeasure("--exercise without a rest", reason: "give the exercise's rest, e.g. 3m (0 removes it)")
            }
            guard length != nil || auto != nil else {
                return show((try? global.openReadOnly()).map { Ledger(store: $0) }, fallback: AccountState())
            }
            let autoStart = try auto.map { try onOff($0, "auto-start") }
            let seconds = try length.map { Int(try Measure.seconds($0).rounded()) }
            let ledger = try global.openLedger()
            let changed = try settle(ledger, at: try at.time()) { session in
                // Each part given is recorded if it changes something; only when neither does is it "already so".
                var parts = 0
                if let seconds {
                    do {
                        try session.setRest(seconds: seconds, exercise: exercise)
                        parts += 1
                    } catch Refusal.nothingToChange {}
                }
                if let autoStart {
                    do {
                        try session.setRestAutoStart(autoStart)
                        parts += 1
                    } catch Refusal.nothingToChange {}
                }
                if parts == 0 { throw Refusal.nothingToChange }
            }
            show(ledger, fallback: AccountState(), changed: changed)
        }

        /// The rests; after a change, whether it changed anything (`changed` in JSON, "Already so" for a person).
        func show(_ ledger: Ledger?, fallback: AccountState, changed: Bool? = nil) {
            let a = RestSettingsQuery.answer(
                account: (try? ledger?.account()) ?? fallback, library: (try? ledger?.library()) ?? LibraryState(), changed: changed)
            if global.json { return Console.json(RestSettingsQuery.document(a)) }
            Console.out(
                (changed == false ? "Already so: " : "")
                    + "Rest \(Measure.clock(Double(a.restSeconds))) between sets; auto-start \(a.autoStart ? "on" : "off")")
            for r in a.exercises { Console.out("  \(r.name): \(Measure.clock(Double(r.seconds)))") }
        }
    }
}
