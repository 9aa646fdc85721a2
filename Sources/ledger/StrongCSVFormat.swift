import Foundation
import RepLedgerCore
import RepLedgerProjections

/// History in Strong's 12-column layout, the CSV most lifting tools read:
/// `Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,Notes,Workout Notes,RPE`.
/// Weights in the lifter's unit (the file cannot say which, like Strong's),
/// distance in km or miles to match, oldest workout first.
enum StrongCSVFormat {
    static let header = "Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,Notes,Workout Notes,RPE"

    static func render(_ log: TrainingLogProjection, unit: WeightUnit) -> (text: String, rows: Int) {
        var out = header + "\n"
        var rows = 0
        for w in WorkoutHistoryProjection.workouts(log).reversed() {
            let date = w.startedAt.localText
            let duration = w.durationSeconds.map(Self.duration) ?? ""
            for x in w.exercises {
                var setNumber = 0
                for s in x.sets {
                    let order: String
                    switch s.type {
                    case .normal: setNumber += 1; order = String(setNumber)
                    case .warmup: order = "W"
                    case .drop: order = "D"
                    case .failure: order = "F"
                    }
                    let weight = s.weightKg.map { number(unit.fromKilograms($0)) } ?? "0"
                    let distance = s.metrics.distanceMeters.map { number($0 / (unit == .kg ? 1000 : 1609.344)) } ?? "0"
                    let reps: String = s.reps.map { String($0) } ?? "0"
                    let seconds: String = s.metrics.durationSeconds.map { number($0) } ?? "0"
                    let rpe: String = Effort.rpe(entered: s.rpe, rir: s.rir).map { number($0) } ?? ""
                    let fields: [String] = [
                        date, quoted(w.name), duration, quoted(x.exercise), order, weight, reps, distance,
                        // Strong's Notes column holds the exercise's note in the workout; a set's own note follows it.
                        seconds, quoted([x.note, s.notes].compactMap { $0 }.joined(separator: " — ")), quoted(w.notes ?? ""), rpe,
                    ]
                    out += fields.joined(separator: ",") + "\n"
                    rows += 1
                }
            }
        }
        return (out, rows)
    }

    /// At most three decimals, no trailing zeros: 102.058, 80, 17.5.
    static func number(_ v: Double) -> String { ((v * 1000).rounded() / 1000).formatted }

    static func quoted(_ s: String) -> String { "\"" + s.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }

    /// Strong's spelling: `1h 5m`, `45m`, `30s`.
    static func duration(_ seconds: Int64) -> String {
        if seconds < 60 { return "\(seconds)s" }
        let h = seconds / 3600, m = seconds % 3600 / 60
        return h > 0 ? (m > 0 ? "\(h)h \(m)m" : "\(h)h") : "\(m)m"
    }
}
