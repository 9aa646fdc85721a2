/// The splits of DOMAIN.md §12: which exist for each number of training
/// days, what each is for, and which one is recommended.
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

    /// The options for a number of days per week (1–6), in the order DOMAIN.md lists them.
    public static func options(days: Int) -> [Split] {
        switch days {
        case 1: [.fullBody]
        case 2: [.fullBodyX2, .upperLower]
        case 3: [.pushPullLegs, .fullBodyX3, .twoUpperOneLower, .oneUpperTwoLower]
        case 4: [.upperLowerX2]
        case 5: [.pplUpperLower]
        case 6: [.pplX2]
        default: []
        }
    }

    /// What the split is and who it suits, for the lifter choosing.
    public var explanation: String {
        switch self {
        case .fullBody: "One session that trains every major muscle: the most from a single day a week."
        case .fullBodyX2: "Two full-body sessions: each muscle twice a week, simple to follow; suits beginners."
        case .upperLower: "One upper-body and one lower-body day: more exercises per muscle in each session."
        case .pushPullLegs: "Pressing, pulling and leg days: each session focused, each muscle once a week with more volume."
        case .fullBodyX3: "Three full-body sessions: frequent practice of the main lifts; the classic beginner plan."
        case .twoUpperOneLower: "Two upper-body days and one lower-body day: extra work for chest, back and arms."
        case .oneUpperTwoLower: "One upper-body day and two lower-body days: extra work for legs and glutes."
        case .upperLowerX2: "Upper and lower twice a week: each muscle twice a week with room for volume."
        case .pplUpperLower: "Push, pull and legs, then an upper and a lower day: high volume over five days."
        case .pplX2: "Push, pull and legs twice a week: the most volume, for experienced lifters."
        }
    }

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
