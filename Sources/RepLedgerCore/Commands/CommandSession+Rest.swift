import Foundation

/// The rest timer (issue 31 point 3): its settings, `workout rest`, and the
/// start after a completed set when the lifter turned auto-start on.
extension CommandSession {
    /// `settings rest DURATION [--exercise X]`: the default rest, or one exercise's own (0 removes it).
    public mutating func setRest(seconds: Int, exercise: String? = nil) throws {
        try Invariants.check(restSetting: seconds)
        var e = RestTimerDefaultChanged()
        e.seconds = seconds
        if let exercise {
            let x = try library.resolve(exercise)
            guard account.restSeconds(ofExercise: x.exerciseId) != (seconds == 0 ? nil : seconds) else { throw Refusal.nothingToChange }
            e.exerciseId = x.exerciseId
        } else {
            guard account.restTimerSeconds != seconds else { throw Refusal.nothingToChange }
        }
        emit([.restTimerDefaultChanged(e)])
    }

    /// `settings rest --auto on|off`.
    public mutating func setRestAutoStart(_ on: Bool) throws {
        guard account.restAutoStart != on else { throw Refusal.nothingToChange }
        emit([.restTimerAutoStartChanged(RestTimerAutoStartChanged(on: on))])
    }

    /// `workout rest W start [DURATION]`: counts a rest after the workout's last completed set,
    /// by default as long as that set's rest (or the lifter's default before any set).
    @discardableResult
    public mutating func startRest(_ workoutId: UUID, seconds: Int? = nil) throws -> Int {
        let w = try liveWorkout(workoutId)
        let last = w.sets.filter(\.completed).max(by: WorkoutState.SetRecord.doneBefore)
        let planned = try last.map {
            try RestPlan.seconds(exerciseId: $0.exerciseId, in: w, account: account, programs: programsFor(w), templates: templatesFor(w)).seconds
        }
        let length = seconds ?? planned ?? account.restTimerSeconds
        try Invariants.check(restStarted: length)
        var e = RestTimerStarted()
        e.workoutId = workoutId
        e.seconds = length
        e.afterSetId = last?.setId
        emit([.restTimerStarted(e)])
        return length
    }

    /// `workout rest W +15s|-15s`: lengthens or shortens the rest counting down.
    public mutating func adjustRest(_ workoutId: UUID, by deltaSeconds: Int) throws {
        let w = try liveWorkout(workoutId)
        guard w.restCounting(at: context.occurredAt) != nil else { throw Refusal.noRestTimer(workoutId) }
        try Invariants.check(restChange: deltaSeconds)
        var e = RestTimerAdjusted()
        e.workoutId = workoutId
        e.deltaSeconds = deltaSeconds
        emit([.restTimerAdjusted(e)])
    }

    /// `workout rest W pause`: holds the rest counting down; the held span is not rest taken.
    public mutating func pauseRest(_ workoutId: UUID) throws {
        let w = try liveWorkout(workoutId)
        guard let rest = w.restCounting(at: context.occurredAt) else { throw Refusal.noRestTimer(workoutId) }
        guard !rest.isPaused else { throw Refusal.restHeld(workoutId, alreadyHeld: true) }
        var e = RestTimerPaused()
        e.workoutId = workoutId
        emit([.restTimerPaused(e)])
    }

    /// `workout rest W resume`: the held rest counts down again from where it stopped.
    public mutating func resumeRest(_ workoutId: UUID) throws {
        let w = try liveWorkout(workoutId)
        guard let rest = w.restCounting(at: context.occurredAt) else { throw Refusal.noRestTimer(workoutId) }
        guard rest.isPaused else { throw Refusal.restHeld(workoutId, alreadyHeld: false) }
        var e = RestTimerResumed()
        e.workoutId = workoutId
        emit([.restTimerResumed(e)])
    }

    /// `workout rest W dismiss`: ends the rest counting down (the next set starts now).
    public mutating func dismissRest(_ workoutId: UUID) throws {
        let w = try liveWorkout(workoutId)
        guard w.restCounting(at: context.occurredAt) != nil else { throw Refusal.noRestTimer(workoutId) }
        var e = RestTimerDismissed()
        e.workoutId = workoutId
        emit([.restTimerDismissed(e)])
    }

    /// After a set was completed live: starts its rest when auto-start is on, the
    /// workout is running and a rest follows the set (not inside a superset).
    /// Answers the rest started, if any.
    @discardableResult
    public mutating func autoStartRest(_ workoutId: UUID, afterSet setId: UUID) throws -> Int? {
        guard account.restAutoStart else { return nil }
        let w = try workout(workoutId)
        guard w.status == .running, let set = w.set(setId), set.completed, RestPlan.follows(entry: set.entryId, in: w) else { return nil }
        let length = RestPlan.seconds(
            exerciseId: set.exerciseId, in: w, account: account, programs: try programsFor(w), templates: try templatesFor(w)
        ).seconds
        guard length > 0 else { return nil }
        var e = RestTimerStarted()
        e.workoutId = workoutId
        e.seconds = min(length, Invariants.restLimitSeconds)
        e.afterSetId = setId
        emit([.restTimerStarted(e)])
        return e.seconds
    }

    /// A workout in progress (the timer belongs to a live session, never to history).
    private mutating func liveWorkout(_ id: UUID) throws -> WorkoutState {
        let w = try writableWorkout(id, historyEdit: false)
        guard w.isOpen else { throw Refusal.workoutNotRunning(id, status: w.status.rawValue) }
        return w
    }

    /// The templates, read only for a workout started from one.
    private mutating func templatesFor(_ w: WorkoutState) throws -> TemplateCatalogState? {
        w.templateId == nil ? nil : try templateCatalog()
    }

    /// The programs, read only for a workout started from one.
    private mutating func programsFor(_ w: WorkoutState) throws -> ProgramCatalogState? {
        w.programId == nil ? nil : try programCatalog()
    }
}
