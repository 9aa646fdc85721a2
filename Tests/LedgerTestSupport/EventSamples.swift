import Foundation

@testable import RepLedgerCore

/// One realistic event of every catalog type, with every optional field set
/// somewhere, for codec round trips and the stored v1 fixture.
package enum EventSamples {
    package static let workout = UUID(uuidString: "6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f")!
    package static let entry = UUID(uuidString: "11111111-2222-4333-8444-555555555555")!
    package static let set = UUID(uuidString: "aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee")!
    package static let template = UUID(uuidString: "0a0b0c0d-0e0f-4a1b-9c2d-3e4f5a6b7c8d")!
    package static let program = UUID(uuidString: "99999999-8888-4777-a666-555555555555")!
    package static let batch = UUID(uuidString: "12345678-9abc-4def-8123-456789abcdef")!
    package static let t0 = Timestamp(millis: 1_788_000_000_000, offsetMinutes: 60)

    package static var v1: [LedgerEvent] {
        var unit = LiftingUnitChanged(); unit.unit = .lb
        var bw = BodyweightDisplayChanged(); bw.display = .stoneLb
        var rest = RestTimerDefaultChanged(); rest.seconds = 120; rest.exerciseId = "deadlift"
        var defined = ExerciseDefined()
        defined.exerciseId = "zercher-squat"; defined.name = "Zercher Squat"; defined.primaryMuscles = [.quads]
        defined.secondaryMuscles = [.glutes, .abs]; defined.equipment = [.barbell]; defined.kind = .strength
        defined.canonicalMovement = "squat"; defined.complexity = 3; defined.rating = 61; defined.custom = true
        var renamed = ExerciseRenamed(); renamed.exerciseId = "zercher-squat"; renamed.name = "Zercher Squat (Barbell)"
        var archived = ExerciseArchived(); archived.exerciseId = "zercher-squat"
        var started = WorkoutStarted(); started.workoutId = workout; started.name = "Upper \"A\" — día 1"
        started.origin = .programDay; started.templateId = template; started.programId = program; started.programDayIndex = 2
        var added = WorkoutExerciseAdded(); added.workoutId = workout; added.entryId = entry; added.exerciseId = "barbell-bench-press"
        added.targetSets = 3; added.targetRepsMin = 8; added.targetRepsMax = 12
        var removed = WorkoutExerciseRemoved(); removed.workoutId = workout; removed.entryId = entry
        var reordered = WorkoutExercisesReordered(); reordered.workoutId = workout; reordered.entryIds = [entry, set]
        var swapped = WorkoutExerciseSwapped(); swapped.workoutId = workout; swapped.entryId = entry
        swapped.fromExerciseId = "leg-press"; swapped.toExerciseId = "hack-squat"
        var linked = SupersetLinked(); linked.workoutId = workout; linked.supersetId = set; linked.entryIds = [entry, template]
        var unlinked = SupersetUnlinked(); unlinked.workoutId = workout; unlinked.supersetId = set
        var setAdded = SetAdded(); setAdded.workoutId = workout; setAdded.setId = set; setAdded.entryId = entry
        setAdded.exerciseId = "barbell-bench-press"; setAdded.type = .warmup; setAdded.target = SetMetrics(weight: Weight(60, .kg), reps: 5)
        var logged = SetLogged(); logged.workoutId = workout; logged.setId = set; logged.entryId = entry
        logged.exerciseId = "barbell-bench-press"; logged.type = .failure
        logged.metrics = SetMetrics(weight: Weight(176.5, .lb), reps: 8, rpe: 9.5, durationSeconds: 42.5, distanceMeters: 0.25)
        logged.notes = "line one\nline two\ttabbed \\ backslash"; logged.historyEdit = true
        var edited = SetEdited(); edited.workoutId = workout; edited.setId = set; edited.type = .drop
        edited.changes = SetMetrics(weight: Weight(82.5, .kg)); edited.notes = "fixed typo"; edited.historyEdit = true
        var deleted = SetDeleted(); deleted.workoutId = workout; deleted.setId = set
        var completed = SetCompleted(); completed.workoutId = workout; completed.setId = set
        var uncompleted = SetUncompleted(); uncompleted.workoutId = workout; uncompleted.setId = set
        var note = WorkoutNoteSet(); note.workoutId = workout; note.entryId = entry; note.text = "elbow felt off 🤕"
        var timer = RestTimerStarted(); timer.workoutId = workout; timer.seconds = 90; timer.afterSetId = set
        var adjust = RestTimerAdjusted(); adjust.workoutId = workout; adjust.deltaSeconds = -15
        var dismiss = RestTimerDismissed(); dismiss.workoutId = workout
        var paused = WorkoutPaused(); paused.workoutId = workout
        var resumed = WorkoutResumed(); resumed.workoutId = workout
        var health = HealthSampleRecorded(); health.workoutId = workout; health.kind = .activeEnergy; health.value = 12.75
        var finished = WorkoutFinished(); finished.workoutId = workout
        var discarded = WorkoutDiscarded(); discarded.workoutId = workout
        let lines = [
            TemplateExercise(exerciseId: "back-squat", sets: 5, repsMin: 3, repsMax: 5),
            TemplateExercise(exerciseId: "plank", sets: 3),
        ]
        var tCreated = TemplateCreated(); tCreated.templateId = template; tCreated.name = "Legs"; tCreated.exercises = lines
        var tRenamed = TemplateRenamed(); tRenamed.templateId = template; tRenamed.name = "Leg Day"
        var tChanged = TemplateExercisesChanged(); tChanged.templateId = template; tChanged.exercises = Array(lines.reversed())
        var tDup = TemplateDuplicated(); tDup.templateId = program; tDup.sourceTemplateId = template; tDup.name = "Leg Day (copy)"
        tDup.exercises = lines
        var tOrder = TemplatesReordered(); tOrder.templateIds = [program, template]
        var tDeleted = TemplateDeleted(); tDeleted.templateId = template
        var purchase = PurchaseRecorded(); purchase.transactionId = "2000000123"; purchase.originalTransactionId = "2000000100"
        purchase.product = .coachAnnual; purchase.purchasedAt = t0; purchase.expiresAt = t0.adding(seconds: 365 * 86_400)
        var refund = PurchaseRefunded(); refund.transactionId = "2000000123"; refund.refundedAt = t0.adding(seconds: 86_400)
        var revoke = PurchaseRevoked(); revoke.transactionId = "2000000123"; revoke.revokedAt = t0.adding(seconds: 7200)
        revoke.reason = "family sharing ended"
        var questionnaire = QuestionnaireAnswered(); questionnaire.questionnaireId = batch; questionnaire.daysPerWeek = 3
        questionnaire.sessionMinutes = 45; questionnaire.experience = .intermediate; questionnaire.goals = [.strength, .muscle]
        questionnaire.equipment = [.barbell, .dumbbell]; questionnaire.priorityMuscles = [.glutes, .hamstrings]
        questionnaire.injuries = ["left shoulder"]
        var ex = ProgramExercise(); ex.exerciseId = "romanian-deadlift"; ex.repsMin = 6; ex.repsMax = 10; ex.restSeconds = 120
        ex.injuryWarning = true
        var session = ProgramSession(); session.name = "Lower 1"; session.exercises = [ex]
        var generated = ProgramGenerated(); generated.programId = program; generated.questionnaireId = batch
        generated.split = "1 Upper 2 Lower"; generated.seed = .max; generated.repeatWarning = true; generated.sessions = [session]
        var activated = ProgramActivated(); activated.programId = program
        var programRemoved = ProgramRemoved(); programRemoved.programId = program; programRemoved.reason = "a third program was created"
        var importStarted = ImportBatchStarted(); importStarted.batchId = batch; importStarted.source = .hevy
        importStarted.fileName = "workouts.csv"; importStarted.fileDigest = String(repeating: "ab", count: 32); importStarted.rows = 23_114
        var importFinished = ImportBatchFinished(); importFinished.batchId = batch; importFinished.workouts = 812
        importFinished.sets = 21_007; importFinished.exercisesCreated = 14; importFinished.skipped = 3

        return [
            .liftingUnitChanged(unit), .bodyweightDisplayChanged(bw), .restTimerDefaultChanged(rest),
            .exerciseDefined(defined), .exerciseRenamed(renamed), .exerciseArchived(archived),
            .workoutStarted(started), .workoutExerciseAdded(added), .workoutExerciseRemoved(removed),
            .workoutExercisesReordered(reordered), .workoutExerciseSwapped(swapped), .supersetLinked(linked),
            .supersetUnlinked(unlinked), .setAdded(setAdded), .setLogged(logged), .setEdited(edited),
            .setDeleted(deleted), .setCompleted(completed), .setUncompleted(uncompleted), .workoutNoteSet(note),
            .restTimerStarted(timer), .restTimerAdjusted(adjust), .restTimerDismissed(dismiss), .workoutPaused(paused),
            .workoutResumed(resumed), .healthSampleRecorded(health), .workoutFinished(finished), .workoutDiscarded(discarded),
            .templateCreated(tCreated), .templateRenamed(tRenamed), .templateExercisesChanged(tChanged),
            .templateDuplicated(tDup), .templatesReordered(tOrder), .templateDeleted(tDeleted),
            .purchaseRecorded(purchase), .purchaseRefunded(refund), .purchaseRevoked(revoke), .upsellDismissed(UpsellDismissed()),
            .questionnaireAnswered(questionnaire), .programGenerated(generated), .programActivated(activated),
            .programRemoved(programRemoved), .importBatchStarted(importStarted), .importBatchFinished(importFinished),
        ]
    }

    /// Types added after the v1 fixture was written (stored in the v2 fixture).
    package static var v2: [LedgerEvent] {
        var weighIn = BodyweightMeasured()
        weighIn.measurementId = UUID(uuidString: "6F1C4E2A-0B7D-4C59-9E31-2D8A5F0C7B14")!
        weighIn.weight = Weight(184, .lb)
        var progression = ProgressionOverrideSet()
        progression.exerciseId = "back-squat"
        progression.programId = UUID(uuidString: "0C7E9A51-3B2D-4F6E-8A19-5D4C3B2A1908")!
        progression.rule = .linear
        progression.module = .strength
        progression.increment = Weight(5, .lb)
        progression.repsMin = 5
        progression.repsMax = 5
        return [
            .bodyweightMeasured(weighIn), .progressionOverrideSet(progression),
            .exportWritten(ExportWritten(path: "/home/lifter/backup.jsonl", format: "jsonl", sha256: String(repeating: "5e", count: 32))),
        ]
    }

    /// Types added for the server (stored in the v3 fixture): coach access.
    package static var v3: [LedgerEvent] {
        var granted = CoachAccessGranted()
        granted.coachAccountId = "3f9a6c2e-8d41-4b7a-9e05-1c2d3e4f5a6b"
        var revoked = CoachAccessRevoked()
        revoked.coachAccountId = granted.coachAccountId
        return [.coachAccessGranted(granted), .coachAccessRevoked(revoked)]
    }

    /// Types added in the third release (stored in the v4 fixture): the distance unit setting, the store's signed receipt
    /// and a program's hold targets.
    package static var v4: [LedgerEvent] {
        var receipt = PurchaseReceiptAttached()
        receipt.transactionId = "2000000123456789"
        receipt.signedTransaction = "eyJhbGciOiJFUzI1NiJ9.eyJ0cmFuc2FjdGlvbklkIjoiMjAwMDAwMDEyMzQ1Njc4OSJ9.c2lnbmF0dXJl"
        var holds = ProgramHoldsTimed()
        holds.programId = UUID(uuidString: "0C7E9A51-3B2D-4F6E-8A19-5D4C3B2A1908")!
        var plank = ProgramHold()
        plank.session = 2
        plank.exerciseId = "plank"
        plank.secondsMin = 30
        plank.secondsMax = 45
        holds.holds = [plank]
        return [.distanceUnitChanged(DistanceUnitChanged(unit: .mi)), .purchaseReceiptAttached(receipt), .programHoldsTimed(holds)]
    }

    /// Types added for the coach's product (stored in the v5 fixture): an offer in the coach's log, the client's answer,
    /// and a coach's note.
    package static var v5: [LedgerEvent] {
        var offer = AssignmentOffered()
        offer.assignmentId = UUID(uuidString: "5A1C0FFE-0D2B-4C3A-9E8F-7B6A5D4C3B2A")!
        offer.clientAccountId = "7c1e2d3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f"
        offer.kind = .program
        offer.name = "fullBody"
        offer.split = "fullBody"
        var day = ProgramSession()
        day.name = "Full body A"
        var squat = ProgramExercise()
        squat.exerciseId = "squat-barbell"
        squat.sets = 3
        squat.repsMin = 5
        squat.repsMax = 8
        day.exercises = [squat]
        offer.sessions = [day]
        var answer = AssignmentAnswered()
        answer.assignmentId = offer.assignmentId
        answer.coachAccountId = "3f9a6c2e-8d41-4b7a-9e05-1c2d3e4f5a6b"
        answer.accepted = true
        var note = CoachNoteAdded()
        note.noteId = UUID(uuidString: "9E8D7C6B-5A49-4837-A625-140F1E2D3C4B")!
        note.clientAccountId = offer.clientAccountId
        note.text = "Knees cave on the last squat set: cue it next week."
        return [.assignmentOffered(offer), .assignmentAnswered(answer), .coachNoteAdded(note)]
    }

    /// Types added for the logger's vocabulary (stored in the v6 fixture): a program's weekday schedule.
    package static var v6: [LedgerEvent] {
        var scheduled = ProgramScheduled()
        scheduled.programId = UUID(uuidString: "0C7E9A51-3B2D-4F6E-8A19-5D4C3B2A1908")!
        scheduled.weekdays = [1, 3, 5]
        return [.programScheduled(scheduled)]
    }

    /// The lifter's bar and plates (stored in the v7 fixture).
    package static var v7: [LedgerEvent] {
        var plates = PlateInventorySet()
        plates.unit = .kg
        plates.bar = 15
        plates.plates = [20, 10, 5, 2.5, 1.25]
        return [.plateInventorySet(plates)]
    }

    /// The rest timer's auto-start switch, the lifter's changes to the library, effort, body measurements, a photo and a template's targets (stored in the v8 fixture).
    package static var v8: [LedgerEvent] {
        var edited = ExerciseEdited()
        edited.exerciseId = "deadlift"
        edited.primaryMuscles = [.hamstrings, .glutes]
        edited.secondaryMuscles = [.lowerBack]
        edited.equipment = [.barbell]
        edited.kind = .strength
        edited.unilateral = true
        edited.notes = "hook grip"
        var unarchived = ExerciseUnarchived()
        unarchived.exerciseId = "deadlift"
        var favourite = ExerciseFavourited()
        favourite.exerciseId = "deadlift"
        var waist = BodyMeasured()
        waist.measurementId = UUID(uuidString: "2a0b0c0d-0e0f-4a1b-9c2d-3e4f5a6b7c8e")!
        waist.site = .waist
        waist.value = 32.5
        waist.unit = .inch
        var photo = ProgressPhotoRecorded()
        photo.photoId = UUID(uuidString: "3a0b0c0d-0e0f-4a1b-9c2d-3e4f5a6b7c8e")!
        photo.pose = .side
        photo.sha256 = String(repeating: "ab", count: 32)
        photo.byteCount = 524_288
        photo.path = "/home/lifter/Pictures/2026-11-23-side.jpg"
        var targets = TemplateTargetsSet()
        targets.templateId = UUID(uuidString: "4a0b0c0d-0e0f-4a1b-9c2d-3e4f5a6b7c8e")!
        targets.lines = [
            TemplateLine(
                TemplateExercise(exerciseId: "barbell-bench-press", sets: 3, repsMin: 8, repsMax: 12, weight: Weight(60, .kg), restSeconds: 90)),
            TemplateLine(TemplateExercise(exerciseId: "plank", sets: 2, durationSeconds: 45)),
        ]
        var effort = SetEffortRecorded()
        effort.workoutId = UUID(uuidString: "0a0b0c0d-0e0f-4a1b-9c2d-3e4f5a6b7c8e")!
        effort.setId = UUID(uuidString: "1a0b0c0d-0e0f-4a1b-9c2d-3e4f5a6b7c8e")!
        effort.rir = 2
        effort.tempo = "3-1-X-0"
        return [
            .restTimerAutoStartChanged(RestTimerAutoStartChanged(on: true)), .exerciseEdited(edited), .exerciseUnarchived(unarchived),
            .exerciseFavourited(favourite), .setEffortRecorded(effort), .effortScaleChanged(EffortScaleChanged(scale: .rir)),
            .bodyMeasured(waist), .progressPhotoRecorded(photo), .templateTargetsSet(targets),
        ]
    }

    /// An exercise merged into another (stored in the v9 fixture).
    package static var v9: [LedgerEvent] {
        var merged = ExerciseMerged()
        merged.exerciseId = "chest-fly"
        merged.intoExerciseId = "dumbbell-fly"
        return [.exerciseMerged(merged)]
    }

    /// A server operator's Coach grant (stored in the v10 fixture).
    package static var v10: [LedgerEvent] {
        var granted = OperatorCoachGranted()
        granted.until = Timestamp(millis: 1_830_297_600_000)  // 2028-01-01T00:00:00Z
        return [.operatorCoachGranted(granted)]
    }

    /// A held rest, a session's feeling and closing note, its activity, a set's equipment, a template offer's targets, an analysis, a module and a template made of it (stored in the v11 fixture).
    package static var v11: [LedgerEvent] {
        let workout = UUID(uuidString: "0a0b0c0d-0e0f-4a1b-9c2d-3e4f5a6b7c8e")!
        var paused = RestTimerPaused()
        paused.workoutId = workout
        var resumed = RestTimerResumed()
        resumed.workoutId = workout
        var feeling = WorkoutFeelingRecorded()
        feeling.workoutId = workout
        feeling.feeling = 4
        feeling.note = "Shoulder fine, bench moved fast"
        var activity = WorkoutActivitySet()
        activity.workoutId = workout
        activity.activity = .cycling
        var equipment = SetEquipmentRecorded()
        equipment.workoutId = workout
        equipment.setId = UUID(uuidString: "1a0b0c0d-0e0f-4a1b-9c2d-3e4f5a6b7c8e")!
        equipment.band = "red"
        equipment.implement = "seat 4"
        var analysis = WorkoutAnalysisRecorded()
        analysis.workoutId = workout
        analysis.engine = "ledger"
        analysis.markdown = "# Push, 2026-11-20\n\nstrength · 52 min · 9 sets · 4210 kg\n\n## Records\n\nNone this time.\n"
        var module = ModuleDefined()
        module.moduleId = UUID(uuidString: "6a0b0c0d-0e0f-4a1b-9c2d-3e4f5a6b7c8e")!
        module.name = "Shoulder warm-up"
        module.type = .warmup
        module.lines = [TemplateLine(TemplateExercise(exerciseId: "face-pull", sets: 2, repsMin: 15, repsMax: 15))]
        var use = TemplateModule()
        use.moduleId = module.moduleId
        use.name = module.name
        use.type = .warmup
        use.exerciseIds = ["face-pull"]
        var uses = TemplateModulesSet()
        uses.templateId = UUID(uuidString: "4a0b0c0d-0e0f-4a1b-9c2d-3e4f5a6b7c8e")!
        uses.modules = [use]
        var targets = AssignmentTargetsOffered()
        targets.assignmentId = UUID(uuidString: "5a0b0c0d-0e0f-4a1b-9c2d-3e4f5a6b7c8e")!
        targets.lines = [
            TemplateLine(TemplateExercise(exerciseId: "deadlift", sets: 4, repsMin: 5, repsMax: 5, weight: Weight(100, .kg), restSeconds: 180)),
            TemplateLine(TemplateExercise(exerciseId: "plank", sets: 2, durationSeconds: 45)),
        ]
        return [
            .restTimerPaused(paused), .restTimerResumed(resumed), .workoutFeelingRecorded(feeling), .workoutActivitySet(activity),
            .setEquipmentRecorded(equipment), .assignmentTargetsOffered(targets), .workoutAnalysisRecorded(analysis),
            .moduleDefined(module), .templateModulesSet(uses),
        ]
    }

    /// A program day that takes a module, and a workout that keeps the modules it was started with (stored in the v12 fixture).
    package static var v12: [LedgerEvent] {
        var line = TemplateLine(TemplateExercise(exerciseId: "face-pull", sets: 2, repsMin: 15, repsMax: 15))
        line.exercise.restSeconds = 45
        var module = ModuleDefined()
        module.moduleId = UUID(uuidString: "6a0b0c0d-0e0f-4a1b-9c2d-3e4f5a6b7c8e")!
        module.name = "Shoulder warm-up"
        module.type = .warmup
        module.lines = [line]
        var day = ProgramDayModulesSet()
        day.programId = UUID(uuidString: "7a0b0c0d-0e0f-4a1b-9c2d-3e4f5a6b7c8e")!
        day.session = 0
        day.modules = [module]
        var use = WorkoutModule()
        use.moduleId = module.moduleId
        use.name = module.name
        use.type = .warmup
        use.entryIds = [UUID(uuidString: "8a0b0c0d-0e0f-4a1b-9c2d-3e4f5a6b7c8e")!]
        var planned = WorkoutModulesPlanned()
        planned.workoutId = UUID(uuidString: "0a0b0c0d-0e0f-4a1b-9c2d-3e4f5a6b7c8e")!
        planned.modules = [use]
        return [.programDayModulesSet(day), .workoutModulesPlanned(planned)]
    }

    /// A tested one-rep max (stored in the v13 fixture).
    package static var v13: [LedgerEvent] {
        var tested = OneRepMaxTested()
        tested.exerciseId = "barbell-back-squat"
        tested.weight = Weight(150, .kg)
        return [.oneRepMaxTested(tested)]
    }

    /// A shared template imported from its document (stored in the v14 fixture).
    package static var v14: [LedgerEvent] {
        var origin = SharedDocumentImported()
        origin.kind = .template
        origin.id = UUID(uuidString: "4a0b0c0d-0e0f-4a1b-9c2d-3e4f5a6b7c8e")!
        origin.documentHash = "ef68d1cbde7fa878cfb445075ea107fb4e0d3ab146bf05b75519ebbfe33a55e4"
        return [.sharedDocumentImported(origin)]
    }

    /// A workout marked as a deload (stored in the v15 fixture).
    package static var v15: [LedgerEvent] {
        var marked = WorkoutDeloadMarked()
        marked.workoutId = UUID(uuidString: "0a0b0c0d-0e0f-4a1b-9c2d-3e4f5a6b7c8e")!
        marked.deload = true
        return [.workoutDeloadMarked(marked)]
    }

    /// A program planned as a mesocycle of 5 weeks, with a target at 75 % of a tested max (stored in the v16 fixture).
    package static var v16: [LedgerEvent] {
        var planned = ProgramWeeksPlanned()
        planned.programId = UUID(uuidString: "7a0b0c0d-0e0f-4a1b-9c2d-3e4f5a6b7c8e")!
        planned.kind = .mesocycle
        planned.weeks = 5
        planned.startsOn = "2026-11-30"
        var percent = ProgramPercentTargetSet()
        percent.programId = planned.programId
        percent.session = 0
        percent.exerciseId = "barbell-back-squat"
        percent.percent = 75
        percent.of = .tested
        return [.programWeeksPlanned(planned), .programPercentTargetSet(percent)]
    }

    /// A program generated as a coach's strength block (stored in the v17 fixture).
    package static var v17: [LedgerEvent] {
        var chosen = ProgramStyleChosen()
        chosen.programId = UUID(uuidString: "8a0b0c0d-0e0f-4a1b-9c2d-3e4f5a6b7c8e")!
        chosen.style = .strengthBlock
        return [.programStyleChosen(chosen)]
    }

    /// One sample of every event type in the catalog.
    package static var all: [LedgerEvent] { v1 + v2 + v3 + v4 + v5 + v6 + v7 + v8 + v9 + v10 + v11 + v12 + v13 + v14 + v15 + v16 + v17 }

    /// The v1 samples as proposed events with fixed ids and times.
    package static var proposed: [ProposedEvent] { proposed(v1, generation: "") }

    /// Samples as proposed events with fixed ids and times.
    package static func proposed(_ events: [LedgerEvent], generation: String) -> [ProposedEvent] {
        events.enumerated().map { i, e in
            ProposedEvent(
                eventId: .derived(from: "sample/\(generation)\(i)"), event: e, occurredAt: t0.adding(seconds: Int64(i) * 30),
                device: i % 3 == 0 ? "watch" : "phone", causationId: i % 2 == 0 ? batch : nil,
                correlationId: i % 4 == 0 ? nil : batch)
        }
    }
}
