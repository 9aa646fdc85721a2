/// DOMAIN.md §2 checks on the values of a set, shared by every command that
/// records or edits one.
public enum SetValidation {
    public static let repsRange = 0...1000
    /// The longest note, of a workout, an exercise or a set, the ledger keeps (DOMAIN.md §2).
    public static let noteLimit = 10_000

    /// The one note rule: the deciders and the server's admission of pushed events both call it.
    public static func validateNote(_ text: String?) throws(Refusal) {
        guard let text, text.count > noteLimit else { return }
        throw .noteTooLong(characters: text.count)
    }

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

    /// What a set of each exercise kind must measure (DOMAIN.md §2): strength
    /// and explosive work reps; cardio a duration or a distance; an isometric
    /// hold a duration; mobility reps or a duration; recovery a duration.
    public static func validate(_ m: SetMetrics, kind: ExerciseKind, exercise: String) throws(Refusal) {
        let reps = m.reps != nil, duration = (m.durationSeconds ?? 0) > 0, distance = (m.distanceMeters ?? 0) > 0
        let ok: Bool
        switch kind {
        case .strength, .explosive: ok = reps
        case .cardio: ok = duration || distance
        case .isometric: ok = duration
        case .mobility: ok = reps || duration
        case .recovery: ok = duration
        }
        guard ok else { throw .setLacksMeasure(exercise: exercise, kind: kind) }
    }

    /// What a set of the kind must measure, in words that name no command or option.
    public static func needs(_ kind: ExerciseKind) -> String {
        switch kind {
        case .strength, .explosive: "it needs reps"
        case .cardio: "it needs a duration or a distance"
        case .isometric: "a hold needs a duration"
        case .mobility: "it needs reps or a duration"
        case .recovery: "it needs a duration"
        }
    }

    /// 1–10 in steps of 0.5.
    public static func validateRPE(_ rpe: Double) throws(Refusal) {
        guard rpe.isFinite, rpe >= 1, rpe <= 10, (rpe * 2).rounded() == rpe * 2 else { throw .invalidRPE(rpe) }
    }
}
