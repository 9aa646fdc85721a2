import Foundation

/// Every event the ledger knows, as one closed enum so that folds switch
/// over concrete types (no dynamic casts on the replay path).
///
/// Adding an event type: write its payload struct in the file of its area,
/// add a case here, a line in `payload` and a line in `EventCatalog.entries`.
public enum LedgerEvent: Sendable, Equatable {
    case liftingUnitChanged(LiftingUnitChanged)
    case bodyweightDisplayChanged(BodyweightDisplayChanged)
    case restTimerDefaultChanged(RestTimerDefaultChanged)
    case distanceUnitChanged(DistanceUnitChanged)
    case exerciseDefined(ExerciseDefined)
    case exerciseRenamed(ExerciseRenamed)
    case exerciseArchived(ExerciseArchived)
    case workoutStarted(WorkoutStarted)
    case workoutExerciseAdded(WorkoutExerciseAdded)
    case workoutExerciseRemoved(WorkoutExerciseRemoved)
    case workoutExercisesReordered(WorkoutExercisesReordered)
    case workoutExerciseSwapped(WorkoutExerciseSwapped)
    case supersetLinked(SupersetLinked)
    case supersetUnlinked(SupersetUnlinked)
    case setAdded(SetAdded)
    case setLogged(SetLogged)
    case setEdited(SetEdited)
    case setDeleted(SetDeleted)
    case setCompleted(SetCompleted)
    case setUncompleted(SetUncompleted)
    case workoutNoteSet(WorkoutNoteSet)
    case restTimerStarted(RestTimerStarted)
    case restTimerAdjusted(RestTimerAdjusted)
    case restTimerDismissed(RestTimerDismissed)
    case workoutPaused(WorkoutPaused)
    case workoutResumed(WorkoutResumed)
    case healthSampleRecorded(HealthSampleRecorded)
    case workoutFinished(WorkoutFinished)
    case workoutDiscarded(WorkoutDiscarded)
    case templateCreated(TemplateCreated)
    case templateRenamed(TemplateRenamed)
    case templateExercisesChanged(TemplateExercisesChanged)
    case templateDuplicated(TemplateDuplicated)
    case templatesReordered(TemplatesReordered)
    case templateDeleted(TemplateDeleted)
    case purchaseRecorded(PurchaseRecorded)
    case purchaseReceiptAttached(PurchaseReceiptAttached)
    case operatorCoachGranted(OperatorCoachGranted)
    case purchaseRefunded(PurchaseRefunded)
    case purchaseRevoked(PurchaseRevoked)
    case upsellDismissed(UpsellDismissed)
    case questionnaireAnswered(QuestionnaireAnswered)
    case programGenerated(ProgramGenerated)
    case programHoldsTimed(ProgramHoldsTimed)
    case programActivated(ProgramActivated)
    case programScheduled(ProgramScheduled)
    case plateInventorySet(PlateInventorySet)
    case restTimerAutoStartChanged(RestTimerAutoStartChanged)
    case exerciseEdited(ExerciseEdited)
    case exerciseUnarchived(ExerciseUnarchived)
    case exerciseFavourited(ExerciseFavourited)
    case exerciseMerged(ExerciseMerged)
    case setEffortRecorded(SetEffortRecorded)
    case effortScaleChanged(EffortScaleChanged)
    case bodyMeasured(BodyMeasured)
    case progressPhotoRecorded(ProgressPhotoRecorded)
    case templateTargetsSet(TemplateTargetsSet)
    case programRemoved(ProgramRemoved)
    case importBatchStarted(ImportBatchStarted)
    case importBatchFinished(ImportBatchFinished)
    case bodyweightMeasured(BodyweightMeasured)
    case progressionOverrideSet(ProgressionOverrideSet)
    case exportWritten(ExportWritten)
    case coachAccessGranted(CoachAccessGranted)
    case coachAccessRevoked(CoachAccessRevoked)
    case assignmentOffered(AssignmentOffered)
    case assignmentAnswered(AssignmentAnswered)
    case coachNoteAdded(CoachNoteAdded)
    case restTimerPaused(RestTimerPaused)
    case restTimerResumed(RestTimerResumed)
    case workoutFeelingRecorded(WorkoutFeelingRecorded)
    case workoutActivitySet(WorkoutActivitySet)
    case setEquipmentRecorded(SetEquipmentRecorded)
    case assignmentTargetsOffered(AssignmentTargetsOffered)
    case workoutAnalysisRecorded(WorkoutAnalysisRecorded)
    case moduleDefined(ModuleDefined)
    case templateModulesSet(TemplateModulesSet)
    case programDayModulesSet(ProgramDayModulesSet)
    case programWeeksPlanned(ProgramWeeksPlanned)
    case programPercentTargetSet(ProgramPercentTargetSet)
    case programStyleChosen(ProgramStyleChosen)
    case workoutModulesPlanned(WorkoutModulesPlanned)
    case oneRepMaxTested(OneRepMaxTested)
    case sharedDocumentImported(SharedDocumentImported)
    case workoutDeloadMarked(WorkoutDeloadMarked)

    /// The payload, for the generic paths (encoding, JSON, stream routing).
    public var payload: any EventPayload {
        switch self {
        case .liftingUnitChanged(let e): e
        case .bodyweightDisplayChanged(let e): e
        case .restTimerDefaultChanged(let e): e
        case .distanceUnitChanged(let e): e
        case .exerciseDefined(let e): e
        case .exerciseRenamed(let e): e
        case .exerciseArchived(let e): e
        case .workoutStarted(let e): e
        case .workoutExerciseAdded(let e): e
        case .workoutExerciseRemoved(let e): e
        case .workoutExercisesReordered(let e): e
        case .workoutExerciseSwapped(let e): e
        case .supersetLinked(let e): e
        case .supersetUnlinked(let e): e
        case .setAdded(let e): e
        case .setLogged(let e): e
        case .setEdited(let e): e
        case .setDeleted(let e): e
        case .setCompleted(let e): e
        case .setUncompleted(let e): e
        case .workoutNoteSet(let e): e
        case .restTimerStarted(let e): e
        case .restTimerAdjusted(let e): e
        case .restTimerDismissed(let e): e
        case .workoutPaused(let e): e
        case .workoutResumed(let e): e
        case .healthSampleRecorded(let e): e
        case .workoutFinished(let e): e
        case .workoutDiscarded(let e): e
        case .templateCreated(let e): e
        case .templateRenamed(let e): e
        case .templateExercisesChanged(let e): e
        case .templateDuplicated(let e): e
        case .templatesReordered(let e): e
        case .templateDeleted(let e): e
        case .purchaseRecorded(let e): e
        case .purchaseReceiptAttached(let e): e
        case .operatorCoachGranted(let e): e
        case .purchaseRefunded(let e): e
        case .purchaseRevoked(let e): e
        case .upsellDismissed(let e): e
        case .questionnaireAnswered(let e): e
        case .programGenerated(let e): e
        case .programHoldsTimed(let e): e
        case .programActivated(let e): e
        case .programScheduled(let e): e
        case .plateInventorySet(let e): e
        case .restTimerAutoStartChanged(let e): e
        case .exerciseEdited(let e): e
        case .exerciseUnarchived(let e): e
        case .exerciseFavourited(let e): e
        case .exerciseMerged(let e): e
        case .setEffortRecorded(let e): e
        case .effortScaleChanged(let e): e
        case .bodyMeasured(let e): e
        case .progressPhotoRecorded(let e): e
        case .templateTargetsSet(let e): e
        case .programRemoved(let e): e
        case .importBatchStarted(let e): e
        case .importBatchFinished(let e): e
        case .bodyweightMeasured(let e): e
        case .progressionOverrideSet(let e): e
        case .exportWritten(let e): e
        case .coachAccessGranted(let e): e
        case .coachAccessRevoked(let e): e
        case .assignmentOffered(let e): e
        case .assignmentAnswered(let e): e
        case .coachNoteAdded(let e): e
        case .restTimerPaused(let e): e
        case .restTimerResumed(let e): e
        case .workoutFeelingRecorded(let e): e
        case .workoutActivitySet(let e): e
        case .setEquipmentRecorded(let e): e
        case .assignmentTargetsOffered(let e): e
        case .workoutAnalysisRecorded(let e): e
        case .moduleDefined(let e): e
        case .templateModulesSet(let e): e
        case .programDayModulesSet(let e): e
        case .programWeeksPlanned(let e): e
        case .programPercentTargetSet(let e): e
        case .programStyleChosen(let e): e
        case .workoutModulesPlanned(let e): e
        case .oneRepMaxTested(let e): e
        case .sharedDocumentImported(let e): e
        case .workoutDeloadMarked(let e): e
        }
    }

    public var eventType: EventType { type(of: payload).eventType }
    public var stream: StreamName { payload.stream }
    public var encodedPayload: [UInt8] { payload.encodedBytes }
    public var payloadJSON: String { payload.canonicalJSON }

    /// Decodes stored payload bytes of the type with catalog `code`, stored under `schema`.
    @inline(__always)
    public static func decode(code: Int, schema: Int, payload: UnsafeRawBufferPointer) throws -> LedgerEvent {
        try EventCatalog.entry(code: code).decode(schema, payload)
    }
}

/// The catalog: one line per event type, binding its payload struct to its
/// enum case. Codes index a table for O(1) decode dispatch.
public enum EventCatalog {
    public struct Entry: Sendable {
        public let type: EventType
        let decode: @Sendable (Int, UnsafeRawBufferPointer) throws -> LedgerEvent
        /// Reads the canonical JSON payload (JSONL restore).
        let decodeJSON: @Sendable (JSONValue) throws -> LedgerEvent

        /// Reads the canonical JSON payload where it stands (a pushed batch).
        let decodeJSONReader: @Sendable (inout JSONReader) throws -> LedgerEvent

        /// Reads a payload in its canonical JSON form (`ledger log`, a restore).
        public func decode(json: JSONValue) throws -> LedgerEvent { try decodeJSON(json) }
        /// Reads the payload at a reader, as `decode(json:)` reads it.
        public func decode(jsonReader: inout JSONReader) throws -> LedgerEvent { try decodeJSONReader(&jsonReader) }

        /// One field of the payload, in stored order, with its Swift type (`Optional<Weight>`).
        public struct Field: Sendable, Equatable {
            public let name: String
            public let type: String
        }

        let listFields: @Sendable () -> [Field]
        let defaultStream: @Sendable () -> StreamName

        /// The payload's fields in stored order (for the event catalog a reader can browse).
        public var fields: [Field] { listFields() }
        /// The stream of an event with every id empty: its stream's shape (`workout-00000000-…`).
        public var streamShape: StreamName { defaultStream() }

        init<P: EventPayload>(_ payload: P.Type, _ wrap: @escaping @Sendable (P) -> LedgerEvent) {
            type = P.eventType
            listFields = {
                var lister = FieldLister()
                var empty = P()
                try? empty.fields(&lister)
                return lister.fields
            }
            defaultStream = { P().stream }
            decode = { schema, bytes in
                var reader = BinaryReader(bytes)
                return wrap(try P.decodeStored(schema: schema, reader: &reader))
            }
            decodeJSON = { wrap(try P(json: $0)) }
            decodeJSONReader = { wrap(try P(jsonReader: &$0)) }
        }
    }

    public static let entries: [Entry] = [
        Entry(LiftingUnitChanged.self, LedgerEvent.liftingUnitChanged),
        Entry(BodyweightDisplayChanged.self, LedgerEvent.bodyweightDisplayChanged),
        Entry(RestTimerDefaultChanged.self, LedgerEvent.restTimerDefaultChanged),
        Entry(DistanceUnitChanged.self, LedgerEvent.distanceUnitChanged),
        Entry(ExerciseDefined.self, LedgerEvent.exerciseDefined),
        Entry(ExerciseRenamed.self, LedgerEvent.exerciseRenamed),
        Entry(ExerciseArchived.self, LedgerEvent.exerciseArchived),
        Entry(WorkoutStarted.self, LedgerEvent.workoutStarted),
        Entry(WorkoutExerciseAdded.self, LedgerEvent.workoutExerciseAdded),
        Entry(WorkoutExerciseRemoved.self, LedgerEvent.workoutExerciseRemoved),
        Entry(WorkoutExercisesReordered.self, LedgerEvent.workoutExercisesReordered),
        Entry(WorkoutExerciseSwapped.self, LedgerEvent.workoutExerciseSwapped),
        Entry(SupersetLinked.self, LedgerEvent.supersetLinked),
        Entry(SupersetUnlinked.self, LedgerEvent.supersetUnlinked),
        Entry(SetAdded.self, LedgerEvent.setAdded),
        Entry(SetLogged.self, LedgerEvent.setLogged),
        Entry(SetEdited.self, LedgerEvent.setEdited),
        Entry(SetDeleted.self, LedgerEvent.setDeleted),
        Entry(SetCompleted.self, LedgerEvent.setCompleted),
        Entry(SetUncompleted.self, LedgerEvent.setUncompleted),
        Entry(WorkoutNoteSet.self, LedgerEvent.workoutNoteSet),
        Entry(RestTimerStarted.self, LedgerEvent.restTimerStarted),
        Entry(RestTimerAdjusted.self, LedgerEvent.restTimerAdjusted),
        Entry(RestTimerDismissed.self, LedgerEvent.restTimerDismissed),
        Entry(WorkoutPaused.self, LedgerEvent.workoutPaused),
        Entry(WorkoutResumed.self, LedgerEvent.workoutResumed),
        Entry(HealthSampleRecorded.self, LedgerEvent.healthSampleRecorded),
        Entry(WorkoutFinished.self, LedgerEvent.workoutFinished),
        Entry(WorkoutDiscarded.self, LedgerEvent.workoutDiscarded),
        Entry(TemplateCreated.self, LedgerEvent.templateCreated),
        Entry(TemplateRenamed.self, LedgerEvent.templateRenamed),
        Entry(TemplateExercisesChanged.self, LedgerEvent.templateExercisesChanged),
        Entry(TemplateDuplicated.self, LedgerEvent.templateDuplicated),
        Entry(TemplatesReordered.self, LedgerEvent.templatesReordered),
        Entry(TemplateDeleted.self, LedgerEvent.templateDeleted),
        Entry(PurchaseRecorded.self, LedgerEvent.purchaseRecorded),
        Entry(PurchaseReceiptAttached.self, LedgerEvent.purchaseReceiptAttached),
        Entry(OperatorCoachGranted.self, LedgerEvent.operatorCoachGranted),
        Entry(PurchaseRefunded.self, LedgerEvent.purchaseRefunded),
        Entry(PurchaseRevoked.self, LedgerEvent.purchaseRevoked),
        Entry(UpsellDismissed.self, LedgerEvent.upsellDismissed),
        Entry(QuestionnaireAnswered.self, LedgerEvent.questionnaireAnswered),
        Entry(ProgramGenerated.self, LedgerEvent.programGenerated),
        Entry(ProgramActivated.self, LedgerEvent.programActivated),
        Entry(ProgramRemoved.self, LedgerEvent.programRemoved),
        Entry(ImportBatchStarted.self, LedgerEvent.importBatchStarted),
        Entry(ImportBatchFinished.self, LedgerEvent.importBatchFinished),
        Entry(BodyweightMeasured.self, LedgerEvent.bodyweightMeasured),
        Entry(ProgressionOverrideSet.self, LedgerEvent.progressionOverrideSet),
        Entry(ProgramHoldsTimed.self, LedgerEvent.programHoldsTimed),
        Entry(ExportWritten.self, LedgerEvent.exportWritten),
        Entry(CoachAccessGranted.self, LedgerEvent.coachAccessGranted),
        Entry(CoachAccessRevoked.self, LedgerEvent.coachAccessRevoked),
        Entry(AssignmentOffered.self, LedgerEvent.assignmentOffered),
        Entry(AssignmentAnswered.self, LedgerEvent.assignmentAnswered),
        Entry(CoachNoteAdded.self, LedgerEvent.coachNoteAdded),
        Entry(RestTimerPaused.self, LedgerEvent.restTimerPaused),
        Entry(RestTimerResumed.self, LedgerEvent.restTimerResumed),
        Entry(WorkoutFeelingRecorded.self, LedgerEvent.workoutFeelingRecorded),
        Entry(WorkoutActivitySet.self, LedgerEvent.workoutActivitySet),
        Entry(SetEquipmentRecorded.self, LedgerEvent.setEquipmentRecorded),
        Entry(AssignmentTargetsOffered.self, LedgerEvent.assignmentTargetsOffered),
        Entry(WorkoutAnalysisRecorded.self, LedgerEvent.workoutAnalysisRecorded),
        Entry(ModuleDefined.self, LedgerEvent.moduleDefined),
        Entry(TemplateModulesSet.self, LedgerEvent.templateModulesSet),
        Entry(ProgramDayModulesSet.self, LedgerEvent.programDayModulesSet),
        Entry(ProgramWeeksPlanned.self, LedgerEvent.programWeeksPlanned),
        Entry(ProgramPercentTargetSet.self, LedgerEvent.programPercentTargetSet),
        Entry(ProgramStyleChosen.self, LedgerEvent.programStyleChosen),
        Entry(WorkoutModulesPlanned.self, LedgerEvent.workoutModulesPlanned),
        Entry(OneRepMaxTested.self, LedgerEvent.oneRepMaxTested),
        Entry(SharedDocumentImported.self, LedgerEvent.sharedDocumentImported),
        Entry(WorkoutDeloadMarked.self, LedgerEvent.workoutDeloadMarked),
        Entry(ProgramScheduled.self, LedgerEvent.programScheduled),
        Entry(PlateInventorySet.self, LedgerEvent.plateInventorySet),
        Entry(RestTimerAutoStartChanged.self, LedgerEvent.restTimerAutoStartChanged),
        Entry(ExerciseEdited.self, LedgerEvent.exerciseEdited),
        Entry(ExerciseUnarchived.self, LedgerEvent.exerciseUnarchived),
        Entry(ExerciseFavourited.self, LedgerEvent.exerciseFavourited),
        Entry(ExerciseMerged.self, LedgerEvent.exerciseMerged),
        Entry(SetEffortRecorded.self, LedgerEvent.setEffortRecorded),
        Entry(EffortScaleChanged.self, LedgerEvent.effortScaleChanged),
        Entry(BodyMeasured.self, LedgerEvent.bodyMeasured),
        Entry(ProgressPhotoRecorded.self, LedgerEvent.progressPhotoRecorded),
        Entry(TemplateTargetsSet.self, LedgerEvent.templateTargetsSet),
    ]

    private static let byCode: [Entry?] = {
        var table = [Entry?](repeating: nil, count: (entries.map(\.type.code).max() ?? 0) + 1)
        for e in entries {
            precondition(table[e.type.code] == nil, "event code \(e.type.code) used twice")
            table[e.type.code] = e
        }
        return table
    }()

    private static let byName: [String: Entry] = Dictionary(uniqueKeysWithValues: entries.map { ($0.type.name, $0) })

    @inline(__always)
    public static func entry(code: Int) throws -> Entry {
        guard code >= 0, code < byCode.count, let e = byCode[code] else { throw CodecError.unknownEventType(code: code) }
        return e
    }

    public static func entry(named name: String) -> Entry? { byName[name] }
}
