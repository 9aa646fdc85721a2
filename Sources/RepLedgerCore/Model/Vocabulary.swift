// The closed vocabularies of DOMAIN.md. Each is stored by its raw string, so
// adding a case never changes how existing events decode.

/// DOMAIN.md §2. `normal` is a working set.
public enum SetType: String, Sendable, CaseIterable, PayloadEnum {
    case normal, warmup, drop, failure

    /// Parses the CLI spelling; refuses anything else (DOMAIN.md §2).
    public static func parse(_ text: String) throws(Refusal) -> SetType {
        guard let t = SetType(rawValue: text.lowercased()) else { throw .unknownSetType(text) }
        return t
    }

    public var isWorking: Bool { self != .warmup }

    /// Whether a set logged as this type completes a set planned as `planned`:
    /// its own type, and a working set either way between normal and to
    /// failure (failure is how a set ended, so a routine repeated from a
    /// workout plans it; the lifter's type is what is recorded).
    public func fills(planned: SetType) -> Bool {
        self == planned || (self == .normal && planned == .failure) || (self == .failure && planned == .normal)
    }
}

/// Which metrics a set of an exercise carries (DOMAIN.md §2).
public enum ExerciseKind: String, Sendable, CaseIterable, PayloadEnum {
    case strength, cardio, isometric, mobility, explosive, recovery
}

public enum Muscle: String, Sendable, CaseIterable, PayloadEnum {
    case chest, shoulders, back, lats, biceps, triceps, traps, forearms
    case abs, obliques, lowerBack
    case quads, hamstrings, glutes, calves, abductors, adductors
    case neck, fullBody, cardio
}

public enum Equipment: String, Sendable, CaseIterable, PayloadEnum {
    case barbell, dumbbell, kettlebell, machine, cable, bodyweight, band
    case smithMachine, ezBar, trapBar, pullUpBar, bench, cardioMachine, other
}

/// What kind of session a workout is (a watch records runs and rides too).
public enum WorkoutActivity: String, Sendable, CaseIterable, PayloadEnum {
    case strength, running, walking, hiking, cycling, rowing, swimming, elliptical, stairs, hiit, yoga, mobility, other
}

/// How a workout came to be (DOMAIN.md §12–13).
public enum WorkoutOrigin: String, Sendable, CaseIterable, PayloadEnum {
    case empty, template, programDay
}

public enum BodyweightDisplay: String, Sendable, CaseIterable, PayloadEnum {
    case kg, lb, stoneLb
}

public enum HealthSampleKind: String, Sendable, CaseIterable, PayloadEnum {
    case heartRate, activeEnergy
}

/// The store products of DOMAIN.md §10.
public enum Product: String, Sendable, CaseIterable, PayloadEnum {
    case proMonthly = "repledger_pro_monthly"
    case proAnnual = "repledger_pro_annual"
    case coachMonthly = "repledger_coach_monthly"
    case coachAnnual = "repledger_coach_annual"

    /// Every product grants Pro; these two grant Coach as well.
    public var grantsCoach: Bool { self == .coachMonthly || self == .coachAnnual }
}

public enum ExperienceLevel: String, Sendable, CaseIterable, PayloadEnum {
    case completeBeginner, beginner, intermediate, advanced
}

public enum TrainingGoal: String, Sendable, CaseIterable, PayloadEnum {
    case strength, muscle, fatLoss
}

public enum ImportSource: String, Sendable, CaseIterable, PayloadEnum {
    case strong, hevy, fitnotes, jsonl, demo
}
