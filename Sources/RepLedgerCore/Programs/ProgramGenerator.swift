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
        // Most constrained slot first, the highest canonical rating first (ties by id), as DOMAIN.md §12
        // says; where that choice leads to a slot with no candidate, the search steps back and takes the
        // next candidate, so a program is refused only when none exists. First with every display name
        // once in the program; failing that, names may repeat across sessions (`repeatWarning`), still
        // preferring names not used yet. A movement never repeats within a session.
        func solve(relaxed: Bool) -> [ExerciseDefined]? {
            var picks = [ExerciseDefined?](repeating: nil, count: slots.count)
            var steps = 0
            func options(_ i: Int) -> [ExerciseDefined] {
                let slot = slots[i]
                let sameSession = slots.indices.filter { slots[$0].session == slot.session }.compactMap { picks[$0] }
                let used = Set(picks.compactMap { $0?.name })
                return pool.filter { x in
                    (x.primaryMuscles.contains(slot.muscle) || (slot.extra && x.secondaryMuscles.contains(slot.muscle)))
                        && !sameSession.contains { $0.canonicalMovement == x.canonicalMovement || $0.name == x.name }
                        && (relaxed || !used.contains(x.name))
                }.sorted { a, b in
                    let (ua, ub) = (used.contains(a.name), used.contains(b.name))
                    if ua != ub { return !ua }
                    return (a.rating, b.exerciseId) > (b.rating, a.exerciseId)
                }
            }
            func search() -> Bool {
                steps += 1
                guard steps <= 2_000 else { return false } // a bound: past it, the relaxed search (or a refusal) answers
                let open = picks.indices.filter { picks[$0] == nil }.map { ($0, options($0)) }
                guard let (slot, candidates) = open.min(by: { ($0.1.count, $0.0) < ($1.1.count, $1.0) }) else { return true }
                for x in candidates {
                    picks[slot] = x
                    if search() { return true }
                }
                picks[slot] = nil
                return false
            }
            return search() ? picks.map { $0! } : nil
        }
        var repeatWarning = false
        let picks: [ExerciseDefined]
        if let strict = solve(relaxed: false) {
            picks = strict
        } else if let relaxed = solve(relaxed: true) {
            picks = relaxed
            repeatWarning = Set(relaxed.map(\.name)).count != relaxed.count
        } else {
            let hard = slots.first { slot in !pool.contains { $0.primaryMuscles.contains(slot.muscle) } } ?? slots[0]
            throw .invalidProgram("\(notEnoughMessage): the \(hard.muscle.rawValue) slots of \(sessions[hard.session].name) cannot all be filled")
        }
        for i in slots.indices { slots[i].pick = picks[i] }

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

