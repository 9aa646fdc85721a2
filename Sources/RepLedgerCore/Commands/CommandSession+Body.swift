import Foundation

/// Watch samples and weigh-ins (DOMAIN.md §13, §15).
extension CommandSession {
    public static let heartRateRange = 20.0...250.0
    /// More active energy than this in one sample is a sensor error, not a workout.
    public static let maximumEnergySampleKcal = 10_000.0

    /// A heart-rate (bpm) or active-energy (kcal) sample from a watch, on the workout's stream.
    public mutating func recordHealthSample(_ workoutId: UUID, kind: HealthSampleKind, value: Double,
                                            historyEdit: Bool = false) throws {
        _ = try writableWorkout(workoutId, historyEdit: historyEdit)
        switch kind {
        case .heartRate:
            guard value.isFinite, Self.heartRateRange.contains(value) else {
                throw Refusal.invalidMeasure("heart rate \(value.formatted) bpm", reason: "give 20 to 250 bpm")
            }
        case .activeEnergy:
            guard value.isFinite, value >= 0, value <= Self.maximumEnergySampleKcal else {
                throw Refusal.invalidMeasure("active energy \(value.formatted) kcal", reason: "give 0 to 10000 kcal")
            }
        }
        var e = HealthSampleRecorded()
        e.workoutId = workoutId
        e.kind = kind
        e.value = value
        emit([.healthSampleRecorded(e)])
    }

    /// A weigh-in, as entered (validated by `BodyweightText.parse`).
    public mutating func logBodyweight(_ weight: Weight) throws -> UUID {
        try weight.validate()
        var e = BodyweightMeasured()
        e.measurementId = ids.next()
        e.weight = weight
        emit([.bodyweightMeasured(e)])
        return e.measurementId
    }

    public mutating func setBodyweightDisplay(_ display: BodyweightDisplay) {
        var e = BodyweightDisplayChanged()
        e.display = display
        emit([.bodyweightDisplayChanged(e)])
    }
}
