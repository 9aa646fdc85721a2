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

    /// Said with a program whose generation had to repeat display names across sessions (the seed's words).
    public static let repeatWarning = Warning(
        code: "repeatWarning", title: "Exercise Selection Notice", message: "Some exercises repeated due to limited equipment variety.")

    /// The muscles of the split's week that the lifter's equipment and level
    /// give fewer exercises than the week has places for, with how many each
    /// has and needs, in the order the week first trains them.
    public static func thinMuscles(
        _ q: QuestionnaireAnswered, split: Split, library: LibraryState
    ) -> [(muscle: Muscle, found: Int, needed: Int)] {
        let pool = ProgramGenerator.pool(
            library, level: ProgramGenerator.level(q.experience), owned: Set(q.equipment).union(ProgramGenerator.alwaysAvailable),
            mainLifts: true)
        var needed: [(Muscle, Int)] = []
        for session in SlotTemplates.sessions(split, minutes: q.sessionMinutes) {
            for m in session.muscles + q.priorityMuscles.filter(session.muscles.contains) {
                if let i = needed.firstIndex(where: { $0.0 == m }) { needed[i].1 += 1 } else { needed.append((m, 1)) }
            }
        }
        return needed.compactMap { m, n in
            // As the generator fills a slot: a primary muscle, or else a secondary one.
            let found = pool.filter { ProgramGenerator.fit($0, .init(session: 0, muscle: m, extra: false), upperOnly: false) != nil }.count
            return found < n ? (m, found, n) : nil
        }
    }

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

    /// The advice for the answers; given the lifter's library, the
    /// limited-equipment warning names the muscles it leaves short.
    public init(_ q: QuestionnaireAnswered, library: LibraryState? = nil) {
        let pick = Split.recommended(days: q.daysPerWeek, experience: q.experience, priority: q.priorityMuscles)
        let all = Split.options(days: q.daysPerWeek).map { Option(split: $0, message: $0.explanation, recommended: $0 == pick) }
        options = all.filter(\.recommended) + all.filter { !$0.recommended }
        warnings = []
        let categories = Set(q.equipment).subtracting(ProgramGenerator.alwaysAvailable)
        let split = pick ?? all.first?.split
        let thin = library.flatMap { lib in split.map { Self.thinMuscles(q, split: $0, library: lib) } } ?? []
        if categories.count <= 2 || !thin.isEmpty {
            warnings.append(Self.limitedEquipment(thin, categories: categories))
        }
        if let split, let short = Self.shortSessions(q, split: split) { warnings.append(short) }
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

    /// The seed's words, one sentence per short muscle: none at all, fewer
    /// than the week needs; without a library (or none short), the equipment.
    static func limitedEquipment(_ thin: [(muscle: Muscle, found: Int, needed: Int)], categories: Set<Equipment>) -> Warning {
        let lines = thin.map { t in
            t.found == 0
                ? "No exercises available for \(t.muscle.rawValue). Check your equipment selection."
                : "Only found \(t.found) of \(t.needed) exercises for \(t.muscle.rawValue)."
        }
        let equipment = categories.isEmpty ? "bodyweight only" : categories.map(\.rawValue).sorted().joined(separator: " and ")
        return Warning(
            code: "limitedEquipment", title: "Exercise Selection Notice",
            message: lines.isEmpty ? "Limited exercise variety with selected equipment (\(equipment))." : lines.joined(separator: " "))
    }
}
