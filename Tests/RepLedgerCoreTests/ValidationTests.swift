import Foundation
import LedgerTestSupport
import Testing

@testable import RepLedgerCore
@testable import RepLedgerSQLite

/// DOMAIN.md §2 and the workout lifecycle: every refusal throws a typed
/// `Refusal` with a message that says what to do, and appends nothing.
@Suite("Command refusals")
struct ValidationTests {
    /// A ledger with one running workout that has one bench set.
    func ledgerWithWorkout() throws -> (TempLedger, UUID) {
        let t = try TempLedger()
        let w = try t.ledger.execute(at: .at("2026-11-02T07:00:00+01:00")) { try $0.startWorkout(name: "Upper A") }
        try t.ledger.execute { try $0.logSet(w, exercise: "Bench Press (Barbell)", metrics: SetMetrics(weight: Weight(80, .kg), reps: 5)) }
        return (t, w)
    }

    /// Runs `command` and checks it is refused with `expected` and the log did not move.
    func expectRefusal(_ expected: Refusal, _ t: TempLedger, _ command: (inout CommandSession) throws -> Void) throws {
        let before = try t.count()
        #expect(throws: expected) { try t.ledger.execute(command) }
        #expect(try t.count() == before)
        #expect(!expected.description.isEmpty)
    }

    static let badWeights: [(Weight, String)] = [
        (Weight(-2.5, .kg), "a weight cannot be negative"),
        (Weight(.nan, .kg), "it is not a finite number"),
        (Weight(.infinity, .lb), "it is not a finite number"),
        (Weight(1000.5, .kg), "it is over the 1000 kg limit"),
        (Weight(2205, .lb), "it is over the 1000 kg limit"),
    ]

    @Test("bad weights are refused", arguments: badWeights)
    func badWeight(weight: Weight, reason: String) throws {
        let (t, w) = try ledgerWithWorkout()
        try expectRefusal(.invalidWeight("\(weight.value.formatted) \(weight.unit.rawValue)", reason: reason), t) {
            _ = try $0.logSet(w, exercise: "barbell-bench-press", metrics: SetMetrics(weight: weight, reps: 5))
        }
    }

    @Test("exactly 1000 kg (and 2204 lb) is accepted")
    func limitAccepted() throws {
        let (t, w) = try ledgerWithWorkout()
        try t.ledger.execute { _ = try $0.logSet(w, exercise: "deadlift", metrics: SetMetrics(weight: Weight(1000, .kg), reps: 1)) }
        try t.ledger.execute { _ = try $0.logSet(w, exercise: "deadlift", metrics: SetMetrics(weight: Weight(2204, .lb), reps: 1)) }
        #expect(try t.ledger.workout(w).sets.count == 3)
    }

    @Test("reps outside 0…1000 are refused", arguments: [-1, 1001, Int.max])
    func badReps(reps: Int) throws {
        let (t, w) = try ledgerWithWorkout()
        try expectRefusal(.repsOutOfRange(reps), t) {
            _ = try $0.logSet(w, exercise: "barbell-bench-press", metrics: SetMetrics(weight: Weight(80, .kg), reps: reps))
        }
    }

    @Test("RPE outside 1–10 or off the half steps is refused", arguments: [0.5, 10.5, 7.3, 8.25, -1, Double.nan])
    func badRPE(rpe: Double) throws {
        let (t, w) = try ledgerWithWorkout()
        let before = try t.count()
        #expect(throws: Refusal.self) {
            try t.ledger.execute { _ = try $0.logSet(w, exercise: "barbell-bench-press", metrics: SetMetrics(reps: 5, rpe: rpe)) }
        }
        #expect(try t.count() == before)
    }

    @Test("RPE 1, 7.5 and 10 are accepted", arguments: [1.0, 7.5, 10.0])
    func goodRPE(rpe: Double) throws {
        let (t, w) = try ledgerWithWorkout()
        try t.ledger.execute { _ = try $0.logSet(w, exercise: "barbell-bench-press", metrics: SetMetrics(reps: 5, rpe: rpe)) }
    }

    @Test("weights parse with units and refuse unknown ones")
    func weightParsing() throws {
        #expect(try Weight.parse("80", defaultUnit: .kg) == Weight(80, .kg))
        #expect(try Weight.parse("80", defaultUnit: .lb) == Weight(80, .lb))
        #expect(try Weight.parse("176.5lb", defaultUnit: .kg) == Weight(176.5, .lb))
        #expect(try Weight.parse(" 82.5 KG ", defaultUnit: .lb) == Weight(82.5, .kg))
        #expect(throws: Refusal.unknownUnit("stone")) { try Weight.parse("80stone", defaultUnit: .kg) }
        #expect(throws: Refusal.invalidWeight("nan", reason: "it is not a number")) { try Weight.parse("nan", defaultUnit: .kg) }
        #expect(throws: Refusal.invalidWeight("-5", reason: "a weight cannot be negative")) { try Weight.parse("-5", defaultUnit: .kg) }
        #expect(throws: Refusal.invalidWeight("", reason: "it is not a number")) { try Weight.parse("", defaultUnit: .kg) }
    }

    @Test("set types parse and refuse unknown ones")
    func setTypes() throws {
        #expect(try SetType.parse("Warmup") == .warmup)
        #expect(throws: Refusal.unknownSetType("superset")) { try SetType.parse("superset") }
    }

    @Test("an unknown exercise is refused")
    func unknownExercise() throws {
        let (t, w) = try ledgerWithWorkout()
        let before = try t.count()
        do {
            _ = try t.ledger.execute { try $0.logSet(w, exercise: "Bench Prss", metrics: SetMetrics(reps: 5)) }
            Issue.record("a misspelt exercise was logged")
        } catch Refusal.unknownExercise(let name, let near) {
            #expect(name == "Bench Prss" && near.contains("Bench Press (Barbell)"), "\(near)")
        }
        #expect(try t.count() == before)
    }

    @Test("an unknown workout is refused")
    func unknownWorkout() throws {
        let (t, _) = try ledgerWithWorkout()
        let ghost = UUID()
        try expectRefusal(.unknownWorkout(ghost.lowercased), t) {
            _ = try $0.logSet(ghost, exercise: "deadlift", metrics: SetMetrics(reps: 5))
        }
        #expect(throws: Refusal.unknownWorkout("deadbeef")) { try t.ledger.resolveWorkout("deadbeef") }
    }

    @Test("a finished workout takes sets only as an explicit history edit")
    func finishedWorkout() throws {
        let (t, w) = try ledgerWithWorkout()
        try t.ledger.execute { try $0.finishWorkout(w) }
        try expectRefusal(.workoutFinished(w), t) {
            _ = try $0.logSet(w, exercise: "deadlift", metrics: SetMetrics(weight: Weight(100, .kg), reps: 5))
        }
        let set = try t.ledger.workout(w).sets[0].setId.lowercased
        try expectRefusal(.workoutFinished(w), t) { try $0.editSet(w, set: set, changes: SetMetrics(reps: 6)) }
        try expectRefusal(.workoutFinished(w), t) { try $0.deleteSet(w, set: set) }
        try expectRefusal(.workoutFinished(w), t) { try $0.finishWorkout(w) }
        // Explicitly, it is allowed and marked as a history edit.
        try t.ledger.execute { try $0.editSet(w, set: set, changes: SetMetrics(reps: 6), historyEdit: true) }
        let last = try t.store.event(at: try t.store.headPosition())!
        guard case .setEdited(let e) = last.event else { Issue.record("expected SetEdited"); return }
        #expect(e.historyEdit)
        #expect(try t.ledger.workout(w).sets[0].metrics.reps == 6)
    }

    @Test("a discarded workout refuses everything, even history edits")
    func discardedWorkout() throws {
        let (t, w) = try ledgerWithWorkout()
        try t.ledger.execute { try $0.discardWorkout(w) }
        try expectRefusal(.workoutDiscarded(w), t) {
            _ = try $0.logSet(w, exercise: "deadlift", metrics: SetMetrics(reps: 5), historyEdit: true)
        }
        try expectRefusal(.workoutDiscarded(w), t) { try $0.discardWorkout(w) }
    }

    @Test("edits name a known set and change something")
    func editRefusals() throws {
        let (t, w) = try ledgerWithWorkout()
        try expectRefusal(.unknownSet("ffff", workout: w), t) { try $0.editSet(w, set: "ffff", changes: SetMetrics(reps: 3)) }
        let set = try t.ledger.workout(w).sets[0].setId.lowercased
        try expectRefusal(.noChangesGiven, t) { try $0.editSet(w, set: set, changes: SetMetrics()) }
        try expectRefusal(.repsOutOfRange(5000), t) { try $0.editSet(w, set: set, changes: SetMetrics(reps: 5000)) }
        // A unique prefix is enough.
        try t.ledger.execute { try $0.editSet(w, set: String(set.prefix(6)), changes: SetMetrics(reps: 4)) }
        #expect(try t.ledger.workout(w).sets[0].metrics.reps == 4)
    }

    @Test("swaps need the exercise in the workout and a different target")
    func swapRefusals() throws {
        let (t, w) = try ledgerWithWorkout()
        try expectRefusal(.exerciseNotInWorkout("Deadlift (Barbell)", workout: w), t) {
            try $0.swapExercise(w, from: "deadlift", to: "back-squat")
        }
        try expectRefusal(.sameExercise("Bench Press (Barbell)"), t) {
            try $0.swapExercise(w, from: "barbell-bench-press", to: "bench press (barbell)")
        }
        try expectRefusal(.unknownExercise("underwater press"), t) { try $0.swapExercise(w, from: "barbell-bench-press", to: "underwater press") }
    }

    @Test("custom exercises need a unique name and a muscle")
    func exerciseRefusals() throws {
        let t = try TempLedger()
        try expectRefusal(.exerciseExists(name: "Deadlift (Barbell)", exerciseId: "deadlift"), t) {
            _ = try $0.defineExercise(name: "deadlift (barbell)", primaryMuscles: [.back])
        }
        try expectRefusal(.invalidName("an exercise needs a name"), t) { _ = try $0.defineExercise(name: "  ", primaryMuscles: [.back]) }
        try expectRefusal(.invalidInput("give at least one primary muscle"), t) {
            _ = try $0.defineExercise(name: "Zercher Squat", primaryMuscles: [])
        }
        let id = try t.ledger.execute { try $0.defineExercise(name: "Zercher Squat", primaryMuscles: [.quads]) }
        #expect(id == "zercher-squat")
        #expect(try t.ledger.library().resolve("ZERCHER SQUAT").exerciseId == "zercher-squat")
    }

    @Test("a command decided on a stale workout is refused by the store, not lost")
    func concurrentCommand() throws {
        let (t, w) = try ledgerWithWorkout()
        let before = try t.count()
        // A session decided outside the write lock (as a server merging a device's batch might)...
        var session = CommandSession(
            library: try t.ledger.library(), account: try t.ledger.account(),
            context: CommandContext(occurredAt: .now(), device: "phone", commandId: UUID()), ids: .seeded(7),
            loadWorkout: { try t.ledger.workout($0) })
        _ = try session.logSet(w, exercise: "deadlift", metrics: SetMetrics(reps: 5))
        // ...while another device finishes the workout.
        let other = Ledger(store: try SQLiteEventStore(path: t.path), device: "watch")
        try other.execute { try $0.finishWorkout(w) }
        #expect(throws: StoreError.self) { try t.store.append(session.pending, expecting: session.expectations) }
        #expect(try t.count() == before + 1)
        #expect(try t.ledger.workout(w).status == .finished)
    }

    @Test("a command decides under the write lock: no other writer lands between its read and its append")
    func decideUnderLock() throws {
        let (t, w) = try ledgerWithWorkout()
        let before = try t.count()
        #expect(throws: StoreError.self) {
            try t.ledger.execute { session in
                _ = try session.logSet(w, exercise: "deadlift", metrics: SetMetrics(reps: 5))
                // Another connection cannot write while this command is deciding: it waits, then gives up busy.
                let other = try SQLiteEventStore(path: t.path)
                try other.database.execute("PRAGMA busy_timeout = 50")
                try Ledger(store: other, device: "watch").execute { try $0.finishWorkout(w) }
            }
        }
        #expect(try t.count() == before)
        #expect(try t.ledger.workout(w).status == .running)
    }
}

@Suite("did you mean")
struct NearestNamesTests {
    @Test("names that contain what was typed come first, shortest first; typos within a small distance follow")
    func closest() {
        let names = ["Bench Press (Barbell)", "Bench Press (Dumbbell)", "Decline Bench Press (Barbell)", "Deadlift (Barbell)", "Squat (Barbell)"]
        #expect(
            NearestNames.closest(to: "bench press", among: names) == [
                "Bench Press (Barbell)", "Bench Press (Dumbbell)", "Decline Bench Press (Barbell)",
            ])
        #expect(NearestNames.closest(to: "deadlfit (barbell)", among: names) == ["Deadlift (Barbell)"])
        #expect(NearestNames.closest(to: "histroy", among: ["history", "hint", "import"]) == ["history"])
        #expect(NearestNames.closest(to: "zzz", among: names).isEmpty)
        #expect(NearestNames.didYouMean(["a", "b", "c"]) == "; did you mean a, b or c?")
        #expect(NearestNames.didYouMean([]) == "")
    }
}
