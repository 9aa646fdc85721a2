import ArgumentParser
import LedgerShell
import RepLedgerCore
import RepLedgerProjections
import RepLedgerQueries

extension WorkoutCommand {
    struct Summary: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "summary",
            abstract: "A workout's summary: duration, sets, tonnage, records, rep counter, prompts, change since last time.")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var query: QueryOptions
        @Argument(help: "The workout.") var workout: String

        func run() throws {
            let a = try SummaryQuery.answer(try global.openStore(), try query.scope(), workout: workout)
            if global.json { Console.json(SummaryQuery.document(a)) } else { Self.show(a.summary, a.log) }
        }

        /// "  rest 1:30 planned, 1:52 taken": the mean rests after the exercise's sets, when known.
        static func restText(_ e: WorkoutSummaryProjection.ExerciseLine) -> String {
            var parts: [String] = []
            if let p = e.restPlannedSeconds { parts.append("\(Measure.clock(Double(p))) planned") }
            if let t = e.restTakenSeconds { parts.append("\(Measure.clock(Double(t))) taken") }
            return parts.isEmpty ? "" : "  rest " + parts.joined(separator: ", ")
        }

        static func show(_ s: WorkoutSummaryProjection.Summary, _ log: TrainingLogProjection) {
            let unit = log.account.liftingUnit
            let w = s.workout
            // In progress: the time so far (pauses left out), read against the clock, never stored.
            let elapsed =
                w.finishedAt == nil
                ? "\((log.workouts[w.workoutId]?.durationSeconds(now: .now()) ?? 0) / 60) min so far"
                : "\((w.durationSeconds ?? 0) / 60) min"
            Console.out("\(w.name) · \(w.startedAt.isoDate) · \(elapsed) · \(counted(w.sets, "set")) · \(WeightText.show(kg: w.tonnageKg, in: unit))")
            if let note = w.notes { Console.out("  note: \(note)") }
            if let line = SessionText.closing(w) { Console.out("  \(line)") }
            let labels = SupersetLabels.labels(s.exercises.map { e in w.exercises.first { $0.exerciseId == e.exerciseId }?.supersetId })
            for (e, label) in zip(s.exercises, labels) {
                let reps = e.excessReps > 0 ? "  +\(e.excessReps) reps" : ""
                let prompt = e.prompt.map { "  \($0.line)" } ?? ""
                // Lifts by tonnage; timed work (a run, a plank) by what was done.
                let done =
                    e.tonnageKg > 0
                    ? WeightText.show(kg: e.tonnageKg, in: unit)
                    : w.exercises.first { $0.exerciseId == e.exerciseId }.map {
                        $0.sets.map { SetRowText.text($0, in: unit, distance: log.account.distanceUnit, effort: log.account.effortScale) }.joined(
                            separator: ", ")
                    } ?? ""
                let planned = e.plannedSets > 0 ? " (\(e.plannedSets) planned)" : ""
                let what =
                    e.sets == 0 && e.plannedSets > 0
                    ? "\(e.plannedSets) set\(e.plannedSets == 1 ? "" : "s") planned, none done yet"
                    : "\(e.sets) set\(e.sets == 1 ? "" : "s")\(planned), \(done)"
                let row = w.exercises.first { $0.exerciseId == e.exerciseId }
                // Set notes, as history shows them; timed work's set rows carry them already.
                let setNotes =
                    e.tonnageKg > 0
                    ? (row?.sets ?? []).enumerated().compactMap { i, set in set.notes.map { "set \(i + 1) “\($0)”" } } : []
                let note = (row?.note.map { " — \($0)" } ?? "") + (setNotes.isEmpty ? "" : " — " + setNotes.joined(separator: ", "))
                let injury = e.injuryWarning ? "  ⚠ check: injury (flagged by your program's questionnaire)" : ""
                Console.out("  \(SupersetLabels.prefix(label))\(e.exercise): \(what)\(reps)\(prompt)\(restText(e))\(note)\(injury)")
            }
            if let state = log.workouts[w.workoutId], state.heartRateSamples > 0 || state.activeEnergyKcal > 0 {
                var line: [String] = []
                if let avg = state.averageHeartRate, let max = state.maxHeartRate {
                    line.append("heart rate \(Int(avg.rounded())) avg, \(Int(max.rounded())) max")
                }
                if state.activeEnergyKcal > 0 { line.append("\(Int(state.activeEnergyKcal.rounded())) kcal") }
                Console.out("  ♥ " + line.joined(separator: " · "))
            }
            // One line per set that broke records (a first session breaks several with every set), the session's own records last.
            var order: [String] = []
            var bySet: [String: [PersonalRecordsProjection.Record]] = [:]
            for r in s.records where r.kind != .repMax {
                let key = r.setId?.lowercased ?? "session:" + r.exerciseId
                if bySet[key] == nil { order.append(key) }
                bySet[key, default: []].append(r)
            }
            for key in order.sorted(by: { !$0.hasPrefix("session:") && $1.hasPrefix("session:") }) {
                guard let records = bySet[key], let first = records.first else { continue }
                let what = records.map {
                    "\(RecordText.label($0.kind, repMax: nil)) \(RecordText.value($0.kind, $0.value, in: unit, distance: log.account.distanceUnit))"
                }
                .joined(separator: ", ")
                let set = first.setId == nil ? "the session" : WeightText.set(kg: first.weightKg, reps: first.reps, in: unit)
                Console.out("  🏆 \(log.exerciseName(first.exerciseId)), \(set): \(what)")
            }
            if let c = s.comparison {
                let sign = c.tonnageDeltaKg >= 0 ? "+" : "−"
                let sets = c.setsDelta >= 0 ? "+\(c.setsDelta)" : "\(c.setsDelta)"
                Console.out("  vs last time: \(sign)\(WeightText.show(kg: abs(c.tonnageDeltaKg), in: unit)), \(sets) sets")
            }
        }
    }
}
