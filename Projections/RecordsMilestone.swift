import Foundation
import RepLedgerCore

/// Personal records at one log position, in a form that can be carried
/// forward by the events after it without the whole fold: the records of
/// every finished workout up to the first one still open at that position,
/// plus the states of the workouts from there on and the exercise library.
///
/// Carrying forward works while the later events only touch those open
/// workouts or workouts started later (which is how a log grows: people
/// train). An edit to an older finished workout, or a new workout that
/// starts before the last one counted, makes `apply` return false, and the
/// caller answers from the fold instead: never a wrong answer, only a slower one.
public struct RecordsMilestone: Sendable, Equatable {
    public static let name = "records-milestone"
    /// 3: workout states carry heart-rate averages; records of timed work. 4: unilateral volume.
    /// 5: the library carries its merges. 6: an assisted exercise's record is the least assistance.
    public static let version = 6

    public private(set) var position: Int64 = 0
    /// The records fold over the finished workouts before the first open one.
    var accumulated: [PersonalRecordsProjection.ExerciseRecords] = []
    /// The last of those finished workouts: later workouts must sort after it.
    var lastDone: WorkoutState?
    /// Counted workouts from the first open one on, and those started since.
    var open: [WorkoutState] = []
    var library = LibraryState()

    public init() {}

    /// The milestone of a fold, under `rules`.
    public init(_ log: TrainingLogProjection, rules: RuleSet) {
        let counted = Array(log.countedWorkouts)
        let firstOpen = counted.firstIndex { $0.status != .finished } ?? counted.count
        var acc = PersonalRecordsProjection.Accumulator(rules: rules, timeline: false)
        for w in counted[..<firstOpen] { acc.add(w, library: log.library) }
        position = log.position
        accumulated = Array(acc.byExercise.values).sorted { $0.exerciseId < $1.exerciseId }
        lastDone = firstOpen > 0 ? counted[firstOpen - 1] : nil
        open = Array(counted[firstOpen...])
        library = log.library
    }

    /// Folds one later event in; false when it cannot be carried forward.
    public mutating func apply(_ recorded: RecordedEvent) -> Bool {
        position = recorded.position
        let event = recorded.event
        if let id = event.workoutId {
            if let i = open.firstIndex(where: { $0.workoutId == id }) {
                open[i].evolve(event, at: recorded.occurredAt)
                if !library.merges.isEmpty, TrainingLogProjection.namesExercise(event) { open[i].followMerges(library) }
                return true
            }
            guard case .workoutStarted = event else { return false }  // a change to an older, finished workout
            var w = WorkoutState(workoutId: id)
            w.evolve(event, at: recorded.occurredAt)
            open.append(w)
            return true
        }
        // A merge joins records of workouts counted already: the fold answers.
        if case .exerciseMerged = event { return false }
        // Settings, purchases, templates, programs and imports do not change records.
        if LibraryState.changes(event) { library.evolve(event, at: recorded.occurredAt) }
        return true
    }

    /// The records as of `position` (current bests, no timeline), or nil when the open workouts do not all come after the finished ones.
    public func records(rules: RuleSet) -> [PersonalRecordsProjection.ExerciseRecords]? {
        let later = TrainingLogProjection.chronological(open.filter(\.counts))
        if let last = lastDone, let first = later.first,
            TrainingLogProjection.chronological([first, last]).first?.workoutId != last.workoutId
        {
            return nil
        }
        var acc = PersonalRecordsProjection.Accumulator(rules: rules, records: accumulated, timeline: false)
        for w in later { acc.add(w, library: library) }
        return acc.results(names: library)
    }
}

extension RecordsMilestone: PayloadRecord {
    public mutating func fields<C: PayloadCoder>(_ c: inout C) throws {
        try c.field("position", &position)
        try c.field("accumulated", &accumulated)
        try c.field("lastDone", &lastDone)
        try c.field("open", &open)
        try c.field("library", &library)
    }
}
