import Foundation
import LedgerTestSupport
import RepLedgerProjections
import RepLedgerQueries
import RepLedgerSnapshots
import Testing

@testable import RepLedgerCore
@testable import RepLedgerSQLite

/// A device answers `volume --by week` and `--by workout` from the page
/// stored at the head: the fold's rows to the last bit, windowed as the fold
/// is, and never a page stored behind the head or under other rules.
@Suite("Volume by week and by workout, stored")
struct VolumePageTests {
    final class Said: @unchecked Sendable { var lines: [String] = [] }

    static func fold(_ store: SQLiteEventStore) throws -> TrainingLogProjection {
        var log = TrainingLogProjection()
        try store.replay(from: 1, through: .max) { log.apply($0) }
        return log
    }

    static func stored(_ store: SQLiteEventStore) throws -> [SnapshotInfo] {
        try SnapshotStore(store).list().filter { $0.key.projection == VolumeHeadProjection.name }
    }

    /// Asks twice: the first folds and stores the page, the second answers from it.
    static func askTwice(_ store: SQLiteEventStore, _ grouping: String, rules: RuleSet) throws -> (VolumeQuery.Answer, VolumeQuery.Answer, [String]) {
        let first = try VolumeQuery.answer(store, QueryScope(rules: rules), by: grouping)
        let said = Said()
        let second = try VolumeQuery.answer(store, QueryScope(rules: rules, note: { said.lines.append($0) }), by: grouping)
        return (first, second, said.lines)
    }

    static var counted: RuleSet {
        var rules = RuleSet.default
        rules.id = "warm-ups and the body count"
        rules.warmupsCount = true
        rules.bodyweightTonnage = true
        return rules
    }

    @Test("the page's rows are the fold's under any window and rules, and survive storing")
    func pageEqualsTheFold() throws {
        let t = try TempLedger.demo()
        let log = try Self.fold(t.store)
        for rules in [RuleSet.default, Self.counted] {
            let page = VolumeHeadProjection.page(log, rules: rules)
            try ViewSnapshots.saveVolumeHead(t.store, rules: rules, at: log.position, page)
            var ignored: [String] = []
            #expect(try ViewSnapshots.volumeHead(t.store, rules: rules, at: log.position, ignored: &ignored) == page, "\(ignored)")
            // Before the demo, in it (Free's 30 days cut weeks part-way), after it, and all time.
            let windows = ["2026-08-01T12:00:00Z", "2026-09-30T12:00:00Z", "2026-11-16T12:00:00Z", "2027-01-01T00:00:00Z"].map {
                ChartWindow.forPlan(log, at: .at($0))
            }
            for grouping in VolumeProjection.Grouping.allCases where VolumeHeadProjection.answers(grouping) {
                let all = VolumeProjection.rows(log, by: grouping, rules: rules)
                #expect(page.rows(by: grouping, window: nil) == all)
                for window in windows {
                    let want = VolumeProjection.rows(try #require(window).apply(to: log), by: grouping, rules: rules)
                    #expect(page.rows(by: grouping, window: window) == want, "\(grouping) under \(rules.id) from \(window!.from.iso8601)")
                }
            }
            #expect(page.rows(by: .week, window: windows[2]).count < VolumeProjection.rows(log, by: .week, rules: rules).count)
        }
    }

    @Test("by week and by workout the second ask answers from the page, as the first did from the fold, Free and Pro")
    func queriesAnswerFromThePage() throws {
        let t = try TempLedger.demo()
        let head = try t.store.headPosition()
        for rules in [RuleSet.default, Self.counted] {
            for grouping in ["week", "workout"] {
                let (first, second, said) = try Self.askTwice(t.store, grouping, rules: rules)
                #expect(said.contains { $0.contains("volume page stored at #\(head)") }, "\(said)")
                #expect(second.rows == first.rows && second.window == first.window && second.window != nil)
                #expect(VolumeQuery.document(second) == VolumeQuery.document(first))
            }
        }
        #expect(Set(try Self.stored(t.store).map(\.key.ruleSetId)).count == 2, "one page per rule set")

        // Pro for ten years from 1 November: every week, from the page as from the fold.
        var pro = PurchaseRecorded()
        pro.transactionId = "2000000901"
        pro.originalTransactionId = "2000000901"
        pro.product = .proAnnual
        pro.purchasedAt = .at("2026-11-01T00:00:00Z")
        pro.expiresAt = .at("2036-11-01T00:00:00Z")
        try t.store.append([proposed(.purchaseRecorded(pro), at: "2026-11-20T00:00:00Z")])
        let log = try Self.fold(t.store)
        let (first, second, said) = try Self.askTwice(t.store, "week", rules: .default)
        #expect(first.window == nil && second.window == nil)
        #expect(second.rows == VolumeProjection.rows(log, by: .week) && first.rows == second.rows)
        #expect(said.contains { $0.contains("volume page stored at #\(head + 1)") })
    }

    @Test("after an append the page stored behind is passed over: the new set counts")
    func aNewEventIsNeverAnsweredBehind() throws {
        let t = try TempLedger.demo()
        let before = try VolumeQuery.answer(t.store, QueryScope(), by: "workout", planWindow: false)
        let workout = try t.ledger.execute { try $0.startWorkout(name: "Just now") }
        try t.ledger.execute { _ = try $0.logSet(workout, exercise: "Squat (Barbell)", metrics: SetMetrics(weight: Weight(100, .kg), reps: 5)) }
        try t.ledger.execute { try $0.finishWorkout(workout) }

        let said = Said()
        let after = try VolumeQuery.answer(t.store, QueryScope(note: { said.lines.append($0) }), by: "workout", planWindow: false)
        #expect(!said.lines.contains { $0.contains("volume page stored") }, "\(said.lines)")
        #expect(after.rows.count == before.rows.count + 1)
        #expect(after.rows.last?.key == workout.lowercased && after.rows.last?.tonnageKg == 500)
        #expect(try Self.stored(t.store).map(\.position).contains(try t.store.headPosition()))
    }

    @Test("by muscle, an earlier point and a training date fold as before, and store nothing")
    func otherQueriesFold() throws {
        let t = try TempLedger.demo()
        let head = try t.store.headPosition()
        var earlier = TrainingLogProjection()
        try t.store.replay(from: 1, through: head - 50) { earlier.apply($0) }
        #expect(
            try VolumeQuery.answer(t.store, QueryScope(asOf: "\(head - 50)"), by: "week", planWindow: false).rows
                == VolumeProjection.rows(earlier, by: .week))
        #expect(
            try VolumeQuery.answer(t.store, QueryScope(), by: "muscle", planWindow: false).rows
                == VolumeProjection.rows(try Self.fold(t.store), by: .muscle))
        _ = try VolumeQuery.answer(t.store, QueryScope(until: "2026-10"), by: "week")
        #expect(try Self.stored(t.store).isEmpty)
    }
}
