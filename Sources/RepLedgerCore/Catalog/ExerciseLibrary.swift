import Foundation

/// The built-in exercise library, in versions. Version 1 is the first
/// release's 76 hand-rated exercises (`ExerciseSeed`); version 2 adds the
/// Free Exercise DB's entries by `LibraryDerivation`'s rules, except those
/// that version 1 already holds under its own id (`mergedIntoFirstVersion`,
/// whose database names become aliases and whose instructions are shown).
///
/// A ledger holds the versions it was given as events. A new ledger gets
/// every version at its first command; an older ledger gets the versions it
/// lacks at its next command, appended, never rewriting what it holds. Each
/// event's id is derived from the version and the exercise id, so devices
/// that upgrade apart store one copy once they sync.
public enum ExerciseLibrary {
    public static let latestVersion = 2

    /// The first-version exercises the database also has: (our id, its id);
    /// one of ours may stand for two of its entries.
    public static let mergedIntoFirstVersion: [(ours: String, theirs: String)] = [
        ("barbell-bench-press", "Barbell_Bench_Press_-_Medium_Grip"),
        ("incline-bench-press", "Barbell_Incline_Bench_Press_-_Medium_Grip"),
        ("dumbbell-bench-press", "Dumbbell_Bench_Press"),
        ("incline-dumbbell-press", "Incline_Dumbbell_Press"),
        ("decline-bench-press", "Decline_Barbell_Bench_Press"),
        ("machine-chest-press", "Machine_Bench_Press"),
        ("dumbbell-fly", "Dumbbell_Flyes"),
        ("cable-crossover", "Cable_Crossover"),
        ("push-up", "Pushups"),
        ("chest-dip", "Dips_-_Chest_Version"),
        ("deadlift", "Barbell_Deadlift"),
        ("trap-bar-deadlift", "Trap_Bar_Deadlift"),
        ("barbell-row", "Bent_Over_Barbell_Row"),
        ("dumbbell-row", "One-Arm_Dumbbell_Row"),
        ("seated-cable-row", "Seated_Cable_Rows"),
        ("t-bar-row", "T-Bar_Row_with_Handle"),
        ("pull-up", "Pullups"),
        ("chin-up", "Chin-Up"),
        ("lat-pulldown", "Wide-Grip_Lat_Pulldown"),
        ("straight-arm-pulldown", "Straight-Arm_Pulldown"),
        ("face-pull", "Face_Pull"),
        ("barbell-shrug", "Barbell_Shrug"),
        ("back-extension", "Hyperextensions_Back_Extensions"),
        ("overhead-press", "Standing_Military_Press"),
        ("dumbbell-shoulder-press", "Seated_Dumbbell_Press"),
        ("dumbbell-shoulder-press", "Dumbbell_Shoulder_Press"),
        ("arnold-press", "Arnold_Dumbbell_Press"),
        ("machine-shoulder-press", "Machine_Shoulder_Military_Press"),
        ("lateral-raise", "Side_Lateral_Raise"),
        ("rear-delt-fly", "Reverse_Flyes"),
        ("upright-row", "Upright_Barbell_Row"),
        ("barbell-curl", "Barbell_Curl"),
        ("dumbbell-curl", "Dumbbell_Bicep_Curl"),
        ("hammer-curl", "Hammer_Curls"),
        ("preacher-curl", "Preacher_Curl"),
        ("cable-curl", "Standing_Biceps_Cable_Curl"),
        ("triceps-pushdown", "Triceps_Pushdown"),
        ("skull-crusher", "EZ-Bar_Skullcrusher"),
        ("overhead-triceps-extension", "Standing_Dumbbell_Triceps_Extension"),
        ("close-grip-bench-press", "Close-Grip_Barbell_Bench_Press"),
        ("triceps-dip", "Dips_-_Triceps_Version"),
        ("wrist-curl", "Seated_Dumbbell_Palms-Up_Wrist_Curl"),
        ("back-squat", "Barbell_Squat"),
        ("front-squat", "Front_Barbell_Squat"),
        ("goblet-squat", "Goblet_Squat"),
        ("hack-squat", "Hack_Squat"),
        ("leg-press", "Leg_Press"),
        ("leg-extension", "Leg_Extensions"),
        ("romanian-deadlift", "Romanian_Deadlift"),
        ("dumbbell-romanian-deadlift", "Stiff-Legged_Dumbbell_Deadlift"),
        ("lying-leg-curl", "Lying_Leg_Curls"),
        ("seated-leg-curl", "Seated_Leg_Curl"),
        ("hip-thrust", "Barbell_Hip_Thrust"),
        ("hip-abduction", "Thigh_Abductor"),
        ("hip-adduction", "Thigh_Adductor"),
        ("standing-calf-raise", "Standing_Calf_Raises"),
        ("seated-calf-raise", "Seated_Calf_Raise"),
        ("plank", "Plank"),
        ("hanging-leg-raise", "Hanging_Leg_Raise"),
        ("cable-crunch", "Cable_Crunch"),
        ("ab-wheel-rollout", "Ab_Roller"),
        ("russian-twist", "Russian_Twist"),
        ("power-clean", "Power_Clean"),
        ("box-jump", "Front_Box_Jump"),
        ("farmers-walk", "Farmers_Walk"),
        ("running", "Running_Treadmill"),
        ("rowing-machine", "Rowing_Stationary"),
        ("cycling", "Bicycling_Stationary"),
        ("jump-rope", "Rope_Jumping"),
        ("hip-flexor-stretch", "Kneeling_Hip_Flexor"),
    ]

    /// Names lifters type for first-version exercises, beyond the database's names.
    public static let commonAliases: [String: [String]] = [
        "barbell-bench-press": ["bench", "bench press", "flat bench"],
        "back-squat": ["squat", "back squat"],
        "deadlift": ["deadlift", "conventional deadlift"],
        "overhead-press": ["ohp", "overhead press", "military press", "press"],
        "romanian-deadlift": ["rdl", "romanian deadlift"],
        "pull-up": ["pullup", "pull-up", "pull ups"],
        "chin-up": ["chinup", "chin ups"],
        "barbell-row": ["row", "barbell row", "bent over row"],
        "lat-pulldown": ["pulldown", "lat pulldown"],
        "dumbbell-bench-press": ["db bench", "dumbbell bench"],
        "dumbbell-shoulder-press": ["db press", "dumbbell press"],
        "triceps-pushdown": ["pushdown", "tricep pushdown"],
        "barbell-curl": ["curl", "bb curl"],
        "dumbbell-curl": ["db curl"],
        "hip-thrust": ["hip thrust"],
        "bulgarian-split-squat": ["bss", "bulgarian"],
        "close-grip-bench-press": ["cgbp", "close grip bench"],
        "incline-bench-press": ["incline bench"],
        "leg-press": ["leg press"],
    ]

    /// Version 2: the database's entries the library takes, in its order.
    public static let secondVersion: [ExerciseDefined] = {
        let merged = Set(mergedIntoFirstVersion.map(\.theirs))
        let firstIds = Set(ExerciseSeed.all.map(\.exerciseId))
        let firstNames = Set(ExerciseSeed.all.map { $0.name.lowercased() })
        return FreeExerciseDB.entries.compactMap { e in
            guard !merged.contains(e.id), let x = LibraryDerivation.derive(e),
                !firstIds.contains(x.exerciseId), !firstNames.contains(x.name.lowercased())
            else { return nil }
            return x
        }
    }()

    /// Version 2's own entries: what lifters with only kettlebells, bands or
    /// their body do for the back, lats and arms, which the database lacks
    /// (it has no kettlebell or band curl, no band row or pull-down, and no
    /// bodyweight pull without a bar).
    public static let ownSecondVersion: [ExerciseDefined] = [
        ExerciseSeed.x("band-row", "Seated Row (Band)", [.back], [.lats, .biceps], [.band], "horizontal-pull", 0, 62),
        ExerciseSeed.x("band-lat-pulldown", "Lat Pulldown (Band)", [.lats], [.biceps], [.band], "vertical-pull", 0, 60),
        ExerciseSeed.x("band-curl", "Bicep Curl (Band)", [.biceps], [.forearms], [.band], "elbow-flexion", 0, 58),
        ExerciseSeed.x("band-hammer-curl", "Hammer Curl (Band)", [.biceps], [.forearms], [.band], "hammer-curl", 0, 54),
        ExerciseSeed.x("kettlebell-curl", "Bicep Curl (Kettlebell)", [.biceps], [.forearms], [.kettlebell], "elbow-flexion", 1, 62),
        ExerciseSeed.x("kettlebell-hammer-curl", "Hammer Curl (Kettlebell)", [.biceps], [.forearms], [.kettlebell], "hammer-curl", 1, 58),
        ExerciseSeed.x("kettlebell-floor-pullover", "Floor Pullover (Kettlebell)", [.lats], [.chest, .triceps], [.kettlebell], "pullover", 1, 58),
        ExerciseSeed.x("prone-ytw-raise", "Prone Y-T-W Raise", [.back], [.shoulders, .traps], [.bodyweight], "scapular-raise", 0, 52),
        ExerciseSeed.x("prone-lat-pulldown", "Prone Lat Pulldown (Bodyweight)", [.lats], [.back], [.bodyweight], "prone-pulldown", 0, 46),
        ExerciseSeed.x("towel-curl", "Towel Bicep Curl", [.biceps], [.forearms], [.bodyweight], "elbow-flexion", 0, 45),
    ]

    /// The exercises of a version.
    public static func exercises(version: Int) -> [ExerciseDefined] {
        switch version {
        case 1: ExerciseSeed.all
        case 2: secondVersion + ownSecondVersion
        default: []
        }
    }

    /// Exercises each version is known by: a ledger that holds one of them
    /// (not as a lifter's custom exercise that took the id first) holds the version.
    static let markers: [Int: [String]] = [1: ["barbell-bench-press", "back-squat"], 2: ["3-4-sit-up", "band-row"]]

    /// The versions a library lacks, oldest first.
    public static func missingVersions(in library: LibraryState) -> [Int] {
        (1...latestVersion).filter { v in
            !(markers[v] ?? []).contains { id in library.exercises[id].map { !$0.definition.custom } ?? false }
        }
    }

    /// A version as the events that add it, with ids derived from the version
    /// and the exercise (version 1's ids are the first release's).
    public static func events(version: Int) -> [ProposedEvent] {
        let batch = UUID.derived(from: "library-seed/v\(version)")
        return exercises(version: version).map {
            ProposedEvent(
                eventId: .derived(from: "library-seed/v\(version)/\($0.exerciseId)"), event: .exerciseDefined($0),
                occurredAt: ExerciseSeed.recordedOn, device: "ledger", causationId: batch, correlationId: batch)
        }
    }

    /// The names an exercise is known by besides its own (lowercased).
    public static func aliases(of exerciseId: String) -> [String] {
        var out = commonAliases[exerciseId] ?? []
        for (ours, theirs) in mergedIntoFirstVersion where ours == exerciseId {
            if let e = FreeExerciseDB.byId[theirs] { out.append(e.name.lowercased()) }
        }
        return out
    }

    /// The exercise an alias names: a common one (no database read), else the
    /// database's name of a merged entry (read on first use).
    public static func exercise(forAlias key: String) -> String? { commonAliasIndex[key] ?? databaseNameIndex[key] }

    static let commonAliasIndex: [String: String] = {
        var index: [String: String] = [:]
        for (id, names) in commonAliases { for n in names { index[n.lowercased()] = id } }
        return index
    }()

    static let databaseNameIndex: [String: String] = {
        var index: [String: String] = [:]
        for (id, dbId) in mergedIntoFirstVersion {
            if let name = FreeExerciseDB.byId[dbId]?.name.lowercased(), index[name] == nil { index[name] = id }
        }
        return index
    }()

    /// The database entry an exercise comes from, for its instructions.
    public static func sourceEntry(of exerciseId: String) -> FreeExerciseDB.Entry? {
        if let merged = mergedIntoFirstVersion.first(where: { $0.ours == exerciseId }) { return FreeExerciseDB.byId[merged.theirs] }
        return FreeExerciseDB.entries.first { Slug.make($0.name) == exerciseId }
    }
}
