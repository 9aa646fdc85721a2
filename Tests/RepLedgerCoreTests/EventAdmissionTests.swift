import Foundation
import LedgerTestSupport
import Testing

@testable import RepLedgerCore
@testable import RepLedgerDemo

/// `EventAdmission`, the checks a pushed batch passes before it is appended:
/// what the deciders made passes, and what a decider refuses is refused the
/// same way when a device sends it as an event.
@Suite("Event admission")
struct EventAdmissionTests {
    /// The refusal `decide` throws, run against `t`'s ledger.
    func deciderRefusal(_ t: MemoryLedger, _ decide: (inout CommandSession) throws -> Void) -> Refusal? {
        do {
            try t.ledger.execute(decide)
            return nil
        } catch {
            return error as? Refusal
        }
    }

    /// The refusal admission gives `batch` on `t`'s ledger, checking it names the event at `index`.
    func admissionRefusal(_ t: MemoryLedger, _ batch: [ProposedEvent], at index: Int) -> Refusal? {
        do {
            try EventAdmission.check(batch, in: t.ledger)
            return nil
        } catch {
            guard let refused = error as? EventAdmission.Refused else { return nil }
            #expect(refused.eventId == batch[index].eventId)
            return refused.refusal
        }
    }

    func set(_ workout: UUID, _ metrics: SetMetrics, notes: String? = nil) -> LedgerEvent {
        var e = SetLogged()
        e.workoutId = workout
        e.setId = UUID()
        e.entryId = UUID()
        e.exerciseId = "barbell-bench-press"
        e.metrics = metrics
        e.notes = notes
        return .setLogged(e)
    }

    func template(_ name: String) -> LedgerEvent {
        var e = TemplateCreated()
        e.templateId = UUID()
        e.name = name
        e.exercises = [TemplateExercise(exerciseId: "barbell-bench-press")]
        return .templateCreated(e)
    }

    @Test("the demo's 12 weeks, made by the deciders, are admitted batch by batch as a device would push them")
    func demoIsAdmitted() throws {
        let source = try MemoryLedger()
        let events = try DemoHistory.events(library: try source.ledger.library())
        let t = try MemoryLedger()
        let before = try t.count()
        for start in stride(from: 0, to: events.count, by: 500) {
            let batch = Array(events[start..<min(events.count, start + 500)])
            try EventAdmission.check(batch, in: t.ledger)
            try t.store.append(batch)
        }
        #expect(try t.count() == before + Int64(events.count))
    }

    @Test(
        "a set's values: what logSet refuses, admission refuses with the same refusal, naming the event",
        arguments: [
            SetMetrics(weight: Weight(-5, .kg), reps: 5), SetMetrics(weight: Weight(80, .kg), reps: 1001),
            SetMetrics(weight: Weight(80, .kg), reps: 5, rpe: 7.3), SetMetrics(weight: Weight(.nan, .kg), reps: 5),
        ])
    func setValues(metrics: SetMetrics) throws {
        let t = try MemoryLedger()
        let w = try t.ledger.execute { try $0.startWorkout(name: "Upper A") }
        let decided = deciderRefusal(t) { _ = try $0.logSet(w, exercise: "Bench Press (Barbell)", metrics: metrics) }
        #expect(decided != nil)
        let good = proposed(set(w, SetMetrics(weight: Weight(80, .kg), reps: 5)))
        #expect(admissionRefusal(t, [good, proposed(set(w, metrics))], at: 1) == decided)
    }

    @Test("a note over the limit is refused as the decider refuses it")
    func longNote() throws {
        let t = try MemoryLedger()
        let w = try t.ledger.execute { try $0.startWorkout(name: "Upper A") }
        let note = String(repeating: "n", count: SetValidation.noteLimit + 1)
        let metrics = SetMetrics(weight: Weight(80, .kg), reps: 5)
        let decided = deciderRefusal(t) { _ = try $0.logSet(w, exercise: "Bench Press (Barbell)", metrics: metrics, notes: note) }
        #expect(decided == .noteTooLong(characters: note.count))
        #expect(admissionRefusal(t, [proposed(set(w, metrics, notes: note))], at: 0) == decided)
        #expect(admissionRefusal(t, [proposed(set(w, metrics, notes: String(note.dropLast())))], at: 0) == nil)
    }

    @Test("names: blank or over the limit, for a template, an exercise and a workout, refused alike")
    func names() throws {
        let t = try MemoryLedger()
        let long = String(repeating: "x", count: 101)
        let decidedTemplate = deciderRefusal(t) { _ = try $0.createTemplate(name: long, exercises: ["Bench Press (Barbell)"]) }
        #expect(decidedTemplate == .invalidName("keep a template name to 100 characters"))
        #expect(admissionRefusal(t, [proposed(template(long))], at: 0) == decidedTemplate)
        #expect(admissionRefusal(t, [proposed(template("  "))], at: 0) == .invalidName("a template needs a name"))

        let decidedExercise = deciderRefusal(t) { _ = try $0.defineExercise(name: long, primaryMuscles: [.chest]) }
        var exercise = ExerciseDefined()
        exercise.exerciseId = "custom-long"
        exercise.name = long
        exercise.primaryMuscles = [.chest]
        #expect(decidedExercise != nil)
        #expect(admissionRefusal(t, [proposed(.exerciseDefined(exercise))], at: 0) == decidedExercise)

        let longer = String(repeating: "w", count: 201)
        let decidedWorkout = deciderRefusal(t) { _ = try $0.startWorkout(name: longer) }
        #expect(decidedWorkout != nil)
        #expect(admissionRefusal(t, [proposed(started(UUID(), name: longer))], at: 0) == decidedWorkout)
        #expect(admissionRefusal(t, [proposed(started(UUID(), name: ""))], at: 0) == nil)
    }

    @Test(
        "watch samples outside their ranges are refused as recordHealthSample refuses them",
        arguments: [(HealthSampleKind.heartRate, 19.0), (.heartRate, 251), (.activeEnergy, -1), (.activeEnergy, 10_001), (.heartRate, .nan)])
    func samples(kind: HealthSampleKind, value: Double) throws {
        let t = try MemoryLedger()
        let w = try t.ledger.execute { try $0.startWorkout(name: "Run") }
        let decided = deciderRefusal(t) { try $0.recordHealthSample(w, kind: kind, value: value) }
        #expect(decided != nil)
        var e = HealthSampleRecorded()
        e.workoutId = w
        e.kind = kind
        e.value = value
        #expect(admissionRefusal(t, [proposed(.healthSampleRecorded(e))], at: 0) == decided)
    }

    @Test("a workout's lifecycle: no set in a workout nobody started or in a discarded one; a batch may start one and log to it")
    func lifecycle() throws {
        let t = try MemoryLedger()
        let metrics = SetMetrics(weight: Weight(80, .kg), reps: 5)
        let unknown = UUID()
        #expect(admissionRefusal(t, [proposed(set(unknown, metrics))], at: 0) == .unknownWorkout(unknown.lowercased))

        let fresh = UUID()
        #expect(admissionRefusal(t, [proposed(started(fresh)), proposed(set(fresh, metrics)), proposed(finished(fresh))], at: 0) == nil)

        let w = try t.ledger.execute { try $0.startWorkout(name: "Upper A") }
        try t.ledger.execute { try $0.discardWorkout(w) }
        let decided = deciderRefusal(t) { _ = try $0.logSet(w, exercise: "Bench Press (Barbell)", metrics: metrics) }
        #expect(decided == .workoutDiscarded(w))
        #expect(admissionRefusal(t, [proposed(set(w, metrics))], at: 0) == decided)
    }

    @Test("the Free template limit holds across the log and the batch; a stored event re-sent is not checked again")
    func templateLimit() throws {
        let t = try MemoryLedger()
        let limit = EntitlementState.freeTemplateLimit
        var stored: [ProposedEvent] = []
        for i in 1...limit - 1 { stored.append(proposed(template("Day \(i)"))) }
        try t.store.append(stored)
        let last = proposed(template("Day \(limit)"))
        let over = proposed(template("One too many"))
        let decided = deciderRefusal(t) {
            _ = try $0.createTemplate(name: "Day \(limit)", exercises: ["Bench Press (Barbell)"])
            _ = try $0.createTemplate(name: "One too many", exercises: ["Bench Press (Barbell)"])
        }
        #expect(decided == .templateLimit(limit: limit, products: Product.allCases.filter { !$0.grantsCoach }))
        #expect(admissionRefusal(t, [last, over], at: 1) == decided)
        #expect(admissionRefusal(t, [last], at: 0) == nil)
        try t.store.append([last])
        // At the limit now: the stored events re-sent are a retry, not new templates.
        #expect(admissionRefusal(t, stored + [last], at: 0) == nil)
        #expect(admissionRefusal(t, stored + [over], at: stored.count) == decided)
    }
}
