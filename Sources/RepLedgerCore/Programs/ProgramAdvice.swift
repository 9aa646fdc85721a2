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
        /// The choices the seed's modal offers, in its words (none for the project's own notices).
        public var actions: [String] = []
    }

    /// Said with a program whose generation had to repeat display names across sessions: seed 001's modal
    /// (§4.4's words, §5.1's title).
    public static let repeatWarning = Warning(
        code: "repeatWarning", title: "Program Generation Notice",
        message:
            "Your programme includes some repeated exercises across days due to limited equipment. "
            + "Would you like to go back and add more equipment, or proceed?",
        actions: ["Add equipment", "Proceed anyway"])

    /// Seed 001 §5.1's pre-generation warning, for two or fewer equipment categories (the body is not one).
    public static let limitedEquipment = Warning(
        code: "limitedEquipment", title: "Limited Equipment",
        message:
            "Selecting only one equipment type may limit your exercise variety and program effectiveness. "
            + "For the best results, we recommend adding at least one more equipment category.",
        actions: ["Add More Equipment", "Continue Anyway"])

    /// The muscles of the split's week that the lifter's equipment and level
    /// give fewer exercises than the week has places for, with how many each
    /// has and needs, in the order the week first trains them.
    public static func thinMuscles(
        _ q: QuestionnaireAnswered, split: Split, library: LibraryState
    ) -> [(muscle: Muscle, found: Int, needed: Int)] {
        let pool = ProgramGenerator.pool(
            library, level: ProgramGenerator.level(q.experience), owned: Set(q.equipment).union(ProgramGenerator.alwaysAvailable))
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

    /// A program's longest day as written (`SessionTime`) when it runs past `minutes`: the strength block's days are
    /// fitted by time, and only a day of main lifts alone can still overrun.
    public static func shortSessions(_ program: ProgramGenerated, minutes: Int) -> Warning? {
        let days = program.sessions.map { (name: $0.name, seconds: SessionTime.seconds($0), exercises: $0.exercises.count) }
        guard let longest = days.max(by: { $0.seconds < $1.seconds }), longest.seconds > minutes * 60 else { return nil }
        return Warning(
            code: shortSessionsCode, title: "Short sessions",
            message: "\(longest.name) takes about \(SessionTime.minutes(seconds: longest.seconds)) minutes with its \(longest.exercises) "
                + "main lifts at full rests, more than your \(minutes); shorten rests or do the top exercises first.")
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
        if categories.count <= 2 { warnings.append(Self.limitedEquipment) }
        if !thin.isEmpty { warnings.append(Self.fewExercises(thin)) }
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

    public static let fewExercisesCode = "fewExercises"

    /// The project's own notice (the seed has none this precise): the muscles of the recommended week that the
    /// equipment and level leave short, one sentence each: none at all, or fewer than the week needs.
    public static func fewExercises(_ thin: [(muscle: Muscle, found: Int, needed: Int)]) -> Warning {
        let lines = thin.map { t in
            t.found == 0
                ? "No exercises available for \(t.muscle.rawValue). Check your equipment selection."
                : "Only found \(t.found) of \(t.needed) exercises for \(t.muscle.rawValue)."
        }
        return Warning(code: fewExercisesCode, title: "Few exercises for some muscles", message: lines.joined(separator: " "))
    }
}
