import Foundation
import LedgerTestSupport
import PropertyBased
import Testing

@testable import RepLedgerCore
@testable import RepLedgerProjections
@testable import RepLedgerSQLite
@testable import RepLedgerSnapshots

@Suite("Records milestones", .serialized)
struct RecordsMilestoneTests {
    func milestone(_ t: TempLedger, at p: Int64, rules: RuleSet = .default) throws {
        try RecordsMilestones.save(t.store, try TrainingLogProjection.build(from: t.store, through: p), rules: rules)
    }

    @Test("a milestone at P carried forward to Q equals the records computed from the fold at Q")
    func carriedEqualsComputed() async throws {
        let t = try TempLedger.demo()
        let head = try t.store.headPosition()
        await propertyCheck(count: 40, input: Gen.int(in: 0...Int(head)), Gen.int(in: 0...Int(head))) { a, b in
            do {
                let (p, q) = (Int64(min(a, b)), Int64(max(a, b)))
                try t.store.database.execute("DELETE FROM snapshots")
                try milestone(t, at: p)
                var ignored: [String] = []
                // The demo corrects one finished workout (week 10's deadlift): a milestone before that edit
                // cannot carry past it, and must say so; every other milestone carries.
                var editsFinished = false
                try t.store.replay(from: p + 1, through: q) { e in
                    switch e.event {
                    case .setEdited(let x): editsFinished = editsFinished || x.historyEdit
                    case .setLogged(let x): editsFinished = editsFinished || x.historyEdit
                    case .setDeleted(let x): editsFinished = editsFinished || x.historyEdit
                    default: break
                    }
                }
                let carried = try RecordsMilestones.records(t.store, rules: .default, through: q, ignored: &ignored)
                guard let answer = carried else {
                    #expect(editsFinished, "no answer from \(p) to \(q) without an edit of a finished workout: \(ignored)")
                    #expect(ignored.last?.contains("changes an older workout") == true)
                    return
                }
                #expect(answer.tailEvents == Int(q - p))
                #expect(
                    answer.records == PersonalRecordsProjection.compute(try TrainingLogProjection.build(from: t.store, through: q), timeline: false))
            } catch {
                Issue.record("unexpected error: \(error)")
            }
        }
    }

    @Test("the demo's correction of a finished workout: a milestone before it does not carry past it, one after it does")
    func demoCorrection() throws {
        let t = try TempLedger.demo()
        var edit: Int64?
        try t.store.read { e in if case .setEdited(let x) = e.event, x.historyEdit { edit = e.position } }
        let position = try #require(edit, "the demo corrects week 10's deadlift after the workout")
        let head = try t.store.headPosition()
        try milestone(t, at: position - 1)
        var ignored: [String] = []
        #expect(try RecordsMilestones.records(t.store, rules: .default, through: head, ignored: &ignored) == nil)
        #expect(ignored.last?.contains("changes an older workout") == true)
        try t.store.database.execute("DELETE FROM snapshots")
        try milestone(t, at: position)
        let answer = try #require(try RecordsMilestones.records(t.store, rules: .default, through: head, ignored: &ignored))
        #expect(answer.records == PersonalRecordsProjection.compute(try TrainingLogProjection.build(from: t.store), timeline: false))
    }

    @Test("an edit to an older finished workout, or a backdated workout, is not carried: the caller uses the fold")
    func fallsBack() throws {
        let t = try TempLedger.demo()
        let head = try t.store.headPosition()
        try milestone(t, at: head)
        let first = try #require(PersonalRecordsProjection.compute(try TrainingLogProjection.build(from: t.store)).first)
        let workoutId = try #require(first.timeline.first?.workoutId)
        let setId = try #require(first.timeline.first?.setId)
        try t.ledger.execute(at: .at("2026-11-20T10:00:00Z")) {
            try $0.editSet(workoutId, set: setId.lowercased, changes: SetMetrics(reps: 1), historyEdit: true)
        }
        var ignored: [String] = []
        #expect(try RecordsMilestones.records(t.store, rules: .default, through: .max, ignored: &ignored) == nil)
        #expect(ignored.last?.contains("changes an older workout") == true)

        // A workout logged today for a day before the last counted one.
        let fresh = try TempLedger.demo()
        try milestone(fresh, at: try fresh.store.headPosition())
        let old = try fresh.ledger.execute(at: .at("2026-09-01T07:00:00Z")) { try $0.startWorkout(name: "Backdated") }
        try fresh.ledger.execute(at: .at("2026-09-01T07:05:00Z")) {
            _ = try $0.logSet(old, exercise: "deadlift", metrics: SetMetrics(weight: Weight(300, .kg), reps: 1))
        }
        ignored = []
        #expect(try RecordsMilestones.records(fresh.store, rules: .default, through: .max, ignored: &ignored) == nil)
        #expect(ignored.last?.contains("starts before") == true)
    }

    @Test("a milestone answers only for its rules; under Brzycki it carries Brzycki records")
    func rulesKeyed() throws {
        let t = try TempLedger.demo()
        var brzycki = RuleSet.default
        brzycki.id = "brzycki"
        brzycki.e1rmFormula = .brzycki
        try milestone(t, at: 400, rules: brzycki)
        var ignored: [String] = []
        #expect(try RecordsMilestones.records(t.store, rules: .default, through: .max, ignored: &ignored) == nil)
        let answer = try #require(try RecordsMilestones.records(t.store, rules: brzycki, through: .max, ignored: &ignored))
        let log = try TrainingLogProjection.build(from: t.store)
        #expect(answer.records == PersonalRecordsProjection.compute(log, rules: brzycki, timeline: false))
        #expect(answer.records != PersonalRecordsProjection.compute(log, timeline: false))
    }
}
