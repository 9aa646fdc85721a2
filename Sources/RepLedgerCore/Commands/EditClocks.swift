import Foundation

/// When each field a person edits was last written (`occurredAt`, ms), so the
/// newer edit wins whichever device synced first (SERVER-CONTRACT.md §6): a template's
/// name and lines, an exercise's name and details, a workout's notes, its
/// feeling and activity, each
/// setting. An edit older than the field's last write is passed over (its
/// event still counts in its stream's version). Ties go to the later event in
/// the log, which after a sync is the server's order on every device, as
/// sets' fields do (`WorkoutState.SetClock`).
public struct EditClocks: Sendable, Equatable {
    /// Field key → the last write's `occurredAt` in ms, kept sorted by key so the state encodes the same everywhere.
    public private(set) var written: [String: Int64] = [:]

    public init() {}

    /// The field an event edits, if it is a person's edit of a field (nil: not an edit this merges).
    public static func field(of event: LedgerEvent) -> String? {
        switch event {
        case .templateRenamed(let e): "template-name/\(e.templateId.lowercased)"
        case .templateExercisesChanged(let e): "template-lines/\(e.templateId.lowercased)"
        case .templateTargetsSet(let e): "template-lines/\(e.templateId.lowercased)"
        case .exerciseRenamed(let e): "exercise-name/\(e.exerciseId)"
        case .exerciseEdited(let e): "exercise-details/\(e.exerciseId)"
        case .workoutNoteSet(let e): "workout-note/\(e.workoutId.lowercased)/\(e.entryId?.lowercased ?? "-")"
        case .workoutFeelingRecorded(let e): "workout-feeling/\(e.workoutId.lowercased)"
        case .workoutActivitySet(let e): "workout-activity/\(e.workoutId.lowercased)"
        case .workoutDeloadMarked(let e): "workout-deload/\(e.workoutId.lowercased)"
        case .liftingUnitChanged: "setting/lifting-unit"
        case .distanceUnitChanged: "setting/distance-unit"
        case .bodyweightDisplayChanged: "setting/bodyweight-display"
        case .restTimerDefaultChanged(let e): "setting/rest/\(e.exerciseId ?? "-")"
        case .restTimerAutoStartChanged: "setting/rest-auto-start"
        case .effortScaleChanged: "setting/effort-scale"
        case .plateInventorySet: "setting/plates"
        case .oneRepMaxTested(let e): "setting/one-rep-max/\(e.exerciseId)"
        default: nil
        }
    }

    /// Whether `event` at `time` applies: not an edit of a field, or no older than the field's last write
    /// (which it then becomes). With no time (the library's own seed), it applies.
    public mutating func admits(_ event: LedgerEvent, at time: Timestamp?) -> Bool {
        guard let time, let key = Self.field(of: event) else { return true }
        if let last = written[key], time.millis < last { return false }
        written[key] = time.millis
        return true
    }

    /// Keys then times, in key order, for a state's encoding.
    public var encoded: (keys: [String], millis: [Int]) {
        let keys = written.keys.sorted()
        return (keys, keys.map { Int(written[$0]!) })
    }

    public init(keys: [String], millis: [Int]) {
        written = Dictionary(zip(keys, millis.map(Int64.init)), uniquingKeysWith: { _, b in b })
    }
}
