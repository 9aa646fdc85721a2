import Foundation

/// Generates a program from a questionnaire (DOMAIN.md §12), as a pure
/// function of the library, the answers, the split and a seed. Its result is
/// stored as a `ProgramGenerated` event: replay never runs this again.
public enum ProgramGenerator {
    /// "Not enough exercises", or a split that does not exist for the days.
    public static let notEnoughMessage = "not enough exercises for your equipment and experience"

    /// Equipment every lifter has: their body (and whatever the library calls `other`).
    public static let alwaysAvailable: Set<Equipment> = [.bodyweight, .other]

    /// Kinds a generated program uses: resistance work and holds; cardio, mobility and recovery are planned elsewhere.
    static let programKinds: Set<ExerciseKind> = [.strength, .explosive, .isometric]

    /// The experience level as the library's complexity scale: 1 complete beginner, 2 beginner, 3 intermediate and up.
    public static func level(_ e: ExperienceLevel) -> Int {
        switch e {
        case .completeBeginner: 1
        case .beginner: 2
        case .intermediate, .advanced: 3
        }
    }

    /// Injury words and the muscles an exercise must not load (primary or secondary) to stay unflagged.
    /// Injuries never remove an exercise: they flag it (DOMAIN.md §12).
    public static let injuryMuscles: [(words: [String], muscles: Set<Muscle>)] = [
        (["knee"], [.quads, .hamstrings, .calves]),
        (["hip"], [.glutes, .abductors, .adductors, .hamstrings]),
        (["lower back", "back", "spine", "disc"], [.lowerBack, .back]),
        (["shoulder", "rotator"], [.shoulders]),
        (["elbow"], [.biceps, .triceps, .forearms]),
        (["wrist"], [.forearms]),
        (["neck"], [.neck, .traps]),
        (["ankle"], [.calves]),
    ]

    static func flagged(_ x: ExerciseDefined, injuries: [String]) -> Bool {
        let text = injuries.joined(separator: " ").lowercased()
        let hurt = injuryMuscles.filter { $0.words.contains { text.contains($0) } }.reduce(into: Set<Muscle>()) { $0.formUnion($1.muscles) }
        return !hurt.isDisjoint(with: x.primaryMuscles + x.secondaryMuscles)
    }

    /// The program for the answers, or a refusal naming why; nothing is appended on refusal.
    public static func generate(library: LibraryState, answers q: QuestionnaireAnswered, split: Split,
                                seed: UInt64) throws(Refusal) -> (sessions: [ProgramSession], repeatWarning: Bool) {
        guard Split.options(days: q.daysPerWeek).contains(split) else {
            throw .invalidProgram("\(split.rawValue) is not a split for \(q.daysPerWeek) days; choose one of "
                                  + Split.options(days: q.daysPerWeek).map(\.rawValue).joined(separator: ", "))
        }
        let owned = Set(q.equipment).union(alwaysAvailable)
        let level = level(q.experience)
        let pool = library.order.compactMap { library.exercises[$0] }.filter { x in
            !x.archived && programKinds.contains(x.definition.kind) && x.definition.complexity <= level
                && Set(x.definition.equipment).isSubset(of: owned)
        }.map(\.definition)

        // Sessions and their slots: a priority muscle gets one extra slot in every session that trains it.
        // A slot takes an exercise whose primary muscles include its muscle; an extra (priority) slot is
        // there for more work on the muscle, so it also takes one that trains it as a secondary muscle
        // (glutes have two primary exercises in the library, and they share one movement).
        let sessions = SlotTemplates.sessions(split)
        struct Slot { var session: Int; var muscle: Muscle; var extra: Bool; var pick: ExerciseDefined? }
        var slots: [Slot] = []
        for (s, session) in sessions.enumerated() {
            slots += session.slots.map { Slot(session: s, muscle: $0, extra: false, pick: nil) }
            for m in q.priorityMuscles where session.slots.contains(m) { slots.append(Slot(session: s, muscle: m, extra: true, pick: nil)) }
        }
        var repeatWarning = false

        func candidates(_ slot: Slot, allowNameRepeats: Bool) -> [ExerciseDefined] {
            let sameSession = slots.filter { $0.session == slot.session }.compactMap(\.pick)
            let inProgram = Set(slots.compactMap(\.pick?.name))
            return pool.filter { x in
                (x.primaryMuscles.contains(slot.muscle) || (slot.extra && x.secondaryMuscles.contains(slot.muscle)))
                    && !sameSession.contains { $0.canonicalMovement == x.canonicalMovement || $0.name == x.name }
                    && (allowNameRepeats || !inProgram.contains(x.name))
            }
        }
        // Most constrained slot first; the highest canonical rating wins (ties by id, so a seed is not needed here).
        while let open = slots.indices.filter({ slots[$0].pick == nil })
            .min(by: { (candidates(slots[$0], allowNameRepeats: false).count, $0) < (candidates(slots[$1], allowNameRepeats: false).count, $1) }) {
            var options = candidates(slots[open], allowNameRepeats: false)
            if options.isEmpty {
                options = candidates(slots[open], allowNameRepeats: true)
                if !options.isEmpty { repeatWarning = true }
            }
            guard let best = options.max(by: { ($0.rating, $1.exerciseId) < ($1.rating, $0.exerciseId) }) else {
                throw .invalidProgram("\(notEnoughMessage): nothing left for the \(slots[open].muscle.rawValue) slot of "
                                      + "\(sessions[slots[open].session].name)")
            }
            slots[open].pick = best
        }

        var random = SplitMix(seed: seed) // fully specified, so a stored seed chooses alike in every later build
        return (sessions.indices.map { s in
            var session = ProgramSession()
            session.name = sessions[s].name
            session.exercises = slots.filter { $0.session == s }.compactMap(\.pick)
                .sorted { ($0.rating, $1.exerciseId) > ($1.rating, $0.exerciseId) }
                .map { x in
                    var e = ProgramExercise()
                    e.exerciseId = x.exerciseId
                    e.sets = 3
                    e.restSeconds = x.rating > 80 ? 120 : x.rating >= 50 ? 90 : 60
                    let ranges = repRanges(goals: q.goals, rating: x.rating)
                    (e.repsMin, e.repsMax) = ranges[Int(random.next() % UInt64(ranges.count))]
                    e.injuryWarning = flagged(x, injuries: q.injuries)
                    return e
                }
            return session
        }, repeatWarning)
    }

    /// The two rep ranges a goal set chooses between (DOMAIN.md §12); no goal reads as muscle.
    public static func repRanges(goals: [TrainingGoal], rating: Int) -> [(Int, Int)] {
        let g = Set(goals)
        if g.contains(.strength) { return rating > 75 ? [(5, 8), (6, 10)] : [(6, 10), (8, 12)] }
        if g.contains(.fatLoss) { return [(8, 12), (10, 14)] }
        return [(6, 10), (8, 12)]
    }
}

