/// The rules that turn a Free Exercise DB entry into a library exercise:
/// our muscles and equipment, the kind, and what the database lacks (a
/// canonical movement, a complexity and a canonical rating). docs/LIBRARY.md
/// states each rule; `LibraryDerivationTests` holds them to real entries.
///
/// A change to any rule changes what a new library version would append,
/// never what a ledger already holds: versions are appended as events.
public enum LibraryDerivation {
    /// The exercise for an entry, or nil when the library leaves it out
    /// (`leftOut` says why).
    public static func derive(_ e: FreeExerciseDB.Entry) -> ExerciseDefined? {
        let words = NameWords(e.name)
        if leftOut(words) != nil { return nil }
        var primary = muscles(e.primaryMuscles)
        if primary.isEmpty { primary = [.fullBody] }
        let kind = kind(e, words)
        if kind == .cardio { primary = [.cardio] }
        let secondary = muscles(e.secondaryMuscles).filter { !primary.contains($0) }
        let gear = equipment(e, words, kind)
        let movement = movement(e, words, kind, primary: primary[0])
        var x = ExerciseDefined()
        x.exerciseId = Slug.make(e.name)
        x.name = e.name
        x.primaryMuscles = primary
        x.secondaryMuscles = secondary
        x.equipment = gear
        x.kind = kind
        x.canonicalMovement = movement
        x.complexity = complexity(e, kind, gear, movement)
        x.rating = rating(e, words, kind, gear)
        return x
    }

    /// Why an entry is not in the library, or nil when it is.
    public static func leftOut(_ e: FreeExerciseDB.Entry) -> String? { leftOut(NameWords(e.name)) }

    static func leftOut(_ words: NameWords) -> String? {
        words.has("manual") || words.has("partner") ? "needs a partner to perform" : nil
    }

    // MARK: Muscles and equipment

    static let muscleNames: [String: Muscle] = [
        "abdominals": .abs, "abductors": .abductors, "adductors": .adductors, "biceps": .biceps,
        "calves": .calves, "chest": .chest, "forearms": .forearms, "glutes": .glutes,
        "hamstrings": .hamstrings, "lats": .lats, "lower back": .lowerBack, "middle back": .back,
        "neck": .neck, "quadriceps": .quads, "shoulders": .shoulders, "traps": .traps, "triceps": .triceps,
    ]

    static func muscles(_ names: [String]) -> [Muscle] {
        var out: [Muscle] = []
        for n in names { if let m = muscleNames[n], !out.contains(m) { out.append(m) } }
        return out
    }

    /// The database names one piece of equipment; the name often says what
    /// else the exercise needs (a bench, a pull-up bar), or which bar it is.
    static func equipment(_ e: FreeExerciseDB.Entry, _ w: NameWords, _ kind: ExerciseKind) -> [Equipment] {
        let hangs = w.hasAny(["pull up", "pull ups", "pullup", "pullups", "chin up", "chin ups", "chins", "muscle up", "hanging"])
        var gear: [Equipment]
        switch e.equipment {
        case "barbell": gear = w.has("trap bar") ? [.trapBar] : w.hasAny(["ez bar", "ez curl"]) ? [.ezBar] : [.barbell]
        case "dumbbell": gear = [.dumbbell]
        case "kettlebells": gear = [.kettlebell]
        case "cable": gear = [.cable]
        case "machine": gear = w.has("smith") ? [.smithMachine] : kind == .cardio ? [.cardioMachine] : [.machine]
        case "bands": gear = [.band]
        case "e-z curl bar": gear = [.ezBar]
        case "body only", nil: gear = hangs ? [.pullUpBar] : [.bodyweight]
        case "other": gear = hangs ? [.pullUpBar] : w.has("band") ? [.band] : [.other]
        default: gear = [.other]  // medicine ball, exercise ball, foam roll
        }
        let loaded: Set<Equipment> = [.barbell, .dumbbell, .kettlebell, .ezBar]
        let onBench =
            w.hasAny(["bench", "incline", "decline", "preacher", "step up", "step ups"])
            || (gear.contains { loaded.contains($0) } && w.hasAny(["seated", "lying"]))
        if onBench, kind != .mobility, kind != .recovery, !gear.contains(.machine), !gear.contains(.smithMachine),
            !gear.contains(.cable) || w.has("bench")
        {
            gear.append(.bench)
        }
        return gear
    }

    // MARK: Kind

    static func kind(_ e: FreeExerciseDB.Entry, _ w: NameWords) -> ExerciseKind {
        switch e.category {
        case "stretching": return e.equipment == "foam roll" || w.has("smr") ? .recovery : .mobility
        case "cardio": return .cardio
        case "plyometrics", "olympic weightlifting": return .explosive
        default: return e.force == "static" ? .isometric : .strength
        }
    }

    // MARK: Movement

    /// Keyword rules, first match wins; the order puts specific patterns
    /// before general ones ("straight arm pulldown" before "pulldown",
    /// "leg curl" before "curl").
    static let movementRules: [(words: [String], movement: String)] = [
        (["snatch"], "olympic-snatch"),
        (["jerk"], "olympic-jerk"),
        (["clean", "high pull"], "olympic-pull"),
        (["swing", "swings"], "hip-hinge-ballistic"),
        (["thruster"], "squat-press"),
        (["get up"], "get-up"),
        (
            [
                "good morning", "good mornings", "deadlift", "deadlifts", "romanian", "rack pull", "rack pulls", "stiff legged", "stiff legs",
                "pull through",
            ], "hip-hinge"
        ),
        (["hip thrust", "glute bridge", "hip raise", "butt lift", "hip bridge"], "hip-thrust"),
        (["calf", "calves"], "calf-raise"),
        (["leg press"], "leg-press"),
        (["hack squat"], "machine-squat"),
        (["split squat", "lunge", "lunges", "step up", "step ups"], "lunge"),
        (["squat", "squats"], "squat"),
        (["leg extension", "leg extensions"], "knee-extension"),
        (["leg curl", "leg curls", "hamstring curl", "glute ham"], "knee-flexion"),
        (["abductor", "abduction", "abductions"], "hip-abduction"),
        (["adductor", "adduction", "adductions"], "hip-adduction"),
        (["shrug", "shrugs"], "shrug"),
        (["face pull", "rear delt", "reverse fly", "reverse flyes", "rear lateral"], "rear-delt"),
        (["upright row", "upright"], "upright-row"),
        (["pullover"], "pullover"),
        (["straight arm pulldown"], "lat-isolation"),
        (
            ["pulldown", "pulldowns", "pull up", "pull ups", "pullup", "pullups", "chin up", "chin ups", "chins", "muscle up", "rope climb"],
            "vertical-pull"
        ),
        (["row", "rows"], "horizontal-pull"),
        (["lateral raise", "side lateral", "side laterals", "laterals"], "lateral-raise"),
        (["front raise", "front dumbbell raise", "front plate raise", "front cable raise"], "front-raise"),
        (["handstand", "shoulder press", "military press", "overhead press", "push press", "arnold"], "vertical-press"),
        (["close grip bench", "close grip barbell bench"], "close-grip-press"),
        (["fly", "flyes", "flye", "crossover", "pec deck", "butterfly"], "chest-fly"),
        (["dip", "dips"], "dip"),
        (["hammer curl", "hammer curls"], "hammer-curl"),
        (["preacher"], "preacher-curl"),
        (["wrist curl", "wrist"], "wrist-curl"),
        (["curl", "curls"], "elbow-flexion"),
        (["pushdown", "skullcrusher", "skull crusher", "triceps extension", "tricep extension", "kickback", "kickbacks"], "triceps"),
        (["crunch", "crunches", "sit up", "situp", "jackknife", "v up", "toe touchers"], "spinal-flexion"),
        (["leg raise", "leg raises", "knee raise", "knee tuck", "knee tucks"], "hip-flexion"),
        (["plank", "rollout", "roller", "side bridge"], "anti-extension"),
        (["twist", "twists", "woodchop", "woodchopper", "wood chop", "rotation", "russian", "windmill"], "rotation"),
        (["side bend", "side bends"], "lateral-flexion"),
        (["hyperextension", "hyperextensions", "back extension", "superman"], "back-extension"),
        (["carry", "walk", "yoke"], "carry"),
        (["press", "push up", "pushup", "pushups", "push ups"], "press"),
        (["jump", "jumps", "hop", "hops", "bound", "bounds", "skater"], "jump"),
        (["raise", "raises"], "shoulder-raise"),
        (["throw", "slam", "toss"], "throw"),
    ]

    /// The rules with their phrases split into words once.
    static let splitMovementRules = movementRules.map { (phrases: $0.words.map { $0.split(separator: " ") }, movement: $0.movement) }

    static func movement(_ e: FreeExerciseDB.Entry, _ w: NameWords, _ kind: ExerciseKind, primary: Muscle) -> String {
        switch kind {
        case .mobility: return "stretch-\(primary.rawValue)"
        case .recovery: return "soft-tissue"
        case .cardio:
            if w.hasAny(["running", "jogging", "walking", "sprint"]) { return "run" }
            if w.has("rowing") { return "row-erg" }
            if w.hasAny(["bicycling", "cycling", "bike"]) { return "cycle" }
            if w.has("rope jumping") { return "jump-rope" }
            return "cardio-\(Slug.make(e.name))"
        default: break
        }
        var movement =
            splitMovementRules.first { rule in rule.phrases.contains { w.has(words: $0) } }?.movement
            ?? "\(primary.rawValue)-\(e.force ?? "hold")-\(e.mechanic ?? "compound")"
        switch movement {
        case "press":
            movement =
                w.has("incline")
                ? "incline-press"
                : w.has("decline")
                    ? "decline-press"
                    : primary == .shoulders ? "vertical-press" : primary == .triceps ? "close-grip-press" : "horizontal-press"
        case "triceps":
            movement =
                w.has("overhead")
                ? "overhead-extension"
                : w.hasAny(["lying", "skullcrusher", "skull crusher"])
                    ? "lying-extension" : "elbow-extension"
        case "shoulder-raise":
            movement = primary != .shoulders ? "\(primary.rawValue)-raise" : w.has("front") ? "front-raise" : "lateral-raise"
        case "horizontal-pull" where w.has("incline") || w.has("bench"):
            movement = "chest-supported-row"  // a pattern of its own: no hip hinge, the chest on a bench
        default: break
        }
        return movement
    }

    /// Lower-body patterns: an upper-body day (no lower-body slot) takes none of them.
    public static let lowerBodyMovements: Set<String> = [
        "hip-hinge", "hip-hinge-ballistic", "squat", "machine-squat", "leg-press", "lunge", "hip-thrust",
        "knee-extension", "knee-flexion", "calf-raise", "olympic-pull", "olympic-snatch", "olympic-jerk",
        "squat-press", "jump", "hip-abduction", "hip-adduction", "carry", "get-up",
    ]

    // MARK: Complexity

    /// 0 everyone, 1 complete beginner, 2 beginner, 3 intermediate and up.
    /// The database's level is the start; guided machines and cables ask
    /// less, and free-barbell squats, hinges and the Olympic lifts ask more.
    static func complexity(_ e: FreeExerciseDB.Entry, _ kind: ExerciseKind, _ gear: [Equipment], _ movement: String) -> Int {
        if kind == .mobility || kind == .recovery || kind == .cardio { return 0 }
        var c = e.level == "expert" ? 3 : e.level == "intermediate" ? 2 : 1
        let guided = gear.contains(.machine) || gear.contains(.smithMachine) || gear.contains(.cable)
        if guided, e.level == "beginner" { c = 0 }
        if e.category == "olympic weightlifting" || e.category == "strongman" { c = 3 }
        let barbell = gear.contains(.barbell) || gear.contains(.trapBar)
        if barbell, ["squat", "hip-hinge", "squat-press", "lunge"].contains(movement) {
            c = max(c, movement == "hip-hinge" && !gear.contains(.trapBar) && e.name.lowercased().contains("romanian") ? 2 : 3)
        } else if barbell, e.mechanic == "compound" {
            c = max(c, 2)
        }
        if gear.contains(.pullUpBar), movement == "vertical-pull", !e.name.lowercased().contains("assisted") { c = max(c, 2) }
        return c
    }

    // MARK: Rating

    /// 0–100, how strongly a generator prefers the exercise: compound before
    /// isolation, free weights before the rest, the common form before its
    /// variants (each qualifier in the name costs 3), explosive lifts after
    /// the rest (they are a specialist's choice), kept within 20–80 so the
    /// first library's hand-rated staples (up to 97) stay the first picks.
    static func rating(_ e: FreeExerciseDB.Entry, _ w: NameWords, _ kind: ExerciseKind, _ gear: [Equipment]) -> Int {
        var r = 40
        r += e.mechanic == "compound" ? 15 : e.mechanic == "isolation" ? 5 : 0
        switch e.category {
        case "powerlifting": r += 8
        case "strongman", "plyometrics", "stretching": r -= 5
        default: break
        }
        if gear.contains(.barbell) || gear.contains(.dumbbell) {
            r += 8
        } else if gear.contains(.band) || gear.contains(.other) {
            r -= 5
        } else {
            r += 4
        }
        r += e.level == "beginner" ? 4 : e.level == "intermediate" ? 2 : -6
        if kind == .mobility || kind == .recovery || kind == .explosive { r -= 10 }
        r -= min(12, 3 * w.qualifierCount)
        return min(80, max(20, r))
    }
}

/// A name's words, lowercased, hyphens and slashes as spaces, for keyword rules.
struct NameWords {
    let words: [Substring]

    init(_ name: String) {
        let lowered = name.lowercased().map { $0.isLetter || $0.isNumber ? $0 : " " }
        words = String(lowered).split(separator: " ")
    }

    /// Whether the phrase occurs as whole words (compared word by word: Foundation's
    /// substring search was most of a new ledger's first command).
    func has(_ phrase: String) -> Bool { has(words: phrase.split(separator: " ")) }

    func has(words p: [Substring]) -> Bool {
        guard let first = p.first, p.count <= words.count else { return false }
        for i in 0...(words.count - p.count) where words[i] == first {
            if p.indices.allSatisfy({ words[i + $0] == p[$0] }) { return true }
        }
        return false
    }
    func hasAny(_ phrases: [String]) -> Bool { phrases.contains { has($0) } }

    /// Words that mark a variant of a common exercise.
    static let qualifiers: Set<Substring> = [
        "alternating", "alternate", "one", "single", "with", "from", "on", "to",
        "behind", "kneeling", "side", "reverse", "close", "wide", "grip", "the", "and",
    ]
    var qualifierCount: Int { words.filter { NameWords.qualifiers.contains($0) }.count }
}
