import ArgumentParser
import LedgerShell
import RepLedgerCore
import RepLedgerProjections
import RepLedgerQueries

extension WorkoutCommand {
    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show",
            abstract: "Today's plan: every exercise with its target, rest, planned and done sets (with set ids) and what to beat.")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var query: QueryOptions
        @Argument(help: "The workout: an id, a unique id prefix, or `last`.") var workout: String

        func run() throws {
            let a = try WorkoutPlanQuery.answer(try global.openStore(), try query.scope(), workout: workout)
            if global.json { Console.json(WorkoutPlanQuery.document(a)); return }
            let w = a.workout
            let unit = a.log.account.liftingUnit, distance = a.log.account.distanceUnit
            let status = w.isOpen ? "in progress" : w.status.rawValue
            let day = w.programDayIndex.map { " · program day \($0 + 1)" } ?? ""
            Console.out("\(w.name) · \(w.startedAt?.isoDate ?? "not started") · \(status)\(day) · id \(w.workoutId.lowercased.prefix(8))")
            let done = w.sets.filter(\.completed).count
            Console.out("  \(done) of \(w.sets.count) set\(w.sets.count == 1 ? "" : "s") done")
            if let note = w.note.shownNote { Console.out("  note: \(note)") }
            if w.activity != .strength { Console.out("  activity: \(kebab(w.activity.rawValue))") }
            if let r = a.rest {
                Console.out(
                    "  resting: \(Measure.clock(Double(r.secondsLeft(at: a.askedAt)))) left of \(Measure.clock(Double(r.plannedSeconds)))\(r.isPaused ? " (paused)" : "")"
                )
            }
            let labels = SupersetLabels.labels(a.exercises.map(\.entry.supersetId))
            for (i, x) in a.exercises.enumerated() {
                var target = ""
                if let lo = x.entry.targetRepsMin {
                    let hi = x.entry.targetRepsMax ?? lo
                    target = "\(x.entry.targetSets ?? x.sets.count) × \(lo == hi ? "\(lo)" : "\(lo)–\(hi)"), "
                }
                let module = x.module.map { "  · \($0.name) (\(kebab($0.type.rawValue)))" } ?? ""
                Console.out(
                    "\(i + 1). \(SupersetLabels.prefix(labels[i]))\(x.name)  \(target)rest \(x.restSeconds) s\(x.restSource == "default" ? "" : " (\(x.restSource))")\(module)"
                )
                if let best = x.lastTime.bestSet, let ago = x.lastTime.ago {
                    let sets = x.lastTime.sets.map { WeightText.set(kg: $0.weightKg, reps: $0.reps, in: unit) }.joined(separator: ", ")
                    Console.out("   to beat (\(ago)): \(WeightText.set(kg: best.weightKg, reps: best.reps, in: unit)); then \(sets)")
                }
                if x.injuryWarning { Console.out("   ⚠ check: injury (flagged by your program's questionnaire)") }
                if let note = x.entry.note.shownNote { Console.out("   note: \(note)") }
                func show(_ sets: [WorkoutState.SetRecord]) {
                    for (n, s) in sets.enumerated() {
                        let what = SetText.describe(
                            kg: s.weightKg, reps: s.metrics.reps, durationSeconds: s.metrics.durationSeconds,
                            distanceMeters: s.metrics.distanceMeters, in: unit, distance: distance)
                        let type = s.type == .normal ? "" : " (\(s.type.rawValue))"
                        let note = s.notes.map { " “\($0)”" } ?? ""
                        let effort = w.effort(of: s.setId)
                        let how = EffortText.text(
                            rpe: s.metrics.rpe, rir: effort?.rir, tempo: effort?.tempo, scale: a.log.account.effortScale, band: effort?.band,
                            implement: effort?.implement)
                        Console.out(
                            "   #\(n + 1) \(s.setId.lowercased.prefix(8))  \(s.completed ? "done   " : "planned")  \(what)\(how)\(type)\(note)")
                    }
                }
                // Sets logged before a swap stay the old exercise's, as history and the summary show them.
                for old in x.swappedOut {
                    Console.out("   \(old.name), swapped out:")
                    show(old.sets)
                }
                if !x.swappedOut.isEmpty, !x.sets.isEmpty { Console.out("   \(x.name):") }
                show(x.sets)
            }
        }
    }
}
