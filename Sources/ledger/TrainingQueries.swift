import ArgumentParser
import Foundation
import LedgerShell
import RepLedgerCore
import RepLedgerProjections
import RepLedgerQueries
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
    @Option(
        help:
            "Compare with: exercise (any workout), programDay (same program session) or auto (the default: programDay inside a program workout, else exercise)."
    ) var scope: String?
    @Option(help: "Take the time and program session from this workout.") var workout: String?

    func run() throws {
        let store = try global.openStore()
        let a = try HintQuery.answer(store, try query.scope(), exercise: exercise, at: at, hintScope: scope, workout: workout)
        if global.json { Console.json(HintQuery.document(a)); return }
        let hint = a.hint
        guard let date = hint.date, let ago = hint.ago else {
            Console.out("\(hint.exercise): no earlier workout to compare with.")
            return
        }
        Console.out("\(hint.exercise), last time \(ago) (\(date.isoDate)):")
        Console.out("  " + hint.sets.map { WeightText.set(kg: $0.weightKg, reps: $0.reps, in: a.unit) }.joined(separator: ", "))
        if let best = hint.bestSet { Console.out("  To beat: \(WeightText.set(kg: best.weightKg, reps: best.reps, in: a.unit))") }
    }
}

struct RepCountCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "repcount", abstract: "The \"+N reps\" counter against the previous workout.")
    @OptionGroup var global: GlobalOptions
    @OptionGroup var query: QueryOptions
    @Argument(help: "The workout.") var workout: String
    @Argument(help: "The exercise.") var exercise: String
    @Option(help: "exercise, programDay or auto (default: the rules' hint scope, auto unless changed).") var scope: String?

    func run() throws {
        let a = try RepCountQuery.answer(try global.openStore(), try query.scope(), workout: workout, exercise: exercise, hintScope: scope)
        if global.json { Console.json(RepCountQuery.document(a)); return }
        guard let previous = a.previous else {
            Console.out("Nothing to beat yet: no earlier workout of \(a.exercise) to count against.")
            return
        }
        let when = previous.startedAt.map { " (\($0.isoDate))" } ?? ""
        Console.out(
            a.excessReps > 0
                ? "+\(a.excessReps) reps over last time\(when)"
                : "+0 reps: no set has gone past last time's\(when) yet.")
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
        let p = try PromptQuery.answer(try global.openStore(), try query.scope(), workout: workout, exercise: exercise, range: range)
        if global.json {
            Console.json(PromptQuery.document(p))
        } else if let p {
            let light = ["regression": "🔴", "progression": "🟢", "consistency": "🟠"][p.kind.rawValue] ?? ""
            let reps = p.reps.map(String.init).joined(separator: ", ")
            Console.out("\(light) \(p.headline)\n   \(p.explanation) (sets \(reps) against \(p.range)).\n   \(p.title) \(p.message)")
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
        let records = try RecordsQuery.records(store, try query.scope(), exercise: exercise, timeline: timeline)
        if global.json { Console.json(RecordsQuery.document(records, timeline: timeline)); return }
        let account = try Ledger(store: store).account()
        let (unit, distance) = (account.liftingUnit, account.distanceUnit)
        guard !records.isEmpty else { Console.out("No records yet."); return }
        let lifted = records.filter { $0.heaviestKg != nil || $0.bestSessionVolumeKg != nil }
        // An e1RM below the heaviest weight comes from a lighter set: the heavy ones had more reps than the rule counts.
        let fromLighter = Set(
            lifted.filter { r in r.heaviestKg.map { h in !r.assisted && h > 0 && (r.bestE1rmKg ?? 0) < h } ?? false }.map(\.exercise))
        if !lifted.isEmpty {
            Console.table(
                ["Exercise", "Heaviest", "Best e1RM", "Best set volume", "Best session volume", "5RM"],
                lifted.map { r in
                    [
                        // An assisted exercise's best is its least help: "40 lb assist".
                        r.exercise, WeightText.value(kg: r.heaviestKg, in: unit) + (r.assisted && r.heaviestKg != nil ? " assist" : ""),
                        WeightText.value(kg: r.bestE1rmKg, in: unit) + (fromLighter.contains(r.exercise) ? " *" : ""),
                        WeightText.value(kg: r.bestSetVolumeKg, in: unit), WeightText.value(kg: r.bestSessionVolumeKg, in: unit),
                        WeightText.value(kg: r.repMaxesKg[5], in: unit),
                    ]
                }, rightAligned: [1, 2, 3, 4, 5])
            if !fromLighter.isEmpty {
                let cap = try query.ruleSet().e1rmRepCap
                Console.out(
                    "* e1RM counts sets of 1–\(cap) reps (the rule set's cap): the heaviest sets here had more, so the estimate comes from a lighter set"
                        + " (`ledger why prs EXERCISE` shows which).")
            }
        }
        let timed = records.filter { $0.longestDistanceMeters != nil || $0.longestDurationSeconds != nil || $0.longestHoldSeconds != nil }
        if !timed.isEmpty {
            if !lifted.isEmpty { Console.out("") }
            Console.table(
                ["Exercise", "Longest distance", "Longest duration", "Best pace", "Longest hold"],
                timed.map { r in
                    [
                        r.exercise, RecordText.optional(.longestDistance, r.longestDistanceMeters, in: unit, distance: distance),
                        RecordText.optional(.longestDuration, r.longestDurationSeconds, in: unit),
                        RecordText.optional(.bestPace, r.bestPaceSecondsPerKm, in: unit, distance: distance),
                        RecordText.optional(.longestHold, r.longestHoldSeconds, in: unit),
                    ]
                }, rightAligned: [1, 2, 3, 4])
        }
        if timeline {
            // One line per set that set records: the set, then what it set, rep maxes folded ("1RM–8RM").
            for r in records {
                Console.out("\n\(r.exercise)")
                for line in RecordsQuery.timelineLines(r.timeline) {
                    var set = line.setId.map { "set \($0.lowercased.prefix(8))" } ?? "workout \(line.workoutId.lowercased.prefix(8))"
                    if let kg = line.weightKg, let reps = line.reps { set = "\(WeightText.show(kg: kg, in: unit)) × \(reps)  \(set)" }
                    var what = line.records.map { x in
                        let label = r.assisted && x.kind == .heaviest ? "least assistance" : RecordText.label(x.kind, repMax: x.repMax)
                        return "\(label) \(RecordText.value(x.kind, x.value, in: unit, distance: distance))"
                    }
                    if let folded = RecordLabel.repMaxes(line.repMaxes) { what.append(folded) }
                    Console.out("  \(line.at.isoDate)  \(set): \(what.joined(separator: " · "))")
                }
            }
        }
    }
}

struct E1RMCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "e1rm", abstract: "Estimated one-rep max over time.")
    @OptionGroup var global: GlobalOptions
    @OptionGroup var query: QueryOptions
    @Argument(help: "The exercise.") var exercise: String
    @Option(help: "epley, brzycki, lombardi, mayhew, oconner, wathan, lander or rpe-table (default: the rules').") var formula: String?

    func run() throws {
        let a = try E1RMQuery.answer(try global.openStore(), try query.scope(), exercise: exercise, formula: formula)
        if global.json { Console.json(E1RMQuery.document(a)); return }
        let (x, window, points, unit) = (a.exercise, a.window, a.points, a.unit)
        guard !points.isEmpty else {
            guard let window else { Console.out("\(x.name): no sets to estimate from yet."); return }
            var line =
                "\(x.name): no sets in Free's chart window, the \(ChartWindow.freeDays) days \(window.from.isoDate) to \(window.through.isoDate)."
            if let h = a.history {
                line +=
                    " Your history of it runs \(h.from.isoDate) to \(h.through.isoDate) (\(counted(h.workouts, "workout"))): all-time charts come with Pro"
                    + " (\(Product.allCases.filter { !$0.grantsCoach }.map(\.rawValue).joined(separator: ", "))), `--until \(h.through.isoDate)` charts"
                    + " the \(ChartWindow.freeDays) days up to then on Free; `ledger prs` and `ledger exercise history` show it on every plan."
            } else {
                line += " It has no sets to estimate from yet."
            }
            Console.out(line)
            return
        }
        defer {
            if let window, let hidden = a.hidden {
                Console.out(window.hiddenNote(hidden, everyPlan: "`ledger prs` and `ledger exercise history` show it") + ".")
            } else if let window {
                Console.out(window.upsell)
            }
        }
        Console.out("\(x.name): e1RM by workout (\(a.formula.rawValue))")
        let bars = TerminalChart.bars(points.map(\.e1rmKg))
        for (p, bar) in zip(points, bars) {
            let value = WeightText.show(kg: p.e1rmKg, in: unit)
            Console.out(
                "  \(p.date.isoDate)  \(value.padding(toLength: 10, withPad: " ", startingAt: 0)) \(bar)  \(WeightText.set(kg: p.weightKg, reps: p.reps, in: unit))"
            )
        }
    }
}

struct VolumeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "volume", abstract: "Sets and tonnage by workout, week, muscle or exercise.")
    @OptionGroup var global: GlobalOptions
    @OptionGroup var query: QueryOptions
    @Option(help: "workout, week, muscle or exercise.") var by = "week"

    func run() throws {
        let a = try VolumeQuery.answer(try global.openStore(), try query.scope(), by: by)
        if global.json { Console.json(VolumeQuery.document(a)); return }
        let (grouping, rows, unit, window) = (a.grouping, a.rows, a.unit, a.window)
        if rows.isEmpty {
            if let window, let hidden = a.hidden {
                Console.out("No training to chart. " + window.hiddenNote(hidden, everyPlan: "`ledger history` lists every workout") + ".")
            } else {
                Console.out("No training to count yet: `ledger workout log` records a set, and `ledger import` brings another app's history.")
            }
            return
        }
        var header = [grouping.rawValue.capitalized, "Sets", "Tonnage"]
        if grouping == .muscle { header.append("Secondary sets") }
        Console.table(
            header,
            rows.map { r in
                [r.label, "\(r.sets)", WeightText.show(kg: r.tonnageKg, in: unit)] + (grouping == .muscle ? ["\(r.secondarySets)"] : [])
            }, rightAligned: [1, 2, 3])
        if let window, let hidden = a.hidden {
            Console.out(window.hiddenNote(hidden, everyPlan: "`ledger history` lists every workout") + ".")
        } else if let window {
            Console.out(window.upsell)
        }
    }
}
