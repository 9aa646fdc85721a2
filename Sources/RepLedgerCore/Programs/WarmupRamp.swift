import Foundation

/// A warm-up scheme: the steps up to a working weight, each a share of it
/// (or the empty bar) and a number of reps. A rule (`warmupScheme` in a rule
/// set), so a lifter who changes it can see what it changes.
public struct WarmupScheme: Sendable, Equatable, Codable {
    public struct Step: Sendable, Equatable, Codable {
        /// Percent of the working weight, 1–99; nil: the bar alone.
        public var percent: Int?
        public var reps: Int
        public init(percent: Int?, reps: Int) {
            self.percent = percent
            self.reps = reps
        }
    }

    public var name: String
    public var steps: [Step]

    public init(name: String, steps: [Step]) {
        self.name = name
        self.steps = steps
    }

    /// The bar × 10, 40 % × 5, 60 % × 3, 80 % × 1: a ramp most lifters know.
    public static let standard = WarmupScheme(
        name: "standard", steps: [Step(percent: nil, reps: 10), Step(percent: 40, reps: 5), Step(percent: 60, reps: 3), Step(percent: 80, reps: 1)])
    /// Fewer, lighter steps, for a lift that is not the day's main one.
    public static let light = WarmupScheme(
        name: "light", steps: [Step(percent: nil, reps: 10), Step(percent: 50, reps: 5), Step(percent: 75, reps: 2)])
    /// More steps with fewer reps near the top, for heavy singles and triples.
    public static let heavy = WarmupScheme(
        name: "heavy",
        steps: [
            Step(percent: nil, reps: 10), Step(percent: 40, reps: 5), Step(percent: 55, reps: 3), Step(percent: 70, reps: 2),
            Step(percent: 80, reps: 1), Step(percent: 90, reps: 1),
        ])

    /// The named schemes, the default first.
    public static let known: [WarmupScheme] = [.standard, .light, .heavy]

    /// A known scheme by name (any case), refused with the names when unknown.
    public static func named(_ name: String) throws(Refusal) -> WarmupScheme {
        let key = name.trimmingSpaces().lowercased()
        guard let s = known.first(where: { $0.name == key }) else {
            throw .invalidProgram("no warm-up scheme '\(name)'; schemes: \(known.map(\.name).joined(separator: ", "))")
        }
        return s
    }

    /// Why a scheme written in a rules file is refused, if it is.
    public var problem: String? {
        if name.trimmingSpaces().isEmpty { return "a warm-up scheme needs a name" }
        if !(1...10).contains(steps.count) { return "a warm-up scheme has 1 to 10 steps" }
        if let bad = steps.first(where: { s in s.percent.map { !(1...99).contains($0) } ?? false }) {
            return "a warm-up step of \(bad.percent!) % is refused: give 1 to 99 % of the working weight"
        }
        if steps.contains(where: { !(1...30).contains($0.reps) }) { return "a warm-up step takes 1 to 30 reps" }
        return nil
    }
}

/// The warm-up sets before a working weight, every weight one the lifter
/// can load: on a barbell, the nearest their bar and plates make (ties to
/// the lighter), never below the bar; otherwise the nearest step of the
/// lifter's increment. A step that comes out no heavier than the one before
/// it, or at the working weight or above, is left out, so a light working
/// weight gets a short ramp rather than repeated sets.
public enum WarmupRamp {
    public struct Set: Sendable, Equatable {
        /// In the working weight's unit.
        public var weight: Double
        public var reps: Int
        /// The scheme's percent (nil: the bar alone).
        public var percent: Int?
    }

    /// How an exercise's weights load, for its ramp; refused for work that takes none (bodyweight, timed).
    public static func loading(_ x: ExerciseDefined?, plates: (bar: Double, plates: [Double]), step: Double) throws(Refusal) -> Loadable {
        guard let loading = Loadable.of(x, plates: plates, step: step) else {
            throw .invalidProgram("\(x?.name ?? "it") takes no warm-up ramp: \(x.map(Loadable.none) ?? "")")
        }
        return loading
    }

    /// A working weight a ramp can lead to: a weight, above 0.
    public static func check(working: Weight) throws(Refusal) {
        try working.validate()
        guard working.kilograms > 0 else { throw .invalidProgram("a working weight of 0 takes no warm-up: give one above 0") }
    }

    /// The ramp up to `working` (in `unit`) under `scheme`.
    public static func sets(working: Double, scheme: WarmupScheme, unit: WeightUnit, loading: Loadable) -> [Set] {
        var out: [Set] = []
        for step in scheme.steps {
            let weight: Double
            switch (step.percent, loading) {
            case (nil, .barbell(let bar, _)): weight = bar
            case (nil, .steps): continue  // no bar to start from
            case (let p?, _): weight = loading.nearest(working * Double(p) / 100, unit: unit)
            }
            guard weight > 0, weight < working - 1e-9, weight > (out.last?.weight ?? 0) + 1e-9 || out.isEmpty else { continue }
            out.append(Set(weight: (weight * 1000).rounded() / 1000, reps: step.reps, percent: step.percent))
        }
        return out
    }
}
