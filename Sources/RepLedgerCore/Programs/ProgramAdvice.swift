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

    /// About ten minutes an exercise of 3 sets at DOMAIN.md §12's rests (docs/PROGRAMS.md, "Session length").
    public static let minutesPerExercise = 10

    public static let shortSessionsCode = "shortSessions"

    /// Sessions are shaped to the minutes given, so only priority slots (or a
    /// length under half an hour) can overrun them: said when the split's
    /// longest session needs more minutes than the answers give.
    public static func shortSessions(_ q: QuestionnaireAnswered, split: Split) -> Warning? {
        guard let longest = longestSession(q, split: split), longest.exercises * minutesPerExercise > q.sessionMinutes else { return nil }
        return Warning(
            code: shortSessionsCode, title: "Short sessions",
            message: "\(longest.name) has \(longest.exercises) exercises: about \(longest.exercises * minutesPerExercise) minutes "
                + "with 3 sets and full rests, more than your \(q.sessionMinutes); shorten rests or do the top exercises first.")
    }

    /// The split's session with the most exercises at the answers' length, priority slots counted.
    static func longestSession(_ q: QuestionnaireAnswered, split: Split) -> (name: String, exercises: Int)? {
        SlotTemplates.sessions(split, minutes: q.sessionMinutes)
            .map { s in (s.name, s.slots.count + q.priorityMuscles.filter { s.muscles.contains($0) }.count) }
            .max { $0.1 < $1.1 }
    }

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
        if let split = pick ?? all.first?.split, let short = Self.shortSessions(q, split: split) { warnings.append(short) }
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
