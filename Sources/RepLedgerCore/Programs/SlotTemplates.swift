/// Each split's sessions and their slots: a main lift (a movement pattern a
/// strength coach programs first: squat, hinge, presses, row, pull-up) or a
/// muscle (one exercise whose primary muscles include it). The sessions are
/// data in split_templates.json (`SplitTemplateFile`); this file has the
/// patterns and the shaping to a session's length. `ProgramGenerator` fills
/// the slots, and docs/PROGRAMS.md has the rubric the result is held to.
///
/// Where the sessions come from: written for this project from the usual shape of
/// these splits: every session opens with its main lifts (a full-body day a
/// squat or hinge, a press and a pull; upper days both presses and both
/// pulls; lower and leg days a squat and a hinge; push and pull days their
/// two patterns), then accessories by muscle (push = chest, shoulders,
/// triceps; pull = back, lats, biceps; legs = quads, hamstrings, glutes,
/// calves). Sized to five or six exercises of 3 sets, which fits a 60-minute
/// session at the rests of DOMAIN.md §12. The three full-body days alternate
/// A, B, A's lifts, so the main patterns come back within the week, by
/// variations (seed 001 repeats no name in a programme).
public enum SlotTemplates {
    /// A movement pattern a program trains with its best exercise, and with the next variation each time it comes back.
    public enum MainLift: String, Sendable, CaseIterable {
        case squat, hinge, horizontalPress, verticalPress, row, pullUp

        /// The library movements of the pattern.
        public var movements: Set<String> {
            switch self {
            case .squat: ["squat", "machine-squat"]
            case .hinge: ["hip-hinge", "hip-hinge-ballistic"]
            case .horizontalPress: ["horizontal-press", "incline-press", "decline-press"]
            case .verticalPress: ["vertical-press"]
            case .row: ["horizontal-pull", "chest-supported-row"]
            case .pullUp: ["vertical-pull"]
            }
        }

        /// Movements of the same job, for a lifter whose equipment allows none
        /// of `movements` (no pull-up bar: a second row; no squat: a lunge).
        public var alternatives: Set<String> {
            switch self {
            case .squat: ["lunge", "leg-press"]
            case .hinge: ["lunge", "leg-press"]
            case .horizontalPress: ["vertical-press", "dip"]
            case .verticalPress: ["horizontal-press", "incline-press", "decline-press", "dip"]
            case .row: ["vertical-pull"]
            case .pullUp: ["horizontal-pull", "chest-supported-row"]
            }
        }

        /// The muscle of the pattern's lighter variations, ranked after the pattern's other exercises: for the
        /// hinge, hamstrings (a Romanian deadlift is hamstring work, the lighter day after a deadlift).
        public var lighterVariationMuscle: Muscle? { self == .hinge ? .hamstrings : nil }

        /// The muscle a slot of this lift counts as (for lower-body days, priority muscles), and
        /// the slot it becomes when the lifter's equipment allows no exercise of the pattern.
        public var muscle: Muscle {
            switch self {
            case .squat: .quads
            case .hinge: .hamstrings
            case .horizontalPress: .chest
            case .verticalPress: .shoulders
            case .row: .back
            case .pullUp: .lats
            }
        }
    }

    /// One exercise place.
    public enum Slot: Sendable, Hashable {
        case main(MainLift)
        case muscle(Muscle)

        public var muscle: Muscle {
            switch self {
            case .main(let lift): lift.muscle
            case .muscle(let m): m
            }
        }
    }

    public struct Session: Sendable, Equatable {
        public var name: String
        public var slots: [Slot]
        /// The muscles the session's slots count as.
        public var muscles: [Muscle] { slots.map(\.muscle) }

        init(name: String, slots: [Slot]) {
            self.name = name
            self.slots = slots
        }
    }

    /// The split's sessions shaped to a session length (DOMAIN.md §12: days
    /// and duration choose the session). Each exercise of 3 sets takes about
    /// ten minutes at §12's rests, and the templates are sized for an hour:
    /// up to 35 minutes keeps a session's first 3 slots, up to 50 its first 4,
    /// up to 75 the whole template, up to 105 adds 2 slots and longer adds 3,
    /// the added ones accessories for the session's first muscles in order
    /// (the template lists its main lifts first). docs/PROGRAMS.md has the table.
    public static func sessions(_ split: Split, minutes: Int, from file: SplitTemplateFile = .embedded) -> [Session] {
        sessions(split, from: file).map { s in
            let count = minutes <= 35 ? 3 : minutes <= 50 ? 4 : minutes <= 75 ? s.slots.count : s.slots.count + (minutes <= 105 ? 2 : 3)
            var slots = Array(s.slots.prefix(count))
            var i = 0
            while slots.count < count { slots.append(.muscle(s.slots[i % s.slots.count].muscle)); i += 1 }
            return Session(name: s.name, slots: slots)
        }
    }

    /// The split's sessions as sized for an hour.
    public static func sessions(_ split: Split, from file: SplitTemplateFile = .embedded) -> [Session] {
        file.entry(split).sessions
    }
}
