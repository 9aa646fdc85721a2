import RepLedgerCore
import RepLedgerProjections

/// Workouts in the shape of Android Health Connect's `ExerciseSessionRecord`:
/// one session per workout, of type strength training, with one
/// `ExerciseSegment` per set (its time, type, repetitions, weight, set index and
/// RPE), for an app that writes them into Health Connect. Constants are written
/// by name (`EXERCISE_SEGMENT_TYPE_BENCH_PRESS`), not by number: the platform
/// API and the Jetpack client number them differently. The file is a JSON array
/// with a session on each line.
public enum HealthConnectFormat {
    public static func render(_ workouts: [WorkoutHistoryProjection.WorkoutRow], in log: TrainingLogProjection) -> String {
        let lines = workouts.map { session($0, in: log).rendered }
        return lines.isEmpty ? "[]\n" : "[\n" + lines.joined(separator: ",\n") + "\n]\n"
    }

    static func session(_ w: WorkoutHistoryProjection.WorkoutRow, in log: TrainingLogProjection) -> JSONValue {
        let timeline = SetTimeline(w, state: log.workouts[w.workoutId])
        let segments: [JSONValue] = timeline.sets.map { t in
            let category =
                log.library.exercises[t.exercise.exerciseId].map { GarminExerciseCategory.of($0.definition) }
                ?? GarminExerciseCategory.byName(t.exercise.exercise) ?? .totalBody
            return .object([
                ("startTime", .string(instant(t.start))), ("endTime", .string(instant(t.end))),
                ("segmentType", .string("EXERCISE_SEGMENT_TYPE_" + segmentType(category))),
                ("repetitions", .optional(t.set.reps)),
                ("weight", t.set.weightKg.map { .object([("inKilograms", .number($0))]) } ?? .null),
                ("setIndex", .int(Int64(t.indexInEntry))),
                ("rateOfPerceivedExertion", .optional(Effort.rpe(entered: t.set.rpe, rir: t.set.rir))),
                ("exercise", .string(t.exercise.exercise)),
            ])
        }
        return .object([
            ("startTime", .string(instant(timeline.start))), ("startZoneOffset", .string(offset(timeline.start))),
            ("endTime", .string(instant(timeline.end))), ("endZoneOffset", .string(offset(timeline.end))),
            ("exerciseType", .string("EXERCISE_TYPE_STRENGTH_TRAINING")), ("title", .string(w.name)), ("notes", .optional(w.notes)),
            ("metadata", .object([("clientRecordId", .string("repledger-workout-" + w.workoutId.lowercased))])),
            ("segments", .array(segments)),
        ])
    }

    /// An instant in UTC, `2025-03-05T15:42:00Z`.
    static func instant(_ t: Timestamp) -> String { Timestamp(millis: t.millis, offsetMinutes: 0).iso8601 }

    /// `+01:00`, `-05:00`, `Z` as `+00:00`.
    static func offset(_ t: Timestamp) -> String {
        let m = abs(t.offsetMinutes)
        let h = m / 60, r = m % 60
        return (t.offsetMinutes < 0 ? "-" : "+") + (h < 10 ? "0" : "") + String(h) + ":" + (r < 10 ? "0" : "") + String(r)
    }

    /// Health Connect's segment type for a set of Garmin's category, where it has one; weightlifting else.
    static func segmentType(_ c: GarminExerciseCategory) -> String {
        switch c {
        case .benchPress: "BENCH_PRESS"
        case .crunch: "CRUNCH"
        case .curl: "ARM_CURL"
        case .deadlift: "DEADLIFT"
        case .hipRaise: "HIP_THRUST"
        case .hipSwing: "KETTLEBELL_SWING"
        case .hyperextension: "BACK_EXTENSION"
        case .lateralRaise: "LATERAL_RAISE"
        case .legCurl: "LEG_CURL"
        case .legRaise: "LEG_RAISE"
        case .lunge: "LUNGE"
        case .plank: "PLANK"
        case .pullUp: "PULL_UP"
        case .shoulderPress: "SHOULDER_PRESS"
        case .sitUp: "SIT_UP"
        case .squat: "SQUAT"
        case .tricepsExtension: "DOUBLE_ARM_TRICEPS_EXTENSION"
        case .chop: "UPPER_TWIST"
        case .warmUp: "STRETCHING"
        case .run: "RUNNING"
        case .bike: "BIKING_STATIONARY"
        case .elliptical: "ELLIPTICAL"
        case .indoorRow: "ROWING_MACHINE"
        case .stairStepper: "STAIR_CLIMBING_MACHINE"
        case .cardio, .core, .plyo, .pushUp: "OTHER_WORKOUT"
        case .calfRaise, .carry, .flye, .hipStability, .olympicLift, .row, .shoulderStability, .shrug, .totalBody, .sled:
            "WEIGHTLIFTING"
        }
    }
}
