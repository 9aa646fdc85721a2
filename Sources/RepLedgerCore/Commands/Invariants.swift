import Foundation

/// The rules on names, watch samples and the Free template limit, written
/// once: the deciders apply them to what a person typed, `EventAdmission`
/// to what a device pushed (set values and notes: `SetValidation`).
public enum Invariants {
    /// What a name names, with its longest length.
    public enum Named: Sendable {
        case exercise, template, workout

        public var limit: Int { self == .workout ? 200 : 100 }
        /// A workout may be unnamed (it is shown by its date); the others need a name.
        var required: Bool { self != .workout }
        var article: String {
            switch self {
            case .exercise: return "an exercise"
            case .template: return "a template"
            case .workout: return "a workout"
            }
        }
    }

    /// A name as it is stored: not blank where one is required, and at most
    /// `what.limit` characters.
    public static func check(name: String, of what: Named) throws(Refusal) {
        if what.required, name.trimmingSpaces().isEmpty { throw .invalidName("\(what.article) needs a name") }
        guard name.count <= what.limit else { throw .invalidName("keep \(what.article) name to \(what.limit) characters") }
    }

    /// The plausible range of a heart-rate sample, in beats per minute.
    public static let heartRateRange = 20.0...250.0
    /// More active energy than this in one sample is a sensor error, not a workout.
    public static let maximumEnergySampleKcal = 10_000.0

    /// A watch sample's value for its kind (DOMAIN.md §13).
    public static func check(sample value: Double, of kind: HealthSampleKind) throws(Refusal) {
        switch kind {
        case .heartRate:
            guard value.isFinite, heartRateRange.contains(value) else {
                throw .invalidMeasure("heart rate \(value.formatted) bpm", reason: "give 20 to 250 bpm")
            }
        case .activeEnergy:
            guard value.isFinite, value >= 0, value <= maximumEnergySampleKcal else {
                throw .invalidMeasure("active energy \(value.formatted) kcal", reason: "give 0 to 10000 kcal")
            }
        }
    }

    /// One more live template at `time`: refused past the Free limit unless
    /// a Pro product is active then.
    public static func checkNewTemplate(liveTemplates: Int, entitlements: EntitlementState, at time: Timestamp) throws(Refusal) {
        if let limit = entitlements.templateLimit(at: time), liveTemplates >= limit {
            throw .templateLimit(limit: limit, products: Product.allCases.filter { !$0.grantsCoach })
        }
    }

    // MARK: Coaching

    /// An account id as the server makes them: a UUID, lowercased → the
    /// lowercased form. `whose` names it in the refusal ("the coach's").
    public static func accountId(_ text: String, of whose: String) throws(Refusal) -> String {
        guard let id = UUID(uuidString: text) else {
            throw .invalidInput("'\(text)' is not an account id: give \(whose) account id, the UUID the server gave it")
        }
        return id.uuidString.lowercased()
    }

    /// A set's band colour or implement value: 1 to 40 characters after trimming; answers the trimmed text.
    public static func check(setEquipment text: String, of what: String) throws(Refusal) -> String {
        let clean = text.trimmingSpaces()
        guard (1...40).contains(clean.count) else {
            throw .invalidMeasure("\(what) '\(text)'", reason: "give 1 to 40 characters, e.g. red or \"seat 4\"")
        }
        return clean
    }

    /// An analysis: an engine named in 1 to 40 characters, Markdown of 1 to `analysisLimit` characters.
    public static let analysisLimit = 20_000

    public static func check(analysisBy engine: String, markdown: String) throws(Refusal) {
        let name = engine.trimmingSpaces()
        guard (1...40).contains(name.count), name == engine else {
            throw .invalidInput("an analysis names its engine in 1 to 40 characters, e.g. assistant")
        }
        guard !markdown.trimmingSpaces().isEmpty else { throw .invalidInput("an analysis needs some text") }
        guard markdown.count <= analysisLimit else {
            throw .invalidMeasure("an analysis of \(markdown.count) characters", reason: "keep it to \(analysisLimit)")
        }
    }

    /// How a session felt: 1 (awful) to 5 (great).
    public static let feelingRange = 1...5

    public static func check(feeling: Int) throws(Refusal) {
        guard feelingRange.contains(feeling) else { throw .invalidMeasure("feeling \(feeling)", reason: "give 1 (awful) to 5 (great)") }
    }

    /// A coach's note: 1 to `SetValidation.noteLimit` characters after trimming, as any note.
    public static func check(coachNote text: String) throws(Refusal) {
        let clean = text.trimmingSpaces()
        guard !clean.isEmpty else { throw .invalidInput("a note needs some text") }
        guard clean.count <= SetValidation.noteLimit else { throw .noteTooLong(characters: clean.count) }
    }

    /// What an offer must hold: a client's account id, a name, and a program's days or a template's exercises.
    public static func check(offer e: AssignmentOffered) throws(Refusal) {
        guard UUID(uuidString: e.clientAccountId)?.uuidString.lowercased() == e.clientAccountId else {
            throw .invalidInput("an assignment names its client by account id (a lowercased UUID)")
        }
        try check(name: e.name, of: .template)
        switch e.kind {
        case .program: guard !e.sessions.isEmpty else { throw .invalidProgram("an assigned program needs at least one day") }
        case .template: guard !e.exercises.isEmpty else { throw .invalidInput("an assigned template needs at least one exercise") }
        }
    }

    /// A program's schedule: ISO weekdays 1 (Monday) to 7 (Sunday), each once.
    public static func check(weekdays: [Int]) throws(Refusal) {
        guard weekdays.allSatisfy((1...7).contains), Set(weekdays).count == weekdays.count else {
            throw .invalidProgram("weekdays are 1 (Monday) to 7 (Sunday), each once")
        }
    }

    /// An exercise's edit: at least one primary muscle, a note within the limit.
    public static func check(exerciseEdit e: ExerciseEdited) throws(Refusal) {
        guard !e.primaryMuscles.isEmpty else { throw .invalidInput("an exercise needs at least one primary muscle") }
        try SetValidation.validateNote(e.notes)
    }

    /// A progress photo's metadata: a SHA-256 in lowercase hex, a size, an absolute path of at most 1024 characters.
    public static func check(photo e: ProgressPhotoRecorded) throws(Refusal) {
        guard e.sha256.count == 64, e.sha256.allSatisfy({ "0123456789abcdef".contains($0) }) else {
            throw .invalidMeasure("the photo's SHA-256", reason: "give 64 lowercase hex digits")
        }
        guard e.byteCount > 0 else { throw .invalidMeasure("the photo", reason: "the file is empty") }
        guard e.path.hasPrefix("/"), e.path.count <= 1024 else {
            throw .invalidMeasure("the photo's path", reason: "give an absolute path of at most 1024 characters")
        }
    }

    /// A template line's targets: 1–20 sets, a rep range within 1–1000, a duration of 1 s to 24 h,
    /// a weight as any set's, a rest within the rest timer's limit.
    public static func check(templateLine l: TemplateExercise) throws(Refusal) {
        guard (1...20).contains(l.sets) else { throw .invalidMeasure("\(l.sets) sets", reason: "give 1 to 20 sets") }
        if let lo = l.repsMin, !(1...1000).contains(lo) || !(lo...1000).contains(l.repsMax ?? lo) {
            throw .malformedRange("\(lo)-\(l.repsMax ?? lo)")
        }
        if let d = l.durationSeconds, !(1...86_400).contains(d) {
            throw .invalidMeasure("a duration of \(d.formatted) s", reason: "give 1 s to 24 h")
        }
        if let w = l.weight { try w.validate() }
        if let r = l.restSeconds { try check(restSetting: r) }
    }

    // MARK: Rests, each limit once (the deciders, admission of pushed events and the importer use these)

    /// The longest rest a setting, a template line or a timer started live takes, and the
    /// most a change moves a timer by: an hour.
    public static let restLimitSeconds = 3600
    /// The longest rest recorded after the fact (a rest taken, from an import or a history edit): a day.
    public static let restTakenLimitSeconds = 86_400

    /// A rest setting (the default, an exercise's own, a template line's): 0 to an hour (0 removes an exercise's own).
    public static func check(restSetting seconds: Int) throws(Refusal) {
        guard (0...restLimitSeconds).contains(seconds) else {
            throw .invalidMeasure("rest \(seconds) s", reason: "give 0 to \(restLimitSeconds / 60) minutes")
        }
    }

    /// A timer started live: 1 s to an hour.
    public static func check(restStarted seconds: Int) throws(Refusal) {
        guard (1...restLimitSeconds).contains(seconds) else {
            throw .invalidMeasure("rest \(seconds) s", reason: "give 1 s to \(restLimitSeconds / 60) minutes")
        }
    }

    /// A rest taken, as a `RestTimerStarted` records it (live, imported or a history edit): 0 s to a day.
    public static func check(restTaken seconds: Int) throws(Refusal) {
        guard (0...restTakenLimitSeconds).contains(seconds) else {
            throw .invalidMeasure("rest \(seconds) s", reason: "give 0 to \(restTakenLimitSeconds) seconds")
        }
    }

    /// A change to the rest counting down: some seconds either way, up to an hour.
    public static func check(restChange deltaSeconds: Int) throws(Refusal) {
        guard deltaSeconds != 0, abs(deltaSeconds) <= restLimitSeconds else {
            throw .invalidMeasure("a change of \(deltaSeconds) s", reason: "give +15s or -15s, up to an hour")
        }
    }

    /// A bar and plates: weights PlateLoading can work with (steps of 0.001 of the unit), at least one plate,
    /// at most 20 sizes, each and the bar at most 1000 of the unit.
    public static func check(bar: Double, plates: [Double], unit: WeightUnit) throws(Refusal) {
        guard plates.count <= 20, bar <= 1000, plates.allSatisfy({ $0 <= 1000 }) else {
            throw .invalidMeasure("the plate list", reason: "give at most 20 plate sizes, each and the bar at most 1000 \(unit.rawValue)")
        }
        _ = try PlateLoading.load(bar, unit: unit, bar: bar, plates: plates)
    }

    /// A tested one-rep max: above 0 and at most 600 kg (past every lift on record).
    public static func check(oneRepMax w: Weight) throws(Refusal) {
        try w.validate()
        guard w.kilograms > 0, w.kilograms <= 600 else {
            throw .invalidMeasure(
                "a max of \(w.value.formatted) \(w.unit.rawValue)", reason: "give the weight you lifted once, above 0 and at most 600 kg")
        }
    }

    /// A percentage of a max, as a program's target or `percent` asks for one: 1–100.
    public static func check(percentOfMax p: Int) throws(Refusal) {
        guard (1...100).contains(p) else { throw .invalidProgram("\(p) % is refused: give a percentage of the max from 1 to 100") }
    }
}
