import Foundation
import Testing

@testable import RepLedgerCore
@testable import RepLedgerProjections

@Suite("timed work: cardio and isometric records, auto-fill, bodyweight tonnage")
struct TimedWorkTests {
    func records(_ log: TrainingLogProjection, _ id: String) -> PersonalRecordsProjection.ExerciseRecords? {
        PersonalRecordsProjection.compute(log, exerciseId: id).first
    }

    @Test("longest distance, longest duration, best pace and longest hold, with their timeline")
    func cardioAndHolds() throws {
        var b = LogBuilder()
        try b.run("2026-03-01T07:00:00Z") { s in
            let w = try s.startWorkout(name: "Run")
            _ = try s.logSet(w, exercise: "running", metrics: SetMetrics(durationSeconds: 1500, distanceMeters: 5000))  // 5:00/km
            _ = try s.logSet(w, exercise: "plank", metrics: SetMetrics(durationSeconds: 60))
            try s.finishWorkout(w)
        }
        try b.run("2026-03-08T07:00:00Z") { s in
            let w = try s.startWorkout(name: "Run")
            _ = try s.logSet(w, exercise: "running", metrics: SetMetrics(durationSeconds: 3000, distanceMeters: 8000))  // 6:15/km
            _ = try s.logSet(w, exercise: "running", metrics: SetMetrics(durationSeconds: 270, distanceMeters: 1000))  // 4:30/km
            _ = try s.logSet(w, exercise: "plank", metrics: SetMetrics(durationSeconds: 90))
            try s.finishWorkout(w)
        }
        let run = try #require(records(b.log, "running"))
        #expect(run.longestDistanceMeters == 8000)
        #expect(run.longestDurationSeconds == 3000)
        #expect(run.bestPaceSecondsPerKm == 270)
        #expect(run.longestHoldSeconds == nil)
        #expect(run.heaviestKg == nil)
        #expect(run.timeline.filter { $0.kind == .bestPace }.map(\.value) == [300, 270])
        let plank = try #require(records(b.log, "plank"))
        #expect(plank.longestHoldSeconds == 90)
        #expect(plank.longestDurationSeconds == nil)
        #expect(plank.timeline.map(\.kind) == [.longestHold, .longestHold])
    }

    @Test("records of timed work under edits and deletes equal a log that recorded the final values")
    func editsEqualRebuild() throws {
        var edited = LogBuilder()
        var sets: [UUID] = []
        var w = UUID()
        try edited.run("2026-03-01T07:00:00Z") { s in
            w = try s.startWorkout(name: "Run")
            sets.append(try s.logSet(w, exercise: "running", metrics: SetMetrics(durationSeconds: 1500, distanceMeters: 5000)))
            sets.append(try s.logSet(w, exercise: "running", metrics: SetMetrics(durationSeconds: 600, distanceMeters: 3000)))
            sets.append(try s.logSet(w, exercise: "plank", metrics: SetMetrics(durationSeconds: 200)))
            try s.finishWorkout(w)
        }
        try edited.run("2026-03-02T07:00:00Z") { s in
            try s.editSet(w, set: sets[0].lowercased, changes: SetMetrics(distanceMeters: 6000), historyEdit: true)
            try s.deleteSet(w, set: sets[1].lowercased, historyEdit: true)
            try s.editSet(w, set: sets[2].lowercased, changes: SetMetrics(durationSeconds: 75), historyEdit: true)
        }
        var direct = LogBuilder()
        try direct.run("2026-03-01T07:00:00Z") { s in
            let w = try s.startWorkout(name: "Run")
            _ = try s.logSet(w, exercise: "running", metrics: SetMetrics(durationSeconds: 1500, distanceMeters: 6000))
            _ = try s.logSet(w, exercise: "plank", metrics: SetMetrics(durationSeconds: 75))
            try s.finishWorkout(w)
        }
        for id in ["running", "plank"] {
            let a = try #require(records(edited.log, id)), b = try #require(records(direct.log, id))
            #expect(a.longestDistanceMeters == b.longestDistanceMeters)
            #expect(a.longestDurationSeconds == b.longestDurationSeconds)
            #expect(a.bestPaceSecondsPerKm == b.bestPaceSecondsPerKm)
            #expect(a.longestHoldSeconds == b.longestHoldSeconds)
            #expect(a.timeline.map(\.value) == b.timeline.map(\.value))
        }
        #expect(records(edited.log, "running")?.bestPaceSecondsPerKm == 250)
    }

    @Test(
        "auto-fill in the seed's order: the last workout's matching set, its open weight from the plan; else the plan's target (template or program); else nothing"
    )
    func autofill() throws {
        var b = LogBuilder()
        try b.workout("2026-03-01T07:00:00Z", sets: [working("deadlift", 140, 5), working("deadlift", 150, 3)])
        var today = UUID()
        try b.run("2026-03-08T07:00:00Z") { s in today = try s.startWorkout(name: "Pull") }
        var w = try #require(b.log.workouts[today])
        var fill = AutofillProjection.next(b.log, workout: w, exerciseId: "deadlift")
        #expect(fill.source == .lastWorkout && fill.setNumber == 1 && fill.metrics?.weight == Weight(140, .kg) && fill.metrics?.reps == 5)
        try b.run("2026-03-08T07:05:00Z") { s in
            _ = try s.logSet(today, exercise: "deadlift", metrics: SetMetrics(weight: Weight(140, .kg), reps: 5))
        }
        w = try #require(b.log.workouts[today])
        fill = AutofillProjection.next(b.log, workout: w, exerciseId: "deadlift")
        #expect(fill.setNumber == 2 && fill.metrics?.weight == Weight(150, .kg) && fill.metrics?.reps == 3)
        try b.run("2026-03-08T07:10:00Z") { s in
            _ = try s.logSet(today, exercise: "deadlift", metrics: SetMetrics(weight: Weight(150, .kg), reps: 3))
        }
        // A third set: last time had two, and there is no plan.
        fill = AutofillProjection.next(b.log, workout: try #require(b.log.workouts[today]), exerciseId: "deadlift")
        #expect(fill.setNumber == 3 && fill.metrics == nil && fill.source == nil)

        // A planned set of an exercise never done before: its target, named by the plan's origin.
        var planned = UUID(), programDay = UUID()
        try b.run("2026-03-09T07:00:00Z") { s in
            planned = try s.startWorkout(name: "From a template", origin: .template)
            s.planExercise(planned, exerciseId: "front-squat", repsMin: 8, repsMax: 10, sets: [(.normal, SetMetrics(reps: 10))])
            programDay = try s.startWorkout(name: "Program day", origin: .programDay, programId: UUID(), programDayIndex: 0)
            s.planExercise(
                programDay, exerciseId: "front-squat", repsMin: 6, repsMax: 8,
                sets: [(.normal, SetMetrics(weight: Weight(60, .kg), reps: 8))])
        }
        fill = AutofillProjection.next(b.log, workout: try #require(b.log.workouts[planned]), exerciseId: "front-squat")
        #expect(fill.source == .template && fill.metrics?.reps == 10)
        fill = AutofillProjection.next(b.log, workout: try #require(b.log.workouts[programDay]), exerciseId: "front-squat")
        #expect(fill.source == .program && fill.metrics?.weight == Weight(60, .kg))

        // Planned where a last workout exists: the last workout's matching set wins (seed 002: last session > target > empty).
        var again = UUID()
        try b.run("2026-03-10T07:00:00Z") { s in
            again = try s.startWorkout(name: "Pull again", origin: .template)
            s.planExercise(again, exerciseId: "deadlift", repsMin: 5, repsMax: 5, sets: [(.normal, SetMetrics(weight: Weight(160, .kg), reps: 2))])
            s.planExercise(again, exerciseId: "deadlift", repsMin: 5, repsMax: 5, sets: [(.normal, SetMetrics(reps: 4))])
            s.planExercise(again, exerciseId: "deadlift", repsMin: 5, repsMax: 5, sets: [(.normal, SetMetrics(weight: Weight(170, .kg), reps: 1))])
        }
        w = try #require(b.log.workouts[again])
        fill = AutofillProjection.next(b.log, workout: w, exerciseId: "deadlift")
        #expect(fill.source == .lastWorkout && fill.weightSource == nil && fill.metrics?.weight == Weight(140, .kg) && fill.metrics?.reps == 5)
        try b.run("2026-03-10T07:05:00Z") { s in
            _ = try s.logSet(again, exercise: "deadlift", metrics: SetMetrics(weight: Weight(160, .kg), reps: 2), plannedSetId: w.sets.first?.setId)
        }
        fill = AutofillProjection.next(b.log, workout: try #require(b.log.workouts[again]), exerciseId: "deadlift")
        #expect(fill.setNumber == 2 && fill.source == .lastWorkout && fill.metrics?.weight == Weight(150, .kg) && fill.metrics?.reps == 3)
        // Past the sets done last time: the plan's next open set.
        try b.run("2026-03-10T07:10:00Z") { s in
            _ = try s.logSet(again, exercise: "deadlift", metrics: SetMetrics(weight: Weight(150, .kg), reps: 4), plannedSetId: w.sets[1].setId)
        }
        fill = AutofillProjection.next(b.log, workout: try #require(b.log.workouts[again]), exerciseId: "deadlift")
        #expect(fill.setNumber == 3 && fill.source == .template && fill.metrics?.weight == Weight(170, .kg) && fill.metrics?.reps == 1)

        // A last set logged with reps alone: its open weight comes from the plan, and says so.
        var light = UUID(), plannedAgain = UUID()
        try b.run("2026-03-11T07:00:00Z") { s in
            light = try s.startWorkout(name: "Reps only")
            _ = try s.logSet(light, exercise: "goblet-squat", metrics: SetMetrics(reps: 12))
            try s.finishWorkout(light)
        }
        try b.run("2026-03-12T07:00:00Z") { s in
            plannedAgain = try s.startWorkout(name: "Goblets", origin: .template)
            s.planExercise(
                plannedAgain, exerciseId: "goblet-squat", repsMin: 10, repsMax: 12, sets: [(.normal, SetMetrics(weight: Weight(24, .kg), reps: 10))])
        }
        fill = AutofillProjection.next(b.log, workout: try #require(b.log.workouts[plannedAgain]), exerciseId: "goblet-squat")
        #expect(fill.source == .lastWorkout && fill.weightSource == .template && fill.metrics?.weight == Weight(24, .kg) && fill.metrics?.reps == 12)
    }

    @Test("bodyweight tonnage is a rule: off, pull-ups add 0 kg; on, the latest weigh-in × reps; rebuild --diff shows it")
    func bodyweightTonnage() throws {
        var b = LogBuilder()
        try b.run("2026-03-01T06:00:00Z") { s in _ = try s.logBodyweight(Weight(80, .kg)) }
        try b.workout("2026-03-02T07:00:00Z", sets: [working("pull-up", nil, 10)])
        try b.run("2026-03-05T06:00:00Z") { s in _ = try s.logBodyweight(Weight(176.3696, .lb)) }  // 80 kg again, in lb
        try b.run("2026-03-09T06:00:00Z") { s in _ = try s.logBodyweight(Weight(82, .kg)) }
        try b.workout("2026-03-10T07:00:00Z", sets: [working("pull-up", nil, 8), working("barbell-bench-press", 80, 5)])
        var on = RuleSet.default
        on.id = "bodyweight"
        on.bodyweightTonnage = true
        let off = VolumeProjection.rows(b.log, by: .workout)
        let with = VolumeProjection.rows(b.log, by: .workout, rules: on)
        #expect(off.map(\.tonnageKg) == [0, 400])
        #expect(with.map(\.tonnageKg) == [800, 82 * 8 + 400])
        let diff = RuleSetDiff.changes(b.log, from: .default, to: on)
        #expect(diff.contains { if case .volumeChanged(_, _, _, 0, 800) = $0 { true } else { false } })
    }
}
