import Foundation
import LedgerTestSupport
import RepLedgerCore
import RepLedgerDemo
import RepLedgerProjections
import RepLedgerQueries
import Testing

/// The As-of view stepped through a log with kept folds (records and weekly
/// volume carried from step to step) answers what a fresh fold answers, byte
/// for byte, wherever it goes: forward and back one event, across
/// checkpoints, in jumps, over edits and deletions of old sets, a swap, a
/// rename and a weigh-in.
struct AsOfStepTests {
    @Test func aWalkThroughTheLogGivesAFreshFoldsAnswerAtEveryStep() throws {
        let t = try MemoryLedger()
        try t.store.append(try DemoHistory.events(library: try t.ledger.library()))
        let log = try QueryScope().log(t.store)
        let finished = log.countedWorkouts.filter { $0.status == .finished }
        let early = try #require(finished.dropFirst(3).first), late = try #require(finished.dropLast(2).last)
        // Old sets edited heavier and deleted, an exercise renamed, a weigh-in, and a new workout with a swap.
        try t.ledger.execute {
            _ = try $0.editSet(
                early.workoutId, set: early.sets[0].setId.lowercased, changes: SetMetrics(weight: Weight(400, .kg), reps: 3), historyEdit: true)
        }
        try t.ledger.execute { try $0.deleteSet(late.workoutId, set: late.sets[1].setId.lowercased, historyEdit: true) }
        try t.ledger.execute { try $0.renameExercise("Bench Press (Barbell)", to: "Flat Bench") }
        try t.ledger.execute { _ = try $0.logBodyweight(Weight(81, .kg)) }
        let w = try t.ledger.execute { try $0.startWorkout(name: "Walk") }
        try t.ledger.execute { _ = try $0.logSet(w, exercise: "Flat Bench", metrics: SetMetrics(weight: Weight(420, .kg), reps: 1)) }
        try t.ledger.execute { _ = try $0.swapExercise(w, from: "Flat Bench", to: "Squat (Barbell)") }
        try t.ledger.execute { _ = try $0.logSet(w, exercise: "Squat (Barbell)", metrics: SetMetrics(weight: Weight(500, .kg), reps: 2)) }
        try t.ledger.execute {
            _ = try $0.editSet(early.workoutId, set: early.sets[0].setId.lowercased, changes: SetMetrics(reps: 1), historyEdit: true)
        }
        let head = try t.store.headPosition()

        // Small checkpoints, so steps back and jumps start from them.
        let folds = AsOfFolds(spacing: 97, kept: 3)
        var rng = SplitMix(seed: 44)
        var p = head / 2
        var walk: [Int64] = []
        for _ in 0..<260 {
            switch rng.next() % 20 {
            case 0: p = Int64(rng.next() % UInt64(head + 1))
            case 1...5: p -= 1
            case 6...7: p += Int64(rng.next() % 40)
            default: p += 1
            }
            p = min(max(p, 0), head)
            walk.append(p)
        }
        // And the tail, where the edits are, forward then back.
        walk += Array(head - 12...head) + Array((head - 12...head).reversed())
        for position in walk {
            let stepped = try AsOfQuery.document(AsOfQuery.answer(t.store, position: position, folds: folds)).rendered
            let fresh = try AsOfQuery.document(AsOfQuery.answer(t.store, position: position)).rendered
            guard stepped != fresh else { continue }
            let at = zip(stepped, fresh).prefix { $0 == $1 }.count
            Issue.record(
                "as of #\(position), the stepped view differs from a fresh fold at character \(at): …\(stepped.dropFirst(max(0, at - 40)).prefix(80))…"
            )
            return
        }
    }
}

/// A small seeded generator (SplitMix64), so a failing walk is the same walk again.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
