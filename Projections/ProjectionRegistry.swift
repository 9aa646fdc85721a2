import Foundation
import RepLedgerCore

/// Runs the folds in one pass over the log, from scratch or catching up from
/// the position they last saw, and names every projection with its version.
public struct ProjectionRegistry: Sendable {
    public private(set) var log = TrainingLogProjection()

    /// Every projection, folds and views, with the version that keys its snapshots and caches.
    public static let all: [(name: String, version: Int)] = [
        (TrainingLogProjection.name, TrainingLogProjection.version),
        (WorkoutHistoryProjection.name, WorkoutHistoryProjection.version),
        (ExerciseHistoryProjection.name, ExerciseHistoryProjection.version),
        (PersonalRecordsProjection.name, PersonalRecordsProjection.version),
        (E1RMTrendProjection.name, E1RMTrendProjection.version),
        (VolumeProjection.name, VolumeProjection.version),
        (LastTimeHintProjection.name, LastTimeHintProjection.version),
        (RepCounterProjection.name, RepCounterProjection.version),
        (ProgressionPromptProjection.name, ProgressionPromptProjection.version),
        (EntitlementsProjection.name, EntitlementsProjection.version),
        (TemplatesProjection.name, TemplatesProjection.version),
        (WorkoutSummaryProjection.name, WorkoutSummaryProjection.version),
    ]

    public init() {}

    /// The position the folds have seen up to.
    public var position: Int64 { log.position }

    /// Folds the events after `position` up to `through` (inclusive); returns how many.
    @discardableResult
    public mutating func catchUp(from store: any EventStore, through: Int64 = .max) throws -> Int {
        var n = 0
        try store.replay(from: log.position + 1, through: through) {
            log.apply($0)
            n += 1
        }
        return n
    }
}
