import Foundation
import RepLedgerCore

/// `warmup` and `workout warmup`: a ramp up to a working weight, as the CLI
/// prints it and its `--json` answers.
public enum WarmupQuery {
    /// `{"working":{"value","unit","kg"},"scheme","sets":[{"weight","unit","weightKg","reps","percent","bar"}],"setIds"?}`.
    public static func document(
        working: Weight, scheme: WarmupScheme, sets: [WarmupRamp.Set], exerciseId: String?, setIds: [UUID]? = nil
    ) -> JSONValue {
        var fields: [(String, JSONValue)] = [
            (
                "working",
                .object([("value", .number(working.value)), ("unit", .string(working.unit.rawValue)), ("kg", .number(working.kilograms))])
            ),
            ("exerciseId", .optional(exerciseId)), ("scheme", .string(scheme.name)),
            (
                "sets",
                .array(
                    sets.map { s in
                        .object([
                            ("weight", .number(s.weight)), ("unit", .string(working.unit.rawValue)),
                            ("weightKg", .number(Weight(s.weight, working.unit).kilograms)), ("reps", .int(Int64(s.reps))),
                            ("percent", .optional(s.percent)), ("bar", .bool(s.percent == nil)),
                        ])
                    })
            ),
        ]
        if let setIds { fields.append(("setIds", .array(setIds.map { .string($0.lowercased) }))) }
        return .object(fields)
    }

    /// One line per step: `20 kg × 10 (the bar)`, `55 kg × 5 (40 %)`.
    public static func lines(_ sets: [WarmupRamp.Set], unit: WeightUnit) -> [String] {
        sets.map { s in "\(s.weight.formatted) \(unit.rawValue) × \(s.reps)  (\(s.percent.map { "\($0) %" } ?? "the bar"))" }
    }
}
