import Foundation

/// Generates a program from a questionnaire (DOMAIN.md §12), as a pure
/// function of the library, the answers, the split and a seed. Its result is
/// stored as a `ProgramGenerated` event: replay never runs this again.
public enum ProgramGenerator {
    /// "Not enough exercises", or a split that does not exist for the days.
    public static let notEnoughMessage = "not enough exercises for your equipment and experience"

    /// Equipment every lifter has: their body. (`other` names gear the
    /// questionnaire does not list, from an ab wheel to a sled: a lifter who
    /// has such things says `other`.)
    public static let alwaysAvailable: Set<Equipment> = [.bodyweight]

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

    /// What a slot's candidate list depends on besides the pool.
    private struct Pair: Hashable {
        var muscle: Muscle
        var upperOnly: Bool
    }

    /// One exercise place in a session: the muscle it trains; an extra slot
    /// is a priority muscle's.
    struct Slot {
        var session: Int
        var muscle: Muscle
        var extra: Bool
        /// A main lift's slot: its pattern's exercises first; where the lift comes back, a variation of it (seed 001: no
        /// display name twice in a programme), so a coach's frequency comes from variations.
        var lift: SlotTemplates.MainLift? = nil
    }

    /// How well an exercise fills a slot, whatever else the session holds:
    /// 0 when it trains the slot's muscle as a primary muscle, 1 as a secondary
    /// one (taken only after every primary candidate: a dumbbell row for the
    /// lats where there is no pull-down), nil when it may not. An upper-body
    /// session (no lower-body slot) takes no lower-body pattern (no deadlift on
    /// an Upper day), and an explosive lift fills only its own muscle's slot
    /// (no power clean as glute work).
    static func fit(_ x: ExerciseDefined, _ slot: Slot, upperOnly: Bool) -> Int? {
        if upperOnly && LibraryDerivation.lowerBodyMovements.contains(x.canonicalMovement) { return nil }
        if x.primaryMuscles.contains(slot.muscle) { return 0 }
        if x.kind != .explosive && x.secondaryMuscles.contains(slot.muscle) { return 1 }
        return nil
    }

    /// The library's exercises a lifter can be given: program kinds, not
    /// archived, at or below their level (seed 001's never-break rule: a main
    /// lift above it gives way to its regression, a goblet squat for a back
    /// squat), within their equipment (`owned` nil means any). A beginner gets
    /// no explosive lift but a swing (no Olympic derivative, no jump); a dip
    /// needs bars unless it is done on a bench or a machine, and the
    /// questionnaire counts bars as `other`.
    static func pool(_ library: LibraryState, level: Int, owned: Set<Equipment>?) -> [ExerciseDefined] {
        library.order.compactMap { library.exercises[$0] }.filter { x in
            let d = x.definition
            guard !x.archived, programKinds.contains(d.kind) else { return false }
            guard d.complexity <= level else { return false }
            if level < 3, !forBeginners(d) { return false }
            return owned.map { equipmentNeeded(d).isSubset(of: $0) } ?? true
        }.map(\.definition)
    }

    /// A beginner's lifts: no Olympic derivative, jump or throw, and nothing explosive but a swing.
    static func forBeginners(_ x: ExerciseDefined) -> Bool {
        let m = x.canonicalMovement
        // A jump is a jump whatever movement the library files it under (Freehand Jump Squat is a squat there).
        if m.hasPrefix("olympic-") || m == "jump" || m == "throw" || x.name.lowercased().contains("jump") { return false }
        return x.kind != .explosive || m == "hip-hinge-ballistic"
    }

    /// The equipment an exercise needs: its own, and bars (`other`) for a dip on nothing but the body.
    public static func equipmentNeeded(_ x: ExerciseDefined) -> Set<Equipment> {
        let own = Set(x.equipment)
        return x.canonicalMovement == "dip" && own == [.bodyweight] ? [.bodyweight, .other] : own
    }

    /// A main lift's candidates, best first: the pattern's own movements,
    /// then its alternatives (each a strength exercise before an explosive
    /// one, then by rating, ties by id), then what fills its muscle's slot;
    /// `pattern` counts the first two. A lift that comes back takes a
    /// variation of its pattern; where the equipment leaves none, the same
    /// exercise again under the repeat warning rather than another muscle's
    /// exercise in the lift's place, which only a session that cannot hold
    /// the pattern gets (see `solve`).
    /// `lighterFirst` puts the pattern's lighter variations first: the strength block's hinge after the week's heavy pull.
    static func mainCandidates(
        _ lift: SlotTemplates.MainLift, mainPool: [ExerciseDefined], muscleCandidates: [ExerciseDefined], lighterFirst: Bool = false
    ) -> (list: [ExerciseDefined], pattern: Int) {
        var out: [ExerciseDefined] = []
        // `mainPool` comes ranked by rating (ties by id), so a stable partition keeps that order within each kind.
        for movements in [lift.movements, lift.alternatives] {
            let matching = mainPool.filter { movements.contains($0.canonicalMovement) && $0.kind != .isometric }
            // The pattern's lighter variations come after its other exercises (the deadlift before the Romanian deadlift).
            let lighter = { (x: ExerciseDefined) in lift.lighterVariationMuscle.map(x.primaryMuscles.contains) ?? false }
            for kind in [matching.filter { $0.kind != .explosive }, matching.filter { $0.kind == .explosive }] {
                out += lighterFirst ? kind.filter(lighter) + kind.filter { !lighter($0) } : kind.filter { !lighter($0) } + kind.filter(lighter)
            }
        }
        let listed = Set(out.map(\.exerciseId))
        return (out + muscleCandidates.filter { !listed.contains($0.exerciseId) }, out.count)
    }

    /// The program for the answers, or a refusal naming the slot that cannot
    /// be filled and the equipment that would fill it; nothing is appended on refusal.
    /// `style` chooses the prescription: seed 001's (the default) or a coach's strength block (`StrengthBlock`),
    /// both over exercises chosen by the seed's four rules.
    public static func generate(
        library: LibraryState, answers q: QuestionnaireAnswered, split: Split,
        seed: UInt64, style: ProgramStyle = .seed, templates: SplitTemplateFile = .embedded
    ) throws(Refusal) -> (sessions: [ProgramSession], repeatWarning: Bool) {
        guard templates.options(days: q.daysPerWeek).contains(split) else {
            throw .invalidProgram(
                "\(split.rawValue) is not a split for \(q.daysPerWeek) days; choose one of "
                    + templates.options(days: q.daysPerWeek).map(\.rawValue).joined(separator: ", "))
        }
        let owned = Set(q.equipment).union(alwaysAvailable)
        let level = level(q.experience)
        // Ranked once, best first (the highest canonical rating, ties by id), so each slot's candidates are
        // filters of it rather than sorts of their own: the same order, without a sort per slot.
        let ranked = { (xs: [ExerciseDefined]) in xs.sorted { ($0.rating, $1.exerciseId) > ($1.rating, $0.exerciseId) } }
        let pool = ranked(pool(library, level: level, owned: owned))

        // Sessions and their slots: a priority muscle gets one extra slot in every session that trains it.
        let sessions = SlotTemplates.sessions(split, minutes: q.sessionMinutes, from: templates)
        let upperOnly = sessions.map { Set($0.muscles).isDisjoint(with: Split.lowerMuscles) }
        var slots: [Slot] = []
        for (s, session) in sessions.enumerated() {
            for slot in session.slots {
                var place = Slot(session: s, muscle: slot.muscle, extra: false)
                if case .main(let lift) = slot { place.lift = lift }
                slots.append(place)
            }
            for m in q.priorityMuscles where session.muscles.contains(m) { slots.append(Slot(session: s, muscle: m, extra: true)) }
        }
        // Each slot's candidates, best first: primary before secondary, then the highest canonical rating
        // (ties by id), as DOMAIN.md §12 says; a main lift's pattern before those.
        // Slots of one muscle in sessions of one kind share their list.
        var ranking: [Pair: [ExerciseDefined]] = [:]
        let byMuscle = slots.map { slot in
            let key = Pair(muscle: slot.muscle, upperOnly: upperOnly[slot.session])
            if let known = ranking[key] { return known }
            let tiers = pool.map { fit($0, slot, upperOnly: key.upperOnly) }
            let list = pool.indices.filter { tiers[$0] == 0 }.map { pool[$0] } + pool.indices.filter { tiers[$0] == 1 }.map { pool[$0] }
            ranking[key] = list
            return list
        }
        // The strength block's hinge is one heavy pull a week: its later hinge slots take the lighter variation first.
        let laterHinge = slots.indices.map { i in
            style == .strengthBlock && slots[i].lift == .hinge && slots[..<i].contains { $0.lift == .hinge }
        }
        let mainOptions = slots.indices.map { i in
            slots[i].lift.map { mainCandidates($0, mainPool: pool, muscleCandidates: byMuscle[i], lighterFirst: laterHinge[i]) }
        }
        // What the main lifts want comes last for an accessory: each lift's first choice (the quads slot of day 2
        // leaves day 1's barbell squat to it), and its session's main patterns (no hinge as hamstring work on a
        // day whose hinge is still to be placed).
        let reserved = Set(mainOptions.compactMap { $0?.list.first?.name })
        let mainMovements = sessions.indices.map { s in
            slots.filter { $0.session == s }.compactMap(\.lift).reduce(into: Set<String>()) { $0.formUnion($1.movements) }
        }
        let candidates = slots.indices.map { i in
            mainOptions[i]?.list
                ?? {
                    let last = { (x: ExerciseDefined) in reserved.contains(x.name) || mainMovements[slots[i].session].contains(x.canonicalMovement) }
                    // The strength block's accessories are no heavy pull: a deadlift is never 8–12 reps of back work.
                    let own = style == .strengthBlock ? byMuscle[i].filter { !StrengthBlock.isHeavyPull($0) } : byMuscle[i]
                    return own.filter { !last($0) } + own.filter(last)
                }()
        }
        // Strict, a main lift takes its pattern alone when the lifter can do any of it; relaxed, where names may
        // repeat, its pattern's names come first, used or not, and its muscle's exercises only after them.
        let pattern = mainOptions.map { $0.map { $0.pattern > 0 ? $0.pattern : $0.list.count } ?? 0 }
        let strict = slots.indices.map { i in slots[i].lift == nil ? candidates[i] : Array(candidates[i].prefix(pattern[i])) }
        let picks =
            solve(slots, strict, relaxed: false) ?? solve(slots, candidates, relaxed: true, pattern: pattern)
            ?? solve(slots, withOtherMuscles(slots, candidates, byMuscle), relaxed: true, pattern: pattern)
        guard let picks else {
            throw .invalidProgram(
                "\(notEnoughMessage): "
                    + blocker(slots, candidates, sessions: sessions, upperOnly: upperOnly, library: library, level: level, owned: owned))
        }
        var random = SplitMix(seed: seed)  // fully specified, so a stored seed chooses alike in every later build
        let roles = style == .strengthBlock ? StrengthBlock.roles(lifts: slots.map(\.lift), picks: picks) : nil
        var week = sessions.indices.map { s in
            slots.indices.filter { slots[$0].session == s }
                .sorted { (picks[$0].rating, picks[$1].exerciseId) > (picks[$1].rating, picks[$0].exerciseId) }
                .map { i in
                    let x = picks[i]
                    var e = ProgramExercise()
                    e.exerciseId = x.exerciseId
                    e.sets = 3
                    e.restSeconds = restSeconds(rating: x.rating)
                    let ranges = repRanges(goals: q.goals, rating: x.rating)
                    // Drawn for every line in either style, so a seed draws alike whatever else a build changes.
                    (e.repsMin, e.repsMax) = ranges[Int(random.next() % UInt64(ranges.count))]
                    if x.kind == .isometric { (e.repsMin, e.repsMax) = (1, 1) }  // one hold a set, timed by `holdTargets`
                    e.injuryWarning = flagged(x, injuries: q.injuries)
                    if let roles { StrengthBlock.prescribe(&e, role: roles[i], rating: x.rating) }
                    return (line: e, role: roles?[i] ?? StrengthBlock.Role.accessory)
                }
        }
        if roles != nil {
            week = StrengthBlock.capWeeklySets(week, muscle: { library.exercises[$0]?.definition.primaryMuscles.first })
                .map { StrengthBlock.fit($0, minutes: q.sessionMinutes) }
        }
        let program = sessions.indices.map { s in
            var session = ProgramSession()
            session.name = sessions[s].name
            session.exercises = week[s].map(\.line)
            return session
        }
        // Seed 001: a display name repeated anywhere in the programme, a main lift's too, is said.
        let names = program.flatMap(\.exercises).map { library.name(of: $0.exerciseId) }
        return (program, Set(names).count != names.count)
    }

    /// The last resort before a refusal: a muscle's second slot in a session that its muscle's movements cannot fill
    /// (a complete beginner's one curl with only the body and a pull-up bar) takes the session's other muscles'
    /// exercises after its own, so the session keeps its length and every seed rule.
    static func withOtherMuscles(_ slots: [Slot], _ candidates: [[ExerciseDefined]], _ byMuscle: [[ExerciseDefined]]) -> [[ExerciseDefined]] {
        slots.indices.map { i in
            let slot = slots[i]
            guard slot.lift == nil, slots[..<i].contains(where: { $0.session == slot.session && $0.muscle == slot.muscle }) else {
                return candidates[i]
            }
            var listed = Set(candidates[i].map(\.exerciseId))
            let others = slots.indices.filter { slots[$0].session == slot.session && slots[$0].muscle != slot.muscle }
                .flatMap { byMuscle[$0] }
                .filter { listed.insert($0.exerciseId).inserted }
            return candidates[i] + others
        }
    }

    /// The strength block's reps of an explosive lift (a swing, a clean): few, so each is done at full speed. Seed 001's
    /// generator gives them its goal table's ranges, as every other exercise.
    public static let explosiveReps = (3, 5)

    /// Explosive work: the library's explosive kind, and the Olympic lifts and jumps it files as strength (Dumbbell Clean).
    public static func isExplosive(_ x: ExerciseDefined) -> Bool {
        let m = x.canonicalMovement
        return x.kind == .explosive || m.hasPrefix("olympic-") || m == "jump" || m == "throw"
    }

    /// The time targets of a program's holds (isometric exercises), by goal:
    /// strength 20–30 s, fat loss 40–60 s, otherwise 30–45 s.
    public static func holdTargets(_ sessions: [ProgramSession], library: LibraryState, goals: [TrainingGoal]) -> [ProgramHold] {
        let g = Set(goals)
        let (lo, hi) = g.contains(.strength) ? (20, 30) : g.contains(.fatLoss) ? (40, 60) : (30, 45)
        return sessions.enumerated().flatMap { i, s in
            s.exercises.filter { library.exercises[$0.exerciseId]?.definition.kind == .isometric }.map { x in
                var h = ProgramHold()
                h.session = i
                h.exerciseId = x.exerciseId
                (h.secondsMin, h.secondsMax) = (lo, hi)
                return h
            }
        }
    }

    /// Seconds a program may ask a hold for.
    public static let holdSecondsRange = 5...600

    /// A hold target as the generator makes it: within `holdSecondsRange`, the least first.
    public static func validate(_ h: ProgramHold) throws(Refusal) {
        guard holdSecondsRange.contains(h.secondsMin), holdSecondsRange.contains(h.secondsMax), h.secondsMin <= h.secondsMax,
            h.session >= 0, !h.exerciseId.isEmpty
        else {
            throw .invalidProgram("a hold of \(h.secondsMin)–\(h.secondsMax) s is refused: give 5 to 600 seconds, the least first")
        }
    }

    /// DOMAIN.md §12: rating > 80 → 120 s, 50–80 → 90 s, < 50 → 60 s.
    public static func restSeconds(rating: Int) -> Int { rating > 80 ? 120 : rating >= 50 ? 90 : 60 }

    /// Most constrained slot first, each slot's candidates best first; where
    /// that choice leads to a slot with no candidate, the search steps back
    /// and takes the next, so a program is refused only when none exists.
    /// Strict: every display name once in the program; relaxed: names may
    /// repeat across sessions, still preferring names not used yet. A
    /// movement never repeats within a session.
    ///
    /// A pick after which some session's open slots can no longer each get a
    /// movement of their own (no matching of slots to movements) is not
    /// followed: no program lies below it, so the first program found is the
    /// same as without the check, but a dead end is seen at once instead of
    /// after every order of the other slots has been tried. Without it, the
    /// step bound cut the search before it found programs that exist.
    ///
    /// Each step weighs every open slot, so a step must be cheap: names and
    /// movements are numbered once, and what each session has taken is
    /// counted as the search goes (a step then costs one pass over the
    /// candidates, not a pass per candidate over the session's picks).
    /// A main lift's slot tries its candidates best first, and is held to
    /// the names as any slot: the squat of day 3 is a variation of day 1's.
    static func solve(_ slots: [Slot], _ candidates: [[ExerciseDefined]], relaxed: Bool, pattern: [Int] = []) -> [ExerciseDefined]? {
        var nameIds: [String: Int] = [:], movementIds: [String: Int] = [:]
        func number(_ key: String, _ ids: inout [String: Int]) -> Int {
            if let id = ids[key] { return id }
            ids[key] = ids.count
            return ids.count - 1
        }
        // Each slot's candidates as (name, movement) numbers, in the candidates' order.
        let keys = candidates.map { list in list.map { (name: number($0.name, &nameIds), movement: number($0.canonicalMovement, &movementIds)) } }
        let sessions = (slots.map(\.session).max() ?? -1) + 1
        // How many picks of each session hold a name or a movement; how many picks in all hold a name.
        var sessionNames = [Int](repeating: 0, count: sessions * max(nameIds.count, 1))
        var sessionMovements = [Int](repeating: 0, count: sessions * max(movementIds.count, 1))
        var used = [Int](repeating: 0, count: max(nameIds.count, 1))
        var picks = [Int?](repeating: nil, count: slots.count)  // an index into the slot's candidates
        var steps = 0

        func allowed(_ i: Int, _ k: (name: Int, movement: Int)) -> Bool {
            let s = slots[i].session
            return sessionNames[s * nameIds.count + k.name] == 0 && sessionMovements[s * movementIds.count + k.movement] == 0
                && (relaxed || used[k.name] == 0)
        }
        func openCount(_ i: Int) -> Int {
            var n = 0
            for k in keys[i] where allowed(i, k) { n += 1 }
            return n
        }
        /// The slot's open candidates in the order they are tried: relaxed, names not used yet first.
        func options(_ i: Int) -> [Int] {
            let open = keys[i].indices.filter { allowed(i, keys[i][$0]) }
            guard relaxed else { return open }
            let fresh = { (xs: [Int]) in xs.filter { used[keys[i][$0].name] == 0 } + xs.filter { used[keys[i][$0].name] > 0 } }
            // A main lift's pattern, a variation or the same lift again, before another muscle's exercise in its place.
            let own = i < pattern.count ? pattern[i] : 0
            return fresh(open.filter { $0 < own }) + fresh(open.filter { $0 >= own })
        }
        func take(_ i: Int, _ c: Int, _ delta: Int) {
            let k = keys[i][c], s = slots[i].session
            sessionNames[s * nameIds.count + k.name] += delta
            sessionMovements[s * movementIds.count + k.movement] += delta
            used[k.name] += delta
        }
        /// Can every open slot of session `s` still take an allowed candidate of a movement of its own?
        func sessionCanFinish(_ s: Int) -> Bool {
            let open = picks.indices.filter { picks[$0] == nil && slots[$0].session == s }
            return firstUnmatched(open.count, movementCount: movementIds.count) { k in
                keys[open[k]].lazy.filter { allowed(open[k], $0) }.map(\.movement)
            } == nil
        }
        /// Strict picks hold names other sessions may want, so every session is checked; relaxed ones touch only their own.
        func canFinish(after slot: Int) -> Bool {
            relaxed ? sessionCanFinish(slots[slot].session) : (0..<sessions).allSatisfy(sessionCanFinish)
        }
        func search() -> Bool {
            steps += 1
            guard steps <= 2_000 else { return false }  // a bound: past it, the relaxed search (or a refusal) answers
            var best: (slot: Int, count: Int)?
            for i in picks.indices where picks[i] == nil {
                let n = openCount(i)
                if best == nil || n < best!.count { best = (i, n) }
                if n == 0 { break }
            }
            guard let (slot, _) = best else { return true }
            for c in options(slot) {
                picks[slot] = c
                take(slot, c, 1)
                if canFinish(after: slot) && search() { return true }
                take(slot, c, -1)
            }
            picks[slot] = nil
            return false
        }
        guard (0..<sessions).allSatisfy(sessionCanFinish) else { return nil }
        return search() ? picks.indices.map { candidates[$0][picks[$0]!] } : nil
    }

    /// Why no program exists, naming the slots that really fail: one with no
    /// candidate at all, else the slots of a session that need more different
    /// movements than the lifter's equipment gives them (found as the set a
    /// maximum matching of slots to movements leaves short, Hall's condition);
    /// with the equipment that would fill them.
    static func blocker(
        _ slots: [Slot], _ candidates: [[ExerciseDefined]], sessions: [SlotTemplates.Session], upperOnly: [Bool],
        library: LibraryState, level: Int, owned: Set<Equipment>
    ) -> String {
        let anyGear = pool(library, level: level, owned: nil)
        func remedy(_ short: [Slot], beyond movements: Set<String>) -> String {
            var unlocks: [Equipment: Int] = [:]
            for slot in short {
                for x in anyGear where fit(x, slot, upperOnly: upperOnly[slot.session]) != nil && !movements.contains(x.canonicalMovement) {
                    let missing = Set(x.equipment).subtracting(owned)
                    if missing.count == 1, let e = missing.first { unlocks[e, default: 0] += 1 }
                }
            }
            let best = unlocks.sorted { ($0.value, $1.key.rawValue) > ($1.value, $0.key.rawValue) }.prefix(3).map { kebab($0.key.rawValue) }
            return best.isEmpty ? "no equipment fills it at your experience level" : "\(orList(best)) would fill it"
        }
        if let i = slots.indices.first(where: { candidates[$0].isEmpty }) {
            let slot = slots[i]
            return "no exercise you can do fills the \(slot.muscle.rawValue) slot of \(sessions[slot.session].name) (\(remedy([slot], beyond: [])))"
        }
        for s in sessions.indices {
            let own = slots.indices.filter { slots[$0].session == s }
            let options = own.map { Set(candidates[$0].map(\.canonicalMovement)) }
            guard let short = shortSlots(options) else { continue }
            let movements = short.reduce(into: Set<String>()) { $0.formUnion(options[$1]) }
            var muscles: [(Muscle, Int)] = []
            for i in short {
                let m = slots[own[i]].muscle
                if let k = muscles.firstIndex(where: { $0.0 == m }) { muscles[k].1 += 1 } else { muscles.append((m, 1)) }
            }
            let named = muscles.map { $0.1 > 1 ? "\($0.1) \($0.0.rawValue)" : $0.0.rawValue }
            return "the \(orList(named).replacingOccurrences(of: " or ", with: " and ")) slots of \(sessions[s].name) need "
                + "\(short.count) different movements, and your equipment gives them only \(orList(movements.sorted())) "
                + "(\(remedy(short.map { slots[own[$0]] }, beyond: movements)))"
        }
        return "the program's slots cannot all be filled within the search's bound"
    }

    /// Slots (indices into `options`) that together have fewer movements than
    /// slots, or nil when every slot can take a movement of its own.
    static func shortSlots(_ options: [Set<String>]) -> [Int]? {
        // Movements numbered in name order, so each slot tries them alphabetically.
        let names = Set(options.flatMap { $0 }).sorted()
        let number = Dictionary(uniqueKeysWithValues: names.enumerated().map { ($0.element, $0.offset) })
        let movements = options.map { $0.map { number[$0]! }.sorted() }
        guard let (i, owner) = firstUnmatched(movements.count, movementCount: names.count, { movements[$0] }) else { return nil }
        // The slots reachable from the unmatched one by alternating paths share too few movements.
        var reached: [Int] = [i], queue = [i]
        while let j = queue.popLast() {
            for m in movements[j] { if let k = owner[m], !reached.contains(k) { reached.append(k); queue.append(k) } }
        }
        return reached.sorted()
    }

    /// Gives each slot a movement of its own by augmenting paths, slots in
    /// order, each trying its movements (numbers below `movementCount`) in the
    /// order given: the first slot left without one, with each movement's
    /// slot at that point, or nil when every slot gets one.
    static func firstUnmatched<Movements: Sequence<Int>>(
        _ slots: Int, movementCount: Int, _ movements: (Int) -> Movements
    ) -> (slot: Int, owner: [Int?])? {
        var owner = [Int?](repeating: nil, count: movementCount)
        func augment(_ i: Int, _ seen: inout [Bool]) -> Bool {
            for m in movements(i) where !seen[m] {
                seen[m] = true
                if owner[m] == nil || augment(owner[m]!, &seen) {
                    owner[m] = i
                    return true
                }
            }
            return false
        }
        for i in 0..<slots {
            var seen = [Bool](repeating: false, count: movementCount)
            if !augment(i, &seen) { return (i, owner) }
        }
        return nil
    }

    static func orList(_ items: [String]) -> String {
        items.count <= 1 ? items.joined() : items.dropLast().joined(separator: ", ") + " or " + items.last!
    }

    /// The two rep ranges a goal set chooses between (DOMAIN.md §12); no goal reads as muscle.
    public static func repRanges(goals: [TrainingGoal], rating: Int) -> [(Int, Int)] {
        let g = Set(goals)
        if g.contains(.strength) { return rating > 75 ? [(5, 8), (6, 10)] : [(6, 10), (8, 12)] }
        if g.contains(.fatLoss) { return [(8, 12), (10, 14)] }
        return [(6, 10), (8, 12)]
    }
}
