import Foundation
import LedgerTestSupport
import RepLedgerCore
import RepLedgerQueries
import Testing

/// Following an event's causes and finding events by what they say: `ledger log` and the inspector's Log page
/// filter by correlation, by the command that appended an event, by device and by the text of names and notes,
/// with one filter (`LogPageQuery.Filter`).
@Suite struct LogFilterTests {
    /// A phone's workout with a noted set, then a watch's set sent as one request (a correlation of its own).
    static func log() throws -> (MemoryLedger, workout: UUID, request: UUID) {
        let t = try MemoryLedger()
        let w = try t.ledger.execute { try $0.startWorkout(name: "Pull day") }
        _ = try t.ledger.execute {
            try $0.logTypedSet(
                w, exercise: "Pull Up", type: .normal, metrics: SetMetrics(reps: 8), notes: "Chalkless grip gave out on the last rep",
                timeGiven: false)
        }
        let watch = Ledger(store: t.store, device: "watch")
        let request = UUID()
        watch.correlationId = request
        _ = try watch.execute {
            try $0.logTypedSet(
                w, exercise: "Bent Over Row (Barbell)", type: .normal, metrics: SetMetrics(weight: Weight(60, .kg), reps: 10), notes: nil,
                timeGiven: false)
        }
        return (t, w, request)
    }

    static func page(_ t: MemoryLedger, _ build: (inout LogPageQuery.Filter) -> Void) throws -> [EventEnvelope] {
        var f = LogPageQuery.Filter()
        build(&f)
        return try LogPageQuery.page(t.store, f, limit: 1000).events
    }

    @Test func aCorrelationAndACommandAreFollowedToEveryEventTheyAppended() throws {
        let (t, _, request) = try Self.log()
        let all = try Self.page(t) { _ in }
        let watched = all.filter { $0.device == "watch" }
        #expect(!watched.isEmpty && watched.allSatisfy { $0.correlationId == request })
        // By the request's id, or a prefix of it: the watch's events and no other.
        #expect(try Self.page(t) { $0.correlation = request.lowercased }.map(\.position) == watched.map(\.position))
        #expect(try Self.page(t) { $0.correlation = String(request.lowercased.prefix(8)) }.map(\.position) == watched.map(\.position))
        #expect(try Self.page(t) { $0.device = "watch" }.map(\.position) == watched.map(\.position))
        // Caused by one of them: every event its command appended.
        let last = try #require(watched.last)
        #expect(try Self.page(t) { $0.causedBy = last.position }.map(\.position) == watched.map(\.position))
        #expect(throws: QueryError.self) { try Self.page(t) { $0.causedBy = 99_999 } }
    }

    @Test func namesAndNotesAreSearchedNotKeysOrIds() throws {
        let (t, w, _) = try Self.log()
        let chalk = try Self.page(t) { $0.grep = "CHALKLESS" }
        #expect(chalk.map(\.type.name) == ["SetLogged"], "\(chalk.map(\.type.name))")
        // Exercise names are names too.
        let grip = try Self.page(t) { $0.grep = "grip" }
        #expect(grip.contains { $0.type.name == "SetLogged" } && grip.contains { $0.type.name == "ExerciseDefined" })
        #expect(try Self.page(t) { $0.grep = "pull day" }.map(\.type.name) == ["WorkoutStarted"])
        // A key or an id is not text anyone wrote.
        #expect(try Self.page(t) { $0.grep = "setId" }.isEmpty)
        #expect(try Self.page(t) { $0.grep = String(w.lowercased.prefix(8)) }.isEmpty)
        // Filters combine.
        #expect(try Self.page(t) { ($0.grep, $0.device) = ("chalkless", "watch") }.isEmpty)
    }
}
