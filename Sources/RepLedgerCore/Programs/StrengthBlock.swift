/// A coach's strength block (`program generate --style strength-block`): the
/// seed's exercises, chosen by the seed's four rules, prescribed as a
/// strength coach writes them. docs/PROGRAMS.md, "The strength block", gives
/// the numbers and their sources.
public enum StrengthBlock {
    /// What a program line is in the block.
    public enum Role: Sendable, Equatable {
        /// The week's first squat, hinge, horizontal press or vertical press, on a bar: low reps, long rests.
        case heavy
        /// Any other main-lift slot: the pattern's variation on its second day (a front squat, a Romanian
        /// deadlift, a close-grip bench), rows and pull-ups, and a main lift not on a bar (a goblet squat).
        case compound
        /// Olympic lifts, jumps, throws and swings: few reps, each at full speed, fresh.
        case explosive
        /// A timed hold.
        case hold
        /// A muscle slot's exercise.
        case accessory
    }

    /// Sets, reps and rest of each role (rests by intensity: 3 minutes for heavy compounds).
    public static let heavy = (sets: 4, reps: (3, 5), rest: 180)
    /// Heavy sets a day whose main lifts alone overrun its minutes comes down to.
    public static let heavySetsWhenShort = 3
    public static let compound = (sets: 3, reps: (6, 8), rest: 150)
    public static let explosive = (sets: 3, reps: ProgramGenerator.explosiveReps, rest: 120)
    public static let accessory = (sets: 3, reps: (8, 12))
    /// An accessory's rest: 90 s, 60 s for the library's lower-rated isolation work (rating below 50).
    public static func accessoryRest(rating: Int) -> Int { rating >= 50 ? 90 : 60 }

    /// The lifts whose first slot of the week is heavy.
    public static let heavyLifts: Set<SlotTemplates.MainLift> = [.squat, .hinge, .horizontalPress, .verticalPress]
    /// A heavy lift is loaded in small steps: on a bar.
    static let bars: Set<Equipment> = [.barbell, .trapBar, .smithMachine]

    /// The role of each slot's pick, slots in the week's order. Only the week's first slot of a heavy lift is heavy, so
    /// the hinge is one heavy pull a week; the generator gives the hinge's later slots its lighter variation first.
    static func roles(lifts: [SlotTemplates.MainLift?], picks: [ExerciseDefined]) -> [Role] {
        var seen = Set<SlotTemplates.MainLift>()
        return zip(lifts, picks).map { lift, x in
            if ProgramGenerator.isExplosive(x) { return .explosive }
            if x.kind == .isometric { return .hold }
            guard let lift else { return .accessory }
            let first = seen.insert(lift).inserted
            let lighter = lift.lighterVariationMuscle.map(x.primaryMuscles.contains) ?? false
            let own = lift.movements.contains(x.canonicalMovement)  // a lunge in the squat's place is no heavy squat
            return first && heavyLifts.contains(lift) && own && !lighter && !bars.isDisjoint(with: x.equipment) ? .heavy : .compound
        }
    }

    /// A line as the block prescribes it for its role.
    static func prescribe(_ e: inout ProgramExercise, role: Role, rating: Int) {
        switch role {
        case .heavy: (e.sets, (e.repsMin, e.repsMax), e.restSeconds) = heavy
        case .compound: (e.sets, (e.repsMin, e.repsMax), e.restSeconds) = compound
        case .explosive: (e.sets, (e.repsMin, e.repsMax), e.restSeconds) = explosive
        case .hold: (e.sets, e.repsMin, e.repsMax, e.restSeconds) = (3, 1, 1, accessoryRest(rating: rating))
        case .accessory:
            (e.sets, (e.repsMin, e.repsMax)) = accessory
            e.restSeconds = accessoryRest(rating: rating)
        }
    }

    /// The most sets a week gives one muscle, counted by each exercise's first primary muscle.
    public static let weeklySetsPerMuscle = 20

    /// A pull from the floor on a bar that is no lighter variation: the week's heavy hinge, never an accessory.
    public static func isHeavyPull(_ x: ExerciseDefined) -> Bool {
        x.canonicalMovement == "hip-hinge" && !x.primaryMuscles.contains(.hamstrings) && !bars.isDisjoint(with: x.equipment)
    }

    /// Keeps each muscle's week within `weeklySetsPerMuscle`: main lifts count first, then accessories in the week's
    /// order, and an accessory that would take its muscle past the bound leaves.
    static func capWeeklySets(
        _ week: [[(line: ProgramExercise, role: Role)]], muscle: (String) -> Muscle?
    ) -> [[(line: ProgramExercise, role: Role)]] {
        let optional: Set<Role> = [.accessory, .hold]
        var total: [Muscle: Int] = [:]
        for day in week {
            for l in day where !optional.contains(l.role) { if let m = muscle(l.line.exerciseId) { total[m, default: 0] += l.line.sets } }
        }
        return week.map { day in
            day.filter { l in
                guard optional.contains(l.role), let m = muscle(l.line.exerciseId) else { return true }
                guard total[m, default: 0] + l.line.sets <= weeklySetsPerMuscle else { return false }
                total[m, default: 0] += l.line.sets
                return true
            }
        }
    }

    /// Fits a day to its minutes: accessories leave from the last (the lowest rated) while the day overruns, then
    /// heavy lifts come down to `heavySetsWhenShort` sets. Main lifts never leave: a day that still overruns is
    /// said (`ProgramAdvice.shortSessions`).
    static func fit(_ lines: [(line: ProgramExercise, role: Role)], minutes: Int) -> [(line: ProgramExercise, role: Role)] {
        var lines = lines
        let budget = minutes * 60
        func over() -> Bool { SessionTime.seconds(ProgramSession(lines.map(\.line))) > budget }
        while over(), let last = lines.lastIndex(where: { $0.role == .accessory || $0.role == .hold }) { lines.remove(at: last) }
        for i in lines.indices where over() && lines[i].role == .heavy { lines[i].line.sets = heavySetsWhenShort }
        return lines
    }
}

extension ProgramSession {
    init(_ exercises: [ProgramExercise]) {
        self.init()
        self.exercises = exercises
    }
}
