import Foundation

/// Warm-up ramps planned into a workout (`workout warmup W EXERCISE`), and tested maxes.
extension CommandSession {
    /// `settings one-rep-max EXERCISE 150kg`: the lifter's tested max, what `percent` works from.
    public mutating func setOneRepMax(exercise ref: String, weight: Weight) throws -> OneRepMaxTested {
        let x = try library.resolve(ref)
        try Invariants.check(oneRepMax: weight)
        if let known = account.testedMax(ofExercise: x.exerciseId), known.weight == weight { throw Refusal.nothingToChange }
        var e = OneRepMaxTested()
        e.exerciseId = x.exerciseId
        e.weight = weight
        emit([.oneRepMaxTested(e)])
        return e
    }

    /// Plans the ramp up to the exercise's working weight as warm-up sets, which a workout shows before its
    /// planned working sets. The working weight is `working`, else the first planned working set's. An exercise
    /// the workout does not have yet is added to it first, as logging a set adds it (`added`). Refused when the
    /// exercise already has warm-ups planned or working sets done (warm-ups come before them), or when the ramp
    /// is empty (a working weight at the bar). Off the bar, weights round to the lifter's increment
    /// (`increments`, kg and lb) in the working weight's unit.
    public mutating func planWarmup(
        _ workoutId: UUID, exercise ref: String, scheme: WarmupScheme, working given: Weight?, increments: (kg: Double, lb: Double)
    ) throws -> (working: Weight, sets: [WarmupRamp.Set], setIds: [UUID], added: Bool) {
        let w = try writableWorkout(workoutId, historyEdit: false)
        let x = try exercise(ref, in: w, active: true)
        let entry = w.entry(forExercise: x.exerciseId)
        let sets = entry.map { e in w.sets.filter { $0.entryId == e.entryId } } ?? []
        if sets.contains(where: { $0.type == .warmup && !$0.completed }) {
            throw Refusal.invalidProgram("\(x.name) has warm-up sets planned already")
        }
        if sets.contains(where: { $0.completed && $0.type.isWorking }) {
            throw Refusal.invalidProgram("\(x.name) has working sets done: warm-ups come before them")
        }
        let planned = sets.first(where: { !$0.completed && $0.type.isWorking && ($0.metrics.weight?.kilograms ?? 0) > 0 })?.metrics.weight
        guard let working = given ?? planned else {
            throw Refusal.workingWeightNeeded(exercise: x.name)
        }
        try WarmupRamp.check(working: working)
        let step = working.unit == .kg ? increments.kg : increments.lb
        let loading = try WarmupRamp.loading(x.definition, plates: account.plateInventory(for: working.unit), step: step)
        let ramp = WarmupRamp.sets(working: working.value, scheme: scheme, unit: working.unit, loading: loading)
        guard !ramp.isEmpty else {
            throw Refusal.invalidProgram(
                "\(working.value.formatted) \(working.unit.rawValue) is too light for a ramp: no warm-up step falls below it")
        }
        let entryId = try entry?.entryId ?? addExercise(workoutId, exercise: x.exerciseId, historyEdit: false)
        var events: [LedgerEvent] = []
        var setIds: [UUID] = []
        for s in ramp {
            var e = SetAdded()
            e.workoutId = workoutId
            e.setId = ids.next()
            e.entryId = entryId
            e.exerciseId = x.exerciseId
            e.type = .warmup
            e.target = SetMetrics(weight: Weight(s.weight, working.unit), reps: s.reps)
            events.append(.setAdded(e))
            setIds.append(e.setId)
        }
        emit(events)
        return (working, ramp, setIds, entry == nil)
    }
}
