/// Loading a barbell (USER-GUIDE.md `ledger plates`): the plates on each side for a
/// weight, and when it cannot be loaded exactly with the plates at hand, the
/// nearest loadable weights below and above it. Plates come in pairs and in
/// any number; among the loads of one weight the fewest plates win, then the
/// heavier ones. Everything is in one unit, the plates'.
public struct PlateLoading: Sendable, Equatable {
    /// One plate size on a side, and how many of it.
    public struct Plates: Sendable, Equatable {
        public var plate: Double
        public var count: Int
    }

    /// A loadable weight: the bar and `perSide` on each side.
    public struct Load: Sendable, Equatable {
        public var total: Double
        /// Heaviest plate first; empty for the bar alone.
        public var perSide: [Plates]
    }

    public var unit: WeightUnit
    public var target: Double
    public var bar: Double
    public var plates: [Double]
    /// The target itself, when it can be loaded.
    public var exact: Load?
    /// The heaviest loadable weight under the target (nil when exact, or when the target is under the bar).
    public var below: Load?
    /// The lightest loadable weight over the target (nil when exact).
    public var above: Load?

    /// The plates a gym has, by unit.
    public static func defaultPlates(_ unit: WeightUnit) -> [Double] { unit == .kg ? [25, 20, 15, 10, 5, 2.5, 1.25] : [45, 35, 25, 10, 5, 2.5] }
    /// An Olympic bar: 20 kg, or 45 lb.
    public static func defaultBar(_ unit: WeightUnit) -> Double { unit == .kg ? 20 : 45 }

    /// Weights are worked in thousandths of the unit, so every plate a gym sells is a whole number of them.
    static let scale = 1000.0

    /// How to load `target` on `bar` with `plates` (each available in pairs, as many as needed).
    public static func load(_ target: Double, unit: WeightUnit, bar: Double, plates: [Double]) throws(Refusal) -> PlateLoading {
        func units(_ value: Double, _ what: String) throws(Refusal) -> Int {
            let scaled = (value * scale).rounded()
            guard value.isFinite, value >= 0, abs(value * scale - scaled) < 1e-6, scaled < 1e9 else {
                throw .invalidMeasure("\(what) \(value.formatted) \(unit.rawValue)", reason: "give a weight in steps of 0.001 \(unit.rawValue)")
            }
            return Int(scaled)
        }
        let sizes = Array(Set(try plates.map { p throws(Refusal) in try units(p, "plate") })).sorted(by: >)
        guard !sizes.isEmpty, sizes.allSatisfy({ $0 > 0 }) else {
            throw .invalidMeasure("the plate list", reason: "give at least one plate heavier than 0, e.g. 25, 20, 10, 5 and 2.5")
        }
        let t = try units(target, "the weight"), b = try units(bar, "the bar")
        // Per side, in steps of the plates' greatest common divisor: the loads any plates can make.
        let step = sizes.reduce(0, gcd)
        let wanted = t - b  // both sides together
        let reach = max(0, wanted) / 2 / step + sizes[0] / step + 1
        let best = fewestPlates(upTo: reach, sizes: sizes.map { $0 / step })
        func load(_ k: Int) -> Load {
            var perSide: [Plates] = []
            for size in best[k] ?? [] {
                let plate = Double(size * step) / scale
                if perSide.last?.plate == plate { perSide[perSide.count - 1].count += 1 } else { perSide.append(Plates(plate: plate, count: 1)) }
            }
            return Load(total: Double(b + 2 * k * step) / scale, perSide: perSide)
        }
        var answer = PlateLoading(unit: unit, target: target, bar: bar, plates: sizes.map { Double($0) / scale })
        if wanted >= 0, wanted % (2 * step) == 0, best[wanted / 2 / step] != nil {
            answer.exact = load(wanted / 2 / step)
            return answer
        }
        if wanted > 0 {
            // The largest side load k with bar + 2·k·step < target.
            let under = (wanted - 1) / (2 * step)
            answer.below = (0...under).reversed().first { best[$0] != nil }.map(load)
        }
        let over = wanted < 0 ? 0 : wanted / (2 * step) + 1
        answer.above = (over...reach).first { best[$0] != nil }.map(load)
        return answer
    }

    /// The loadable weight nearest `target` (the target itself when it loads), ties to the heavier when `tiesUp`,
    /// else to the lighter; the bar when the target is under it. The target when nothing loads it (plates refused).
    public static func nearest(_ target: Double, unit: WeightUnit, bar: Double, plates: [Double], tiesUp: Bool) -> Double {
        let wanted = (target * scale).rounded() / scale
        guard let loading = try? load(wanted, unit: unit, bar: bar, plates: plates) else { return target }
        if let exact = loading.exact { return exact.total }
        let options = [loading.below, loading.above].compactMap { $0?.total }
        return options.min { a, b in
            let da = abs(a - wanted), db = abs(b - wanted)
            return da < db || (da == db && (tiesUp ? a > b : a < b))
        } ?? wanted
    }

    /// For each side load 0…`n` (in steps), the plates that make it: fewest
    /// first, then heaviest first; nil where no plates make it.
    static func fewestPlates(upTo n: Int, sizes: [Int]) -> [[Int]?] {
        var best: [[Int]?] = Array(repeating: nil, count: n + 1)
        best[0] = []
        guard n > 0 else { return best }
        for k in 1...n {
            for size in sizes where size <= k {
                guard let rest = best[k - size] else { continue }
                let candidate = (rest + [size]).sorted(by: >)
                if let current = best[k],
                    current.count < candidate.count
                        || (current.count == candidate.count && !current.lexicographicallyPrecedes(candidate, by: <))
                {
                    continue
                }
                best[k] = candidate
            }
        }
        return best
    }

    private static func gcd(_ a: Int, _ b: Int) -> Int { b == 0 ? a : gcd(b, a % b) }
}
