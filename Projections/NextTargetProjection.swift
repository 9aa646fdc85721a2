import Foundation
import RepLedgerCore

/// The next session's target for an exercise (DOMAIN.md §14): its progression
/// settings (defaults, then an override for everywhere, then one for the
/// program) applied to its history. Derived at query time, so a changed rule
/// or override re-derives every target (`rebuild --diff` shows the change).
public struct NextTargetProjection: ProjectionView {
    public static let name = "next-target"
    /// 2: a first session has an effort target (RPE); a bodyweight exercise done with no load progresses by reps.
    public static let version = 2

    /// A first session's effort: a weight that leaves two reps in reserve at the top of the range.
    public static let startingRPE = 8.0

    /// Lower-body compounds take the larger default step (5 kg).
    public static let lowerBodyCompounds: Set<String> = ["squat", "machine-squat", "leg-press", "hip-hinge", "lunge", "hip-thrust"]
    public static let plateKg = 1.25
    public static let plateLb = 2.5
    public static let defaultRange = (min: 8, max: 12)

    public struct Settings: Sendable, Equatable {
        public var module: ModuleType
        public var enabled: Bool
        public var rule: ProgressionRule
        public var increment: Weight
        public var repsMin: Int
        public var repsMax: Int
        /// Whether any of it comes from an override event.
        public var overridden: Bool
        /// What the smart default (DOMAIN.md §14) says of `enabled` here: on only for a strength exercise in a
        /// strength module. `enabled` is this unless an override turned it on or off.
        public var smartEnabled: Bool
    }

    public struct Target: Sendable, Equatable {
        public var exerciseId: String
        public var weightKg: Double?
        public var repsMin: Int
        public var repsMax: Int
        public var rule: ProgressionRule
        public var reason: String
        /// A bodyweight exercise (push-ups, pull-ups, dips, planks): its weight is what is added to the body, 0 for none.
        public var bodyweight = false
        /// The target before it was rounded to what the lifter's bar and plates can load (nil when it was loadable as it was).
        public var unroundedKg: Double? = nil
        /// The effort to choose the weight by when there is none to go on (a first session).
        public var rpe: Double? = nil
        /// The lighter session this target is, and why (`DeloadAdvice`): a reactive deload or a comeback after a break.
        public var deload: DeloadAdvice.Suggestion? = nil
        /// In a program's planned week (`ProgramWeekPlan`): the week's sets of the exercise, and a mesocycle's target effort.
        public var sets: Int? = nil
        public var rir: Int? = nil
        /// A program's target as a percentage of a max (`ProgramPercentTargetSet`): what the weight is a share of.
        public var percentOf: PercentBasis? = nil
    }

    /// The max a percentage target was taken of.
    public struct PercentBasis: Sendable, Equatable {
        public var percent: Int
        public var maxKg: Double
        public var source: OneRepMaxSource
        /// When the max was tested, or the workout whose set gave the estimate.
        public var date: Timestamp
        public init(percent: Int, maxKg: Double, source: OneRepMaxSource, date: Timestamp) {
            (self.percent, self.maxKg, self.source, self.date) = (percent, maxKg, source, date)
        }
    }

    /// Whether an exercise is done with the body as its load: every piece of its equipment is the body or a bar to hang from.
    public static func isBodyweight(_ log: TrainingLogProjection, exerciseId: String) -> Bool {
        log.library.exercises[exerciseId]?.definition.isBodyweight ?? false
    }

    public static func defaultModule(_ kind: ExerciseKind) -> ModuleType {
        switch kind {
        case .strength, .isometric: .strength
        case .explosive: .explosive
        case .cardio: .cardio
        case .mobility: .warmup
        case .recovery: .recovery
        }
    }

    /// `moduleDefault`, when given, is the module the exercise has where it is used (a template's module)
    /// unless an override says otherwise; without one, the type of the program day's module that brings it,
    /// else the exercise kind's default.
    public static func settings(
        _ log: TrainingLogProjection, exerciseId: String, programId: UUID?, rules: RuleSet = .default, moduleDefault: ModuleType? = nil
    ) -> Settings {
        let definition = log.library.exercises[exerciseId]?.definition
        let kind = definition?.kind ?? .strength
        let general = log.programs.overrides[exerciseId]?[nil]
        let scoped = programId.flatMap { log.programs.overrides[exerciseId]?[$0] }
        func pick<T>(_ path: KeyPath<ProgressionOverrideSet, T?>) -> T? { scoped?[keyPath: path] ?? general?[keyPath: path] }
        let program = programId.flatMap { id in log.programs.live.first { $0.programId == id } }
        let planned = program?.generated.sessions.flatMap(\.exercises).first { $0.exerciseId == exerciseId }
        // An exercise the program's days have of their own keeps its own settings; a module's applies only to what the module brings.
        let moduleLine = planned == nil ? program?.moduleLine(exerciseId: exerciseId) : nil
        let module = pick(\.module) ?? moduleDefault ?? moduleLine?.module.type ?? defaultModule(kind)
        let unit = log.account.liftingUnit
        let compound = lowerBodyCompounds.contains(definition?.canonicalMovement ?? "")
        let increment =
            pick(\.increment)
            ?? (unit == .lb ? Weight(rules.incrementLb, .lb) : Weight(compound ? rules.incrementKg * 2 : rules.incrementKg, .kg))
        let smart = module == .strength && kind == .strength
        return Settings(
            module: module, enabled: pick(\.enabled) ?? smart,
            rule: pick(\.rule) ?? rules.progressionRule, increment: increment,
            repsMin: pick(\.repsMin) ?? planned?.repsMin ?? moduleLine?.line.repsMin ?? defaultRange.min,
            repsMax: pick(\.repsMax) ?? planned?.repsMax ?? moduleLine?.line.repsMax ?? defaultRange.max,
            overridden: general != nil || scoped != nil, smartEnabled: smart)
    }

    /// One finished session of the exercise: its working sets' weights (kg, 0 for bodyweight) and reps.
    public struct Session: Sendable {
        public var workoutId: UUID
        public var date: Timestamp
        public var setIds: [UUID]
        var sets: [(kg: Double, reps: Int)]
        var top: Double { sets.map(\.kg).max() ?? 0 }
    }

    /// The finished sessions a target is decided from, oldest first (`why target` shows their sets).
    public static func sessions(_ log: TrainingLogProjection, exerciseId: String) -> [Session] {
        log.countedWorkouts.compactMap { w in
            // A deload is lighter on purpose: it is no session to progress from, nor a stall.
            guard w.status == .finished, !w.deload else { return nil }
            let sets = w.sets.filter { $0.completed && $0.exerciseId == exerciseId && $0.type != .warmup && ($0.metrics.reps ?? 0) > 0 }
            guard !sets.isEmpty else { return nil }
            return Session(
                workoutId: w.workoutId, date: w.startedAt!, setIds: sets.map(\.setId),
                sets: sets.map { (kg: $0.weightKg ?? 0, reps: $0.metrics.reps!) })
        }
    }

    /// The next session's one answer for an exercise: a comeback after a break (with `now`, the time asked
    /// at), else a reactive deload when one is due, else the progression rule's target. A lighter session is
    /// the target itself, never a second answer beside it. Reactive deloads are `double`'s: `linear` has its
    /// own (a second miss in a row) and `none` repeats the last session, so neither is deloaded twice.
    public static func next(
        _ log: TrainingLogProjection, exerciseId: String, programId: UUID?, rules: RuleSet = .default, now: Timestamp? = nil
    ) -> Target {
        let bodyweight = isBodyweight(log, exerciseId: exerciseId)
        let s = settings(log, exerciseId: exerciseId, programId: programId, rules: rules)
        var target = decide(log, exerciseId: exerciseId, settings: s, bodyweight: bodyweight)
        target.bodyweight = bodyweight
        guard s.enabled else { return target }
        guard
            let lighter = now.flatMap({ DeloadAdvice.comeback(log, exerciseId: exerciseId, now: $0, rules: rules) })
                ?? (s.rule == .double ? DeloadAdvice.suggestion(log, exerciseId: exerciseId, rules: rules) : nil)
        else { return target }
        target.weightKg = lighter.weightKg
        target.unroundedKg = nil
        target.rpe = nil
        if lighter.kind == .deload { target.sets = lighter.sets }
        (target.repsMin, target.repsMax) = (s.repsMin, s.rule == .linear ? s.repsMin : s.repsMax)
        target.reason = lighter.reason
        target.deload = lighter
        return target
    }

    private static func decide(_ log: TrainingLogProjection, exerciseId: String, settings s: Settings, bodyweight: Bool) -> Target {
        let unit = log.account.liftingUnit
        // No load is the body alone; on a bodyweight exercise a load is added to it.
        func plain(_ kg: Double) -> String {
            unit.words(kilograms: kg)
        }
        func show(_ kg: Double) -> String {
            if kg <= 0 { return "bodyweight" }
            return bodyweight ? "bodyweight + \(plain(kg))" : plain(kg)
        }
        let history = sessions(log, exerciseId: exerciseId)
        guard let last = history.last else {
            guard !bodyweight else {
                return Target(
                    exerciseId: exerciseId, weightKg: nil, repsMin: s.repsMin, repsMax: s.repsMax, rule: s.rule,
                    reason: "no session yet: bodyweight, aim for \(s.repsMax) reps")
            }
            // Nothing to go on: a starting point by effort, which any lifter can find in a warm-up or two.
            return Target(
                exerciseId: exerciseId, weightKg: nil, repsMin: s.repsMin, repsMax: s.repsMax, rule: s.rule,
                reason:
                    "no session yet: start at a weight you could lift \(s.repsMax + 2) times, so \(s.repsMax) reps leave 2 in reserve (RPE \(Self.startingRPE.formatted))",
                rpe: Self.startingRPE)
        }
        let top = last.top
        let lowest = last.sets.map(\.reps).min() ?? 0
        func repeatLast(_ why: String) -> Target {
            Target(
                exerciseId: exerciseId, weightKg: top, repsMin: lowest, repsMax: last.sets.map(\.reps).max() ?? lowest,
                rule: .none, reason: "\(why): repeat the last session, \(show(top)) × \(lowest)")
        }
        guard s.enabled else { return repeatLast("progression is off for this \(s.module.rawValue) exercise") }
        // The body alone: progress by reps, never by a weight the lifter may not have.
        if bodyweight, top <= 0, s.rule != .none { return byReps(last, exerciseId: exerciseId, settings: s) }
        let plate = unit == .lb ? plateLb * WeightUnit.kilogramsPerPound : plateKg
        func up(_ kg: Double) -> Double { ((kg + s.increment.kilograms) / plate).rounded() * plate }
        switch s.rule {
        case .double:
            let sameWeight = last.sets.allSatisfy { abs($0.kg - top) < 1e-6 }
            if sameWeight && lowest >= s.repsMax {
                return Target(
                    exerciseId: exerciseId, weightKg: up(top), repsMin: s.repsMin, repsMax: s.repsMax, rule: .double,
                    reason: "every set reached \(s.repsMax) reps at \(show(top)): add \(plain(s.increment.kilograms)), aim for \(s.repsMin)")
            }
            let target = min(lowest + 1, s.repsMax)
            return Target(
                exerciseId: exerciseId, weightKg: top, repsMin: target, repsMax: s.repsMax, rule: .double,
                reason: "the lowest set was \(lowest) reps at \(show(top)): stay, aim for \(target)")
        case .linear:
            // Walk the history: a session where every working set reached the target is a success; two misses in a row deload.
            enum Outcome { case success, miss, deload }
            var misses = 0, outcome = Outcome.success
            for session in history {
                if session.sets.allSatisfy({ $0.reps >= s.repsMin }) {
                    misses = 0
                    outcome = .success
                } else {
                    misses += 1
                    outcome = misses >= 2 ? .deload : .miss
                    if misses >= 2 { misses = 0 }
                }
            }
            switch outcome {
            case .success:
                return Target(
                    exerciseId: exerciseId, weightKg: up(top), repsMin: s.repsMin, repsMax: s.repsMin, rule: .linear,
                    reason: "every set reached \(s.repsMin) reps at \(show(top)): add \(plain(s.increment.kilograms))")
            case .miss:
                return Target(
                    exerciseId: exerciseId, weightKg: top, repsMin: s.repsMin, repsMax: s.repsMin, rule: .linear,
                    reason: "missed \(s.repsMin) reps at \(show(top)): keep the weight")
            case .deload:
                let deloaded = (top * 0.9 / plate).rounded(.down) * plate
                return Target(
                    exerciseId: exerciseId, weightKg: deloaded, repsMin: s.repsMin, repsMax: s.repsMin, rule: .linear,
                    reason: "missed \(s.repsMin) reps twice in a row at \(show(top)): deload 10 % to \(show(deloaded))")
            }
        case .none:
            return repeatLast("the rule is none")
        }
    }

    /// A bodyweight exercise done with no load: every set at the top of the range asks for more reps (or a
    /// harder variation), a set below it for one more rep than the lowest; no weight is added.
    private static func byReps(_ last: Session, exerciseId: String, settings s: Settings) -> Target {
        let lowest = last.sets.map(\.reps).min() ?? 0
        if lowest >= s.repsMax {
            return Target(
                exerciseId: exerciseId, weightKg: 0, repsMin: lowest + 1, repsMax: lowest + 3, rule: s.rule,
                reason:
                    "every set reached \(lowest) reps at bodyweight: aim for \(lowest + 1), or a harder variation (slower, paused, one side); no weight is added"
            )
        }
        let target = min(lowest + 1, s.repsMax)
        return Target(
            exerciseId: exerciseId, weightKg: 0, repsMin: target, repsMax: s.repsMax, rule: s.rule,
            reason: "the lowest set was \(lowest) reps at bodyweight: aim for \(target)")
    }
}
