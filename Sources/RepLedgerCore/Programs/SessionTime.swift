/// How long a program day takes as written: each set's rest plus about 40
/// seconds of work, and a minute to set up each exercise. Three sets at the
/// seed's top rest (120 s) come to 9 minutes, the "about ten minutes an
/// exercise" the slot templates are sized by (docs/PROGRAMS.md, "Session
/// length"). The strength block trims its days by it, and a mesocycle adds a
/// set to a day only while the day still fits its minutes.
public enum SessionTime {
    public static let workSecondsPerSet = 40
    public static let setupSecondsPerExercise = 60

    /// One exercise of `sets` sets resting `restSeconds` after each.
    public static func seconds(sets: Int, restSeconds: Int) -> Int {
        sets * (restSeconds + workSecondsPerSet) + setupSecondsPerExercise
    }

    /// One more set of an exercise resting `restSeconds`.
    public static func secondsPerSet(restSeconds: Int) -> Int { restSeconds + workSecondsPerSet }

    /// A day's exercises, with `sets` in place of each exercise's own when given (a week of a block).
    public static func seconds(_ session: ProgramSession, sets: [Int]? = nil) -> Int {
        session.exercises.indices.reduce(0) { total, i in
            let x = session.exercises[i]
            return total + seconds(sets: sets.map { $0[i] } ?? x.sets, restSeconds: x.restSeconds)
        }
    }

    /// Whole minutes, rounded up.
    public static func minutes(seconds: Int) -> Int { (seconds + 59) / 60 }
}
