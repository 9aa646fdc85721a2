import Foundation

/// The scale a lifter reads effort in.
public enum EffortScale: String, Sendable, CaseIterable, PayloadEnum {
    case rpe, rir
}

/// Effort as lifters write it: RPE 1–10 or reps in reserve 0–9, in halves,
/// one derivable from the other (RPE = 10 − RIR); and tempo.
public enum Effort {
    /// The RPE a set's effort amounts to: as entered, else derived from its RIR.
    public static func rpe(entered rpe: Double?, rir: Double?) -> Double? { rpe ?? rir.map { 10 - $0 } }
    /// The RIR a set's effort amounts to: as entered, else derived from its RPE.
    public static func rir(entered rir: Double?, rpe: Double?) -> Double? { rir ?? rpe.map { 10 - $0 } }

    /// RIR 0–9 in steps of 0.5 (RIR 9 is RPE 1, the easiest RPE has).
    public static func check(rir: Double) throws(Refusal) {
        guard rir.isFinite, rir >= 0, rir <= 9, (rir * 2).rounded() == rir * 2 else {
            throw .invalidMeasure("RIR \(rir.formatted)", reason: "give reps in reserve from 0 to 9, in steps of 0.5")
        }
    }

    /// A tempo as typed, `3-1-1-0`, `3110` or `31X0`, in its stored form `3-1-X-0`:
    /// four phases (down, pause, up, pause), each 0–9 seconds or X (explosive).
    public static func tempo(_ text: String) throws(Refusal) -> String {
        let t = text.trimmingSpaces().uppercased()
        let parts = t.contains("-") ? t.split(separator: "-", omittingEmptySubsequences: false).map(String.init) : t.map { String($0) }
        guard parts.count == 4, parts.allSatisfy({ $0 == "X" || ($0.count == 1 && $0.first!.isASCII && $0.first!.isNumber) }) else {
            throw .invalidMeasure("tempo '\(text)'", reason: "give four phases, each 0–9 seconds or X, e.g. 3-1-1-0 or 31X0")
        }
        return parts.joined(separator: "-")
    }
}
