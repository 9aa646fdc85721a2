/// The splits of DOMAIN.md §12 and which one is recommended; which exist
/// for each number of training days, what each is for and their sessions are
/// data (split_templates.json, `SplitTemplateFile`).
public enum Split: String, Sendable, CaseIterable {
    case fullBody = "Full Body"
    case fullBodyX2 = "Full Body x2"
    case upperLower = "Upper Lower"
    case pushPullLegs = "Push Pull Legs"
    case fullBodyX3 = "Full Body x3"
    case twoUpperOneLower = "2 Upper 1 Lower"
    case oneUpperTwoLower = "1 Upper 2 Lower"
    case upperLowerX2 = "Upper Lower x2"
    case pplUpperLower = "PPL Upper Lower"
    case pplX2 = "PPL x2"

    /// The options for a number of days per week (1–6), in the order split_templates.json lists them.
    public static func options(days: Int) -> [Split] { SplitTemplateFile.embedded.options(days: days) }

    /// What the split is and who it suits, for the lifter choosing (split_templates.json).
    public var explanation: String { SplitTemplateFile.embedded.entry(self).explanation }

    public static let upperMuscles: Set<Muscle> = [.chest, .shoulders, .back, .biceps, .triceps, .traps]
    public static let lowerMuscles: Set<Muscle> = [.quads, .hamstrings, .glutes, .calves, .abductors, .adductors]

    /// DOMAIN.md §12's recommendation for the days and the lifter (listed first among the options).
    public static func recommended(days: Int, experience: ExperienceLevel, priority: [Muscle]) -> Split? {
        let beginner = experience == .completeBeginner || experience == .beginner
        switch days {
        case 2: return beginner ? .fullBodyX2 : .upperLower
        case 3:
            if beginner { return .fullBodyX3 }
            if Set(priority).intersection(lowerMuscles).count >= 2 { return .oneUpperTwoLower }
            if Set(priority).intersection(upperMuscles).count >= 2 { return .twoUpperOneLower }
            return .pushPullLegs
        default: return options(days: days).first
        }
    }
}
