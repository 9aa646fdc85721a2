import Foundation
import RepLedgerCore

/// Recording a session: start, log, edit, finish, as the CLI's `workout` commands do.
extension RepLedger {
    /// Starts an empty workout now.
    ///
    /// - Parameter name: Its name; an empty one is named after the time of day ("Morning Workout").
    /// - Returns: The workout's id.
    /// - Throws: `Refusal` when the command is refused (its description is one line to show): nothing is appended.
    public func startWorkout(name: String = "") throws -> UUID {
        try perform { try $0.startWorkout(name: name) }
    }

    /// Starts a workout from a template, with the template's planned sets.
    ///
    /// - Parameters:
    ///   - template: The template's id, a unique prefix of it, or its name.
    ///   - name: The workout's name; by default the template's.
    /// - Returns: The workout's id.
    /// - Throws: `Refusal` when the command is refused (its description is one line to show): nothing is appended.
    public func startWorkout(template: String, name: String? = nil) throws -> UUID {
        try perform { try $0.startWorkout(fromTemplate: template, name: name) }
    }

    /// Starts the workout a program plans for one of its days.
    ///
    /// - Parameters:
    ///   - program: The program's id, a unique prefix of it, or its name.
    ///   - day: The day of the program's week, from 1.
    /// - Returns: The workout's id.
    /// - Throws: `Refusal` when the command is refused (its description is one line to show): nothing is appended.
    public func startWorkout(program: String, day: Int) throws -> UUID {
        try perform { try $0.startWorkout(program: program, day: day) }
    }

    /// Logs a completed set, adding the exercise to the workout first if it is not there.
    ///
    /// - Parameters:
    ///   - exercise: An exercise id or a name the library knows ("Bench Press (Barbell)").
    ///   - weightKg: The load in kilograms, if the exercise takes one.
    ///   - reps: The repetitions done.
    ///   - rpe: The rate of perceived exertion, 1 to 10 in halves.
    ///   - type: Normal, warm-up, drop or failure.
    ///   - workout: The workout, open (or finished, which records a history edit).
    /// - Returns: The set's id.
    /// - Throws: `Refusal` when the command is refused (its description is one line to show): nothing is appended.
    public func logSet(
        _ exercise: String, weightKg: Double? = nil, reps: Int? = nil, rpe: Double? = nil, type: SetType = .normal, in workout: UUID
    ) throws -> UUID {
        let metrics = SetMetrics(weight: weightKg.map { Weight($0, .kg) }, reps: reps, rpe: rpe)
        return try perform { try $0.logTypedSet(workout, exercise: exercise, type: type, metrics: metrics, notes: nil, timeGiven: false).setId }
    }

    /// Changes the given fields of a set; the fields left `nil` keep their values.
    ///
    /// - Parameters:
    ///   - set: The set's id.
    ///   - workout: The workout it is in.
    ///   - weightKg: The new load in kilograms.
    ///   - reps: The new repetitions.
    ///   - rpe: The new rate of perceived exertion.
    ///   - type: The new set type.
    /// - Throws: `Refusal` when the command is refused (its description is one line to show): nothing is appended.
    public func editSet(
        _ set: UUID, in workout: UUID, weightKg: Double? = nil, reps: Int? = nil, rpe: Double? = nil, type: SetType? = nil
    ) throws {
        let changes = SetMetrics(weight: weightKg.map { Weight($0, .kg) }, reps: reps, rpe: rpe)
        try perform { try $0.editSet(workout, set: set.uuidString, type: type, changes: changes, historyEdit: true) }
    }

    /// Deletes a set; the log keeps the set and its deletion, and the read models drop it.
    ///
    /// - Parameters:
    ///   - set: The set's id.
    ///   - workout: The workout it is in.
    /// - Throws: `Refusal` when the command is refused (its description is one line to show): nothing is appended.
    public func deleteSet(_ set: UUID, in workout: UUID) throws {
        try perform { try $0.deleteSet(workout, set: set.uuidString, historyEdit: true) }
    }

    /// Records a heart-rate sample during the workout, as a watch does.
    ///
    /// - Parameters:
    ///   - beatsPerMinute: The sample.
    ///   - workout: The open workout.
    /// - Throws: `Refusal` when the command is refused (its description is one line to show): nothing is appended.
    public func recordHeartRate(_ beatsPerMinute: Double, in workout: UUID) throws {
        try perform { try $0.recordHealthSample(workout, kind: .heartRate, value: beatsPerMinute) }
    }

    /// Finishes the workout now.
    ///
    /// - Parameter workout: The open workout.
    /// - Throws: `Refusal` when the command is refused (its description is one line to show): nothing is appended.
    public func finishWorkout(_ workout: UUID) throws {
        try perform { try $0.finishWorkout(workout, timeGiven: false) }
    }

    /// Discards an open workout: it leaves history, records and volume.
    ///
    /// - Parameter workout: The open workout.
    /// - Throws: `Refusal` when the command is refused (its description is one line to show): nothing is appended.
    public func discardWorkout(_ workout: UUID) throws {
        try perform { try $0.discardWorkout(workout) }
    }
}
