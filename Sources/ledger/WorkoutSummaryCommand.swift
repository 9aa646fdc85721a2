import ArgumentParser
import RepLedgerCore
import RepLedgerProjections

extension WorkoutCommand {
    struct Summary: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "A workout's summary: duration, sets, tonnage, records, rep counter, prompts, change since last time.")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var query: QueryOptions
        @Argument(help: "The workout.") var workout: String

        func run() throws {
            let store = try global.openStore()
            let id = try Ledger(store: store).resolveWorkout(workout)
            let log = try query.log(store)
            guard let s = WorkoutSummaryProjection.summary(log, workoutId: id, rules: try query.ruleSet()) else {
                throw Refusal.unknownWorkout(workout)
            }
            if global.json { Console.json(Self.json(s, log)) } else { Self.show(s, log) }
        }

        static func json(_ s: WorkoutSummaryProjection.Summary, _ log: TrainingLogProjection) -> JSONValue {
            let records: [JSONValue] = s.records.map { r in
                .object([("exercise", .string(log.exerciseName(r.exerciseId)))] + PRsCommand.recordPairs(r))
            }
            let exercises: [JSONValue] = s.exercises.map { e in
                .object([("exercise", .string(e.exercise)), ("exerciseId", .string(e.exerciseId)), ("sets", .int(Int64(e.sets))),
                         ("tonnageKg", .number(e.tonnageKg)), ("excessReps", .int(Int64(e.excessReps))),
                         ("prompt", .optional(e.prompt?.kind.rawValue)), ("promptTitle", .optional(e.prompt?.title))])
            }
            var comparison = JSONValue.null
            if let c = s.comparison {
                comparison = .object([("workoutId", .string(c.workoutId.lowercased)), ("tonnageDeltaKg", .number(c.tonnageDeltaKg)),
                                      ("setsDelta", .int(Int64(c.setsDelta))),
                                      ("durationDeltaSeconds", c.durationDeltaSeconds.map { .int($0) } ?? .null)])
            }
            let state = log.workouts[s.workout.workoutId]
            let heartRate: JSONValue = state?.averageHeartRate.map { average in
                .object([("average", .number((average * 10).rounded() / 10)), ("max", .optional(state?.maxHeartRate))])
            } ?? .null
            return .object([("workout", HistoryCommand.json(s.workout)), ("records", .array(records)),
                            ("exercises", .array(exercises)), ("comparison", comparison), ("durationSeconds", s.workout.durationSeconds.map { .int($0) } ?? .null),
                            ("heartRate", heartRate), ("activeEnergyKcal", .number(state?.activeEnergyKcal ?? 0))])
        }

        static func show(_ s: WorkoutSummaryProjection.Summary, _ log: TrainingLogProjection) {
            let unit = log.account.liftingUnit
            let w = s.workout
            Console.out("\(w.name) · \(w.startedAt.isoDate) · \((w.durationSeconds ?? 0) / 60) min · \(w.sets) sets · \(WeightText.show(kg: w.tonnageKg, in: unit))")
            for e in s.exercises {
                let reps = e.excessReps > 0 ? "  +\(e.excessReps) reps" : ""
                let prompt = e.prompt.map { "  \($0.title)" } ?? ""
                // Lifts by tonnage; timed work (a run, a plank) by what was done.
                let done = e.tonnageKg > 0 ? WeightText.show(kg: e.tonnageKg, in: unit)
                    : w.exercises.first { $0.exerciseId == e.exerciseId }.map { $0.sets.map { SetRowText.text($0, in: unit) }.joined(separator: ", ") } ?? ""
                Console.out("  \(e.exercise): \(e.sets) set\(e.sets == 1 ? "" : "s"), \(done)\(reps)\(prompt)")
            }
            if let state = log.workouts[w.workoutId], state.heartRateSamples > 0 || state.activeEnergyKcal > 0 {
                var line: [String] = []
                if let avg = state.averageHeartRate, let max = state.maxHeartRate { line.append("heart rate \(Int(avg.rounded())) avg, \(Int(max.rounded())) max") }
                if state.activeEnergyKcal > 0 { line.append("\(Int(state.activeEnergyKcal.rounded())) kcal") }
                Console.out("  ♥ " + line.joined(separator: " · "))
            }
            for r in s.records where r.kind != .repMax {
                Console.out("  🏆 \(log.exerciseName(r.exerciseId)) \(RecordText.label(r.kind, repMax: nil)): \(RecordText.value(r.kind, r.value, in: unit))")
            }
            if let c = s.comparison {
                let sign = c.tonnageDeltaKg >= 0 ? "+" : "−"
                let sets = c.setsDelta >= 0 ? "+\(c.setsDelta)" : "\(c.setsDelta)"
                Console.out("  vs last time: \(sign)\(WeightText.show(kg: abs(c.tonnageDeltaKg), in: unit)), \(sets) sets")
            }
        }
    }
}
