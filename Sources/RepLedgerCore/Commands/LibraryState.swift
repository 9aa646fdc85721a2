/// The exercise library as the `library` stream describes it.
public struct LibraryState: Sendable, Equatable {
    public struct Exercise: Sendable, Equatable {
        public var definition: ExerciseDefined
        public var archived = false
        public var exerciseId: String { definition.exerciseId }
        public var name: String { definition.name }
    }

    /// By id.
    public private(set) var exercises: [String: Exercise] = [:]
    /// Ids in the order they were defined.
    public private(set) var order: [String] = []
    private var byLowercasedName: [String: [String]] = [:]
    public var version: Int64 = 0

    public init() {}

    public mutating func evolve(_ event: LedgerEvent) {
        switch event {
        case .exerciseDefined(let e):
            if exercises[e.exerciseId] == nil { order.append(e.exerciseId) }
            exercises[e.exerciseId] = Exercise(definition: e)
            byLowercasedName[e.name.lowercased(), default: []].append(e.exerciseId)
        case .exerciseRenamed(let e):
            guard var x = exercises[e.exerciseId] else { break }
            byLowercasedName[x.name.lowercased()]?.removeAll { $0 == e.exerciseId }
            x.definition.name = e.name
            exercises[e.exerciseId] = x
            byLowercasedName[e.name.lowercased(), default: []].append(e.exerciseId)
        case .exerciseArchived(let e):
            exercises[e.exerciseId]?.archived = true
        default:
            return
        }
        version += 1
    }

    /// Finds an exercise by id, or by name (case-insensitive, exact), per CLI.md.
    public func resolve(_ idOrName: String) throws(Refusal) -> Exercise {
        if let x = exercises[idOrName] { return x }
        let key = idOrName.trimmingSpaces().lowercased()
        if let x = exercises[key] { return x }
        let ids = byLowercasedName[key] ?? []
        if ids.count == 1, let x = exercises[ids[0]] { return x }
        if ids.count > 1 { throw .ambiguousExercise(idOrName, matches: ids.sorted()) }
        let names = order.compactMap { exercises[$0] }.filter { !$0.archived }.map(\.name)
        throw .unknownExercise(idOrName, suggestions: NearestNames.closest(to: idOrName, among: names))
    }

    /// Like `resolve`, and refuses archived exercises (for new sets and entries).
    public func resolveActive(_ idOrName: String) throws(Refusal) -> Exercise {
        let x = try resolve(idOrName)
        if x.archived { throw .exerciseArchived(x.name) }
        return x
    }

    public func name(of exerciseId: String) -> String { exercises[exerciseId]?.name ?? exerciseId }

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
