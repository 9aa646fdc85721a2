import Foundation
import LedgerTestSupport
import Testing

@testable import RepLedgerCore

/// Rests, effort, plates and photos: what their deciders refuse, admission
/// refuses the same way when a device sends it as an event (each limit is in
/// `Invariants` or `Effort` once, and both call it).
extension EventAdmissionTests {
    /// A workout with one completed set, for the refusals that need one.
    func workoutWithASet(_ t: MemoryLedger) throws -> (workout: UUID, set: UUID) {
        let w = try t.ledger.execute { try $0.startWorkout(name: "Upper A") }
        let s = try t.ledger.execute {
            try $0.logSet(w, exercise: "Bench Press (Barbell)", metrics: SetMetrics(weight: Weight(80, .kg), reps: 5))
        }
        return (w, s)
    }

    @Test("a rest setting over an hour: refused by settings rest and by admission alike", arguments: [3601, 7200, -1])
    func restSetting(seconds: Int) throws {
        let t = try MemoryLedger()
        let decided = deciderRefusal(t) { try $0.setRest(seconds: seconds) }
        #expect(decided != nil)
        var e = RestTimerDefaultChanged()
        e.seconds = seconds
        #expect(admissionRefusal(t, [proposed(.restTimerDefaultChanged(e))], at: 0) == decided)
    }

    @Test("a rest taken of over a day: refused as a history edit and by admission alike", arguments: [86_401, -5])
    func restTaken(seconds: Int) throws {
        let t = try MemoryLedger()
        let (w, _) = try workoutWithASet(t)
        let decided = deciderRefusal(t) { try $0.startRestTimer(w, seconds: seconds, afterSetId: nil) }
        #expect(decided != nil)
        var e = RestTimerStarted()
        e.workoutId = w
        e.seconds = seconds
        #expect(admissionRefusal(t, [proposed(.restTimerStarted(e))], at: 0) == decided)
    }

    @Test("a change to a rest counting down of nothing or over an hour: refused alike", arguments: [0, 3601, -4000])
    func restChange(delta: Int) throws {
        let t = try MemoryLedger()
        let (w, _) = try workoutWithASet(t)
        try t.ledger.execute { _ = try $0.startRest(w, seconds: 600) }
        let decided = deciderRefusal(t) { try $0.adjustRest(w, by: delta) }
        #expect(decided != nil)
        var e = RestTimerAdjusted()
        e.workoutId = w
        e.deltaSeconds = delta
        #expect(admissionRefusal(t, [proposed(.restTimerAdjusted(e))], at: 0) == decided)
    }

    @Test("effort: reps in reserve off the scale and a tempo that does not read are refused alike")
    func effort() throws {
        let t = try MemoryLedger()
        let (w, s) = try workoutWithASet(t)
        for (rir, tempo) in [(9.5, nil), (-1, nil), (2.25, nil), (nil, "fast"), (nil, "3-1-1")] as [(Double?, String?)] {
            let decided = deciderRefusal(t) { try $0.recordEffort(w, setId: s, rir: rir, tempo: tempo) }
            #expect(decided != nil, "rir \(String(describing: rir)), tempo \(String(describing: tempo))")
            var e = SetEffortRecorded()
            e.workoutId = w
            e.setId = s
            e.rir = rir
            e.tempo = tempo
            #expect(admissionRefusal(t, [proposed(.setEffortRecorded(e))], at: 0) == decided)
        }
    }

    @Test("plates: more than 20 sizes or a bar over 1000 are refused alike")
    func plates() throws {
        let t = try MemoryLedger()
        for (bar, plates) in [(20.0, (1...21).map(Double.init)), (1001, [20, 10]), (20, [1500.0])] {
            let decided = deciderRefusal(t) { try $0.setPlateInventory(unit: .kg, bar: bar, plates: plates) }
            #expect(decided != nil, "bar \(bar), \(plates.count) plates")
            var e = PlateInventorySet()
            e.unit = .kg
            e.bar = bar
            e.plates = plates.sorted(by: >)
            #expect(admissionRefusal(t, [proposed(.plateInventorySet(e))], at: 0) == decided)
        }
    }

    @Test("a photo's metadata: a bad hash, an empty file or a relative path are refused alike")
    func photos() throws {
        let t = try MemoryLedger()
        let hash = String(repeating: "ab", count: 32)
        for (path, sha, size) in [("/p/front.jpg", "ABC", 10), ("/p/front.jpg", hash, 0), ("front.jpg", hash, 10)] {
            let decided = deciderRefusal(t) {
                _ = try $0.recordProgressPhoto(path: path, sha256: sha, byteCount: size, pose: .front, body: BodyState())
            }
            #expect(decided != nil, "\(path) \(sha) \(size)")
            var e = ProgressPhotoRecorded()
            e.photoId = UUID()
            e.pose = .front
            e.sha256 = sha
            e.byteCount = size
            e.path = path
            #expect(admissionRefusal(t, [proposed(.progressPhotoRecorded(e))], at: 0) == decided)
        }
    }
}
