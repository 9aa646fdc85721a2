import Foundation

/// The built-in exercise library (version 1), appended to a new ledger as
/// `ExerciseDefined` events so the library, like everything else, is derived
/// from the log. Changing an entry means appending a rename or a new
/// exercise, never editing a line here that a ledger may already hold.
///
/// Complexity: 0 everyone, 1 complete beginner, 2 beginner, 3 intermediate and up.
/// Rating: 0–100, how strongly a program generator prefers the exercise.
public enum ExerciseSeed {
    public static let batchId = UUID.derived(from: "library-seed/v1")
    public static let recordedOn = Timestamp(millis: 1_767_225_600_000)  // 2026-01-01T00:00:00Z

    public static let all: [ExerciseDefined] = [
        // Chest
        x("barbell-bench-press", "Bench Press (Barbell)", [.chest], [.triceps, .shoulders], [.barbell, .bench], "horizontal-press", 2, 95),
        x("incline-bench-press", "Incline Bench Press (Barbell)", [.chest], [.shoulders, .triceps], [.barbell, .bench], "incline-press", 2, 85),
        x("dumbbell-bench-press", "Bench Press (Dumbbell)", [.chest], [.triceps, .shoulders], [.dumbbell, .bench], "horizontal-press", 1, 88),
        x(
            "incline-dumbbell-press", "Incline Bench Press (Dumbbell)", [.chest], [.shoulders, .triceps], [.dumbbell, .bench], "incline-press", 1, 84),
        x("decline-bench-press", "Decline Bench Press (Barbell)", [.chest], [.triceps], [.barbell, .bench], "decline-press", 3, 60),
        x("machine-chest-press", "Chest Press (Machine)", [.chest], [.triceps, .shoulders], [.machine], "horizontal-press", 0, 70),
        x("dumbbell-fly", "Chest Fly (Dumbbell)", [.chest], [.shoulders], [.dumbbell, .bench], "chest-fly", 1, 62),
        x("cable-crossover", "Cable Crossover", [.chest], [.shoulders], [.cable], "chest-fly", 1, 65),
        x("push-up", "Push Up", [.chest], [.triceps, .shoulders], [.bodyweight], "horizontal-press", 0, 72),
        x("chest-dip", "Chest Dip", [.chest], [.triceps, .shoulders], [.bodyweight], "dip", 2, 74),
        // Back
        x("deadlift", "Deadlift (Barbell)", [.back], [.hamstrings, .glutes, .lowerBack, .traps], [.barbell], "hip-hinge", 3, 96),
        x("trap-bar-deadlift", "Trap Bar Deadlift", [.back], [.quads, .glutes, .hamstrings], [.trapBar], "hip-hinge", 2, 90),
        x("barbell-row", "Bent Over Row (Barbell)", [.back], [.lats, .biceps, .lowerBack], [.barbell], "horizontal-pull", 2, 88),
        x("pendlay-row", "Pendlay Row (Barbell)", [.back], [.lats, .biceps], [.barbell], "horizontal-pull", 3, 78),
        x("dumbbell-row", "Bent Over One Arm Row (Dumbbell)", [.back], [.lats, .biceps], [.dumbbell, .bench], "horizontal-pull", 1, 82),
        x("seated-cable-row", "Seated Row (Cable)", [.back], [.lats, .biceps], [.cable], "horizontal-pull", 0, 80),
        x("t-bar-row", "T Bar Row", [.back], [.lats, .biceps], [.barbell], "horizontal-pull", 2, 76),
        x("pull-up", "Pull Up", [.lats], [.biceps, .back], [.pullUpBar], "vertical-pull", 2, 92),
        x("chin-up", "Chin Up", [.lats], [.biceps], [.pullUpBar], "vertical-pull", 2, 88),
        x("lat-pulldown", "Lat Pulldown (Cable)", [.lats], [.biceps, .back], [.cable], "vertical-pull", 0, 86),
        x("straight-arm-pulldown", "Straight Arm Pulldown (Cable)", [.lats], [.back], [.cable], "lat-isolation", 1, 58),
        x("face-pull", "Face Pull (Cable)", [.shoulders], [.traps, .back], [.cable], "rear-delt", 1, 70),
        x("barbell-shrug", "Shrug (Barbell)", [.traps], [.forearms], [.barbell], "shrug", 1, 55),
        x("back-extension", "Back Extension", [.lowerBack], [.glutes, .hamstrings], [.bench], "back-extension", 0, 60),
        // Shoulders
        x("overhead-press", "Overhead Press (Barbell)", [.shoulders], [.triceps, .traps], [.barbell], "vertical-press", 2, 92),
        x("dumbbell-shoulder-press", "Seated Shoulder Press (Dumbbell)", [.shoulders], [.triceps], [.dumbbell, .bench], "vertical-press", 1, 86),
        x("arnold-press", "Arnold Press (Dumbbell)", [.shoulders], [.triceps], [.dumbbell], "vertical-press", 2, 72),
        x("machine-shoulder-press", "Shoulder Press (Machine)", [.shoulders], [.triceps], [.machine], "vertical-press", 0, 70),
        x("lateral-raise", "Lateral Raise (Dumbbell)", [.shoulders], [], [.dumbbell], "lateral-raise", 0, 78),
        x("cable-lateral-raise", "Lateral Raise (Cable)", [.shoulders], [], [.cable], "lateral-raise", 1, 74),
        x("rear-delt-fly", "Reverse Fly (Dumbbell)", [.shoulders], [.traps, .back], [.dumbbell], "rear-delt", 1, 64),
        x("upright-row", "Upright Row (Barbell)", [.shoulders], [.traps], [.barbell], "upright-row", 2, 50),
        // Arms
        x("barbell-curl", "Bicep Curl (Barbell)", [.biceps], [.forearms], [.barbell], "elbow-flexion", 0, 80),
        x("dumbbell-curl", "Bicep Curl (Dumbbell)", [.biceps], [.forearms], [.dumbbell], "elbow-flexion", 0, 78),
        x("hammer-curl", "Hammer Curl (Dumbbell)", [.biceps], [.forearms], [.dumbbell], "hammer-curl", 0, 74),
        x("preacher-curl", "Preacher Curl (EZ Bar)", [.biceps], [], [.ezBar, .bench], "preacher-curl", 1, 68),
        x("cable-curl", "Bicep Curl (Cable)", [.biceps], [.forearms], [.cable], "elbow-flexion", 0, 66),
        x("triceps-pushdown", "Triceps Pushdown (Cable)", [.triceps], [], [.cable], "elbow-extension", 0, 78),
        x("skull-crusher", "Skullcrusher (EZ Bar)", [.triceps], [], [.ezBar, .bench], "lying-extension", 2, 72),
        x("overhead-triceps-extension", "Overhead Triceps Extension (Dumbbell)", [.triceps], [], [.dumbbell], "overhead-extension", 1, 70),
        x(
            "close-grip-bench-press", "Close Grip Bench Press (Barbell)", [.triceps], [.chest, .shoulders], [.barbell, .bench], "close-grip-press", 2,
            80),
        x("triceps-dip", "Triceps Dip", [.triceps], [.chest, .shoulders], [.bodyweight], "dip", 2, 70),
        x("wrist-curl", "Wrist Curl (Dumbbell)", [.forearms], [], [.dumbbell], "wrist-curl", 0, 40),
        // Legs
        x("back-squat", "Squat (Barbell)", [.quads], [.glutes, .hamstrings, .lowerBack], [.barbell], "squat", 3, 97),
        x("front-squat", "Front Squat (Barbell)", [.quads], [.glutes, .abs], [.barbell], "squat", 3, 88),
        x("goblet-squat", "Goblet Squat (Dumbbell)", [.quads], [.glutes], [.dumbbell], "squat", 1, 80),
        x("hack-squat", "Hack Squat (Machine)", [.quads], [.glutes], [.machine], "machine-squat", 1, 78),
        x("leg-press", "Leg Press (Machine)", [.quads], [.glutes, .hamstrings], [.machine], "leg-press", 0, 84),
        x("bulgarian-split-squat", "Bulgarian Split Squat (Dumbbell)", [.quads], [.glutes, .adductors], [.dumbbell, .bench], "lunge", 2, 82),
        x("walking-lunge", "Walking Lunge (Dumbbell)", [.quads], [.glutes, .hamstrings], [.dumbbell], "lunge", 1, 74),
        x("leg-extension", "Leg Extension (Machine)", [.quads], [], [.machine], "knee-extension", 0, 70),
        x("romanian-deadlift", "Romanian Deadlift (Barbell)", [.hamstrings], [.glutes, .lowerBack], [.barbell], "hip-hinge", 2, 90),
        x("dumbbell-romanian-deadlift", "Romanian Deadlift (Dumbbell)", [.hamstrings], [.glutes], [.dumbbell], "hip-hinge", 1, 82),
        x("lying-leg-curl", "Lying Leg Curl (Machine)", [.hamstrings], [.calves], [.machine], "knee-flexion", 0, 74),
        x("seated-leg-curl", "Seated Leg Curl (Machine)", [.hamstrings], [], [.machine], "knee-flexion", 0, 76),
        x("hip-thrust", "Hip Thrust (Barbell)", [.glutes], [.hamstrings], [.barbell, .bench], "hip-thrust", 2, 84),
        x("glute-bridge", "Glute Bridge", [.glutes], [.hamstrings], [.bodyweight], "hip-thrust", 0, 60),
        x("hip-abduction", "Hip Abduction (Machine)", [.abductors], [.glutes], [.machine], "hip-abduction", 0, 55),
        x("hip-adduction", "Hip Adduction (Machine)", [.adductors], [], [.machine], "hip-adduction", 0, 52),
        x("standing-calf-raise", "Standing Calf Raise (Machine)", [.calves], [], [.machine], "calf-raise", 0, 66),
        x("seated-calf-raise", "Seated Calf Raise (Machine)", [.calves], [], [.machine], "calf-raise", 0, 60),
        // Core
        x("plank", "Plank", [.abs], [.obliques, .shoulders], [.bodyweight], "anti-extension", 0, 62, kind: .isometric),
        x("hanging-leg-raise", "Hanging Leg Raise", [.abs], [.obliques, .forearms], [.pullUpBar], "hip-flexion", 2, 70),
        x("cable-crunch", "Cable Crunch", [.abs], [], [.cable], "spinal-flexion", 1, 64),
        x("ab-wheel-rollout", "Ab Wheel Rollout", [.abs], [.lats, .shoulders], [.other], "anti-extension", 2, 66),
        x("russian-twist", "Russian Twist", [.obliques], [.abs], [.bodyweight], "rotation", 0, 45),
        // Full body, explosive, cardio, mobility
        x(
            "kettlebell-swing", "Kettlebell Swing", [.glutes], [.hamstrings, .lowerBack], [.kettlebell], "hip-hinge-ballistic", 2, 76,
            kind: .explosive),
        x("power-clean", "Power Clean (Barbell)", [.fullBody], [.traps, .quads, .glutes], [.barbell], "olympic-pull", 3, 80, kind: .explosive),
        x("box-jump", "Box Jump", [.quads], [.glutes, .calves], [.other], "jump", 1, 60, kind: .explosive),
        x("farmers-walk", "Farmer's Walk (Dumbbell)", [.forearms], [.traps, .abs], [.dumbbell], "carry", 1, 66),
        x("running", "Running", [.cardio], [.quads, .calves], [.bodyweight], "run", 0, 60, kind: .cardio),
        x("rowing-machine", "Rowing (Machine)", [.cardio], [.back, .quads], [.cardioMachine], "row-erg", 0, 62, kind: .cardio),
        x("cycling", "Cycling", [.cardio], [.quads], [.cardioMachine], "cycle", 0, 58, kind: .cardio),
        x("jump-rope", "Jump Rope", [.cardio], [.calves], [.other], "jump-rope", 0, 50, kind: .cardio),
        x("hip-flexor-stretch", "Hip Flexor Stretch", [.quads], [.glutes], [.bodyweight], "hip-mobility", 0, 35, kind: .mobility),
        x("foam-rolling", "Foam Rolling", [.fullBody], [], [.other], "soft-tissue", 0, 30, kind: .recovery),
    ]

    /// One library exercise, as the hand-written versions list them.
    static func x(
        _ id: String, _ name: String, _ primary: [Muscle], _ secondary: [Muscle], _ equipment: [Equipment],
        _ movement: String, _ complexity: Int, _ rating: Int, kind: ExerciseKind = .strength
    ) -> ExerciseDefined {
        var e = ExerciseDefined()
        e.exerciseId = id
        e.name = name
        e.primaryMuscles = primary
        e.secondaryMuscles = secondary
        e.equipment = equipment
        e.kind = kind
        e.canonicalMovement = movement
        e.complexity = complexity
        e.rating = rating
        return e
    }
}
