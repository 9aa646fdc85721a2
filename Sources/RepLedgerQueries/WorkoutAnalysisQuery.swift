import Foundation
import RepLedgerCore
import RepLedgerProjections

/// `workout analysis W`: the analyses recorded for a workout, oldest first,
/// read from its stream (the fold keeps no copy), and the facts the ledger's
/// own analysis is written from.
public enum WorkoutAnalysisQuery {
    /// The engine name of the ledger's own analysis.
    public static let ledgerEngine = "ledger"
    /// How many earlier sessions of the same kind the analysis compares with.
    public static let earlierSessions = 3

    public struct Recorded: Sendable, Equatable {
        public var engine: String
        public var position: Int64
        public var at: Timestamp
        public var markdown: String
    }

    public static func recorded(_ store: any EventStore, workoutId: UUID, through: Int64 = .max) throws -> [Recorded] {
        var out: [Recorded] = []
        try store.read(EventQuery(stream: .workout(workoutId), types: [WorkoutAnalysisRecorded.eventType.name], through: through)) { e in
            if case .workoutAnalysisRecorded(let a) = e.event {
                out.append(Recorded(engine: a.engine, position: e.position, at: e.occurredAt, markdown: a.markdown))
            }
        }
        return out
    }

    /// What the ledger's analysis says: the summary (planned against done,
    /// records, heart rate and energy) and the last finished sessions of the
    /// same kind before it: the same template, else the same program day,
    /// else the same activity; newest first.
    public struct Facts {
        public var summary: WorkoutSummaryProjection.Summary
        public var workout: WorkoutState
        public var earlier: [WorkoutHistoryProjection.WorkoutRow]
        public var log: TrainingLogProjection
    }

    public static func facts(_ log: TrainingLogProjection, workoutId: UUID, rules: RuleSet = .default) -> Facts? {
        guard let w = log.workouts[workoutId], let start = w.startedAt,
            let summary = WorkoutSummaryProjection.summary(log, workoutId: workoutId, rules: rules)
        else { return nil }
        func sameKind(_ x: WorkoutState) -> Bool {
            guard x.workoutId != w.workoutId else { return false }
            if let t = w.templateId { return x.templateId == t }
            if let p = w.programId { return x.programId == p && x.programDayIndex == w.programDayIndex }
            return x.templateId == nil && x.programId == nil && x.activity == w.activity
        }
        var earlier: [WorkoutHistoryProjection.WorkoutRow] = []
        var before = start
        while earlier.count < earlierSessions, let x = log.lastFinished(startedBefore: before, where: sameKind), let at = x.startedAt {
            earlier.append(WorkoutHistoryProjection.row(for: x, log: log, rules: rules))
            before = at
        }
        return Facts(summary: summary, workout: w, earlier: earlier, log: log)
    }

    public static func document(workoutId: UUID, recorded: [Recorded], current: String?) -> JSONValue {
        .object([
            ("workoutId", .string(workoutId.lowercased)),
            (
                "analyses",
                .array(
                    recorded.map { r in
                        .object([
                            ("engine", .string(r.engine)), ("position", .int(r.position)), ("recordedAt", .string(r.at.iso8601)),
                            ("markdown", .string(r.markdown)),
                        ])
                    })
            ),
            ("ledgerAnalysis", .optional(current)),
        ])
    }
}
