import Foundation
import LedgerTestSupport
import Testing

@testable import RepLedgerCore

@Suite("human units: durations, distances, bodyweight")
struct MeasureTests {
    @Test(
        "every accepted duration spelling",
        arguments: [
            ("90", 90.0), ("90s", 90), ("90 sec", 90), ("1m30s", 90), ("1m 30s", 90), ("1:30", 90), ("0:45", 45),
            ("1:02:03", 3723), ("2h", 7200), ("1h5m", 3900), ("1h 5m 10s", 3910), ("25m", 1500), ("12.5", 12.5),
        ])
    func durations(text: String, seconds: Double) throws {
        #expect(try Measure.seconds(text) == seconds)
    }

    @Test("refused durations say what to type", arguments: ["", "abc", "1:60", "1m1m", "-5", "25h", "1:2:3:4", "5 parsecs", "1:75:00"])
    func badDurations(text: String) {
        #expect(throws: Refusal.self) { try Measure.seconds(text) }
    }

    @Test(
        "every accepted distance spelling",
        arguments: [
            ("5000", 5000.0), ("5km", 5000), ("5 k", 5000), ("400m", 400), ("3.1mi", 4988.966), ("100yd", 91.44), ("1 mile", 1609.344),
        ])
    func distances(text: String, metres: Double) throws {
        #expect(try Measure.metres(text) == metres)
    }

    @Test("refused distances", arguments: ["", "far", "5 parsecs", "2000km", "-1km"])
    func badDistances(text: String) {
        #expect(throws: Refusal.self) { try Measure.metres(text) }
    }

    @Test("durations and distances read back as people write them")
    func display() {
        #expect(Measure.clock(45) == "45 s")
        #expect(Measure.clock(90) == "1:30")
        #expect(Measure.clock(3723) == "1:02:03")
        #expect(Measure.distance(400) == "400 m")
        #expect(Measure.distance(5000) == "5 km")
        #expect(Measure.distance(4988.966) == "4.99 km")
        #expect(Measure.paceSecondsPerKm(duration: 1500, distance: 5000) == 300)
        #expect(Measure.paceSecondsPerKm(duration: 1500, distance: 0) == nil)
    }

    @Test("what is shown reads back as the same value (whole seconds, displayed distances, bodyweight to a tenth)")
    func roundTrips() throws {
        for seconds in [0.0, 1, 45, 59, 60, 61, 90, 599, 3599, 3600, 3723, 86_399] {
            #expect(try Measure.seconds(Measure.clock(seconds).replacingOccurrences(of: " s", with: "s")) == seconds, "\(seconds)")
        }
        for metres in [0.5, 400, 999.9, 1000, 5000, 21_097.5, 42_195] {
            let shown = Measure.distance(metres)
            #expect(abs(try Measure.metres(shown) - metres) <= (metres < 1000 ? 0.05 : 5), "\(metres) shown as \(shown)")
        }
        for kg in [50.0, 63.5, 83.46099608, 101.2, 150] {
            for display in [BodyweightDisplay.kg, .lb, .stoneLb] {
                let back = try BodyweightText.parse(BodyweightText.show(kg: kg, in: display), display: display).kilograms
                #expect(abs(back - kg) <= 0.0501 * (display == .kg ? 1 : WeightUnit.kilogramsPerPound), "\(kg) in \(display)")
            }
        }
    }

    @Test("bodyweight in kg, lb and stone and pounds: 13 st 2 lb is 184 lb, 83.46 kg, recorded as the pounds it is")
    func bodyweight() throws {
        let stone = try BodyweightText.parse("13st 2lb", display: .kg)
        #expect(stone == Weight(184, .lb))
        #expect((stone.kilograms * 100).rounded() / 100 == 83.46)
        #expect(try BodyweightText.parse("13 stone 2", display: .kg) == Weight(184, .lb))
        #expect(try BodyweightText.parse("13st", display: .kg) == Weight(182, .lb))
        #expect(try BodyweightText.parse("82.4kg", display: .lb) == Weight(82.4, .kg))
        #expect(try BodyweightText.parse("181.5 lb", display: .kg) == Weight(181.5, .lb))
        #expect(try BodyweightText.parse("82", display: .kg) == Weight(82, .kg))
        #expect(try BodyweightText.parse("181", display: .lb) == Weight(181, .lb))
        #expect(try BodyweightText.parse("13", display: .stoneLb) == Weight(182, .lb))
        for bad in ["5kg", "13st 15lb", "heavy", "1000kg", "13.5st 2lb"] {
            #expect(throws: Refusal.self, "\(bad)") { try BodyweightText.parse(bad, display: .kg) }
        }
        #expect(BodyweightText.show(kg: stone.kilograms, in: .stoneLb) == "13 st 2 lb")
        #expect(BodyweightText.show(kg: stone.kilograms, in: .lb) == "184 lb")
        #expect(BodyweightText.show(kg: stone.kilograms, in: .kg) == "83.5 kg")
    }
}

@Suite("sets by exercise kind, and watch samples")
struct ExerciseKindTests {
    func session(_ t: MemoryLedger) throws -> (CommandSession, UUID) {
        var s = CommandSession(
            library: try t.ledger.library(), account: try t.ledger.account(),
            context: CommandContext(occurredAt: .at("2026-11-20T07:00:00Z"), device: "watch", commandId: UUID()),
            ids: .seeded(3), loadWorkout: { try t.ledger.workout($0) })
        let w = try s.startWorkout(name: "Morning")
        return (s, w)
    }

    @Test("each kind accepts what it measures and refuses the rest, naming what to give")
    func kinds() throws {
        let t = try MemoryLedger()
        var (s, w) = try session(t)
        let accepted: [(String, SetMetrics)] = [
            ("barbell-bench-press", SetMetrics(weight: Weight(80, .kg), reps: 8)),
            ("pull-up", SetMetrics(reps: 10)),
            ("running", SetMetrics(durationSeconds: 1500)),
            ("running", SetMetrics(distanceMeters: 5000)),
            ("plank", SetMetrics(durationSeconds: 90)),
            ("hip-flexor-stretch", SetMetrics(reps: 10)),
            ("hip-flexor-stretch", SetMetrics(durationSeconds: 60)),
            ("foam-rolling", SetMetrics(durationSeconds: 600)),
            ("box-jump", SetMetrics(reps: 5)),
        ]
        for (x, m) in accepted { _ = try s.logSet(w, exercise: x, metrics: m) }
        let refused: [(String, SetMetrics, String)] = [
            ("barbell-bench-press", SetMetrics(weight: Weight(80, .kg), durationSeconds: 30), "it needs reps"),
            ("running", SetMetrics(reps: 5), "it needs a duration or a distance"),
            ("plank", SetMetrics(reps: 3), "a hold needs a duration"),
            ("plank", SetMetrics(distanceMeters: 10), "a hold needs a duration"),
            ("hip-flexor-stretch", SetMetrics(distanceMeters: 10), "it needs reps or a duration"),
            ("foam-rolling", SetMetrics(reps: 10), "it needs a duration"),
            ("box-jump", SetMetrics(durationSeconds: 30), "it needs reps"),
        ]
        let before = s.pending.count
        for (x, m, message) in refused {
            #expect {
                _ = try s.logSet(w, exercise: x, metrics: m)
            } throws: { error in
                // The core names no CLI option: the CLI adds its pointers at its edge.
                "\(error)".contains(message) && !"\(error)".contains("--")
            }
        }
        #expect(s.pending.count == before)
    }

    @Test("heart rate 20–250 bpm and energy ≥ 0 are accepted; the rest refused; the workout folds average, max and total")
    func healthSamples() throws {
        let t = try MemoryLedger()
        var (s, w) = try session(t)
        for bpm in [20.0, 120, 250] { try s.recordHealthSample(w, kind: .heartRate, value: bpm) }
        for kcal in [0.0, 35.5] { try s.recordHealthSample(w, kind: .activeEnergy, value: kcal) }
        for bad in [19.9, 250.5, .nan, .infinity] {
            #expect(throws: Refusal.self) { try s.recordHealthSample(w, kind: .heartRate, value: bad) }
        }
        for bad in [-1.0, .nan, 10_001] {
            #expect(throws: Refusal.self) { try s.recordHealthSample(w, kind: .activeEnergy, value: bad) }
        }
        let state = try s.workout(w)
        #expect(state.averageHeartRate == 130)
        #expect(state.maxHeartRate == 250)
        #expect(state.activeEnergyKcal == 35.5)
    }
}
