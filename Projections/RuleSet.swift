import Foundation
import RepLedgerCore

/// The seven e1RM formulas of DOMAIN.md §3 (w = weight, r = reps; r = 1 gives w),
/// and `rpe-table`, which reads a set's effort (RPE, or RIR as 10 − RIR)
/// through RTS's table (`RPETable`) and falls back to the rule set's
/// `e1rmRepFormula` for a set without one (`RuleSet.e1rm`).
public enum E1RMFormula: String, Sendable, CaseIterable, Codable {
    case epley, brzycki, lombardi, mayhew, oconner, wathan, lander
    case rpeTable = "rpe-table"

    /// From weight and reps alone; `rpe-table` reads the table at RPE 10 (reps to failure).
    public func estimate(weight w: Double, reps r: Int) -> Double {
        guard r != 1 else { return w }
        if self == .rpeTable, let p = RPETable.percent(reps: r, rpe: 10) { return w * 100 / p }
        let r = Double(r)
        switch self {
        case .rpeTable: return w * (1 + r / 30)  // past the table's reach: Epley
        case .epley: return w * (1 + r / 30)
        case .brzycki: return w * 36 / (37 - r)
        case .lombardi: return w * pow(r, 0.10)
        case .mayhew: return 100 * w / (52.2 + 41.9 * exp(-0.055 * r))
        case .oconner: return w * (1 + r / 40)
        case .wathan: return 100 * w / (48.8 + 53.8 * exp(-0.075 * r))
        case .lander: return 100 * w / (101.3 - 2.67123 * r)
        }
    }
}

/// The record kinds of DOMAIN.md §4.
public enum PRKind: String, Sendable, CaseIterable, Codable {
    case heaviest, e1rm, setVolume, sessionVolume, repMax
    /// Cardio and other timed work: metres, seconds, seconds per km (lower is better), and isometric holds in seconds.
    case longestDistance, longestDuration, bestPace, longestHold

    /// Weight records are in kilograms; the others in their own units.
    public var unit: String {
        switch self {
        case .heaviest, .e1rm, .setVolume, .sessionVolume, .repMax: "kg"
        case .longestDistance: "m"
        case .longestDuration, .longestHold: "s"
        case .bestPace: "s/km"
        }
    }
}

/// Which earlier workouts a hint or rep counter compares with (DOMAIN.md §6).
/// What "last time" is: `exercise`, the last workout with the exercise;
/// `programDay`, the last session of the same program day; `auto` (the
/// default), the program day's last session inside a program workout when
/// it did the exercise, else the exercise's last workout.
public enum HintScope: String, Sendable, CaseIterable, Codable {
    case exercise, programDay, auto
}

/// Rules are data (DOMAIN.md §9): an id and version, loaded from a JSON file,
/// with a documented default. Missing keys take the default's value; unknown
/// keys are refused, so a typo cannot silently leave a rule at its default.
public struct RuleSet: Sendable, Equatable, Codable {
    public var id = "default"
    /// 2: `hintScope` defaults to `auto` (the program day's last session inside a program workout).
    public var version = 2
    public var e1rmFormula = E1RMFormula.epley
    /// e1RM is computed only for 1 ≤ reps ≤ this.
    public var e1rmRepCap = 12
    /// Whether warm-up sets count for PRs, e1RM and volume.
    public var warmupsCount = false
    public var prKinds = PRKind.allCases
    public var hintScope = HintScope.auto
    /// Weight steps the progression prompt suggests, per unit.
    public var incrementKg = 2.5
    public var incrementLb = 5.0
    /// Whether a bodyweight set of a bodyweight exercise (pull-ups, dips) adds the
    /// latest weigh-in at or before it × reps to volume (DOMAIN.md §15). Off: such sets add 0 kg.
    public var bodyweightTonnage = false
    /// The progression rule of exercises with no override (DOMAIN.md §14).
    public var progressionRule = ProgressionRule.double
    /// The formula for a set without an effort when `e1rmFormula` is `rpe-table`.
    public var e1rmRepFormula = E1RMFormula.epley
    /// `next` suggests a deload after this many sessions in a row without a better e1RM (0: never).
    public var deloadAfterStalls = 3
    /// … or when the e1RM fell by more than this percent against the best of the two weeks before (0: never).
    public var deloadE1rmDropPercent = 10.0
    /// A deload's weight and sets, as shares of the last session's top weight and set count (0–1).
    public var deloadIntensity = 0.9
    public var deloadVolume = 0.6
    /// A mesocycle's target effort (reps in reserve) in its first and last accumulation weeks; the weeks between step evenly.
    public var mesocycleStartRIR = 3
    public var mesocycleEndRIR = 0
    /// Sets a mesocycle adds to each muscle's week, per accumulation week after the first (0–5).
    public var mesocycleSetsPerMuscle = 1
    /// The warm-up ramp `warmup` and `workout warmup` plan: a known scheme's name, or a scheme of its own in the file.
    public var warmupScheme = WarmupScheme.standard

    public static let `default` = RuleSet()
    public init() {}

    enum CodingKeys: String, CodingKey, CaseIterable {
        case id, version, e1rmFormula, e1rmRepCap, warmupsCount, prKinds, hintScope, incrementKg, incrementLb, bodyweightTonnage, progressionRule
        case warmupScheme, e1rmRepFormula, deloadAfterStalls, deloadE1rmDropPercent, deloadIntensity, deloadVolume
        case mesocycleStartRIR, mesocycleEndRIR, mesocycleSetsPerMuscle
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let d = RuleSet.default
        id = try c.decodeIfPresent(String.self, forKey: .id) ?? d.id
        version = try c.decodeIfPresent(Int.self, forKey: .version) ?? d.version
        e1rmFormula = try c.decodeIfPresent(E1RMFormula.self, forKey: .e1rmFormula) ?? d.e1rmFormula
        e1rmRepCap = try c.decodeIfPresent(Int.self, forKey: .e1rmRepCap) ?? d.e1rmRepCap
        warmupsCount = try c.decodeIfPresent(Bool.self, forKey: .warmupsCount) ?? d.warmupsCount
        prKinds = try c.decodeIfPresent([PRKind].self, forKey: .prKinds) ?? d.prKinds
        hintScope = try c.decodeIfPresent(HintScope.self, forKey: .hintScope) ?? d.hintScope
        incrementKg = try c.decodeIfPresent(Double.self, forKey: .incrementKg) ?? d.incrementKg
        incrementLb = try c.decodeIfPresent(Double.self, forKey: .incrementLb) ?? d.incrementLb
        bodyweightTonnage = try c.decodeIfPresent(Bool.self, forKey: .bodyweightTonnage) ?? d.bodyweightTonnage
        progressionRule = try c.decodeIfPresent(ProgressionRule.self, forKey: .progressionRule) ?? d.progressionRule
        e1rmRepFormula = try c.decodeIfPresent(E1RMFormula.self, forKey: .e1rmRepFormula) ?? d.e1rmRepFormula
        deloadAfterStalls = try c.decodeIfPresent(Int.self, forKey: .deloadAfterStalls) ?? d.deloadAfterStalls
        deloadE1rmDropPercent = try c.decodeIfPresent(Double.self, forKey: .deloadE1rmDropPercent) ?? d.deloadE1rmDropPercent
        deloadIntensity = try c.decodeIfPresent(Double.self, forKey: .deloadIntensity) ?? d.deloadIntensity
        deloadVolume = try c.decodeIfPresent(Double.self, forKey: .deloadVolume) ?? d.deloadVolume
        mesocycleStartRIR = try c.decodeIfPresent(Int.self, forKey: .mesocycleStartRIR) ?? d.mesocycleStartRIR
        mesocycleEndRIR = try c.decodeIfPresent(Int.self, forKey: .mesocycleEndRIR) ?? d.mesocycleEndRIR
        mesocycleSetsPerMuscle = try c.decodeIfPresent(Int.self, forKey: .mesocycleSetsPerMuscle) ?? d.mesocycleSetsPerMuscle
        // A known scheme by name, or one written out in full.
        if let name = try? c.decodeIfPresent(String.self, forKey: .warmupScheme) {
            warmupScheme = try WarmupScheme.named(name)
        } else {
            warmupScheme = try c.decodeIfPresent(WarmupScheme.self, forKey: .warmupScheme) ?? d.warmupScheme
        }
    }

    public enum LoadError: Error, CustomStringConvertible {
        case unreadable(String, String)
        case invalid(String, String)
        public var description: String {
            switch self {
            case .unreadable(let p, let why): return "cannot read rules file \(p): \(why)"
            case .invalid(let p, let why): return "rules file \(p) is refused: \(why)"
            }
        }
    }

    /// The rule set a `--rules FILE` option names, or the default when none is given.
    public static func load(option path: String?) throws -> RuleSet {
        try path.map { try load(path: $0) } ?? .default
    }

    /// Reads a rule set from JSON, e.g. `{"id":"brzycki-10","version":1,"e1rmFormula":"brzycki","e1rmRepCap":10}`.
    public static func load(path: String) throws -> RuleSet {
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
            throw LoadError.unreadable(path, error.localizedDescription)
        }
        return try load(data, name: path)
    }

    /// Reads a rule set from a rule file's bytes (an upload); `name` is how a refusal names the file.
    public static func load(_ data: Data, name path: String) throws -> RuleSet {
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw LoadError.invalid(path, "it is not a JSON object")
        }
        let known = Set(CodingKeys.allCases.map(\.rawValue))
        if let unknown = object.keys.sorted().first(where: { !known.contains($0) }) {
            throw LoadError.invalid(path, "unknown key '\(unknown)'; known keys: \(known.sorted().joined(separator: ", "))")
        }
        let rules: RuleSet
        do { rules = try JSONDecoder().decode(RuleSet.self, from: data) } catch let refusal as Refusal {
            throw LoadError.invalid(path, refusal.description)
        } catch {
            throw LoadError.invalid(path, "\(error)")
        }
        if let problem = rules.warmupScheme.problem { throw LoadError.invalid(path, problem) }
        for (key, factor) in [("deloadIntensity", rules.deloadIntensity), ("deloadVolume", rules.deloadVolume)] where !(factor > 0 && factor <= 1) {
            throw LoadError.invalid(path, "\(key) \(factor.formatted) is refused: a deload factor is above 0 and at most 1")
        }
        guard (0...20).contains(rules.deloadAfterStalls) else { throw LoadError.invalid(path, "deloadAfterStalls must be 0…20 (0: never)") }
        guard (0...50).contains(rules.deloadE1rmDropPercent) else { throw LoadError.invalid(path, "deloadE1rmDropPercent must be 0…50 (0: never)") }
        guard (0...5).contains(rules.mesocycleStartRIR), (0...rules.mesocycleStartRIR).contains(rules.mesocycleEndRIR) else {
            throw LoadError.invalid(path, "mesocycleStartRIR must be 0…5 and mesocycleEndRIR 0…mesocycleStartRIR (effort rises through a block)")
        }
        guard (0...5).contains(rules.mesocycleSetsPerMuscle) else { throw LoadError.invalid(path, "mesocycleSetsPerMuscle must be 0…5") }
        guard rules.e1rmRepFormula != .rpeTable else {
            throw LoadError.invalid(path, "e1rmRepFormula is the formula for sets without an effort: give one of reps alone, not rpe-table")
        }
        guard (1...30).contains(rules.e1rmRepCap) else { throw LoadError.invalid(path, "e1rmRepCap must be 1…30") }
        guard !rules.id.isEmpty else { throw LoadError.invalid(path, "id must not be empty") }
        return rules
    }

    /// The e1RM of a set of `reps` at `kg`: under `rpe-table`, from its effort (`rpe`, nil for none) while the
    /// table reaches it, else from the reps by `e1rmRepFormula`; under any other formula, from the reps by it.
    @inline(__always)
    public func e1rm(kg: Double, reps: Int, rpe: () -> Double?) -> Double {
        guard e1rmFormula == .rpeTable else { return e1rmFormula.estimate(weight: kg, reps: reps) }
        if let rpe = rpe(), let p = RPETable.percent(reps: reps, rpe: rpe) { return kg * 100 / p }
        return e1rmRepFormula.estimate(weight: kg, reps: reps)
    }

    /// Whether a completed set of this type counts for records, e1RM and volume.
    @inline(__always)
    public func counts(_ type: SetType) -> Bool { type.isWorking || warmupsCount }
}

extension ProgressionRule: Codable {}
