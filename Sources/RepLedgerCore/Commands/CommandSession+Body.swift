import Foundation

/// Watch samples and weigh-ins (DOMAIN.md §13, §15).
extension CommandSession {
    /// A heart-rate (bpm) or active-energy (kcal) sample from a watch, on the workout's stream.
    public mutating func recordHealthSample(
        _ workoutId: UUID, kind: HealthSampleKind, value: Double,
        historyEdit: Bool = false
    ) throws {
        _ = try writableWorkout(workoutId, historyEdit: historyEdit)
        try Invariants.check(sample: value, of: kind)
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
