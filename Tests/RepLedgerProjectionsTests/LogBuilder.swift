import Foundation
import LedgerTestSupport

@testable import RepLedgerCore
@testable import RepLedgerProjections

/// Builds training logs in memory through the real command path and folds
/// them, so each rule is tested on events exactly as the ledger records them.
struct LogBuilder {
    var session: CommandSession
    private(set) var log = TrainingLogProjection()
    private(set) var envelopes: [EventEnvelope] = []
    private var applied = 0

    init(seed: UInt64 = 1) {
        var library = LibraryState()
        for e in ExerciseSeed.all { library.evolve(.exerciseDefined(e)) }
        let context = CommandContext(occurredAt: .at("2026-01-01T00:00:00Z"), device: "phone", commandId: UUID())
        session = CommandSession(library: library, account: AccountState(), context: context, ids: .seeded(seed))
        for e in ExerciseSeed.all { append(.exerciseDefined(e), at: .at("2026-01-01T00:00:00Z")) }
    }

    private mutating func append(_ event: LedgerEvent, at: Timestamp) {
        let e = EventEnvelope(
            position: Int64(envelopes.count + 1), eventId: UUID(), stream: event.stream, version: 0,
            occurredAt: at, recordedAt: at, device: "phone", causationId: nil, correlationId: nil,
            event: event, hash: [])
        envelopes.append(e)
        log.apply(e)
    }

    /// Folds what the session decided since the last call.
    mutating func flush() {
        for p in session.pending[applied...] { append(p.event, at: p.occurredAt) }
        applied = session.pending.count
    }

    mutating func at(_ iso: String) { session.context.occurredAt = .at(iso) }

    /// A set as written in tests: exercise id, kg (nil for bodyweight), reps, type.
    typealias S = (String, Double?, Int, SetType)

    /// A workout at `iso`, its sets two minutes apart, finished unless told otherwise.
    @discardableResult
    mutating func workout(
        _ iso: String, name: String = "Workout", sets: [S], unit: WeightUnit = .kg, finish: Bool = true,
        programId: UUID? = nil, day: Int? = nil
    ) throws -> (id: UUID, sets: [UUID]) {
        var t = Timestamp.at(iso)
        session.context.occurredAt = t
        let id = try session.startWorkout(name: name, programId: programId, programDayIndex: day)
        var ids: [UUID] = []
        for (exercise, kg, reps, type) in sets {
            t = t.adding(seconds: 120)
            session.context.occurredAt = t
            ids.append(
                try session.logSet(
                    id, exercise: exercise, type: type,
                    metrics: SetMetrics(weight: kg.map { Weight($0, unit) }, reps: reps)))
        }
        if finish {
            session.context.occurredAt = t.adding(seconds: 300)
            try session.finishWorkout(id)
        }
        flush()
        return (id, ids)
    }

    mutating func run(_ iso: String, _ command: (inout CommandSession) throws -> Void) rethrows {
        session.context.occurredAt = .at(iso)
        try command(&session)
        flush()
    }
}

extension Timestamp {
    static func at(_ iso: String) -> Timestamp { Timestamp.parseISO8601(iso, defaultOffsetMinutes: 0)! }
}

func working(_ exercise: String, _ kg: Double?, _ reps: Int) -> LogBuilder.S { (exercise, kg, reps, .normal) }
func warmup(_ exercise: String, _ kg: Double?, _ reps: Int) -> LogBuilder.S { (exercise, kg, reps, .warmup) }
