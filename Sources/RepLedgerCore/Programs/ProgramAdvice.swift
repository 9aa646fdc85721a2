/// What the questionnaire answers with (DOMAIN.md §12): the split options for
/// the days, recommended first, each with its explanation, and warnings as data.
public struct ProgramAdvice: Sendable, Equatable {
    public struct Option: Sendable, Equatable {
        public var split: Split
        public var message: String
        public var recommended: Bool
    }

    public struct Warning: Sendable, Equatable {
        public var code: String
        public var title: String
        public var message: String
    }

    /// Said with a program whose generation had to repeat display names across sessions.
    public static let repeatWarning = Warning(
        code: "repeatWarning", title: "Exercises repeat across days",
        message: "Not enough different exercises for your equipment and experience: some exercises appear on more than one day.")

    public var options: [Option]
    public var warnings: [Warning]
    public var recommended: [Split] { options.filter(\.recommended).map(\.split) }

    public init(_ q: QuestionnaireAnswered) {
        let pick = Split.recommended(days: q.daysPerWeek, experience: q.experience, priority: q.priorityMuscles)
        let all = Split.options(days: q.daysPerWeek).map { Option(split: $0, message: $0.explanation, recommended: $0 == pick) }
        options = all.filter(\.recommended) + all.filter { !$0.recommended }
        warnings = []
        let categories = Set(q.equipment).subtracting(ProgramGenerator.alwaysAvailable)
        if categories.count <= 2 {
            warnings.append(
                Warning(
                    code: "limitedEquipment", title: "Limited equipment",
                    message: "With \(categories.isEmpty ? "no equipment" : categories.map(\.rawValue).sorted().joined(separator: " and ")) "
                        + "some muscles have few exercises: a program may repeat exercises across days or not be possible."))
        }
        if q.sessionMinutes < 45 {
            warnings.append(
                Warning(
                    code: "shortSessions", title: "Short sessions",
                    message: "A session of 5–6 exercises with 3 sets and full rests takes about 60 minutes; "
                        + "in \(q.sessionMinutes) minutes, shorten rests or do the top exercises first."))
        }
        if !q.injuries.isEmpty {
            warnings.append(
                Warning(
                    code: "injuries", title: "Injuries noted",
                    message: "Exercises that load an injured area are flagged, not removed: check them with a professional."))
        }
        if q.experience == .completeBeginner && q.daysPerWeek >= 5 {
            warnings.append(
                Warning(
                    code: "highFrequency", title: "Many days for a first program",
                    message: "Five or six days a week is a lot to recover from when starting; three is plenty."))
        }
    }
}
