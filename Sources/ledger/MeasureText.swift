import LedgerShell
import RepLedgerCore
import RepLedgerProjections
import RepLedgerQueries

/// Sets and records of every exercise kind, for people.
enum SetText {
    /// "80 kg × 8", "12 reps", "5 km in 25:00 (5:00 /km)", "hold 1:30", "10 reps in 0:45".
    static func describe(
        kg: Double?, reps: Int?, durationSeconds: Double?, distanceMeters: Double?, in unit: WeightUnit,
        distance distanceUnit: DistanceUnit = .km
    ) -> String {
        let duration = durationSeconds.flatMap { $0 > 0 ? $0 : nil }, distance = distanceMeters.flatMap { $0 > 0 ? $0 : nil }
        guard duration != nil || distance != nil else { return WeightText.set(kg: kg, reps: reps, in: unit) }
        var parts: [String] = []
        if let kg, kg > 0 { parts.append(WeightText.show(kg: kg, in: unit)) }
        if let reps, reps > 0 { parts.append("\(reps) reps") }
        if let distance { parts.append(Measure.distance(distance, in: distanceUnit)) }
        var text = parts.joined(separator: " × ")
        if let duration { text += text.isEmpty ? Measure.clock(duration) : " in \(Measure.clock(duration))" }
        if let pace = Measure.paceSecondsPerKm(duration: duration, distance: distance) { text += " (\(RecordText.pace(pace, in: distanceUnit)))" }
        return text
    }
}

enum RecordText {
    static func label(_ kind: PRKind, repMax: Int?) -> String { RecordLabel.text(kind, repMax: repMax) }

    static func value(_ kind: PRKind, _ value: Double, in unit: WeightUnit, distance: DistanceUnit = .km) -> String {
        switch kind {
        case .heaviest, .e1rm, .setVolume, .sessionVolume, .repMax: WeightText.show(kg: value, in: unit)
        case .longestDistance: Measure.distance(value, in: distance)
        case .longestDuration, .longestHold: Measure.clock(value)
        case .bestPace: pace(value, in: distance)
        }
    }

    /// A pace kept in seconds per kilometre, read per km or per mile.
    static func pace(_ secondsPerKm: Double, in unit: DistanceUnit = .km) -> String {
        let s = Int((unit == .mi ? secondsPerKm * DistanceUnit.metresPerMile / 1000 : secondsPerKm).rounded())
        return "\(s / 60):\(String(format: "%02d", s % 60)) /\(unit.rawValue)"
    }

    static func optional(_ kind: PRKind, _ value: Double?, in unit: WeightUnit, distance: DistanceUnit = .km) -> String {
        value.map { self.value(kind, $0, in: unit, distance: distance) } ?? "–"
    }
}

/// One set as shown in `history`, `exercise history` and `workout summary`.
/// A set's effort in the lifter's scale, derived from the other when that is what was entered: " @ RPE 8, tempo 3-1-1-0".
enum EffortText {
    static func text(rpe: Double?, rir: Double?, tempo: String?, scale: EffortScale, band: String? = nil, implement: String? = nil) -> String {
        var parts: [String] = []
        switch scale {
        case .rpe: if let v = Effort.rpe(entered: rpe, rir: rir) { parts.append("RPE \(v.formatted)") }
        case .rir: if let v = Effort.rir(entered: rir, rpe: rpe) { parts.append("RIR \(v.formatted)") }
        }
        if let tempo { parts.append("tempo \(tempo)") }
        let effort = parts.isEmpty ? "" : " @ " + parts.joined(separator: ", ")
        let with = [band.map { "\($0) band" }, implement].compactMap { $0 }
        return effort + (with.isEmpty ? "" : " with " + with.joined(separator: ", "))
    }
}

enum SetRowText {
    static func text(
        _ s: WorkoutHistoryProjection.SetRow, in unit: WeightUnit, distance: DistanceUnit = .km, effort: EffortScale = .rpe
    ) -> String {
        let text =
            SetText.describe(
                kg: s.weightKg, reps: s.reps, durationSeconds: s.metrics.durationSeconds,
                distanceMeters: s.metrics.distanceMeters, in: unit, distance: distance)
            + EffortText.text(rpe: s.rpe, rir: s.rir, tempo: s.tempo, scale: effort, band: s.band, implement: s.implement)
        let typed = s.type == .normal ? text : "\(text) (\(s.type.rawValue))"
        return s.notes.map { "\(typed) “\($0)”" } ?? typed
    }
}
