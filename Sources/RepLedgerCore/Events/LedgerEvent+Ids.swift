import Foundation

extension LedgerEvent {
    /// The workout an event belongs to, read from the payload (no parsing of
    /// stream names on the replay path). Nil for events outside workouts.
    @inline(__always)
    public var workoutId: UUID? {
        switch self {
        case .workoutStarted(let e): e.workoutId
        case .workoutExerciseAdded(let e): e.workoutId
        case .workoutExerciseRemoved(let e): e.workoutId
        case .workoutExercisesReordered(let e): e.workoutId
        case .workoutExerciseSwapped(let e): e.workoutId
        case .supersetLinked(let e): e.workoutId
        case .supersetUnlinked(let e): e.workoutId
        case .setAdded(let e): e.workoutId
        case .setLogged(let e): e.workoutId
        case .setEdited(let e): e.workoutId
        case .setDeleted(let e): e.workoutId
        case .setCompleted(let e): e.workoutId
        case .setUncompleted(let e): e.workoutId
        case .workoutNoteSet(let e): e.workoutId
        case .restTimerStarted(let e): e.workoutId
        case .restTimerAdjusted(let e): e.workoutId
        case .restTimerDismissed(let e): e.workoutId
        case .setEffortRecorded(let e): e.workoutId
        case .workoutPaused(let e): e.workoutId
        case .workoutResumed(let e): e.workoutId
        case .healthSampleRecorded(let e): e.workoutId
        case .workoutFinished(let e): e.workoutId
        case .workoutDiscarded(let e): e.workoutId
        case .restTimerPaused(let e): e.workoutId
        case .restTimerResumed(let e): e.workoutId
        case .workoutFeelingRecorded(let e): e.workoutId
        case .workoutActivitySet(let e): e.workoutId
        case .setEquipmentRecorded(let e): e.workoutId
        case .workoutAnalysisRecorded(let e): e.workoutId
        case .workoutModulesPlanned(let e): e.workoutId
        case .workoutDeloadMarked(let e): e.workoutId
        default: nil
        }
    }
}

extension LedgerEvent {
    /// The set an event is about, for the set events; nil otherwise.
    public var setId: UUID? {
        switch self {
        case .setAdded(let e): e.setId
        case .setLogged(let e): e.setId
        case .setEdited(let e): e.setId
        case .setDeleted(let e): e.setId
        case .setCompleted(let e): e.setId
        case .setUncompleted(let e): e.setId
        case .setEffortRecorded(let e): e.setId
        case .setEquipmentRecorded(let e): e.setId
        default: nil
        }
    }
}
