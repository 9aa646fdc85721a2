import Foundation
import LedgerTestSupport
import PropertyBased
import Testing

@testable import RepLedgerCore
@testable import RepLedgerProjections

/// Properties over generated command scripts. A script is a list of numbers;
/// each number picks an operation and its arguments, so the generator's
/// shrinking turns a failure into a short script.
@Suite("Replay properties")
struct ReplayPropertyTests {
    static let exercises = ["barbell-bench-press", "back-squat", "deadlift", "pull-up", "leg-press"]

    /// Runs the script against one workout; refused operations are skipped, as
    /// a client would show the error and go on.
    static func run(_ script: [Int], in session: inout CommandSession, workout w: UUID) {
        var clock = Timestamp.at("2026-11-02T07:00:00+01:00")
        for op in script {
            clock = clock.adding(seconds: 60 + Int64(op % 97))
            session.context.occurredAt = clock
            let state = try? session.workout(w)
            let sets = state?.sets ?? []
            let pick = sets.isEmpty ? nil : sets[(op / 7) % sets.count].setId.lowercased
            let exercise = exercises[(op / 11) % exercises.count]
            let weight = (op / 13) % 5 == 0 ? nil : Weight(Double((op / 3) % 400) * 1.25, op % 2 == 0 ? .kg : .lb)
            let reps = (op / 17) % 30 - 1  // sometimes -1: refused
            do {
                switch op % 8 {
                case 0, 1, 2:
                    _ = try session.logSet(
                        w, exercise: exercise, type: op % 5 == 0 ? .warmup : .normal,
                        metrics: SetMetrics(weight: weight, reps: reps))
                case 3: if let pick { try session.editSet(w, set: pick, changes: SetMetrics(weight: weight, reps: reps)) }
                case 4: if let pick { try session.deleteSet(w, set: pick) }
                case 5: try session.swapExercise(w, from: exercise, to: exercises[(op / 19) % exercises.count])
                case 6: if state?.status == .paused { try session.resumeWorkout(w) } else { try session.pauseWorkout(w) }
                default: if let pick { try session.editSet(w, set: pick, type: .drop, changes: SetMetrics()) }
                }
            } catch {
                continue
            }
        }
    }

    @Test("the live fold equals a replay of the stored log")
    func liveEqualsReplay() async throws {
        let library = try MemoryLedger().ledger.library()
        await propertyCheck(count: 60, input: Gen.int(in: 0...1_000_000).array(of: 0...60)) { script in
            do {
                let t = try MemoryLedger()
                let context = CommandContext(occurredAt: .at("2026-11-02T06:59:00+01:00"), device: "phone", commandId: UUID())
                var session = CommandSession(library: library, account: AccountState(), context: context, ids: .seeded(7))
                let w = try session.startWorkout(name: "Generated")
                Self.run(script, in: &session, workout: w)
                let live = try session.workout(w)
                try t.store.append(session.pending)
                let replayed = try t.ledger.workout(w)
                #expect(replayed == live)
                #expect(replayed.version == Int64(session.pending.count))
                #expect(try t.store.verify().ok)
            } catch {
                Issue.record("unexpected error: \(error)")
            }
        }
    }

    @Test("deleting a set gives the same history as never having logged it")
    func deleteEqualsNeverLogged() async throws {
        let library = try MemoryLedger().ledger.library()
        await propertyCheck(count: 40, input: Gen.int(in: 1...12), Gen.int(in: 0...11)) { count, victim in
            do {
                let context = CommandContext(occurredAt: .at("2026-11-02T07:00:00Z"), device: "phone", commandId: UUID())
                var with = CommandSession(library: library, account: AccountState(), context: context, ids: .seeded(1))
                var without = with
                let w1 = try with.startWorkout(name: "A")
                let w2 = try without.startWorkout(name: "A")
                var doomed: UUID?
                for i in 0..<count {
                    let metrics = SetMetrics(weight: Weight(Double(60 + i * 5), .kg), reps: 5 + i % 3)
                    let id = try with.logSet(w1, exercise: "back-squat", metrics: metrics)
                    if i == victim % count { doomed = id } else { _ = try without.logSet(w2, exercise: "back-squat", metrics: metrics) }
                }
                try with.deleteSet(w1, set: doomed!.lowercased)
                let a = try with.workout(w1), b = try without.workout(w2)
                #expect(a.sets.map(\.metrics) == b.sets.map(\.metrics))
                var ha = TrainingLogProjection(), hb = TrainingLogProjection()
                for (h, pending) in [(0, with.pending), (1, without.pending)] {
                    for (i, p) in pending.enumerated() {
                        let e = EventEnvelope(
                            position: Int64(i + 1), eventId: p.eventId, stream: p.stream, version: 0,
                            occurredAt: p.occurredAt, recordedAt: p.occurredAt, device: p.device,
                            causationId: nil, correlationId: nil, event: p.event, hash: [])
                        if h == 0 { ha.apply(e) } else { hb.apply(e) }
                    }
                }
                let ra = WorkoutHistoryProjection.workouts(ha), rb = WorkoutHistoryProjection.workouts(hb)
                #expect(ra.map(\.tonnageKg) == rb.map(\.tonnageKg))
                #expect(ra.map(\.sets) == rb.map(\.sets))
            } catch {
                Issue.record("unexpected error: \(error)")
            }
        }
    }

    @Test("any set metrics either append exactly one event or are refused with nothing appended")
    func refusalsAppendNothing() async throws {
        let t = try MemoryLedger()
        let w = try t.ledger.execute { try $0.startWorkout(name: "Fuzz") }
        try t.ledger.execute { _ = try $0.logSet(w, exercise: "deadlift", metrics: SetMetrics(reps: 1)) }
        let weights = Gen.double(in: -50...2500).map { $0 == 0 ? Double.nan : $0 }
        await propertyCheck(count: 200, input: weights, Gen.int(in: -5...1005), Gen.int(in: 0...24)) { kg, reps, halfRPE in
            do {
                let before = try t.count()
                let metrics = SetMetrics(weight: Weight(kg, .kg), reps: reps, rpe: Double(halfRPE) / 2)
                let valid = kg.isFinite && kg >= 0 && kg <= 1000 && (0...1000).contains(reps) && halfRPE >= 2 && halfRPE <= 20
                do {
                    try t.ledger.execute { _ = try $0.logSet(w, exercise: "deadlift", metrics: metrics) }
                    #expect(valid)
                    #expect(try t.count() == before + 1)
                } catch let refusal as Refusal {
                    #expect(!valid, "refused a valid set: \(refusal)")
                    #expect(try t.count() == before)
                }
            } catch {
                Issue.record("unexpected error: \(error)")
            }
        }
    }

    @Test("SetLogged payloads round-trip whatever their values")
    func codecRoundTrip() async {
        let text = Gen.letterOrNumber.string(of: 0...30)
        await propertyCheck(count: 200, input: Gen.double(in: 0...1000), Gen.int(in: 0...1000), text) { kg, reps, notes in
            var e = SetLogged()
            e.workoutId = UUID(); e.setId = UUID(); e.entryId = UUID(); e.exerciseId = notes
            e.metrics = SetMetrics(weight: Weight(kg, .lb), reps: reps, durationSeconds: kg / 3)
            e.notes = notes.isEmpty ? nil : notes + "\n\"ü\""
            let event = LedgerEvent.setLogged(e)
            let back = try? event.encodedPayload.withUnsafeBytes { try LedgerEvent.decode(code: 31, schema: 1, payload: $0) }
            #expect(back == event)
        }
    }
}
