import Foundation
import RepLedgerCore
import RepLedgerProjections
import RepLedgerSnapshots

/// The folds an inspector steps through, kept in memory between requests over
/// one read-only log: the fold last asked for, and checkpoints every
/// `spacing` events along the way (at most `kept`, the least recently used
/// dropped), so a step forward folds one event, a step back over the last
/// few hundred workout events takes them back out, and a longer one folds
/// at most `spacing`. The first fold of a region starts from the ledger's newest
/// snapshot at or before it. Not thread-safe: its owner serializes reads.
public final class AsOfFolds {
    public let spacing: Int64
    public let kept: Int
    private var checkpoints: [Int64: TrainingLogProjection] = [:]
    private var used: [Int64: UInt64] = [:]
    private var clock: UInt64 = 0
    private var last: TrainingLogProjection?
    /// Records and weekly volume carried from step to step; every fold made here is noted in it.
    private var views = StepViews()
    /// The last workout events folded, newest last, each with what takes it back out: a step back undoes them.
    private var undos: [TrainingLogProjection.Undo] = []
    static let undoLimit = 512
    /// Beyond this many events between two answers, the views are computed afresh rather than read what changed.
    static let stepLimit: Int64 = 2_000

    public init(spacing: Int64 = 10_000, kept: Int = 6) {
        self.spacing = spacing
        self.kept = kept
    }

    /// The training log as it stood at `position` (at most the head).
    public func log(_ store: any EventStore, at position: Int64) throws -> TrainingLogProjection {
        let target = min(position, try store.headPosition())
        if let last, last.position == target { return last }
        var log: TrainingLogProjection
        if let from = last?.position, from > target, from - target <= Int64(undos.count) {
            // A step back over workout events: each taken back out, nothing folded again.
            log = last.take()!
            while log.position > target { log.undo(undos.removeLast()) }
            last = log
            return log
        }
        if let from = last?.position, from < target, target - from <= spacing {
            // Moved out, not copied: with no other owner the fold's storage is mutated in place.
            log = last.take()!
        } else if let best = checkpoints.keys.filter({ $0 <= target }).max() {
            log = checkpoints[best]!
            touch(best)
            undos = []
        } else {
            log = try TrainingLogSnapshots.load(store, through: target).0
            views.noteAll(log)
            undos = []
        }
        if log.position < target {
            try store.replay(from: log.position + 1, through: target) { event in
                if let undo = log.applyUndoably(event) {
                    undos.append(undo)
                    if undos.count > Self.undoLimit { undos.removeFirst(undos.count - Self.undoLimit / 2) }
                } else {
                    undos = []  // an event outside a workout cannot be taken back: steps back before it fold again
                }
                if let id = event.event.workoutId, let w = log.workouts[id] { views.note(w) }
                if event.position % spacing == 0 { keep(log) }
            }
        }
        last = log
        return log
    }

    /// Records and weekly volume of `log` (a fold this gave), computed again only for the workouts the
    /// events since the last answer touched.
    public func views(
        _ store: any EventStore, _ log: TrainingLogProjection, rules: RuleSet
    ) throws -> (records: [PersonalRecordsProjection.ExerciseRecords], volume: [VolumeProjection.Row]) {
        var touched: Set<UUID>?
        if let from = views.position, abs(from - log.position) <= Self.stepLimit {
            var ids = Set<UUID>()
            var outside = false
            if from != log.position {
                try store.replay(from: min(from, log.position) + 1, through: max(from, log.position)) { event in
                    if let id = event.event.workoutId { ids.insert(id) } else { outside = true }
                }
            }
            touched = outside ? nil : ids
        }
        return views.answer(log, rules: rules, touched: touched)
    }

    private func keep(_ log: TrainingLogProjection) {
        checkpoints[log.position] = log
        touch(log.position)
        while checkpoints.count > kept, let oldest = used.min(by: { $0.value < $1.value })?.key {
            checkpoints[oldest] = nil
            used[oldest] = nil
        }
    }

    private func touch(_ position: Int64) {
        clock += 1
        used[position] = clock
    }
}
