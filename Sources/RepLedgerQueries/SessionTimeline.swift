import RepLedgerCore
import RepLedgerProjections

/// A session as time (the inspector's Session page): each set done, the
/// rest between two sets, each pause, the rest timer, and the finish, at
/// their times from the start and with their lengths, read from when each
/// event happened. Edits made later (a history edit) are not part of it.
public enum SessionTimeline {
    public struct Row: Sendable, Equatable {
        public enum Kind: String, Sendable { case start, set, rest, pause, timer, finish }
        public var kind: Kind
        /// The event's position (for a rest, the set that ended it).
        public var position: Int64
        /// Seconds from the workout's start.
        public var at: Int64
        public var label: String
        /// How long it lasted, in seconds: a rest from set to set, a pause, the session; nil for a moment.
        public var seconds: Int64?
    }

    public static func rows(_ steps: [WorkoutReplayProjection.Step]) -> [Row] {
        guard let start = steps.first(where: { if case .workoutStarted = $0.envelope.event { true } else { false } })?.envelope.occurredAt
        else { return [] }
        func seconds(_ from: Timestamp, _ to: Timestamp) -> Int64 { max(0, (to.millis - from.millis) / 1000) }
        var rows: [Row] = []
        var lastSet: Timestamp?, paused: Timestamp?
        func done(_ step: WorkoutReplayProjection.Step, at t: Timestamp) {
            if let last = lastSet {
                rows.append(Row(kind: .rest, position: step.envelope.position, at: seconds(start, last), label: "rest", seconds: seconds(last, t)))
            }
            rows.append(Row(kind: .set, position: step.envelope.position, at: seconds(start, t), label: step.change, seconds: nil))
            lastSet = t
        }
        for step in steps {
            let e = step.envelope, t = e.occurredAt
            func row(_ kind: Row.Kind, _ label: String, _ length: Int64? = nil) {
                rows.append(Row(kind: kind, position: e.position, at: seconds(start, t), label: label, seconds: length))
            }
            switch e.event {
            case .workoutStarted: row(.start, step.change)
            case .setLogged(let s) where !s.historyEdit: done(step, at: t)
            case .setCompleted: done(step, at: t)
            case .workoutPaused: paused = t
            case .workoutResumed:
                if let p = paused { row(.pause, "paused", seconds(p, t)) }
                paused = nil
            case .restTimerStarted, .restTimerAdjusted, .restTimerPaused, .restTimerResumed, .restTimerDismissed: row(.timer, step.change)
            case .workoutFinished: row(.finish, step.change, seconds(start, t))
            default: break
            }
        }
        return rows
    }
}
