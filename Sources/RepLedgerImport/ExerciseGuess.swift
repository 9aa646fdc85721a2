import Foundation
import RepLedgerCore

/// Muscles, equipment and kind for an exercise an export names but the
/// library lacks. A guess from the name (and FitNotes' category) is enough
/// for volume by muscle; the lifter can correct it like any custom exercise.
enum ExerciseGuess {
    struct Guess: Equatable {
        var muscle: Muscle
        var kind: ExerciseKind
        var equipment: [Equipment]
    }

    /// First match wins, so the specific phrases come before the general ones.
    static let rules: [(words: [String], muscle: Muscle, kind: ExerciseKind)] = [
        (
            [
                "treadmill", "running", "run ", "jog", "cycling", "bike", "elliptical", "rowing machine", "rower", "walk", "hiking",
                "stair", "swim", "jump rope", "skipping", "cardio", "sprint",
            ], .cardio, .cardio
        ),
        (["plank", "wall sit", "hollow hold", "dead hang", "l-sit", "l sit"], .abs, .isometric),
        (["clean", "snatch", "jerk", "box jump", "broad jump", "burpee", "kettlebell swing", "thruster"], .fullBody, .explosive),
        (["stretch", "mobility", "foam roll"], .fullBody, .mobility),
        (["hip adduct", "adductor"], .adductors, .strength),
        (["hip abduct", "abductor"], .abductors, .strength),
        (["leg curl", "hamstring", "romanian", "rdl", "stiff leg", "good morning", "glute ham", "nordic"], .hamstrings, .strength),
        (["back extension", "hyperextension", "reverse hyper"], .lowerBack, .strength),
        (["leg extension", "leg press", "squat", "lunge", "step up", "split squat", "hack"], .quads, .strength),
        (["hip thrust", "glute", "kickback", "bridge"], .glutes, .strength),
        (["calf", "calves"], .calves, .strength),
        (["deadlift", "rack pull"], .back, .strength),
        (
            [
                "face pull", "reverse fly", "rear delt", "lateral raise", "front raise", "upright row", "shoulder press",
                "overhead press", "military press", "arnold", "ohp", "landmine press",
            ], .shoulders, .strength
        ),
        (["shrug"], .traps, .strength),
        (["pulldown", "pull down", "pull up", "pullup", "pull-up", "chin", "lat "], .lats, .strength),
        (["row"], .back, .strength),
        (["wrist", "forearm", "farmer", "grip"], .forearms, .strength),
        (["curl"], .biceps, .strength),
        (["tricep", "pushdown", "push down", "skull", "extension", "kickback", "close grip", "dip"], .triceps, .strength),
        (["bench", "chest", "fly", "flye", "pec", "push up", "pushup", "push-up", "crossover"], .chest, .strength),
        (["twist", "oblique", "woodchop", "wood chop", "side bend"], .obliques, .strength),
        (
            ["crunch", "sit up", "situp", "sit-up", "leg raise", "knee raise", "ab ", "abs", "abdominal", "core", "rollout", "v-up", "toes to bar"],
            .abs, .strength
        ),
        (["neck"], .neck, .strength),
    ]

    static let categories: [String: Muscle] = [
        "chest": .chest, "back": .back, "shoulders": .shoulders, "biceps": .biceps, "triceps": .triceps,
        "legs": .quads, "quads": .quads, "hamstrings": .hamstrings, "glutes": .glutes, "calves": .calves,
        "abs": .abs, "core": .abs, "forearms": .forearms, "traps": .traps, "cardio": .cardio,
        "plyometrics": .fullBody, "full body": .fullBody,
    ]

    static let equipmentWords: [(String, Equipment)] = [
        ("smith", .smithMachine), ("barbell", .barbell), ("dumbbell", .dumbbell), ("kettlebell", .kettlebell),
        ("cable", .cable), ("machine", .machine), ("plate loaded", .machine), ("band", .band), ("ez bar", .ezBar),
        ("trap bar", .trapBar), ("bodyweight", .bodyweight),
    ]

    /// `timedOnly`: every row of the exercise in the file measured time or distance, never reps.
    static func guess(name: String, category: String?, timedOnly: Bool) -> Guess {
        let text = " " + name.lowercased() + " "
        var found = rules.first { rule in rule.words.contains { text.contains($0) } }.map { ($0.muscle, $0.kind) }
        if let c = category?.lowercased(), let m = categories[c] {
            // The category is the lifter's own word; the name still tells cardio and holds apart.
            let kind = m == .cardio ? ExerciseKind.cardio : (found?.1 ?? .strength)
            found = (m, kind)
        }
        var (muscle, kind) = found ?? (.fullBody, .strength)
        if timedOnly, kind == .strength { kind = .isometric }
        let equipment = equipmentWords.first { text.contains($0.0) }.map { [$0.1] } ?? []
        return Guess(muscle: muscle, kind: kind, equipment: equipment)
    }
}
