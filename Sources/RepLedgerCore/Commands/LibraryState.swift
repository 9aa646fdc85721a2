/// The exercise library as the `library` stream describes it.
public struct LibraryState: Sendable, Equatable {
    public struct Exercise: Sendable, Equatable {
        public var definition: ExerciseDefined
        public var archived = false
        /// Sets are per side: volume counts each side once (`ExerciseEdited`).
        public var unilateral = false
        public var favourite = false
        /// The lifter's note on the exercise, if any.
        public var notes: String?
        /// Edited by the lifter: a library update then keeps their muscles, equipment and kind.
        public var edited = false
        /// The exercise this one was merged into (`ExerciseMerged`); a merged exercise is archived too.
        public var mergedInto: String?
        public var exerciseId: String { definition.exerciseId }
        public var name: String { definition.name }
    }

    /// By id.
    public private(set) var exercises: [String: Exercise] = [:]
    /// Ids in the order they were defined.
    public private(set) var order: [String] = []
    private var byLowercasedName: [String: [String]] = [:]
    public var version: Int64 = 0
    /// When each exercise's name and details were last written: the newer edit wins across devices.
    public internal(set) var editClocks = EditClocks()
    /// Exercises marked unilateral, so volume skips the lookup when there are none.
    private var unilateralCount = 0
    /// One `ExerciseMerged`: the merged exercise and the one it joined.
    public struct Merge: Sendable, Equatable {
        public var exerciseId: String
        public var into: String
    }
    /// Merged exercises, in the order merged.
    public private(set) var merges: [Merge] = []

    public init() {}

    /// Whether the event changes the library: the one list every fold that keeps a library reads.
    public static func changes(_ event: LedgerEvent) -> Bool {
        switch event {
        case .exerciseDefined, .exerciseRenamed, .exerciseArchived, .exerciseEdited, .exerciseUnarchived, .exerciseFavourited, .exerciseMerged:
            true
        default: false
        }
    }

    /// `time` is the event's `occurredAt`: an edit of a name or details older than the field's last write
    /// is passed over (nil, for the library's own definitions, always applies).
    public mutating func evolve(_ event: LedgerEvent, at time: Timestamp? = nil) {
        guard editClocks.admits(event, at: time) else {
            version += 1  // still an event of the library stream
            return
        }
        switch event {
        case .exerciseDefined(let e):
            if let old = exercises[e.exerciseId] {
                // A later library version corrects its own entries; a lifter's custom
                // exercise that took the id first keeps it.
                if old.definition.custom && !e.custom { break }
                byLowercasedName[old.name.lowercased()]?.removeAll { $0 == e.exerciseId }
                // The lifter's own marks (edits, favourite) stay through a library update.
                var updated = old
                updated.definition = e
                if old.edited {
                    updated.definition.primaryMuscles = old.definition.primaryMuscles
                    updated.definition.secondaryMuscles = old.definition.secondaryMuscles
                    updated.definition.equipment = old.definition.equipment
                    updated.definition.kind = old.definition.kind
                }
                updated.archived = !e.custom && old.archived
                exercises[e.exerciseId] = updated
            } else {
                order.append(e.exerciseId)
                exercises[e.exerciseId] = Exercise(definition: e)
            }
            byLowercasedName[e.name.lowercased(), default: []].append(e.exerciseId)
        case .exerciseRenamed(let e):
            guard var x = exercises[e.exerciseId] else { break }
            byLowercasedName[x.name.lowercased()]?.removeAll { $0 == e.exerciseId }
            x.definition.name = e.name
            exercises[e.exerciseId] = x
            byLowercasedName[e.name.lowercased(), default: []].append(e.exerciseId)
        case .exerciseArchived(let e):
            exercises[e.exerciseId]?.archived = true
        case .exerciseUnarchived(let e):
            exercises[e.exerciseId]?.archived = false
        case .exerciseFavourited(let e):
            exercises[e.exerciseId]?.favourite = e.favourite
        case .exerciseMerged(let e):
            guard exercises[e.exerciseId] != nil, exercises[e.intoExerciseId] != nil else { break }
            exercises[e.exerciseId]?.archived = true
            exercises[e.exerciseId]?.mergedInto = e.intoExerciseId
            merges.append(Merge(exerciseId: e.exerciseId, into: e.intoExerciseId))
        case .exerciseEdited(let e):
            guard var x = exercises[e.exerciseId] else { break }
            x.definition.primaryMuscles = e.primaryMuscles
            x.definition.secondaryMuscles = e.secondaryMuscles
            x.definition.equipment = e.equipment
            x.definition.kind = e.kind
            if x.unilateral != e.unilateral { unilateralCount += e.unilateral ? 1 : -1 }
            x.unilateral = e.unilateral
            x.notes = e.notes.isEmpty ? nil : e.notes
            x.edited = true
            exercises[e.exerciseId] = x
        default:
            return
        }
        version += 1
    }

    /// The lifter's edits of exercises, for the state's encoding: what the definitions alone do not hold.
    public var edits: [ExerciseEdited] {
        order.compactMap { exercises[$0] }.filter(\.edited).map { x in
            var e = ExerciseEdited()
            e.exerciseId = x.exerciseId
            e.primaryMuscles = x.definition.primaryMuscles
            e.secondaryMuscles = x.definition.secondaryMuscles
            e.equipment = x.definition.equipment
            e.kind = x.definition.kind
            e.unilateral = x.unilateral
            e.notes = x.notes ?? ""
            return e
        }
    }

    /// Finds an exercise as people type it: its id, its name (case-insensitive),
    /// an alias (`bench`, `ohp`, the exercise database's name), another app's
    /// name for it (`importMatch`), or the start
    /// of one name. Several names starting alike is a refusal that lists them,
    /// most popular (highest rated) first.
    public func resolve(_ idOrName: String) throws(Refusal) -> Exercise {
        if let x = exactMatch(idOrName) { return x }
        let key = idOrName.trimmingSpaces().lowercased()
        let ids = byLowercasedName[key] ?? []
        if ids.count > 1 { throw .ambiguousExercise(idOrName, matches: ids.sorted()) }
        if let id = ExerciseLibrary.exercise(forAlias: key), let x = exercises[id], !x.archived { return x }
        // The name another app gives it, as an import matched it: "Shrug (Dumbbell)" keeps finding Dumbbell Shrug.
        if let x = importMatch(idOrName) { return x }
        let active = order.compactMap { exercises[$0] }.filter { !$0.archived }
        if key.count >= 3 {
            var starts = active.filter { $0.name.lowercased().hasPrefix(key) }
            if starts.isEmpty { starts = active.filter { " \($0.name.lowercased())".contains(" \(key)") } }
            if starts.count == 1 { return starts[0] }
            if starts.count > 1 {
                let ranked = starts.sorted { ($0.definition.rating, $1.name) > ($1.definition.rating, $0.name) }
                throw .ambiguousExercise(
                    idOrName,
                    matches: ranked.prefix(8).map { "\($0.name) [\($0.exerciseId)]" }
                        + (ranked.count > 8 ? ["\(ranked.count - 8) more"] : []))
            }
        }
        throw .unknownExercise(idOrName, suggestions: NearestNames.closest(to: idOrName, among: active.map(\.name)))
    }

    /// Finds an exercise as `resolve` does, but first among `context` (the
    /// exercises of the workout at hand): a reference that names exactly one of
    /// them (its id or whole name, an alias of it, or words each starting a word
    /// of its name: `pushdown`, `shoulder press`) is that one, whatever else the
    /// library holds, unless it is another exercise's id or whole name, typed
    /// exactly; several of them is a refusal that lists them. Anything else is
    /// looked up in the whole library.
    public func resolve(_ idOrName: String, within context: [String]) throws(Refusal) -> Exercise {
        var seen = Set<String>()
        let candidates = context.filter { seen.insert($0).inserted }.compactMap { exercises[$0] }
        guard !candidates.isEmpty else { return try resolve(idOrName) }
        let key = idOrName.trimmingSpaces().lowercased()
        if let x = candidates.first(where: { $0.exerciseId == key || $0.name.lowercased() == key }) { return x }
        if let id = ExerciseLibrary.exercise(forAlias: key), let x = candidates.first(where: { $0.exerciseId == id }) { return x }
        if let x = exactMatch(idOrName) { return x }
        let words = Self.words(key)
        let matching =
            words.isEmpty
            ? []
            : candidates.filter { x in
                let own = Self.words(x.name.lowercased())
                return words.allSatisfy { w in own.contains { $0.hasPrefix(w) } }
            }
        if matching.count == 1 { return matching[0] }
        if matching.count > 1 { throw .ambiguousExercise(idOrName, matches: matching.map { "\($0.name) [\($0.exerciseId)]" }) }
        return try resolve(idOrName)
    }

    /// A name's words: runs of letters and digits.
    private static func words(_ text: String) -> [Substring] {
        text.split { !($0.isLetter || $0.isNumber) }
    }

    /// Finds an exercise by its id or its whole name (case-insensitive) only:
    /// for names read from files, where a prefix or an alias could name the
    /// wrong exercise.
    /// `active` refuses an archived exercise.
    public func resolveExactly(_ idOrName: String, active: Bool = false) throws(Refusal) -> Exercise {
        if let x = exactMatch(idOrName) {
            if active && x.archived { throw .exerciseArchived(x.name) }
            return x
        }
        let ids = byLowercasedName[idOrName.trimmingSpaces().lowercased()] ?? []
        if ids.count > 1 { throw .ambiguousExercise(idOrName, matches: ids.sorted()) }
        throw .unknownExercise(idOrName)
    }

    /// The exercise with exactly this id or name (case-insensitive), if one;
    /// a merged exercise's name or id finds the exercise it was merged into.
    public func exactMatch(_ idOrName: String) -> Exercise? { ownMatch(idOrName).map(following) }

    /// The exercise with exactly this id or name, merged or not.
    public func ownMatch(_ idOrName: String) -> Exercise? {
        if let x = exercises[idOrName] { return x }
        let key = idOrName.trimmingSpaces().lowercased()
        if let x = exercises[key] { return x }
        let ids = byLowercasedName[key] ?? []
        return ids.count == 1 ? exercises[ids[0]] : nil
    }

    /// The exercise an exercise's sets count as: itself, or the one it was merged into (through later merges too).
    public func following(_ x: Exercise) -> Exercise {
        var current = x
        // A merge joins an unmerged exercise into an active one, so the chain ends; the bound guards a hand-made log.
        for _ in 0..<merges.count {
            guard let into = current.mergedInto, let next = exercises[into] else { break }
            current = next
        }
        return current
    }

    /// The id an exercise's sets count under: its own, or that of the exercise it was merged into.
    public func mergedId(_ exerciseId: String) -> String {
        guard !merges.isEmpty, let x = exercises[exerciseId], x.mergedInto != nil else { return exerciseId }
        return following(x).exerciseId
    }

    /// Like `resolve`, and refuses archived exercises (for new sets and entries).
    public func resolveActive(_ idOrName: String) throws(Refusal) -> Exercise {
        let x = try resolve(idOrName)
        if x.archived { throw .exerciseArchived(x.name) }
        return x
    }

    /// The library's own copy of `exerciseId` when it defines it, so that a
    /// fold's thousands of entries share one string instead of one each.
    public func sharedId(_ exerciseId: String) -> String {
        exercises.index(forKey: exerciseId).map { exercises[$0].key } ?? exerciseId
    }

    /// How many times a set's volume counts: twice for a unilateral exercise (its sets are per side), else once.
    /// Most libraries have none, and then no set pays for a lookup (folds sum volume set by set).
    @inline(__always)
    public func volumeSides(_ exerciseId: String) -> Double {
        unilateralCount == 0 ? 1 : exercises[exerciseId]?.unilateral == true ? 2 : 1
    }

    public func name(of exerciseId: String) -> String { exercises[exerciseId]?.name ?? exerciseId }

    /// An assisted exercise (`Pull Up (Assisted)`, `Band Assisted Pull-Up`, `Barra Fixa (Assistida)`): its load is help, so less is better.
    public func isAssisted(_ exerciseId: String) -> Bool { exercises[exerciseId].map { Self.isAssisted(name: $0.name) } ?? false }

    /// "Assisted" in the languages of the exports people bring: English, Portuguese (assistida/o), Spanish
    /// (asistida/o), Italian (assistita/o), French (assisté), German (unterstützt), Dutch (geassisteerd).
    private static let assistedWords: [[UInt8]] = ["assisted", "assistid", "asistid", "assistit", "assisté", "unterstützt", "assisteer"]
        .map { Array($0.utf8) }
    /// What every one of those words holds: a name with neither is not assisted, and most names are asked about
    /// with these two searches alone (each search is one pass, and a records fold asks once a run of sets).
    private static let assistedHints: [[UInt8]] = [Array("sist".utf8), Array("nterst".utf8)]

    /// Whether a name says the exercise is assisted. Byte by byte, ASCII letters in either case: Foundation's
    /// case-insensitive search cost a third of a records fold. The same answer as lowercasing for the ASCII
    /// letters (no other character lowercases to one of them); an accented letter matches as written in lower case.
    public static func isAssisted(name: String) -> Bool {
        guard contains(assistedHints[0], in: name) || contains(assistedHints[1], in: name) else { return false }
        return assistedWords.contains { contains($0, in: name) }
    }

    private static func contains(_ needle: [UInt8], in name: String) -> Bool {
        var name = name
        return name.withUTF8 { bytes in
            guard bytes.count >= needle.count else { return false }
            outer: for start in 0...(bytes.count - needle.count) {
                for i in 0..<needle.count {
                    let b = bytes[start + i], n = needle[i]
                    if n < 0x80 ? b | 0x20 != n : b != n { continue outer }
                }
                return true
            }
            return false
        }
    }

    /// A fresh id for a custom exercise: the name's slug, suffixed if taken.
    public func newExerciseId(for name: String) -> String {
        let base = Slug.make(name)
        var candidate = base
        var n = 2
        while exercises[candidate] != nil { candidate = "\(base)-\(n)"; n += 1 }
        return candidate
    }
}

public enum Slug {
    /// `Barbell Bench Press` → `barbell-bench-press`.
    public static func make(_ text: String) -> String {
        var out = ""
        var dash = false
        for ch in text.lowercased() {
            if ch.isLetter || ch.isNumber, ch.isASCII {
                if dash, !out.isEmpty { out.append("-") }
                out.append(ch)
                dash = false
            } else {
                dash = true
            }
        }
        return out.isEmpty ? "exercise" : out
    }
}
