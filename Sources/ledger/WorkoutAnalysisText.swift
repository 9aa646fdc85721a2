import Foundation
import LedgerShell
import RepLedgerCore
import RepLedgerProjections
import RepLedgerQueries

/// The ledger's own analysis of a workout, in Markdown: deterministic (the
/// same log writes the same bytes), made only of what the log holds.
enum WorkoutAnalysisText {
    static func markdown(_ f: WorkoutAnalysisQuery.Facts) -> String {
        let (s, w, log) = (f.summary, f.workout, f.log)
        let row = s.workout
        let unit = log.account.liftingUnit
        let distance = log.account.distanceUnit
        var out: [String] = []
        out.append("# \(cell(row.name)), \(row.startedAt.isoDate)")
        out.append("")
        var head = [kebab(w.activity.rawValue), "\((row.durationSeconds ?? 0) / 60) min", counted(row.sets, "set")]
        if row.tonnageKg > 0 { head.append(WeightText.show(kg: row.tonnageKg, in: unit)) }
        if let feeling = w.feeling { head.append("felt \(feeling)/5") }
        out.append(head.joined(separator: " · "))
        if let note = w.closingNote { out.append("\n> \(note)") }

        out.append("\n## Planned against done\n")
        out.append("| Exercise | Planned | Done |")
        out.append("| --- | --- | --- |")
        for e in s.exercises {
            let entry = w.entries.first { $0.exerciseId == e.exerciseId }
            var planned = "—"
            if let sets = entry?.targetSets {
                let reps =
                    entry?.targetRepsMin.map { lo in entry?.targetRepsMax.map { $0 == lo ? " × \(lo)" : " × \(lo)–\($0)" } ?? " × \(lo)" } ?? ""
                planned = "\(sets)\(reps.isEmpty ? " sets" : reps)"
            }
            let sets = row.exercises.filter { $0.exerciseId == e.exerciseId }.flatMap(\.sets)
                .map { SetRowText.text($0, in: unit, distance: distance, effort: log.account.effortScale) }
            var done = sets.isEmpty ? "none" : sets.joined(separator: ", ")
            if e.plannedSets > 0 { done += " (\(counted(e.plannedSets, "planned set")) not done)" }
            out.append("| \(cell(e.exercise)) | \(planned) | \(cell(done)) |")
        }

        out.append("\n## Records\n")
        let records = s.records.filter { $0.kind != .repMax }
        if records.isEmpty {
            out.append("None this time.")
        } else {
            for line in RecordsQuery.timelineLines(records) {
                guard let first = line.records.first else { continue }
                let what = line.records.map {
                    "\(RecordText.label($0.kind, repMax: nil)) \(RecordText.value($0.kind, $0.value, in: unit, distance: distance))"
                }
                let set =
                    line.setId == nil
                    ? "the session"
                    : line.reps == nil && line.weightKg == nil ? "a set" : WeightText.set(kg: line.weightKg, reps: line.reps, in: unit)
                out.append("- \(log.exerciseName(first.exerciseId)), \(set): \(what.joined(separator: ", "))")
            }
        }

        out.append("\n## The last sessions of the same kind\n")
        if f.earlier.isEmpty {
            out.append("None before this one.")
        } else {
            out.append("| Date | Workout | Minutes | Sets | Volume | Heart rate |")
            out.append("| --- | --- | --- | --- | --- | --- |")
            for e in f.earlier {
                let heart = log.workouts[e.workoutId]?.averageHeartRate.map { "\(Int($0.rounded())) avg" } ?? "—"
                let volume = e.tonnageKg > 0 ? WeightText.show(kg: e.tonnageKg, in: unit) : "—"
                out.append(
                    "| \(e.startedAt.isoDate) | \(cell(e.name)) | \((e.durationSeconds ?? 0) / 60) | \(e.sets) | \(volume) | \(heart) |")
            }
        }

        out.append("\n## Heart rate and energy\n")
        if w.heartRateSamples == 0 && w.activeEnergyKcal == 0 {
            out.append("None recorded.")
        } else {
            if let average = w.averageHeartRate, let max = w.maxHeartRate {
                out.append("- Heart rate \(Int(average.rounded())) bpm average, \(Int(max.rounded())) max (\(counted(w.heartRateSamples, "sample")))")
            }
            if w.activeEnergyKcal > 0 { out.append("- \(Int(w.activeEnergyKcal.rounded())) kcal of active energy") }
        }
        return out.joined(separator: "\n") + "\n"
    }

    /// Text safe inside a Markdown table cell.
    static func cell(_ text: String) -> String {
        text.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\n", with: " ")
    }
}
