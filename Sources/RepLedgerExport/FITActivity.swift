import RepLedgerCore
import RepLedgerProjections

/// One workout as a Garmin FIT activity file of strength training: `file_id`,
/// the timer's start, one `set` message per set (active sets with repetitions,
/// weight in FIT's 1/16 kg, duration, start time and Garmin's exercise
/// category; the rest between sets as rest sets), the timer's stop, one `lap`,
/// a `session` of sport training / strength training and the `activity`.
/// Garmin Connect imports it as a strength workout.
public enum FITActivity {
    // The FIT profile's message and field numbers (21.218).
    static let fileId = FITEncoder.Definition(
        globalNumber: 0,
        fields: [
            .init(number: 0, type: .enumeration), .init(number: 1, type: .uint16), .init(number: 2, type: .uint16),
            .init(number: 3, type: .uint32z), .init(number: 4, type: .uint32),
        ])
    static let event = FITEncoder.Definition(
        globalNumber: 21,
        fields: [.init(number: 253, type: .uint32), .init(number: 0, type: .enumeration), .init(number: 1, type: .enumeration)])
    static let set = FITEncoder.Definition(
        globalNumber: 225,
        fields: [
            .init(number: 254, type: .uint32), .init(number: 0, type: .uint32), .init(number: 3, type: .uint16),
            .init(number: 4, type: .uint16), .init(number: 5, type: .uint8), .init(number: 6, type: .uint32),
            .init(number: 7, type: .uint16), .init(number: 8, type: .uint16), .init(number: 9, type: .uint16),
            .init(number: 10, type: .uint16),
        ])
    static let lap = FITEncoder.Definition(
        globalNumber: 19,
        fields: [
            .init(number: 254, type: .uint16), .init(number: 253, type: .uint32), .init(number: 0, type: .enumeration),
            .init(number: 1, type: .enumeration), .init(number: 2, type: .uint32), .init(number: 7, type: .uint32),
            .init(number: 8, type: .uint32), .init(number: 25, type: .enumeration), .init(number: 39, type: .enumeration),
        ])
    static let session = FITEncoder.Definition(
        globalNumber: 18,
        fields: [
            .init(number: 254, type: .uint16), .init(number: 253, type: .uint32), .init(number: 0, type: .enumeration),
            .init(number: 1, type: .enumeration), .init(number: 2, type: .uint32), .init(number: 5, type: .enumeration),
            .init(number: 6, type: .enumeration), .init(number: 7, type: .uint32), .init(number: 8, type: .uint32),
            .init(number: 25, type: .uint16), .init(number: 26, type: .uint16),
        ])
    static let activity = FITEncoder.Definition(
        globalNumber: 34,
        fields: [
            .init(number: 253, type: .uint32), .init(number: 0, type: .uint32), .init(number: 1, type: .uint16),
            .init(number: 2, type: .enumeration), .init(number: 3, type: .enumeration), .init(number: 4, type: .enumeration),
            .init(number: 5, type: .uint32),
        ])

    // The profile's values used here.
    static let fileTypeActivity: UInt64 = 4, manufacturerDevelopment: UInt64 = 255
    static let eventTimer: UInt64 = 0, eventActivity: UInt64 = 26, eventTypeStart: UInt64 = 0, eventTypeStop: UInt64 = 1
    static let eventTypeStopAll: UInt64 = 4
    static let sportTraining: UInt64 = 10, subSportStrengthTraining: UInt64 = 20
    static let setTypeRest: UInt64 = 0, setTypeActive: UInt64 = 1
    static let unitKilogram: UInt64 = 1, unitPound: UInt64 = 2

    /// The file's bytes for one workout of the log.
    public static func file(_ w: WorkoutHistoryProjection.WorkoutRow, in log: TrainingLogProjection) -> [UInt8] {
        let timeline = SetTimeline(w, state: log.workouts[w.workoutId])
        let start = FITEncoder.time(timeline.start.millis), end = FITEncoder.time(timeline.end.millis)
        let elapsed = UInt64(max(0, timeline.end.millis - timeline.start.millis))
        var fit = FITEncoder()
        // A serial number from the workout's id, so the same workout always writes the same file.
        let serial = w.workoutId.uuidString.utf8.reduce(UInt32(2_166_136_261)) { ($0 ^ UInt32($1)) &* 16_777_619 } | 1
        fit.write(fileId, [fileTypeActivity, manufacturerDevelopment, 0, UInt64(serial), start])
        fit.write(event, [start, eventTimer, eventTypeStart])
        var index: UInt64 = 0
        for t in timeline.sets {
            let category =
                log.library.exercises[t.exercise.exerciseId].map { GarminExerciseCategory.of($0.definition) }
                ?? GarminExerciseCategory.byName(t.exercise.exercise) ?? .totalBody
            let weight = t.set.weightKg.flatMap { $0 >= 0 ? UInt64(($0 * 16).rounded()) : nil }
            let unit = t.set.metrics.weight.map { $0.unit == .lb ? unitPound : unitKilogram }
            fit.write(
                set,
                [
                    FITEncoder.time(t.end.millis), UInt64(t.end.millis - t.start.millis), t.set.reps.map { UInt64(max(0, $0)) },
                    weight, setTypeActive, FITEncoder.time(t.start.millis), UInt64(category.rawValue), nil, unit, index,
                ])
            index += 1
            if t.restAfterMillis >= 1000 {
                fit.write(
                    set,
                    [
                        FITEncoder.time(t.end.millis + t.restAfterMillis), UInt64(t.restAfterMillis), nil, nil, setTypeRest,
                        FITEncoder.time(t.end.millis), nil, nil, nil, index,
                    ])
                index += 1
            }
        }
        fit.write(event, [end, eventTimer, eventTypeStopAll])
        fit.write(lap, [0, end, eventTimer, eventTypeStop, start, elapsed, elapsed, sportTraining, subSportStrengthTraining])
        fit.write(
            session, [0, end, eventTimer, eventTypeStop, start, sportTraining, subSportStrengthTraining, elapsed, elapsed, 0, 1])
        let local = UInt64(Int64(end) + Int64(timeline.end.offsetMinutes) * 60)
        fit.write(activity, [end, elapsed, 1, 0, eventActivity, eventTypeStop, local])
        return fit.bytes
    }

    /// The file name for a workout among many: its local start and its short id, `2025-03-05-154200-1a2b3c4d.fit`.
    public static func fileName(_ w: WorkoutHistoryProjection.WorkoutRow) -> String {
        let l = w.startedAt.local
        func pad(_ n: Int, _ width: Int) -> String { String(repeating: "0", count: max(0, width - String(n).count)) + String(n) }
        return "\(pad(l.year, 4))-\(pad(l.month, 2))-\(pad(l.day, 2))-\(pad(l.hour, 2))\(pad(l.minute, 2))\(pad(l.second, 2))-"
            + String(w.workoutId.lowercased.prefix(8)) + ".fit"
    }
}
