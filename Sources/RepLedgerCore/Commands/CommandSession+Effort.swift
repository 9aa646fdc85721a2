import Foundation

/// Reps in reserve and tempo on a set (issue 31 point 6), what it was done
/// with (issue 45, row 4), and the scale effort shows in.
extension CommandSession {
    /// `--rir` and `--tempo` on a set just logged, completed or edited; nothing when neither is given.
    /// RPE and RIR are one effort in two scales: a command gives one of them, stored as entered.
    public mutating func recordEffort(
        _ workoutId: UUID, setId: UUID, rpe: Double? = nil, rir: Double?, tempo: String?, historyEdit: Bool = false
    ) throws {
        guard rir != nil || tempo != nil else { return }
        if rpe != nil, rir != nil { throw Refusal.invalidMeasure("RPE and RIR together", reason: "give one: RPE is 10 − RIR") }
        if let rir { try Effort.check(rir: rir) }
        let w = try writableWorkout(workoutId, historyEdit: historyEdit)
        guard w.set(setId) != nil else { throw Refusal.unknownSet(setId.lowercased, workout: workoutId) }
        var e = SetEffortRecorded()
        e.workoutId = workoutId
        e.setId = setId
        e.rir = rir
        e.tempo = try tempo.map { t throws(Refusal) in try Effort.tempo(t) }
        emit([.setEffortRecorded(e)])
    }

    /// `--band` and `--implement` on a set just logged, completed or edited; nothing when neither is given.
    public mutating func recordEquipment(
        _ workoutId: UUID, setId: UUID, band: String?, implement: String?, historyEdit: Bool = false
    ) throws {
        let band = try band.map { b throws(Refusal) in try Invariants.check(setEquipment: b, of: "band") }
        let implement = try implement.map { i throws(Refusal) in try Invariants.check(setEquipment: i, of: "implement") }
        guard band != nil || implement != nil else { return }
        let w = try writableWorkout(workoutId, historyEdit: historyEdit)
        guard w.set(setId) != nil else { throw Refusal.unknownSet(setId.lowercased, workout: workoutId) }
        var e = SetEquipmentRecorded()
        e.workoutId = workoutId
        e.setId = setId
        e.band = band
        e.implement = implement
        emit([.setEquipmentRecorded(e)])
    }

    /// `settings effort rpe|rir`.
    public mutating func setEffortScale(_ scale: EffortScale) throws {
        guard account.effortScale != scale else { throw Refusal.nothingToChange }
        emit([.effortScaleChanged(EffortScaleChanged(scale: scale))])
    }
}
