import Foundation
import RepLedgerCore

/// Personal records per exercise (DOMAIN.md §4): heaviest weight, best e1RM,
/// best set volume, best session volume and rep maxes 1–12; for cardio the
/// longest distance, longest duration and best pace, and for isometric work
/// the longest hold; with the timeline of when each record was set. A record is set when a value
/// strictly exceeds the best before it (a tie is not a record; the first
/// value ever is). Computed from the current fold, so after an edit or a
/// deletion the records are exactly what a replay from scratch gives.
public struct PersonalRecordsProjection: ProjectionView {
    public static let name = "personal-records"
    /// 2: records of cardio and isometric work. 3: a unilateral exercise's volume counts each side once.
    /// 4: an assisted exercise's record is the least assistance.
    public static let version = 4
    public static let repMaxRange = 1...12

    public struct Record: Sendable, Equatable {
        public var exerciseId: String
        public var kind: PRKind
        /// For rep maxes: the rep count of the record.
        public var repMax: Int?
        /// In the kind's unit (`PRKind.unit`): kilograms for weight records.
        public var value: Double
        public var weightKg: Double?
        public var reps: Int?
        public var workoutId: UUID
        /// Nil for session volume, which belongs to the whole workout.
        public var setId: UUID?
        public var at: Timestamp
    }

    public struct ExerciseRecords: Sendable, Equatable {
        public var exerciseId: String
        public var exercise: String
        public var heaviestKg: Double?
        public var bestE1rmKg: Double?
        public var bestSetVolumeKg: Double?
        public var bestSessionVolumeKg: Double?
        public var repMaxesKg: [Int: Double]
        public var longestDistanceMeters: Double? = nil
        public var longestDurationSeconds: Double? = nil
        public var bestPaceSecondsPerKm: Double? = nil
        public var longestHoldSeconds: Double? = nil
        /// Every record set, oldest first.
        public var timeline: [Record]
        /// An assisted exercise: `heaviestKg` and the rep maxes are the least assistance.
        public var assisted: Bool { LibraryState.isAssisted(name: exercise) }

        /// No record yet. Names are filled in by `Accumulator.results`, from the library as it stands at the end.
        static func none(_ exerciseId: String) -> ExerciseRecords {
            ExerciseRecords(
                exerciseId: exerciseId, exercise: "", heaviestKg: nil, bestE1rmKg: nil, bestSetVolumeKg: nil,
                bestSessionVolumeKg: nil, repMaxesKg: [:], timeline: [])
        }

        /// Takes `value` as the new best of `kind` if it strictly beats the old one,
        /// and notes it in the timeline when the rules list that kind.
        /// Everything one set can set: heaviest, e1RM, set volume and the rep maxes up to its reps.
        /// An assisted exercise's load is help: its "heaviest" and rep maxes are the
        /// least assistance, and an e1RM or a volume of help means nothing, so none is kept.
        mutating func offerSet(
            kg: Double, reps: Int, e1rm: Double?, volume: Double, kinds: Set<PRKind>, assisted: Bool = false, _ origin: Origin
        ) {
            if assisted {
                offer(kg, .heaviest, kinds, origin, lessIsBetter: true)
                for k in repMaxRange.lowerBound...min(reps, repMaxRange.upperBound) {
                    offer(kg, .repMax, kinds, origin, repMax: k, lessIsBetter: true)
                }
                return
            }
            offer(kg, .heaviest, kinds, origin)
            if let e1rm { offer(e1rm, .e1rm, kinds, origin) }
            offer(volume, .setVolume, kinds, origin)
            for k in repMaxRange.lowerBound...min(reps, repMaxRange.upperBound) { offer(kg, .repMax, kinds, origin, repMax: k) }
        }

        mutating func offer(
            _ value: Double, _ kind: PRKind, _ kinds: Set<PRKind>, _ origin: Origin, repMax: Int? = nil, lessIsBetter: Bool = false
        ) {
            let best: Double? =
                switch kind {
                case .heaviest: heaviestKg
                case .e1rm: bestE1rmKg
                case .setVolume: bestSetVolumeKg
                case .sessionVolume: bestSessionVolumeKg
                case .repMax: repMaxesKg[repMax ?? 0]
                case .longestDistance: longestDistanceMeters
                case .longestDuration: longestDurationSeconds
                case .bestPace: bestPaceSecondsPerKm
                case .longestHold: longestHoldSeconds
                }
            // A faster pace (and less assistance) is a smaller number; everything else is better bigger.
            if lessIsBetter {
                guard value >= 0, value < (best ?? .infinity) else { return }
            } else if kind == .bestPace {
                guard value > 0, value < (best ?? .infinity) else { return }
            } else {
                guard value > (best ?? 0) else { return }
            }
            switch kind {
            case .heaviest: heaviestKg = value
            case .e1rm: bestE1rmKg = value
            case .setVolume: bestSetVolumeKg = value
            case .sessionVolume: bestSessionVolumeKg = value
            case .repMax: repMaxesKg[repMax ?? 0] = value
            case .longestDistance: longestDistanceMeters = value
            case .longestDuration: longestDurationSeconds = value
            case .bestPace: bestPaceSecondsPerKm = value
            case .longestHold: longestHoldSeconds = value
            }
            if kinds.contains(kind) {
                timeline.append(
                    Record(
                        exerciseId: exerciseId, kind: kind, repMax: repMax, value: value, weightKg: origin.weightKg, reps: origin.reps,
                        workoutId: origin.workoutId, setId: origin.setId, at: origin.at))
            }
        }
    }

    /// Where a record would come from: the set (or session) that offers a value. A plain value
    /// rather than a closure over the set and its workout, which copied the whole workout for
    /// every set a records fold read.
    struct Origin {
        var weightKg: Double?
        var reps: Int?
        var workoutId: UUID
        var setId: UUID?
        var at: Timestamp
    }

    /// Records of every exercise with a counted set (or only `exerciseId`), by exercise name.
    /// Without `timeline`, only the current bests: what head queries and
    /// stored results need (the timeline grows with every record ever set).
    public static func compute(
        _ log: TrainingLogProjection, rules: RuleSet = .default,
        exerciseId: String? = nil, timeline: Bool = true
    ) -> [ExerciseRecords] {
        var acc = Accumulator(rules: rules, timeline: timeline)
        for w in log.countedWorkouts { acc.add(w, library: log.library, only: exerciseId) }
        return acc.results(names: log.library)
    }

    /// The records `workoutId` set, of each kind, as the full timeline has them: measured against the records
    /// before it (`before`), so nothing later changes them.
    public static func setIn(_ log: TrainingLogProjection, workoutId: UUID, rules: RuleSet = .default) -> [Record] {
        setIn(log, workoutId: workoutId, after: before(log, workoutId: workoutId, rules: rules), rules: rules)
    }

    /// The records fold (current bests, no timeline) over the counted workouts before `workoutId`.
    public static func before(_ log: TrainingLogProjection, workoutId: UUID, rules: RuleSet = .default) -> Accumulator {
        var acc = Accumulator(rules: rules, timeline: false)
        for w in log.countedWorkouts {
            if w.workoutId == workoutId { break }
            acc.add(w, library: log.library)
        }
        return acc
    }

    /// The records `workoutId` sets against `before`, the fold of the workouts before it. What a workout's summary
    /// shows after every command: with `before` kept, a fold of one workout rather than of the whole log.
    public static func setIn(_ log: TrainingLogProjection, workoutId: UUID, after before: Accumulator, rules: RuleSet = .default) -> [Record] {
        guard let w = log.workouts[workoutId] else { return [] }
        // Only its own exercises' records can be beaten by it.
        let own = Set(w.sets.map(\.exerciseId))
        var acc = Accumulator(rules: rules, records: own.compactMap { before.byExercise[$0] }, timeline: true)
        acc.add(w, library: log.library)
        return acc.results(names: log.library).flatMap(\.timeline).filter { $0.workoutId == workoutId }
    }

    /// The records fold over workouts in chronological order. `compute` runs
    /// it over every counted workout; a records milestone resumes it from a
    /// stored state with the workouts that came later.
    public struct Accumulator: Sendable, Equatable {
        public private(set) var byExercise: [String: ExerciseRecords]
        let rules: RuleSet
        /// The kinds noted in the timeline: the rules' kinds, or none without a timeline.
        let kinds: Set<PRKind>

        public init(rules: RuleSet, records: [ExerciseRecords] = [], timeline: Bool = true) {
            self.rules = rules
            kinds = timeline ? Set(rules.prKinds) : []
            byExercise = Dictionary(records.map { ($0.exerciseId, $0) }, uniquingKeysWith: { a, _ in a })
        }

        /// `library` tells a hold (isometric) from a duration (cardio and the rest).
        public mutating func add(_ w: WorkoutState, library: LibraryState, only exerciseId: String? = nil) {
            // Session volume per exercise in order of first appearance: a workout has few
            // exercises, so a small list beats a dictionary (and no arrays of sets are built).
            var sessionVolume: [(id: String, kg: Double)] = []
            // An exercise's sets mostly come in a run: its library facts are looked up once a run.
            var exercise = (id: "", assisted: false, sides: 1.0)
            for s in w.sets where s.completed && rules.counts(s.type) && (exerciseId == nil || s.exerciseId == exerciseId) {
                if s.metrics.durationSeconds != nil || s.metrics.distanceMeters != nil { offerTimed(s, in: w, library: library) }
                if s.exerciseId != exercise.id {
                    exercise = (s.exerciseId, library.isAssisted(s.exerciseId), library.volumeSides(s.exerciseId))
                }
                // No load is no record, except on an assisted exercise, where it is the best: no help at all.
                let assisted = exercise.assisted
                guard let kg = s.weightKg ?? (assisted ? 0 : nil), kg > 0 || assisted, let reps = s.metrics.reps, reps >= 1 else { continue }
                let origin = Origin(weightKg: kg, reps: reps, workoutId: w.workoutId, setId: s.setId, at: s.completedAt ?? w.startedAt!)
                let volume = kg * Double(reps) * exercise.sides
                let e1rm = reps <= rules.e1rmRepCap ? rules.e1rm(kg: kg, reps: reps, rpe: { w.rpe(of: s) }) : nil
                byExercise[s.exerciseId, default: .none(s.exerciseId)].offerSet(
                    kg: kg, reps: reps, e1rm: e1rm, volume: volume, kinds: kinds, assisted: assisted, origin)
                if assisted { continue }
                if let i = sessionVolume.firstIndex(where: { $0.id == s.exerciseId }) {
                    sessionVolume[i].kg += volume
                } else {
                    sessionVolume.append((s.exerciseId, volume))
                }
            }
            // Session volume is known when the workout's sets are all in.
            let session = Origin(weightKg: nil, reps: nil, workoutId: w.workoutId, setId: nil, at: w.finishedAt ?? w.startedAt!)
            for (id, volume) in sessionVolume { byExercise[id]?.offer(volume, .sessionVolume, kinds, session) }
        }

        /// Distance, duration, pace and hold records of one set (no weight needed).
        mutating func offerTimed(_ s: WorkoutState.SetRecord, in w: WorkoutState, library: LibraryState) {
            let distance = s.metrics.distanceMeters.flatMap { $0 > 0 ? $0 : nil }
            let duration = s.metrics.durationSeconds.flatMap { $0 > 0 ? $0 : nil }
            guard distance != nil || duration != nil else { return }
            let hold = library.exercises[s.exerciseId]?.definition.kind == .isometric
            let origin = Origin(weightKg: s.weightKg, reps: s.metrics.reps, workoutId: w.workoutId, setId: s.setId, at: s.completedAt ?? w.startedAt!)
            var records = byExercise[s.exerciseId, default: .none(s.exerciseId)]
            if let distance { records.offer(distance, .longestDistance, kinds, origin) }
            if let duration { records.offer(duration, hold ? .longestHold : .longestDuration, kinds, origin) }
            if let pace = Measure.paceSecondsPerKm(duration: duration, distance: distance) { records.offer(pace, .bestPace, kinds, origin) }
            byExercise[s.exerciseId] = records
        }

        /// Every exercise's records, named from `names`, in name order.
        public func results(names: LibraryState) -> [ExerciseRecords] {
            byExercise.values.map { r in
                var named = r
                named.exercise = names.name(of: r.exerciseId)
                return named
            }.sorted { ($0.exercise.lowercased(), $0.exerciseId) < ($1.exercise.lowercased(), $1.exerciseId) }
        }
    }
}
