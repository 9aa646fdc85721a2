import Foundation

/// How an exercise's weights are made, for rounding a worked-out weight (a
/// warm-up step, a percentage of a max) to one the lifter can load: plates
/// on a bar, or steps of a fixed size (dumbbells, machines, cables).
public enum Loadable: Sendable, Equatable {
    case barbell(bar: Double, plates: [Double])
    case steps(Double)

    /// For an exercise (none named: a barbell): the lifter's bar and `plates` when it uses a barbell, else steps
    /// of `step` (their increment). Nil for work with no load to work out: bodyweight, timed or cardio.
    public static func of(_ x: ExerciseDefined?, plates: (bar: Double, plates: [Double]), step: Double) -> Loadable? {
        guard let x else { return .barbell(bar: plates.bar, plates: plates.plates) }
        guard takesLoad(x) else { return nil }
        return x.equipment.contains(.barbell) ? .barbell(bar: plates.bar, plates: plates.plates) : .steps(step)
    }

    /// Whether `x` is done with a load to work out: not bodyweight, timed or cardio work.
    public static func takesLoad(_ x: ExerciseDefined) -> Bool { !x.isBodyweight && (x.kind == .strength || x.kind == .explosive) }

    /// Why `of` gives none for `x`, in words for a refusal.
    public static func none(_ x: ExerciseDefined) -> String { x.isBodyweight ? "it is done with the body's weight" : "it is timed work" }

    /// The loadable weight nearest `target` (in `unit`), ties to the lighter unless `tiesUp`; on a barbell never
    /// below the bar, off it 0 or more.
    public func nearest(_ target: Double, unit: WeightUnit, tiesUp: Bool = false) -> Double {
        switch self {
        case .barbell(let bar, let plates):
            return max(bar, PlateLoading.nearest(target, unit: unit, bar: bar, plates: plates, tiesUp: tiesUp))
        case .steps(let size):
            let raw = target / size
            let fraction = raw - raw.rounded(.down)
            let up = fraction > 0.5 || (fraction == 0.5 && tiesUp)
            return max(0, ((up ? raw.rounded(.up) : raw.rounded(.down)) * size * 1000).rounded() / 1000)
        }
    }
}
