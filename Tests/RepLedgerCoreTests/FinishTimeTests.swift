import Foundation
import LedgerTestSupport
import Testing

@testable import RepLedgerCore

/// Finishing a workout with no time given: refused once it has been idle
/// too long, naming its last activity; any given time is the lifter's word.
@Suite("Finishing a backfilled workout")
struct FinishTimeTests {
    /// A workout started at 07:00 with a set completed at 07:40.
    func workout() throws -> (MemoryLedger, UUID) {
        let t = try MemoryLedger()
        let w = try t.ledger.execute(at: .at("2026-11-02T07:00:00+01:00")) { try $0.startWorkout(name: "Upper A") }
        try t.ledger.execute(at: .at("2026-11-02T07:40:00+01:00")) {
            _ = try $0.logSet(w, exercise: "Bench Press (Barbell)", metrics: SetMetrics(weight: Weight(80, .kg), reps: 5))
        }
        return (t, w)
    }

    @Test("weeks later with no time: refused, naming the last set's time; nothing appended")
    func refused() throws {
        let (t, w) = try workout()
        let before = try t.count()
        let lastSet = Timestamp.at("2026-11-02T07:40:00+01:00")
        #expect(throws: Refusal.finishTimeNeeded(w, lastActivity: lastSet, idleMinutes: 3 * 7 * 24 * 60)) {
            try t.ledger.execute(at: lastSet.adding(seconds: 21 * 86_400)) { try $0.finishWorkout(w, timeGiven: false) }
        }
        #expect(try t.count() == before)
        #expect(Refusal.finishTimeNeeded(w, lastActivity: lastSet, idleMinutes: 1).description.contains(lastSet.iso8601))
    }

    @Test("within the idle limit, or with a time given however late, it finishes")
    func accepted() throws {
        let (t, w) = try workout()
        let lastSet = Timestamp.at("2026-11-02T07:40:00+01:00")
        try t.ledger.execute(at: lastSet.adding(seconds: CommandSession.idleBeforeFinishNeedsTime)) { try $0.finishWorkout(w, timeGiven: false) }
        #expect(try t.ledger.workout(w).status == .finished)
        let (u, v) = try workout()
        try u.ledger.execute(at: lastSet.adding(seconds: 5 * 86_400)) { try $0.finishWorkout(v, timeGiven: true) }
        #expect(try u.ledger.workout(v).status == .finished)
    }

    @Test("a set logged days later with no time: refused, naming the last activity; with a time, or in a finished workout's history, taken")
    func setsIntoAnIdleWorkout() throws {
        let (t, w) = try workout()
        let before = try t.count()
        let lastSet = Timestamp.at("2026-11-02T07:40:00+01:00")
        let threeDaysLater = lastSet.adding(seconds: 3 * 86_400)
        let squat = SetMetrics(weight: Weight(100, .kg), reps: 5)
        #expect(throws: Refusal.setTimeNeeded(w, lastActivity: lastSet, idleMinutes: 3 * 24 * 60)) {
            try t.ledger.execute(at: threeDaysLater) { try $0.logSet(w, exercise: "Squat (Barbell)", metrics: squat, timeGiven: false) }
        }
        #expect(try t.count() == before)
        #expect(Refusal.setTimeNeeded(w, lastActivity: lastSet, idleMinutes: 1).description.contains(lastSet.iso8601))
        // Within the limit, no time is needed; a time given is the lifter's word.
        try t.ledger.execute(at: lastSet.adding(seconds: CommandSession.idleBeforeFinishNeedsTime)) {
            _ = try $0.logSet(w, exercise: "Squat (Barbell)", metrics: squat, timeGiven: false)
        }
        try t.ledger.execute(at: threeDaysLater) { _ = try $0.logSet(w, exercise: "Squat (Barbell)", metrics: squat, timeGiven: true) }
        // A finished workout's history edit is not "now" in it.
        try t.ledger.execute(at: threeDaysLater) { try $0.finishWorkout(w, timeGiven: true) }
        try t.ledger.execute(at: threeDaysLater.adding(seconds: 86_400)) {
            _ = try $0.logSet(w, exercise: "Squat (Barbell)", metrics: squat, historyEdit: true, timeGiven: false)
        }
        #expect(try t.ledger.workout(w).sets.filter(\.completed).count == 4)
    }

    @Test("a workout with no sets is idle from its start")
    func noSets() throws {
        let t = try MemoryLedger()
        let start = Timestamp.at("2026-11-02T07:00:00Z")
        let w = try t.ledger.execute(at: start) { try $0.startWorkout(name: "Empty") }
        #expect(throws: Refusal.finishTimeNeeded(w, lastActivity: start, idleMinutes: 181)) {
            try t.ledger.execute(at: start.adding(seconds: 181 * 60)) { try $0.finishWorkout(w, timeGiven: false) }
        }
    }
}
