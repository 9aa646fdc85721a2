import Foundation
import LedgerTestSupport
import Testing

@testable import RepLedgerCore
@testable import RepLedgerDemo
@testable import RepLedgerProjections

@Suite("Demo history")
struct DemoHistoryTests {
    @Test("the demo is the same events, ids included, every time")
    func deterministic() throws {
        let t = try MemoryLedger()
        let a = try DemoHistory.events(library: try t.ledger.library())
        let b = try DemoHistory.events(library: try t.ledger.library())
        #expect(a == b)
        #expect(Set(a.map(\.eventId)).count == a.count)
    }

    @Test("seeding the demo twice appends nothing the second time")
    func idempotent() throws {
        let t = try MemoryLedger()
        let events = try DemoHistory.events(library: try t.ledger.library())
        let first = try t.store.append(events)
        #expect(first.appended.count == events.count)
        var before: [String] = []
        try t.store.read { before.append($0.canonicalJSON) }
        let second = try t.store.append(try DemoHistory.events(library: try t.ledger.library()))
        #expect(second.appended.isEmpty)
        #expect(second.alreadyStored == events.count)
        var after: [String] = []
        try t.store.read { after.append($0.canonicalJSON) }
        #expect(after == before)
        #expect(try t.store.verify().ok)
    }

    @Test("the history has the plan's shape: 11 trained weeks of 4 sessions, the missed week empty")
    func shape() throws {
        let t = try MemoryLedger()
        try t.store.append(try DemoHistory.events(library: try t.ledger.library()))
        let log = try TrainingLogProjection.build(from: t.store)
        let rows = WorkoutHistoryProjection.workouts(log)
        #expect(rows.count == (DemoHistory.weeks - 1) * DemoHistory.plan.count)
        #expect(rows.allSatisfy { $0.finishedAt != nil })
        // The discarded false start is in the log but not in history.
        #expect(log.workouts.values.filter { $0.status == .discarded }.count == 1)
        // Week 7 (5–11 October 2026) has no workouts.
        #expect(!rows.contains { $0.startedAt.isoDate >= "2026-10-05" && $0.startedAt.isoDate <= "2026-10-11" })
        // Every session has warm-ups or not as planned, and all dates fall on Mon/Tue/Thu/Fri.
        #expect(Set(rows.map { $0.startedAt.local.isoWeekday }) == [1, 2, 4, 5])
    }

    @Test("the corrections in the demo are what history shows")
    func corrections() throws {
        let t = try MemoryLedger()
        try t.store.append(try DemoHistory.events(library: try t.ledger.library()))
        let rows = WorkoutHistoryProjection.workouts(try TrainingLogProjection.build(from: t.store))
        func row(_ date: String, _ name: String) throws -> WorkoutHistoryProjection.WorkoutRow {
            try #require(rows.first { $0.startedAt.isoDate == date && $0.name == name })
        }
        // Week 4: the bench typo (8 reps) was corrected to 5.
        let bench = try row("2026-09-14", "Upper A").exercises.first { $0.exerciseId == "barbell-bench-press" }
        #expect(bench?.sets.filter { $0.type == .normal }.map(\.reps) == [5, 5, bench?.sets.last?.reps])
        // Week 5: the double-tapped leg press set is gone.
        let press = try row("2026-09-22", "Lower A").exercises.first { $0.exerciseId == "leg-press" }
        #expect(press?.sets.count == 3)
        // Week 9: one leg press set, then the hack squat.
        let swapped = try row("2026-10-20", "Lower A").exercises.map(\.exerciseId)
        #expect(swapped == ["back-squat", "romanian-deadlift", "leg-press", "hack-squat", "standing-calf-raise"])
        // Week 10: the last deadlift set corrected to 152.5 kg from the web.
        let deadlift = try row("2026-10-30", "Lower B").exercises.first { $0.exerciseId == "deadlift" }
        #expect(deadlift?.sets.last?.weightKg == 152.5)
        // Lateral raises were entered in pounds and count in kilograms.
        let raise = try row("2026-11-12", "Upper B").exercises.first { $0.exerciseId == "lateral-raise" }
        #expect(raise?.sets.first?.metrics.weight == Weight(30, .lb))
        #expect(raise?.sets.first?.weightKg == 30 * WeightUnit.kilogramsPerPound)
    }
}
