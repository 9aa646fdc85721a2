import Foundation
import RepLedgerCore

extension LogPageQuery {
    /// `log --touching exercise|workout|set ID`: every event that touched one
    /// exercise, workout or set, through its edits, swaps, moves and merges.
    /// An event touches it when its payload names it (its id as a value: a
    /// set logged under the exercise, a swap from or to it, a template that
    /// plans it, its own library events), and an exercise stands for every
    /// exercise merged into it too, before the merge and after.
    public struct Touching: Sendable, Hashable {
        public enum Kind: String, Sendable, CaseIterable { case exercise, workout, set }
        public var kind: Kind
        /// As typed: an exercise's id or name, a workout's id, prefix or `last`, a set's id or prefix.
        public var reference: String
        /// The ids it stands for (`resolved(in:)`), lowercased as payloads hold them.
        var ids: Set<String> = []

        public init(kind: Kind, reference: String) {
            self.kind = kind
            self.reference = reference
        }

        /// Whether the event names one of the ids.
        func admits(_ e: EventEnvelope) -> Bool {
            if kind == .workout, let w = e.event.workoutId, ids.contains(w.lowercased) { return true }
            if kind == .set, let s = e.event.setId, ids.contains(s.lowercased) { return true }
            let json = e.event.payloadJSON
            return ids.contains { json.contains("\"\($0)\"") }
        }

        /// The reference looked up in the log: the ids it stands for.
        func resolved(in store: any EventStore) throws -> Touching {
            var t = self
            switch kind {
            case .workout:
                t.ids = [try Ledger(store: store).resolveWorkout(reference).lowercased]
            case .exercise:
                let library = try Ledger(store: store).library()
                let id = try library.resolve(reference).definition.exerciseId
                t.ids = Self.mergedInto(id, merges: try Self.merges(store))
            case .set:
                let (id, workout) = try Self.set(reference, in: store)
                t.ids = try Self.movesOf(id, in: workout, store)
            }
            return t
        }

        /// Every merge in the log, as (merged, into).
        static func merges(_ store: any EventStore) throws -> [(String, String)] {
            var out: [(String, String)] = []
            try store.read(EventQuery(types: [ExerciseMerged.eventType.name])) { e in
                if case .exerciseMerged(let m) = e.event { out.append((m.exerciseId, m.intoExerciseId)) }
            }
            return out
        }

        /// `id` and every exercise merged into it, directly or through another merge.
        static func mergedInto(_ id: String, merges: [(String, String)]) -> Set<String> {
            var ids: Set<String> = [id]
            var grew = true
            while grew {
                grew = false
                for (from, into) in merges where ids.contains(into) && !ids.contains(from) {
                    ids.insert(from)
                    grew = true
                }
            }
            return ids
        }

        /// A set's full id from its id or a unique prefix of it, among the sets the log holds, and its workout.
        static func set(_ reference: String, in store: any EventStore) throws -> (id: String, workout: UUID) {
            let key = reference.lowercased()
            var found: [String: UUID] = [:]
            try store.read(EventQuery(types: [SetAdded.eventType.name, SetLogged.eventType.name])) { e in
                if let s = e.event.setId?.lowercased, s.hasPrefix(key), let w = e.event.workoutId { found[s] = w }
            }
            guard !key.isEmpty, let first = found.first else { throw QueryError.invalidParameter("no set '\(reference)' in the log") }
            guard found.count == 1 else {
                throw QueryError.invalidParameter("'\(reference)' is the start of \(found.count) sets: give more of its id")
            }
            return (first.key, first.value)
        }

        /// The set and the sets it became: a move deletes it and logs a copy under a new id in the same
        /// command (`CommandSession.moveSet`), so a copy made by the command that deleted one of them follows it.
        static func movesOf(_ id: String, in workout: UUID, _ store: any EventStore) throws -> Set<String> {
            var ids: Set<String> = [id]
            var movedBy: Set<UUID> = []
            try store.read(EventQuery(stream: .workout(workout))) { e in
                guard let set = e.event.setId?.lowercased else { return }
                if case .setDeleted = e.event, ids.contains(set), let command = e.causationId { movedBy.insert(command) }
                switch e.event {
                case .setLogged, .setAdded: if let command = e.causationId, movedBy.contains(command) { ids.insert(set) }
                default: break
                }
            }
            return ids
        }
    }
}
