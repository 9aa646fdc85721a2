import Foundation
import LedgerTestSupport
import RepLedgerCore
import RepLedgerDemo
import RepLedgerQueries
import Testing

/// A workout's summary at the head keeps the records before the workout between answers (what makes a command's
/// answer cheap on a long log) and answers, after every kind of change, what a cold fold answers: logging into the
/// workout reuses them; an edit of an older workout, a rename or another workout's start folds them again.
struct SummaryRecordsCarriedTests {
    @Test func aKeptSummaryAnswersWhatAColdFoldAnswersAfterEveryChange() throws {
        let t = try MemoryLedger()
        try t.store.append(try DemoHistory.events(library: try t.ledger.library()))
        let older = try #require(Array(try QueryScope().log(t.store).countedWorkouts).last { $0.status == .finished && !$0.sets.isEmpty })
        let warm = WarmFold()
        let id = try t.ledger.execute { try $0.startWorkout(name: "Now") }, w = id.lowercased
        func same(_ step: String) throws {
            let kept = SummaryQuery.document(try SummaryQuery.answer(t.store, QueryScope(warm: warm), workout: w)).rendered
            let cold = SummaryQuery.document(try SummaryQuery.answer(t.store, QueryScope(), workout: w)).rendered
            #expect(kept == cold, "after \(step)")
        }
        func log(_ exercise: String, _ kg: Double, _ reps: Int) throws {
            _ = try t.ledger.execute { try $0.logSet(id, exercise: exercise, metrics: SetMetrics(weight: Weight(kg, .kg), reps: reps)) }
        }
        try same("the start")
        try log("Bench Press (Barbell)", 300, 1)
        try same("a record logged into the workout")
        try log("Bench Press (Barbell)", 290, 2)
        try same("a second set")
        let oldSet = try #require(older.sets.first { $0.type == .normal && $0.completed })
        _ = try t.ledger.execute {
            try $0.editSet(
                older.workoutId, set: oldSet.setId.lowercased, changes: SetMetrics(weight: Weight(400, .kg), reps: 5), historyEdit: true)
        }
        try same("an older workout's set edited past the record")
        try log(try QueryScope().log(t.store).exerciseName(oldSet.exerciseId), 350, 5)
        try same("a set of that exercise")
        try t.ledger.execute { try $0.renameExercise("Bench Press (Barbell)", to: "Flat Bench") }
        try same("a rename")
        try log("Flat Bench", 310, 1)
        try same("a set under the new name")
        try t.ledger.execute { try $0.finishWorkout(id) }
        try same("the finish")
    }
}
