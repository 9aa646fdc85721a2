import Foundation
import RepLedgerCore

// View results in the compact codec, so head queries can be answered from a
// stored result instead of a rebuild (see RepLedgerSnapshots.ViewSnapshots).
// Changing a field list here must bump the view's version.

extension PRKind: PayloadEnum {}

extension PersonalRecordsProjection.Record: PayloadRecord {
    public init() {
        self.init(
            exerciseId: "", kind: .heaviest, repMax: nil, value: 0, weightKg: nil, reps: nil, workoutId: .zero, setId: nil,
            at: Timestamp(millis: 0))
    }
    public mutating func fields<C: PayloadCoder>(_ c: inout C) throws {
        try c.field("exerciseId", &exerciseId)
        try c.field("kind", &kind)
        try c.field("repMax", &repMax)
        try c.field("value", &value)
        try c.field("weightKg", &weightKg)
        try c.field("reps", &reps)
        try c.field("workoutId", &workoutId)
        try c.field("setId", &setId)
        try c.field("at", &at)
    }
}

extension PersonalRecordsProjection.ExerciseRecords: PayloadRecord {
    public init() {
        self.init(
            exerciseId: "", exercise: "", heaviestKg: nil, bestE1rmKg: nil, bestSetVolumeKg: nil, bestSessionVolumeKg: nil,
            repMaxesKg: [:], timeline: [])
    }
    public mutating func fields<C: PayloadCoder>(_ c: inout C) throws {
        try c.field("exerciseId", &exerciseId)
        try c.field("exercise", &exercise)
        try c.field("heaviestKg", &heaviestKg)
        try c.field("bestE1rmKg", &bestE1rmKg)
        try c.field("bestSetVolumeKg", &bestSetVolumeKg)
        try c.field("bestSessionVolumeKg", &bestSessionVolumeKg)
        try c.field("longestDistanceMeters", &longestDistanceMeters)
        try c.field("longestDurationSeconds", &longestDurationSeconds)
        try c.field("bestPaceSecondsPerKm", &bestPaceSecondsPerKm)
        try c.field("longestHoldSeconds", &longestHoldSeconds)
        // Rep maxes 1…12 as a fixed list (a dictionary has no stable order).
        var list = PersonalRecordsProjection.repMaxRange.map { repMaxesKg[$0] }
        try c.field("repMaxesKg", &list)
        repMaxesKg = [:]
        for (i, v) in list.enumerated() where v != nil { repMaxesKg[i + PersonalRecordsProjection.repMaxRange.lowerBound] = v }
        try c.field("timeline", &timeline)
    }
}

extension EntitlementsProjection.Inputs: PayloadRecord {
    public mutating func fields<C: PayloadCoder>(_ c: inout C) throws {
        try c.field("entitlements", &entitlements)
        try c.field("finishedAt", &finishedAt)
        try c.field("liveTemplates", &liveTemplates)
    }
}

extension LastTimeHintProjection.SetShown: PayloadRecord {
    public mutating func fields<C: PayloadCoder>(_ c: inout C) throws {
        try c.field("weightKg", &weightKg)
        try c.field("reps", &reps)
    }
}

/// For every exercise, its most recent finished workout with a completed
/// working set: what an `exercise`-scope hint shows for any time after that
/// workout started. Built from the fold in one pass, newest workout first.
public struct HintIndexProjection: ProjectionView {
    public static let name = "hint-index"
    public static let version = 1

    public struct Entry: Sendable, Equatable, PayloadRecord {
        public var exerciseId = ""
        public var workoutId = UUID.zero
        public var startedAt = Timestamp(millis: 0)
        public var sets: [LastTimeHintProjection.SetShown] = []
        public init() {}
        public mutating func fields<C: PayloadCoder>(_ c: inout C) throws {
            try c.field("exerciseId", &exerciseId)
            try c.field("workoutId", &workoutId)
            try c.field("startedAt", &startedAt)
            try c.field("sets", &sets)
        }
    }

    public static func entries(_ log: TrainingLogProjection) -> [Entry] {
        var seen = Set<String>()
        var out: [Entry] = []
        // Newest first, without copying every workout into a list; stops once every
        // exercise in the library has its entry (usually long before the first workout).
        let known = log.library.exercises.count
        _ = log.lastFinished(startedBefore: Timestamp(millis: .max)) { w in
            var found: [String: Int] = [:]  // exercise → index in `out`, for this workout's new entries
            for s in w.sets where s.completed && s.type.isWorking && !seen.contains(s.exerciseId) {
                let shown = LastTimeHintProjection.SetShown(weightKg: s.weightKg, reps: s.metrics.reps)
                if let i = found[s.exerciseId] {
                    out[i].sets.append(shown)
                } else {
                    var e = Entry()
                    e.exerciseId = s.exerciseId
                    e.workoutId = w.workoutId
                    e.startedAt = w.startedAt!
                    e.sets = [shown]
                    found[s.exerciseId] = out.count
                    out.append(e)
                }
            }
            seen.formUnion(found.keys)
            return seen.count >= known
        }
        return out.sorted { $0.exerciseId < $1.exerciseId }
    }

    /// The hint an entry gives at time `t` (valid when `t` is after the entry's
    /// start); no entry means the exercise was never done: an empty hint.
    public static func hint(_ entry: Entry?, exerciseId: String, exercise: String, at t: Timestamp) -> LastTimeHintProjection.Hint {
        guard let entry else {
            return LastTimeHintProjection.Hint(
                exerciseId: exerciseId, exercise: exercise, lastWorkoutId: nil, date: nil, ago: nil,
                bestSet: nil, sets: [])
        }
        return LastTimeHintProjection.Hint(
            exerciseId: entry.exerciseId, exercise: exercise, lastWorkoutId: entry.workoutId,
            date: entry.startedAt, ago: Ago.words(from: entry.startedAt, to: t),
            bestSet: LastTimeHintProjection.best(entry.sets), sets: entry.sets)
    }
}

extension WorkoutHistoryProjection.SetRow: PayloadRecord {
    public init() {
        self.init(setId: .zero, weightKg: nil, reps: nil, type: .normal, rpe: nil, metrics: SetMetrics(), notes: nil, rir: nil, tempo: nil)
    }
    public mutating func fields<C: PayloadCoder>(_ c: inout C) throws {
        try c.field("setId", &setId)
        try c.field("weightKg", &weightKg)
        try c.field("reps", &reps)
        try c.field("type", &type)
        try c.field("rpe", &rpe)
        try c.field("metrics", &metrics)
        try c.field("notes", &notes)
        try c.field("rir", &rir)
        try c.field("tempo", &tempo)
        try c.field("band", &band)
        try c.field("implement", &implement)
    }
}

extension WorkoutHistoryProjection.ExerciseRow: PayloadRecord {
    public init() { self.init(exerciseId: "", exercise: "", sets: []) }
    public mutating func fields<C: PayloadCoder>(_ c: inout C) throws {
        try c.field("exerciseId", &exerciseId)
        try c.field("exercise", &exercise)
        try c.field("sets", &sets)
        try c.field("note", &note)
        try c.field("supersetId", &supersetId)
    }
}

extension WorkoutHistoryProjection.WorkoutRow: PayloadRecord {
    public init() {
        self.init(
            workoutId: .zero, name: "", startedAt: Timestamp(millis: 0), finishedAt: nil, durationSeconds: nil, notes: nil,
            templateId: nil, sets: 0, tonnageKg: 0, exercises: [])
    }
    public mutating func fields<C: PayloadCoder>(_ c: inout C) throws {
        try c.field("workoutId", &workoutId)
        try c.field("name", &name)
        try c.field("startedAt", &startedAt)
        try c.field("finishedAt", &finishedAt)
        try c.field("durationSeconds", &durationSeconds)
        try c.field("notes", &notes)
        try c.field("templateId", &templateId)
        try c.field("sets", &sets)
        try c.field("tonnageKg", &tonnageKg)
        try c.field("exercises", &exercises)
        try c.field("feeling", &feeling)
        try c.field("closingNote", &closingNote)
        try c.field("activity", &activity)
        try c.field("deload", &deload)
    }
}

/// The first page of `history` (no filter, default rules) and the units it
/// is shown in: what a device stores to answer `history --limit N` at the
/// head without reading the whole fold.
public struct HistoryHeadProjection: ProjectionView {
    public static let name = "history-head"
    /// 2: exercise rows carry their notes. 3: and their supersets. 4: unilateral tonnage; sets' RIR and tempo; the effort scale.
    /// 5: a workout's feeling, closing note and activity; sets' band and implement. 6: whether it was a deload.
    /// 7: how many workouts the whole history holds.
    public static let version = 7
    /// Workouts kept: the pages a lifter reads first.
    public static let rows = 100

    public struct Page: Sendable, Equatable, PayloadRecord {
        public var rows: [WorkoutHistoryProjection.WorkoutRow] = []
        /// Every workout is in `rows` (the history is shorter than a page).
        public var complete = false
        /// How many workouts the history holds in all.
        public var total = 0
        public var unit = WeightUnit.kg
        public var distanceUnit = DistanceUnit.km
        public var effortScale = EffortScale.rpe
        public init() {}

        public mutating func fields<C: PayloadCoder>(_ c: inout C) throws {
            try c.field("rows", &rows)
            try c.field("complete", &complete)
            try c.field("total", &total)
            try c.field("unit", &unit)
            try c.field("distanceUnit", &distanceUnit)
            try c.field("effortScale", &effortScale)
        }

        /// `offset` skipped and at most `limit` returned, when the page holds them.
        public func slice(offset: Int, limit: Int?) -> [WorkoutHistoryProjection.WorkoutRow]? {
            guard complete || (limit.map { offset + $0 <= rows.count } ?? false) else { return nil }
            return Array(rows.dropFirst(offset).prefix(limit ?? rows.count))
        }
    }

    public static func page(_ log: TrainingLogProjection) -> Page {
        var page = Page()
        page.rows = WorkoutHistoryProjection.workouts(log, limit: rows + 1)
        page.complete = page.rows.count <= rows
        if !page.complete { page.rows.removeLast() }
        page.total = page.complete ? page.rows.count : WorkoutHistoryProjection.count(log)
        page.unit = log.account.liftingUnit
        page.distanceUnit = log.account.distanceUnit
        page.effortScale = log.account.effortScale
        return page
    }
}
