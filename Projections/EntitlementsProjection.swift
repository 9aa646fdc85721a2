import Foundation
import RepLedgerCore

/// Entitlement state as of any time T (DOMAIN.md §10): active products,
/// Pro and Coach, the template limit and the soft upsell (offered after 3
/// completed workouts while not Pro, until dismissed).
public struct EntitlementsProjection: ProjectionView {
    public static let name = "entitlements"
    /// 2: a server operator's Coach grant (`operatorGrantUntil`), in the stored inputs too.
    public static let version = 2
    public static let upsellAfterWorkouts = 3

    public struct State: Sendable, Equatable {
        public var isPro: Bool
        public var isCoach: Bool
        public var activeProducts: [Product]
        /// When the Coach a self-hosted server's operator granted ends, while one is in force.
        public var operatorGrantUntil: Timestamp?
        /// Nil means unlimited.
        public var templateLimit: Int?
        public var softUpsell: Bool
        public var completedWorkouts: Int
        public var liveTemplates: Int
    }

    /// Everything the state at any time depends on, small enough to store
    /// for instant head queries: purchases, when each workout was finished,
    /// and the live templates.
    public struct Inputs: Sendable, Equatable {
        public var entitlements = EntitlementState()
        /// Finish times of finished workouts, in milliseconds, ascending.
        public var finishedAt: [Int64] = []
        public var liveTemplates = 0
        public init() {}
    }

    public static func inputs(_ log: TrainingLogProjection) -> Inputs {
        var i = Inputs()
        i.entitlements = log.account.entitlements
        i.finishedAt = log.workouts.values.compactMap { $0.status == .finished ? $0.finishedAt?.millis : nil }.sorted()
        i.liveTemplates = log.templates.live.count
        return i
    }

    public static func state(_ log: TrainingLogProjection, at t: Timestamp) -> State {
        // A count, not the sorted finish times `inputs` keeps for stored answers: the As-of view asks at every step.
        var completed = 0
        for w in log.workouts.values where w.status == .finished {
            if let finished = w.finishedAt, finished.millis <= t.millis { completed += 1 }
        }
        return state(log.account.entitlements, completed: completed, liveTemplates: log.templates.live.count, at: t)
    }

    public static func state(_ inputs: Inputs, at t: Timestamp) -> State {
        // Workouts finished at or before t: a binary search over the sorted finish times.
        var low = 0, high = inputs.finishedAt.count
        while low < high {
            let mid = (low + high) / 2
            if inputs.finishedAt[mid] <= t.millis { low = mid + 1 } else { high = mid }
        }
        return state(inputs.entitlements, completed: low, liveTemplates: inputs.liveTemplates, at: t)
    }

    static func state(_ e: EntitlementState, completed: Int, liveTemplates: Int, at t: Timestamp) -> State {
        let dismissed = e.upsellDismissedAt.map { $0 <= t } ?? false
        let isPro = e.isPro(at: t)
        return State(
            isPro: isPro, isCoach: e.isCoach(at: t), activeProducts: e.activeProducts(at: t),
            operatorGrantUntil: e.operatorGrant(at: t)?.until,
            templateLimit: e.templateLimit(at: t),
            softUpsell: !isPro && !dismissed && completed >= upsellAfterWorkouts,
            completedWorkouts: completed, liveTemplates: liveTemplates)
    }
}

/// Live templates in the user's order, with when each was last used to start
/// a workout that was not discarded.
public struct TemplatesProjection: ProjectionView {
    public static let name = "templates"
    /// 2: lines carry their weight, duration and rest targets.
    public static let version = 2

    public struct Row: Sendable, Equatable {
        public var templateId: UUID
        public var name: String
        public var exercises: [TemplateExercise]
        public var lastUsedAt: Timestamp?
    }

    public static func rows(_ log: TrainingLogProjection) -> [Row] {
        var lastUsed: [UUID: Timestamp] = [:]
        for w in log.workouts.values where w.status != .discarded {
            guard let id = w.templateId, let start = w.startedAt else { continue }
            lastUsed[id] = max(lastUsed[id] ?? start, start)
        }
        return log.templates.live.map {
            Row(templateId: $0.templateId, name: $0.name, exercises: $0.exercises, lastUsedAt: lastUsed[$0.templateId])
        }
    }
}
