import Foundation
import LedgerTestSupport
import PropertyBased
import Testing

@testable import RepLedgerCore
@testable import RepLedgerProjections

@Suite("Rebuild under other rules (DOMAIN.md §9)")
struct RuleSetDiffTests {
    /// 100 × 12 then 121 × 5: Epley rates the second higher (141.2 > 140), Brzycki the first (144 > 136.1).
    func log() throws -> (LogBuilder, UUID, UUID) {
        var b = LogBuilder()
        let first = try b.workout("2026-11-02T07:00:00Z", sets: [working("barbell-bench-press", 100, 12)])
        let second = try b.workout("2026-11-05T07:00:00Z", sets: [working("barbell-bench-press", 121, 5)])
        return (b, first.id, second.id)
    }

    @Test("switching Epley → Brzycki loses the e1RM record of the 5-rep set and moves both points")
    func epleyToBrzycki() throws {
        let (b, first, second) = try log()
        var brzycki = RuleSet.default
        brzycki.id = "brzycki"
        brzycki.e1rmFormula = .brzycki
        let changes = RuleSetDiff.changes(b.log, from: .default, to: brzycki)
        let lost = changes.compactMap { if case .recordLost(let r) = $0 { return r } else { return nil } }
        let gained = changes.compactMap { if case .recordGained(let r) = $0 { return r } else { return nil } }
        #expect(lost.map(\.kind) == [.e1rm])
        #expect(lost.first?.workoutId == second)
        let epley: Double = 121 * (1 + 5.0 / 30)
        #expect(abs((lost.first?.value ?? 0) - epley) < 1e-9)
        #expect(gained.isEmpty)  // the first set was already the first record under both
        let moved = changes.compactMap { c -> (UUID, Double?, Double?)? in
            if case .e1rmMoved(_, let w, let a, let b) = c { return (w, a, b) } else { return nil }
        }
        #expect(moved.map(\.0) == [first, second])
        #expect(moved[0].2 == 144)
        let brzyckiValue: Double = 121 * 36 / 32
        #expect(moved[1].2 == brzyckiValue)
        // The best e1RM under Brzycki is the 12-rep set's.
        #expect(PersonalRecordsProjection.compute(b.log, rules: brzycki).first?.bestE1rmKg == 144)
    }

    @Test("counting warm-ups changes volume and nothing changes under the same rules")
    func warmupsAndIdentity() throws {
        var b = LogBuilder()
        try b.workout("2026-11-02T07:00:00Z", sets: [warmup("back-squat", 60, 5), working("back-squat", 100, 5)])
        #expect(RuleSetDiff.changes(b.log, from: .default, to: .default).isEmpty)
        var withWarmups = RuleSet.default
        withWarmups.warmupsCount = true
        let volume = RuleSetDiff.changes(b.log, from: .default, to: withWarmups).compactMap { c -> (Int, Int, Double, Double)? in
            if case .volumeChanged(_, let fs, let ts, let fk, let tk) = c { return (fs, ts, fk, tk) } else { return nil }
        }
        #expect(volume.count == 1)
        #expect(volume[0].0 == 1 && volume[0].1 == 2 && volume[0].2 == 500 && volume[0].3 == 800)
    }

    @Test("rules load from JSON with defaults for missing keys and refuse unknown keys")
    func loading() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rules-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let good = folder.appendingPathComponent("good.json")
        try #"{"id":"strength-block","version":3,"e1rmFormula":"wathan","e1rmRepCap":8}"#.write(to: good, atomically: true, encoding: .utf8)
        let rules = try RuleSet.load(path: good.path)
        #expect(rules.id == "strength-block" && rules.version == 3 && rules.e1rmFormula == .wathan && rules.e1rmRepCap == 8)
        #expect(rules.warmupsCount == false && rules.prKinds == PRKind.allCases)
        let bad = folder.appendingPathComponent("bad.json")
        try #"{"id":"x","e1rmFromula":"wathan"}"#.write(to: bad, atomically: true, encoding: .utf8)
        #expect(throws: RuleSet.LoadError.self) { try RuleSet.load(path: bad.path) }
        try #"{"e1rmFormula":"guess"}"#.write(to: bad, atomically: true, encoding: .utf8)
        #expect(throws: RuleSet.LoadError.self) { try RuleSet.load(path: bad.path) }
    }
}

@Suite("docs/RULES.md says what the code does")
struct RulesDocumentTests {
    @Test("the default rule set's id and version in RULES.md are the ones rebuild --diff names")
    func defaultVersion() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("docs/RULES.md")
        let text = try String(contentsOf: url, encoding: .utf8)
        let d = RuleSet.default
        #expect(text.contains("## The default (`id: \(d.id)`, `version: \(d.version)`)"))
        #expect(text.contains("| `id`, `version` | `\(d.id)`, `\(d.version)` |"))
    }
}

@Suite("Projection properties")
struct ProjectionPropertyTests {
    static let lifts = ["barbell-bench-press", "back-squat", "deadlift", "pull-up"]

    /// A generated history: each number is one set, sometimes a new workout, sometimes an edit or deletion.
    static func history(_ script: [Int]) throws -> LogBuilder {
        var b = LogBuilder()
        var clock = Timestamp.at("2026-01-05T07:00:00Z")
        var workout: UUID?
        for op in script {
            clock = clock.adding(seconds: 90)
            b.session.context.occurredAt = clock
            if workout == nil || op % 9 == 0 {
                if let w = workout { try b.session.finishWorkout(w) }
                clock = clock.adding(seconds: Int64(86_400 * (1 + op % 3)))
                b.session.context.occurredAt = clock
                workout = try b.session.startWorkout(name: op % 2 == 0 ? "Upper" : "Lower")
            }
            let w = workout!
            let sets = try b.session.workout(w).sets
            switch op % 7 {
            case 5 where !sets.isEmpty:
                try b.session.deleteSet(w, set: sets[op % sets.count].setId.lowercased)
            case 6 where !sets.isEmpty:
                try b.session.editSet(w, set: sets[op % sets.count].setId.lowercased, changes: SetMetrics(reps: 1 + op % 12))
            default:
                let kg: Double? = op % 11 == 0 ? nil : Double(40 + (op / 7) % 120)
                _ = try b.session.logSet(
                    w, exercise: lifts[(op / 3) % lifts.count], type: op % 8 == 0 ? .warmup : .normal,
                    metrics: SetMetrics(weight: kg.map { Weight($0, .kg) }, reps: 1 + (op / 5) % 15))
            }
        }
        if let w = workout { try b.session.finishWorkout(w) }
        b.flush()
        return b
    }

    /// Every view's answer, compared by value (descriptions of dictionaries follow hash order).
    struct Views: Equatable {
        var records: [PersonalRecordsProjection.ExerciseRecords]
        var weeks: [VolumeProjection.Row]
        var muscles: [VolumeProjection.Row]
        var history: [WorkoutHistoryProjection.WorkoutRow]
        var e1rm: [[E1RMTrendProjection.Point]]
    }

    static func views(_ log: TrainingLogProjection) -> Views {
        Views(
            records: PersonalRecordsProjection.compute(log), weeks: VolumeProjection.rows(log, by: .week),
            muscles: VolumeProjection.rows(log, by: .muscle), history: WorkoutHistoryProjection.workouts(log),
            e1rm: lifts.map { E1RMTrendProjection.points(log, exerciseId: $0) })
    }

    @Test("catching up in any chunks equals a fresh rebuild, and two rebuilds agree")
    func catchUpEqualsRebuild() async {
        await propertyCheck(count: 30, input: Gen.int(in: 0...100_000).array(of: 1...80), Gen.int(in: 1...40)) { script, chunk in
            do {
                let b = try Self.history(script)
                var caughtUp = TrainingLogProjection()
                for (i, e) in b.envelopes.enumerated() {
                    caughtUp.apply(e)
                    // Views read in between, as a live app would, change nothing.
                    if i % chunk == 0 { _ = Self.views(caughtUp) }
                }
                var fresh = TrainingLogProjection()
                for e in b.envelopes { fresh.apply(e) }
                #expect(Self.views(caughtUp) == Self.views(fresh))
                #expect(Self.views(fresh) == Self.views(b.log))
            } catch {
                Issue.record("unexpected error: \(error)")
            }
        }
    }

    @Test("the records a workout set, measured against the fold of the workouts before it, are the whole timeline's")
    func recordsSetInAWorkoutAreTheTimelines() async {
        await propertyCheck(count: 30, input: Gen.int(in: 0...100_000).array(of: 1...80)) { script in
            do {
                let log = try Self.history(script).log
                let timeline = PersonalRecordsProjection.compute(log).flatMap(\.timeline)
                for id in log.workouts.keys {
                    #expect(PersonalRecordsProjection.setIn(log, workoutId: id) == timeline.filter { $0.workoutId == id })
                }
            } catch {
                Issue.record("unexpected error: \(error)")
            }
        }
    }

    @Test("deleting a set gives the same records as never having logged it")
    func deleteEqualsNeverLogged() async {
        await propertyCheck(count: 40, input: Gen.int(in: 60...200).array(of: 1...10), Gen.int(in: 0...9)) { weights, pick in
            do {
                let victim = pick % weights.count
                var with = LogBuilder(), without = LogBuilder()
                let all = weights.map { working("deadlift", Double($0), 5) }
                let w = try with.workout("2026-11-02T07:00:00Z", sets: all)
                try with.run("2026-11-02T09:00:00Z") { try $0.deleteSet(w.id, set: w.sets[victim].lowercased, historyEdit: true) }
                try without.workout("2026-11-02T07:00:00Z", sets: all.enumerated().filter { $0.offset != victim }.map(\.element))
                let a = PersonalRecordsProjection.compute(with.log), b = PersonalRecordsProjection.compute(without.log)
                #expect(a.map(\.heaviestKg) == b.map(\.heaviestKg))
                #expect(a.map(\.bestE1rmKg) == b.map(\.bestE1rmKg))
                #expect(a.map(\.bestSessionVolumeKg) == b.map(\.bestSessionVolumeKg))
                #expect(a.map { $0.timeline.map(\.value) } == b.map { $0.timeline.map(\.value) })
            } catch {
                Issue.record("unexpected error: \(error)")
            }
        }
    }
}
