import RepLedgerCore

/// Garmin's exercise categories (the FIT profile's `exercise_category`, 21.218), by the number a FIT
/// file writes. A set in Garmin Connect shows under its category; `unknown` (65534) is never written.
public enum GarminExerciseCategory: UInt16, Sendable, CaseIterable {
    case benchPress = 0
    case calfRaise, cardio, carry, chop, core, crunch, curl, deadlift, flye, hipRaise, hipStability, hipSwing
    case hyperextension, lateralRaise, legCurl, legRaise, lunge, olympicLift, plank, plyo, pullUp, pushUp, row, shoulderPress
    case shoulderStability, shrug, sitUp, squat, totalBody, tricepsExtension, warmUp, run, bike
    case elliptical = 39
    case indoorRow = 42
    case sled = 45
    case stairStepper = 47

    /// The profile's name for it, as Garmin's SDK decodes it.
    public var fitName: String {
        switch self {
        case .benchPress: "bench_press"
        case .calfRaise: "calf_raise"
        case .cardio: "cardio"
        case .carry: "carry"
        case .chop: "chop"
        case .core: "core"
        case .crunch: "crunch"
        case .curl: "curl"
        case .deadlift: "deadlift"
        case .flye: "flye"
        case .hipRaise: "hip_raise"
        case .hipStability: "hip_stability"
        case .hipSwing: "hip_swing"
        case .hyperextension: "hyperextension"
        case .lateralRaise: "lateral_raise"
        case .legCurl: "leg_curl"
        case .legRaise: "leg_raise"
        case .lunge: "lunge"
        case .olympicLift: "olympic_lift"
        case .plank: "plank"
        case .plyo: "plyo"
        case .pullUp: "pull_up"
        case .pushUp: "push_up"
        case .row: "row"
        case .shoulderPress: "shoulder_press"
        case .shoulderStability: "shoulder_stability"
        case .shrug: "shrug"
        case .sitUp: "sit_up"
        case .squat: "squat"
        case .totalBody: "total_body"
        case .tricepsExtension: "triceps_extension"
        case .warmUp: "warm_up"
        case .run: "run"
        case .bike: "bike"
        case .elliptical: "elliptical"
        case .indoorRow: "indoor_row"
        case .sled: "sled"
        case .stairStepper: "stair_stepper"
        }
    }

    /// An exercise's category: the library's movement pattern by the table, else words of its name
    /// (an imported exercise's movement is its own name), else its first muscle, else total body.
    public static func of(_ e: ExerciseDefined) -> GarminExerciseCategory {
        byMovement[e.canonicalMovement] ?? byName(e.name) ?? (e.kind == .cardio ? .cardio : nil)
            ?? e.primaryMuscles.lazy.compactMap { byMuscle[$0] }.first ?? .totalBody
    }

    /// Every movement pattern of the built-in library (a test holds the two together).
    public static let byMovement: [String: GarminExerciseCategory] = [
        "squat": .squat, "machine-squat": .squat, "leg-press": .squat, "quads-push-compound": .squat,
        "quads-pull-compound": .squat, "quads-hold-compound": .squat, "knee-extension": .squat, "squat-press": .totalBody,
        "hip-hinge": .deadlift, "lowerBack-pull-compound": .deadlift, "hamstrings-push-compound": .deadlift,
        "hamstrings-hold-compound": .deadlift, "hip-hinge-ballistic": .hipSwing,
        "lunge": .lunge, "hip-thrust": .hipRaise, "glutes-push-compound": .hipRaise, "glutes-push-isolation": .hipRaise,
        "glutes-pull-compound": .hipRaise, "glutes-static-isolation": .hipRaise,
        "hip-adduction": .hipStability, "hip-abduction": .hipStability, "adductors-hold-compound": .hipStability,
        "knee-flexion": .legCurl, "hamstrings-pull-isolation": .legCurl, "hamstrings-pull-compound": .legCurl,
        "calf-raise": .calfRaise, "calves-hold-compound": .calfRaise,
        "horizontal-press": .benchPress, "incline-press": .benchPress, "decline-press": .benchPress,
        "close-grip-press": .benchPress, "chest-push-compound": .benchPress, "chest-static-compound": .pushUp,
        "chest-fly": .flye, "chest-push-isolation": .flye, "rear-delt": .flye, "shoulders-pull-isolation": .flye,
        "vertical-press": .shoulderPress, "shoulders-push-compound": .shoulderPress,
        "lateral-raise": .lateralRaise, "front-raise": .lateralRaise, "shoulders-push-isolation": .lateralRaise,
        "shoulders-static-isolation": .shoulderStability, "upright-row": .row,
        "horizontal-pull": .row, "chest-supported-row": .row, "shoulders-pull-compound": .row, "back-pull-compound": .row,
        "back-pull-isolation": .row, "pullover": .row,
        "vertical-pull": .pullUp, "lats-pull-compound": .pullUp, "lat-isolation": .pullUp, "prone-pulldown": .pullUp,
        "shrug": .shrug, "scapular-raise": .shrug,
        "elbow-flexion": .curl, "preacher-curl": .curl, "hammer-curl": .curl, "wrist-curl": .curl, "forearms-pull-isolation": .curl,
        "elbow-extension": .tricepsExtension, "lying-extension": .tricepsExtension, "overhead-extension": .tricepsExtension,
        "triceps-push-isolation": .tricepsExtension, "triceps-push-compound": .tricepsExtension, "dip": .tricepsExtension,
        "spinal-flexion": .crunch, "abs-pull-isolation": .crunch, "abs-pull-compound": .core, "lateral-flexion": .core,
        "rotation": .chop, "anti-extension": .plank, "hip-flexion": .legRaise, "back-extension": .hyperextension,
        "neck-pull-isolation": .core, "neck-static-isolation": .core,
        "olympic-pull": .olympicLift, "olympic-snatch": .olympicLift, "olympic-jerk": .olympicLift,
        "jump": .plyo, "throw": .plyo, "get-up": .totalBody,
        "carry": .carry, "forearms-static-isolation": .carry,
        "run": .run, "cycle": .bike, "row-erg": .indoorRow, "cardio-elliptical-trainer": .elliptical,
        "cardio-stairmaster": .stairStepper, "cardio-step-mill": .stairStepper, "cardio-skating": .cardio, "jump-rope": .cardio,
        "soft-tissue": .warmUp, "hip-mobility": .warmUp, "stretch-hamstrings": .warmUp, "stretch-quads": .warmUp,
        "stretch-shoulders": .warmUp, "stretch-lowerBack": .warmUp, "stretch-calves": .warmUp, "stretch-abs": .warmUp,
        "stretch-adductors": .warmUp, "stretch-lats": .warmUp, "stretch-glutes": .warmUp, "stretch-chest": .warmUp,
        "stretch-abductors": .warmUp, "stretch-back": .warmUp, "stretch-triceps": .warmUp, "stretch-neck": .warmUp,
        "stretch-forearms": .warmUp, "stretch-biceps": .warmUp,
    ]

    /// Words of a name, matched at the start of a word, first match wins: the more particular before
    /// the general (a leg curl before a curl, a walking lunge before a walk, a crunch is no run).
    static let nameWords: [(words: [String], category: GarminExerciseCategory)] = [
        (["sled"], .sled), (["rowing machine", "rower", "erg"], .indoorRow), (["elliptical"], .elliptical),
        (["stair", "step mill"], .stairStepper), (["stretch", "mobility", "foam roll", "warm up", "warm-up"], .warmUp),
        (["clean", "snatch", "jerk"], .olympicLift), (["swing"], .hipSwing),
        (["back extension", "hyperextension", "good morning"], .hyperextension),
        (["leg curl", "hamstring curl", "nordic"], .legCurl), (["leg extension"], .squat),
        (["leg raise", "knee raise", "hanging raise"], .legRaise), (["calf"], .calfRaise),
        (["split squat", "lunge", "step up", "step-up"], .lunge), (["squat", "leg press", "hack"], .squat),
        (["deadlift", "rdl", "romanian"], .deadlift), (["hip thrust", "glute bridge", "bridge", "kickback"], .hipRaise),
        (["abduction", "adduction", "abductor", "adductor"], .hipStability),
        (["bench", "chest press", "floor press"], .benchPress), (["fly", "flye", "pec deck", "crossover"], .flye),
        (["push up", "push-up", "pushup"], .pushUp),
        (["pull up", "pull-up", "pullup", "chin up", "chin-up", "chinup", "pulldown", "pull down", "pull-down"], .pullUp),
        (["lateral raise", "front raise", "side raise", "y raise"], .lateralRaise),
        (["shoulder press", "overhead press", "military", "arnold", "push press"], .shoulderPress),
        (["shrug"], .shrug), (["row", "face pull"], .row),
        (["tricep", "skull", "pushdown", "push down", "dip", "extension"], .tricepsExtension), (["curl"], .curl),
        (["crunch"], .crunch), (["sit up", "sit-up", "situp"], .sitUp), (["plank", "hollow", "dead bug"], .plank),
        (["twist", "chop", "woodchop", "rotation"], .chop), (["carry", "farmer", "suitcase"], .carry),
        (["jump", "box", "burpee", "throw", "slam"], .plyo), (["press"], .shoulderPress),
        (["treadmill", "run", "jog", "sprint"], .run), (["bike", "cycling", "cycle"], .bike),
        (["walk", "swim", "skipping", "cardio", "hiit"], .cardio),
    ]

    static func byName(_ name: String) -> GarminExerciseCategory? {
        // Words apart, so that a phrase matches only where a word starts.
        let text = " " + name.lowercased().split(whereSeparator: { !$0.isLetter && !$0.isNumber && $0 != "-" }).joined(separator: " ")
        return nameWords.first { $0.words.contains { text.contains(" " + $0) } }?.category
    }

    static let byMuscle: [Muscle: GarminExerciseCategory] = [
        .chest: .benchPress, .shoulders: .shoulderPress, .back: .row, .lats: .pullUp, .biceps: .curl, .triceps: .tricepsExtension,
        .traps: .shrug, .forearms: .curl, .abs: .core, .obliques: .chop, .lowerBack: .hyperextension, .quads: .squat,
        .hamstrings: .legCurl, .glutes: .hipRaise, .calves: .calfRaise, .abductors: .hipStability, .adductors: .hipStability,
        .neck: .core, .fullBody: .totalBody, .cardio: .cardio,
    ]
}
