import Foundation

/// How long to rest after a set, one rule for the timer's auto-start, the
/// `workout rest` default and every view that shows a rest.
///
/// The workout's own plan comes first (the program day's rest for the
/// exercise, or its template line's rest), then the exercise's own rest
/// (`settings rest --exercise`), then the lifter's default. In a superset
/// the rest follows only the group's last exercise: moving between its
/// members is not resting.
public enum RestPlan {
    public enum Source: String, Sendable {
        case program, template, exercise
        case standard = "default"
    }

    /// The rest after a set of `exerciseId` in `workout`.
    public static func seconds(
        exerciseId: String, in workout: WorkoutState, account: AccountState, programs: ProgramCatalogState?,
        templates: TemplateCatalogState? = nil
    ) -> (seconds: Int, source: Source) {
        if let planned = programRest(exerciseId: exerciseId, in: workout, programs: programs) { return (planned, .program) }
        let template = workout.templateId.flatMap { templates?.templates[$0] }
        if let planned = template?.exercises.first(where: { $0.exerciseId == exerciseId })?.restSeconds { return (planned, .template) }
        if let own = account.restSeconds(ofExercise: exerciseId) { return (own, .exercise) }
        return (account.restTimerSeconds, .standard)
    }

    /// The program day's rest for the exercise (its own, or a module line's), when the workout was started from one.
    public static func programRest(exerciseId: String, in workout: WorkoutState, programs: ProgramCatalogState?) -> Int? {
        guard let id = workout.programId, let day = workout.programDayIndex,
            let program = programs?.live.first(where: { $0.programId == id }), day < program.generated.sessions.count
        else { return nil }
        if let own = program.generated.sessions[day].exercises.first(where: { $0.exerciseId == exerciseId }) { return own.restSeconds }
        return program.modules(day: day).lazy.compactMap { m in m.lines.first { $0.exercise.exerciseId == exerciseId }?.exercise.restSeconds }.first
    }

    /// Whether a rest follows a set of this entry: always, except between the members of a superset.
    public static func follows(entry entryId: UUID, in workout: WorkoutState) -> Bool {
        guard let entry = workout.entry(entryId), let group = entry.supersetId else { return true }
        return workout.entries.last { $0.supersetId == group }?.entryId == entryId
    }
}
