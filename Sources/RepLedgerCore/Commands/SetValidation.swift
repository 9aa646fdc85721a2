/// DOMAIN.md §2 checks on the values of a set, shared by every command that
/// records or edits one.
public enum SetValidation {
    public static let repsRange = 0...1000

    public static func validate(_ m: SetMetrics) throws(Refusal) {
        if let w = m.weight { try w.validate() }
        if let r = m.reps, !repsRange.contains(r) { throw .repsOutOfRange(r) }
        if let rpe = m.rpe { try validateRPE(rpe) }
        if let d = m.durationSeconds, !(d.isFinite && d >= 0 && d <= 86_400) {
            throw .invalidMeasure("duration \(d.formatted) s", reason: "give 0 to 86400 seconds")
        }
        if let d = m.distanceMeters, !(d.isFinite && d >= 0 && d <= 1_000_000) {
            throw .invalidMeasure("distance \(d.formatted) m", reason: "give 0 to 1000000 metres")
        }
    }

    /// 1–10 in steps of 0.5.
    public static func validateRPE(_ rpe: Double) throws(Refusal) {
        guard rpe.isFinite, rpe >= 1, rpe <= 10, (rpe * 2).rounded() == rpe * 2 else { throw .invalidRPE(rpe) }
    }
}
