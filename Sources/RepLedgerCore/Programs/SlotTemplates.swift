/// Each split's sessions and their muscle slots: one slot is one exercise
/// whose primary muscles include the slot's muscle. This file is the data;
/// `ProgramGenerator` fills it.
///
/// Where they come from: written for this project from the usual shape of
/// these splits (push = chest, shoulders, triceps; pull = back, lats, biceps;
/// legs = quads, hamstrings, glutes, calves; upper and lower days split the
/// same way; full-body days take one slot from each region), sized to five or
/// six exercises of 3 sets, which fits a 60-minute session at the rests of
/// DOMAIN.md §12. Sessions of the same kind vary their slots (A, B, C), so
/// a program can keep every display name once.
public enum SlotTemplates {
    public struct Session: Sendable, Equatable {
        public var name: String
        public var slots: [Muscle]
    }

    static let fullBodyA = Session(name: "Full Body A", slots: [.quads, .chest, .back, .hamstrings, .shoulders, .abs])
    static let fullBodyB = Session(name: "Full Body B", slots: [.glutes, .chest, .lats, .quads, .triceps, .biceps])
    static let fullBodyC = Session(name: "Full Body C", slots: [.hamstrings, .shoulders, .back, .quads, .chest, .abs])
    static let upperA = Session(name: "Upper A", slots: [.chest, .back, .shoulders, .lats, .biceps, .triceps])
    static let upperB = Session(name: "Upper B", slots: [.shoulders, .lats, .chest, .back, .triceps, .biceps])
    static let lowerA = Session(name: "Lower A", slots: [.quads, .hamstrings, .glutes, .quads, .calves, .abs])
    static let lowerB = Session(name: "Lower B", slots: [.hamstrings, .quads, .glutes, .calves, .abs])
    static let pushA = Session(name: "Push A", slots: [.chest, .shoulders, .chest, .shoulders, .triceps])
    static let pullA = Session(name: "Pull A", slots: [.back, .lats, .back, .biceps, .biceps])
    static let legsA = Session(name: "Legs A", slots: [.quads, .hamstrings, .quads, .glutes, .calves])
    static let pushB = Session(name: "Push B", slots: [.shoulders, .chest, .chest, .triceps, .triceps])
    static let pullB = Session(name: "Pull B", slots: [.lats, .back, .lats, .biceps, .abs])
    static let legsB = Session(name: "Legs B", slots: [.hamstrings, .quads, .glutes, .quads, .abs])

    /// The split's sessions shaped to a session length (DOMAIN.md §12: days
    /// and duration choose the session). Each exercise of 3 sets takes about
    /// ten minutes at §12's rests, and the templates are sized for an hour:
    /// up to 35 minutes keeps a session's first 3 slots, up to 50 its first 4,
    /// up to 75 the whole template, up to 105 adds 2 slots and longer adds 3,
    /// the added ones repeating the session's first muscles in order (the
    /// template lists its main muscles first). docs/PROGRAMS.md has the table.
    public static func sessions(_ split: Split, minutes: Int) -> [Session] {
        sessions(split).map { s in
            let count = minutes <= 35 ? 3 : minutes <= 50 ? 4 : minutes <= 75 ? s.slots.count : s.slots.count + (minutes <= 105 ? 2 : 3)
            var slots = Array(s.slots.prefix(count))
            var i = 0
            while slots.count < count { slots.append(s.slots[i % s.slots.count]); i += 1 }
            return Session(name: s.name, slots: slots)
        }
    }

    /// The split's sessions as sized for an hour.
    public static func sessions(_ split: Split) -> [Session] {
        switch split {
        case .fullBody: [Session(name: "Full Body", slots: fullBodyA.slots)]
        case .fullBodyX2: [fullBodyA, fullBodyB]
        case .upperLower: [Session(name: "Upper", slots: upperA.slots), Session(name: "Lower", slots: lowerA.slots)]
        case .pushPullLegs:
            [
                Session(name: "Push", slots: pushA.slots), Session(name: "Pull", slots: pullA.slots),
                Session(name: "Legs", slots: legsA.slots),
            ]
        case .fullBodyX3: [fullBodyA, fullBodyB, fullBodyC]
        case .twoUpperOneLower: [upperA, Session(name: "Lower", slots: lowerA.slots), upperB]
        case .oneUpperTwoLower: [lowerA, Session(name: "Upper", slots: upperA.slots), lowerB]
        case .upperLowerX2: [upperA, lowerA, upperB, lowerB]
        case .pplUpperLower:
            [
                Session(name: "Push", slots: pushA.slots), Session(name: "Pull", slots: pullA.slots),
                Session(name: "Legs", slots: legsA.slots), Session(name: "Upper", slots: upperB.slots),
                Session(name: "Lower", slots: lowerB.slots),
            ]
        case .pplX2: [pushA, pullA, legsA, pushB, pullB, legsB]
        }
    }
}
