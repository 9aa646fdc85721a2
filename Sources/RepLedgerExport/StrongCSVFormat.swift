import Foundation
import RepLedgerCore
import RepLedgerProjections

/// History as CSV in Strong's columns, the layout most lifting tools read, with
/// what makes it lossless: the lifter's unit in the header and each set's weight
/// in its own unit (`Weight Unit`, as Strong's unit-column layout writes it),
/// distances in metres, durations to the second, which entry of the workout a set
/// is in (`Exercise #`: two blocks of one exercise stay two), each set's own
/// note, the workout's end and its supersets:
/// `Date,Workout Name,Duration,Exercise #,Exercise Name,Set Order,Weight (kg),Weight Unit,Reps,Distance,Distance Unit,Seconds,Notes,Set Notes,Workout Notes,RPE,Workout End,Superset`.
/// Oldest workout first. `ledger import strong` reads it back with no option:
/// export, import and export again give the same file and the same history.
public enum StrongCSVFormat {
    public static func header(unit: WeightUnit) -> String {
        "Date,Workout Name,Duration,Exercise #,Exercise Name,Set Order,Weight (\(unit.rawValue)),Weight Unit,Reps,Distance,Distance Unit,Seconds,Notes,Set Notes,Workout Notes,RPE,Workout End,Superset"
    }

    /// The file's text and its number of rows (one per set).
    public static func render(_ log: TrainingLogProjection) -> (text: String, rows: Int) {
        var out = header(unit: log.account.liftingUnit) + "\n"
        var rows = 0
        for w in WorkoutHistoryProjection.workouts(log).reversed() {
            let date = w.startedAt.localText
            let duration = w.durationSeconds.map(Self.duration) ?? ""
            let end = w.finishedAt.map(\.localText) ?? ""
            // Supersets numbered in the order the workout shows them, from 1.
            var supersets: [UUID: Int] = [:]
            for x in w.exercises { if let id = x.supersetId, supersets[id] == nil { supersets[id] = supersets.count + 1 } }
            for (entry, x) in w.exercises.enumerated() {
                var setNumber = 0
                for s in x.sets {
                    let order: String
                    switch s.type {
                    case .normal: setNumber += 1; order = String(setNumber)
                    case .warmup: order = "W"
                    case .drop: order = "D"
                    case .failure: order = "F"
                    }
                    let weight = s.metrics.weight
                    let fields: [String] = [
                        date, quoted(w.name), duration, String(entry + 1), quoted(x.exercise), order,
                        weight.map { $0.value.formatted } ?? "", weight.map { $0.unit.rawValue } ?? "",
                        s.reps.map { String($0) } ?? "",
                        s.metrics.distanceMeters.map(\.formatted) ?? "", s.metrics.distanceMeters == nil ? "" : "m",
                        s.metrics.durationSeconds.map(\.formatted) ?? "",
                        quoted(x.note ?? ""), quoted(s.notes ?? ""), quoted(w.notes ?? ""),
                        Effort.rpe(entered: s.rpe, rir: s.rir).map(\.formatted) ?? "",
                        end, x.supersetId.flatMap { supersets[$0] }.map(String.init) ?? "",
                    ]
                    out += fields.joined(separator: ",") + "\n"
                    rows += 1
                }
            }
        }
        return (out, rows)
    }

    static func quoted(_ s: String) -> String { "\"" + s.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }

    /// Strong's spelling, to the second: `1h 5m 42s`, `45m`, `30s`.
    static func duration(_ seconds: Int64) -> String {
        let h = seconds / 3600, m = seconds % 3600 / 60, s = seconds % 60
        let parts = [(h, "h"), (m, "m"), (s, "s")].filter { $0.0 > 0 }.map { "\($0.0)\($0.1)" }
        return parts.isEmpty ? "0s" : parts.joined(separator: " ")
    }
}
