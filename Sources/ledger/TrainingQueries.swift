import ArgumentParser
import Foundation
import RepLedgerCore
import RepLedgerProjections
import RepLedgerSnapshots

struct HintCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hint", abstract: "What to beat: the last time you did an exercise.",
        discussion: """
        Examples:
          ledger hint "Bench Press (Barbell)"
          ledger hint deadlift --workout last --scope programDay
        """)
    @OptionGroup var global: GlobalOptions
    @OptionGroup var query: QueryOptions
    @Argument(help: "The exercise, by id or name.") var exercise: String
    @Option(help: "The time the hint is for (default: now).") var at: String?
    @Option(help: "Compare with: exercise (any workout) or programDay (same program session).") var scope: String?
    @Option(help: "Take the time and program session from this workout.") var workout: String?

    func run() throws {
        let store = try global.openStore()
        let ledger = Ledger(store: store)
        let rules = try query.ruleSet()
        let x = try ledger.library().resolve(exercise)
        let hintScope = try scope.map { try vocabulary(HintScope.self, "scope", $0) } ?? rules.hintScope
        let time = try answerTime(at: at, asOf: query.asOf.asOf, until: query.training)
        let (hint, unit) = try fromSnapshot(store, exerciseId: x.exerciseId, name: x.name, scope: hintScope, time: time)
            ?? computed(store, exerciseId: x.exerciseId, scope: hintScope, time: time)
        if global.json {
            func set(_ s: LastTimeHintProjection.SetShown) -> JSONValue {
                .object([("weightKg", .optional(s.weightKg)), ("reps", .optional(s.reps))])
            }
            Console.json(.object([
                ("exercise", .string(hint.exercise)), ("exerciseId", .string(hint.exerciseId)),
                ("lastWorkoutId", .optional(hint.lastWorkoutId?.lowercased)), ("date", .optional(hint.date?.iso8601)),
                ("ago", .optional(hint.ago)), ("bestSet", hint.bestSet.map(set) ?? .null), ("sets", .array(hint.sets.map(set))),
            ]))
            return
        }
        guard let date = hint.date, let ago = hint.ago else {
            Console.out("\(hint.exercise): no earlier workout to compare with.")
            return
        }
        Console.out("\(hint.exercise), last time \(ago) (\(date.isoDate)):")
        Console.out("  " + hint.sets.map { WeightText.set(kg: $0.weightKg, reps: $0.reps, in: unit) }.joined(separator: ", "))
        if let best = hint.bestSet { Console.out("  To beat: \(WeightText.set(kg: best.weightKg, reps: best.reps, in: unit))") }
    }
}

extension HintCommand {
    /// The stored hint index answers an `exercise`-scope hint at the head for
    /// any time after the indexed workout started; anything else is computed.
    func fromSnapshot(_ store: SQLiteEventStore, exerciseId: String, name: String, scope: HintScope,
                      time: Timestamp) throws -> (LastTimeHintProjection.Hint, WeightUnit)? {
        guard scope == .exercise, workout == nil, query.mayUseStoredResults else { return nil }
        let head = try store.headPosition()
        guard try query.asOf.position(in: store) >= head else { return nil }
        var ignored: [String] = []
        guard let index = try ViewSnapshots.hintIndex(store, at: head, ignored: &ignored) else {
            if query.verbose { ignored.forEach { Console.error("snapshot ignored: \($0)") } }
            return nil
        }
        let entry = index.first { $0.exerciseId == exerciseId }
        if let entry, entry.startedAt >= time { return nil } // a hint for the past: compute it
        if query.verbose { Console.error("answered from the hint index at #\(head)") }
        let unit = try Ledger(store: store).account().liftingUnit
        return (HintIndexProjection.hint(entry, exerciseId: exerciseId, exercise: name, at: time), unit)
    }

    func computed(_ store: SQLiteEventStore, exerciseId: String, scope: HintScope,
                  time: Timestamp) throws -> (LastTimeHintProjection.Hint, WeightUnit) {
        let log = try query.log(store)
        var context = LastTimeHintProjection.Context(time: time, scope: scope)
        if let workout {
            let id = try Ledger(store: store).resolveWorkout(workout)
            if let w = log.workouts[id] { context = .init(workout: w, scope: scope) }
        }
        // At the head, keep the index for the next query (a cache: failing to write it is no error).
        if query.asOf.asOf == nil, query.mayUseStoredResults, log.position == (try? store.headPosition()) {
            try? ViewSnapshots.saveHintIndex(store, at: log.position, HintIndexProjection.entries(log))
        }
        return (LastTimeHintProjection.hint(log, exerciseId: exerciseId, context: context), log.account.liftingUnit)
    }
}

struct RepCountCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "repcount", abstract: "The \"+N reps\" counter against the previous workout.")
    @OptionGroup var global: GlobalOptions
    @OptionGroup var query: QueryOptions
    @Argument(help: "The workout.") var workout: String
    @Argument(help: "The exercise.") var exercise: String
    @Option(help: "exercise or programDay (default: the rules' hint scope).") var scope: String?

    func run() throws {
        let store = try global.openStore()
        let id = try Ledger(store: store).resolveWorkout(workout)
        let log = try query.log(store)
        let x = try log.library.resolve(exercise)
        let s = try scope.map { try vocabulary(HintScope.self, "scope", $0) } ?? query.ruleSet().hintScope
        let n = RepCounterProjection.excessReps(log, workoutId: id, exerciseId: x.exerciseId, scope: s)
        if global.json { Console.json(.object([("excessReps", .int(Int64(n)))])) } else { Console.out(n > 0 ? "+\(n) reps" : "") }
    }
}

struct PromptCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "prompt", abstract: "The progression prompt (traffic light) for an exercise in a workout.")
    @OptionGroup var global: GlobalOptions
    @OptionGroup var query: QueryOptions
    @Argument(help: "The workout.") var workout: String
    @Argument(help: "The exercise.") var exercise: String
    @Option(help: "The target rep range, MIN-MAX, e.g. 8-12 (default: the range the template or program planned).") var range: String?

    func run() throws {
        let store = try global.openStore()
        let id = try Ledger(store: store).resolveWorkout(workout)
        let log = try query.log(store)
        let x = try log.library.resolve(exercise)
        let planned = log.workouts[id]?.entries.first { $0.exerciseId == x.exerciseId && $0.targetRepsMin != nil }
        let parsed: RepRange
        if let range {
            parsed = try RepRange.parse(range)
        } else if let planned, let lo = planned.targetRepsMin {
            parsed = try RepRange(min: lo, max: planned.targetRepsMax ?? lo)
        } else {
            throw Refusal.invalidProgram("no rep range is planned for \(x.name) in this workout: give --range MIN-MAX, e.g. 8-12")
        }
        let p = ProgressionPromptProjection.evaluate(log, workoutId: id, exerciseId: x.exerciseId, range: parsed)
        if global.json {
            Console.json(.object([
                ("prompt", .optional(p?.kind.rawValue)), ("variant", .optional(p?.variant.rawValue)),
                ("title", .optional(p?.title)), ("message", .optional(p?.message)),
            ]))
        } else if let p {
            let light = ["regression": "🔴", "progression": "🟢", "consistency": "🟠"][p.kind.rawValue] ?? ""
            Console.out("\(light) \(p.title)\n   \(p.message)")
        } else {
            Console.out("No prompt yet: it needs three completed working sets with reps.")
        }
    }
}

struct PRsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "prs", abstract: "Personal records per exercise.",
        discussion: """
        Examples:
          ledger prs
          ledger prs "Squat (Barbell)" --timeline
          ledger prs --until 2023-01-31       # as of a training date
          ledger prs --as-of 1200             # as the log stood at position 1200
        """)
    @OptionGroup var global: GlobalOptions
    @OptionGroup var query: QueryOptions
    @Argument(help: "Only this exercise.") var exercise: String?
    @Flag(help: "Show the timeline of records set.") var timeline = false

    func run() throws {
        let store = try global.openStore()
        let ledger = Ledger(store: store)
        let rules = try query.ruleSet()
        let id = try exercise.map { try ledger.library().resolve($0).exerciseId }
        let all = try allRecords(store, rules: rules)
        let records = id.map { id in all.filter { $0.exerciseId == id } } ?? all
        if global.json {
            Console.json(.object([("exercises", .array(records.map { Self.json($0, timeline: timeline) }))]))
            return
        }
        let unit = try ledger.account().liftingUnit
        guard !records.isEmpty else { Console.out("No records yet."); return }
        let lifted = records.filter { $0.heaviestKg != nil || $0.bestSessionVolumeKg != nil }
        if !lifted.isEmpty {
            Console.table(["Exercise", "Heaviest", "Best e1RM", "Best set", "Best session", "5RM"], lifted.map { r in
                [r.exercise, WeightText.value(kg: r.heaviestKg, in: unit), WeightText.value(kg: r.bestE1rmKg, in: unit),
                 WeightText.value(kg: r.bestSetVolumeKg, in: unit), WeightText.value(kg: r.bestSessionVolumeKg, in: unit),
                 WeightText.value(kg: r.repMaxesKg[5], in: unit)]
            }, rightAligned: [1, 2, 3, 4, 5])
        }
        let timed = records.filter { $0.longestDistanceMeters != nil || $0.longestDurationSeconds != nil || $0.longestHoldSeconds != nil }
        if !timed.isEmpty {
            if !lifted.isEmpty { Console.out("") }
            Console.table(["Exercise", "Longest distance", "Longest duration", "Best pace", "Longest hold"], timed.map { r in
                [r.exercise, RecordText.optional(.longestDistance, r.longestDistanceMeters, in: unit),
                 RecordText.optional(.longestDuration, r.longestDurationSeconds, in: unit),
                 RecordText.optional(.bestPace, r.bestPaceSecondsPerKm, in: unit), RecordText.optional(.longestHold, r.longestHoldSeconds, in: unit)]
            }, rightAligned: [1, 2, 3, 4])
        }
        if timeline {
            for r in records {
                Console.out("\n\(r.exercise)")
                for e in r.timeline {
                    let what = RecordText.label(e.kind, repMax: e.repMax)
                    Console.out("  \(e.at.isoDate)  \(what.padding(toLength: 16, withPad: " ", startingAt: 0)) \(RecordText.value(e.kind, e.value, in: unit))")
                }
            }
        }
    }

    /// Every exercise's records at --as-of: from a stored result for exactly that
    /// position and these rules, else from the newest records milestone before
    /// it carried forward, else computed from the fold (and stored when at the
    /// head). Stored results hold the bests only; `--timeline` reads the fold.
    func allRecords(_ store: SQLiteEventStore, rules: RuleSet) throws -> [PersonalRecordsProjection.ExerciseRecords] {
        if timeline { return PersonalRecordsProjection.compute(try query.log(store), rules: rules) }
        if !query.mayUseStoredResults { return PersonalRecordsProjection.compute(try query.log(store), rules: rules, timeline: false) }
        let target = min(try query.asOf.position(in: store), try store.headPosition())
        var ignored: [String] = []
        if let stored = try ViewSnapshots.records(store, rules: rules, at: target, ignored: &ignored) {
            if query.verbose { Console.error("answered from the records snapshot at #\(target)") }
            return stored
        }
        if let carried = try RecordsMilestones.records(store, rules: rules, through: target, ignored: &ignored) {
            if query.verbose {
                Console.error("answered from the records milestone at #\(carried.milestone.position) plus \(carried.tailEvents) events")
            }
            if query.asOf.asOf == nil { try? ViewSnapshots.saveRecords(store, rules: rules, at: target, carried.records) }
            return carried.records
        }
        if query.verbose { ignored.forEach { Console.error("snapshot ignored: \($0)") } }
        let log = try query.log(store)
        let records = PersonalRecordsProjection.compute(log, rules: rules, timeline: false)
        if query.asOf.asOf == nil { try? ViewSnapshots.saveRecords(store, rules: rules, at: log.position, records) }
        return records
    }

    /// The contract's keys; the timeline (every record ever set) only when asked for.
    static func json(_ r: PersonalRecordsProjection.ExerciseRecords, timeline: Bool) -> JSONValue {
        .object([
            ("exercise", .string(r.exercise)), ("exerciseId", .string(r.exerciseId)),
            ("heaviestKg", .optional(r.heaviestKg)), ("bestE1rmKg", .optional(r.bestE1rmKg)),
            ("bestSetVolumeKg", .optional(r.bestSetVolumeKg)), ("bestSessionVolumeKg", .optional(r.bestSessionVolumeKg)),
            ("repMaxesKg", .object(PersonalRecordsProjection.repMaxRange.map { ("\($0)", .optional(r.repMaxesKg[$0])) })),
            ("longestDistanceMeters", .optional(r.longestDistanceMeters)), ("longestDurationSeconds", .optional(r.longestDurationSeconds)),
            ("bestPaceSecondsPerKm", .optional(r.bestPaceSecondsPerKm)), ("longestHoldSeconds", .optional(r.longestHoldSeconds)),
        ] + (timeline ? [("timeline", .array(r.timeline.map(recordJSON)))] : []))
    }

    static func recordJSON(_ e: PersonalRecordsProjection.Record) -> JSONValue { .object(recordPairs(e)) }

    static func recordPairs(_ e: PersonalRecordsProjection.Record) -> [(String, JSONValue)] {
        [
            ("kind", .string(e.kind.rawValue)), ("repMax", .optional(e.repMax)),
            ("valueKg", e.kind.unit == "kg" ? .number(e.value) : .null), ("value", .number(e.value)), ("unit", .string(e.kind.unit)),
            ("weightKg", .optional(e.weightKg)), ("reps", .optional(e.reps)), ("workoutId", .string(e.workoutId.lowercased)),
            ("setId", .optional(e.setId?.lowercased)), ("at", .string(e.at.iso8601)),
        ]
    }
}

struct E1RMCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "e1rm", abstract: "Estimated one-rep max over time.")
    @OptionGroup var global: GlobalOptions
    @OptionGroup var query: QueryOptions
    @Argument(help: "The exercise.") var exercise: String
    @Option(help: "epley, brzycki, lombardi, mayhew, oconner, wathan or lander (default: the rules').") var formula: String?

    func run() throws {
        var rules = try query.ruleSet()
        if let formula { rules.e1rmFormula = try vocabulary(E1RMFormula.self, "formula", formula) }
        let store = try global.openStore()
        let log = try query.log(store)
        let x = try log.library.resolve(exercise)
        let window = ChartWindow.forPlan(log, at: try answerTime(at: nil, asOf: query.asOf.asOf, until: query.training))
        let points = E1RMTrendProjection.points(window?.apply(to: log) ?? log, exerciseId: x.exerciseId, rules: rules)
        if global.json {
            Console.json(.object([
                ("exercise", .string(x.name)), ("exerciseId", .string(x.exerciseId)), ("formula", .string(rules.e1rmFormula.rawValue)),
                ("chartWindow", ChartWindowJSON.json(window)), ("upsell", .optional(window?.upsell)),
                ("points", .array(points.map { p in
                    .object([("workoutId", .string(p.workoutId.lowercased)), ("date", .string(p.date.iso8601)),
                             ("e1rmKg", .number(p.e1rmKg)), ("weightKg", .number(p.weightKg)), ("reps", .int(Int64(p.reps)))])
                })),
                ("weeks", .array(E1RMTrendProjection.weeks(points).map { .object([("week", .string($0.week)), ("e1rmKg", .number($0.e1rmKg))]) })),
            ]))
            return
        }
        defer { if let window { Console.out(window.upsell) } }
        guard !points.isEmpty else { Console.out("\(x.name): no sets to estimate from \(window == nil ? "yet" : "in this window")."); return }
        let unit = log.account.liftingUnit
        Console.out("\(x.name): e1RM by workout (\(rules.e1rmFormula.rawValue))")
        let bars = TerminalChart.bars(points.map(\.e1rmKg))
        for (p, bar) in zip(points, bars) {
            let value = WeightText.show(kg: p.e1rmKg, in: unit)
            Console.out("  \(p.date.isoDate)  \(value.padding(toLength: 10, withPad: " ", startingAt: 0)) \(bar)  \(WeightText.set(kg: p.weightKg, reps: p.reps, in: unit))")
        }
    }
}

struct VolumeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "volume", abstract: "Sets and tonnage by workout, week, muscle or exercise.")
    @OptionGroup var global: GlobalOptions
    @OptionGroup var query: QueryOptions
    @Option(help: "workout, week, muscle or exercise.") var by = "week"

    func run() throws {
        let grouping = try vocabulary(VolumeProjection.Grouping.self, "grouping", by)
        let store = try global.openStore()
        let log = try query.log(store)
        let window = ChartWindow.forPlan(log, at: try answerTime(at: nil, asOf: query.asOf.asOf, until: query.training))
        let rows = VolumeProjection.rows(window?.apply(to: log) ?? log, by: grouping, rules: try query.ruleSet())
        if global.json {
            Console.json(.object([("by", .string(grouping.rawValue)), ("chartWindow", ChartWindowJSON.json(window)),
                                  ("upsell", .optional(window?.upsell)), ("rows", .array(rows.map { r in
                .object([("key", .string(r.key)), ("label", .string(r.label)), ("sets", .int(Int64(r.sets))),
                         ("tonnageKg", .number(r.tonnageKg)), ("secondarySets", .int(Int64(r.secondarySets)))])
            }))]))
            return
        }
        let unit = log.account.liftingUnit
        var header = [grouping.rawValue.capitalized, "Sets", "Tonnage"]
        if grouping == .muscle { header.append("Secondary sets") }
        Console.table(header, rows.map { r in
            [r.label, "\(r.sets)", WeightText.show(kg: r.tonnageKg, in: unit)] + (grouping == .muscle ? ["\(r.secondarySets)"] : [])
        }, rightAligned: [1, 2, 3])
        if let window { Console.out(window.upsell) }
    }
}
