import Foundation
import RepLedgerCore

/// Twelve weeks of a four-day upper/lower plan, built through the same
/// command path as the CLI: warm-ups, progressive overload, a missed week,
/// a swapped exercise, sets edited and deleted, a paused session, a discarded
/// false start, dumbbells in pounds and sessions logged from a watch.
///
/// Everything comes from a fixed seed and fixed dates (24 Aug – 15 Nov 2026),
/// so the events, ids included, are the same on every run: appending them a
/// second time is a no-op by the store's idempotency rule.
public enum DemoHistory {
    public static let seed: UInt64 = 0x5EED_2026_0824
    public static let weeks = 12
    /// 0-based index of the week without training.
    public static let missedWeek = 6
    public static let firstMonday = CivilCalendar.days(fromCivil: 2026, 8, 24)
    public static let batchId = UUID.derived(from: "demo/v1")

    struct Lift {
        var exercise: String
        var warmups: [(kg: Double, reps: Int)] = []
        var sets: Int
        var reps: Int
        var start: Double?
        var unit: WeightUnit = .kg
        var increment: Double = 0
        /// Weight goes up every this many trained weeks.
        var every = 1
    }

    struct Session {
        var weekday: Int  // 0 = Monday
        var hour: Int, minute: Int
        var name: String
        var device: String
        var lifts: [Lift]
    }

    static let plan: [Session] = [
        Session(
            weekday: 0, hour: 18, minute: 30, name: "Upper A", device: "phone",
            lifts: [
                Lift(exercise: "barbell-bench-press", warmups: [(20, 10), (50, 5)], sets: 3, reps: 5, start: 80, increment: 2.5),
                Lift(exercise: "barbell-row", sets: 3, reps: 8, start: 70, increment: 2.5, every: 2),
                Lift(exercise: "lat-pulldown", sets: 3, reps: 10, start: 60, increment: 2.5, every: 2),
                Lift(exercise: "barbell-curl", sets: 2, reps: 12, start: 30, increment: 2.5, every: 3),
            ]),
        Session(
            weekday: 1, hour: 18, minute: 30, name: "Lower A", device: "phone",
            lifts: [
                Lift(exercise: "back-squat", warmups: [(20, 10), (60, 5)], sets: 3, reps: 5, start: 100, increment: 5),
                Lift(exercise: "romanian-deadlift", sets: 3, reps: 8, start: 90, increment: 5, every: 2),
                Lift(exercise: "leg-press", sets: 3, reps: 10, start: 160, increment: 10, every: 2),
                Lift(exercise: "standing-calf-raise", sets: 3, reps: 12, start: 80, increment: 5, every: 2),
            ]),
        Session(
            weekday: 3, hour: 7, minute: 0, name: "Upper B", device: "phone",
            lifts: [
                Lift(exercise: "overhead-press", warmups: [(20, 8)], sets: 3, reps: 5, start: 50, increment: 1.25),
                Lift(exercise: "incline-dumbbell-press", sets: 3, reps: 10, start: 26, increment: 2, every: 2),
                Lift(exercise: "pull-up", sets: 3, reps: 8, start: nil),
                Lift(exercise: "lateral-raise", sets: 3, reps: 15, start: 20, unit: .lb, increment: 5, every: 4),
                Lift(exercise: "triceps-pushdown", sets: 3, reps: 12, start: 30, increment: 2.5, every: 2),
            ]),
        Session(
            weekday: 4, hour: 17, minute: 45, name: "Lower B", device: "watch",
            lifts: [
                Lift(exercise: "deadlift", warmups: [(60, 5), (100, 3)], sets: 3, reps: 5, start: 130, increment: 2.5),
                Lift(exercise: "front-squat", sets: 3, reps: 6, start: 70, increment: 2.5, every: 2),
                Lift(exercise: "lying-leg-curl", sets: 3, reps: 10, start: 45, increment: 2.5, every: 2),
                Lift(exercise: "hanging-leg-raise", sets: 3, reps: 12, start: nil),
            ]),
    ]

    /// The demo's events, decided against `library` (which must hold the seeded exercises).
    /// Another `seed` and `startDay` (a Monday, in days since 1970) give another
    /// twelve weeks of the same plan, for generating large logs.
    public static func events(library: LibraryState, seed: UInt64 = seed, startDay: Int64 = firstMonday) throws -> [ProposedEvent] {
        let start = CommandContext(occurredAt: Timestamp(millis: 0), device: "phone", commandId: batchId, correlationId: batchId)
        var s = CommandSession(library: library, account: AccountState(), context: start, ids: .seeded(seed))
        var rng = SplitMix(seed: seed)
        var trainedWeeks = 0

        for week in 0..<weeks {
            if week == missedWeek { continue }
            for session in plan {
                var clock = localTime(startDay: startDay, week: week, weekday: session.weekday, hour: session.hour, minute: session.minute)
                func at(_ t: Timestamp, _ device: String = session.device) {
                    s.context = CommandContext(occurredAt: t, device: device, commandId: s.ids.next(), correlationId: batchId)
                }

                // Week 3: a false start on the phone, thrown away two minutes later.
                if week == 2, session.weekday == 3 {
                    at(clock.adding(seconds: -600))
                    let oops = try s.startWorkout(name: "Upper B")
                    at(clock.adding(seconds: -480))
                    try s.discardWorkout(oops)
                }

                at(clock)
                let w = try s.startWorkout(name: session.name)
                for lift in session.lifts {
                    clock = clock.adding(seconds: 120)
                    var exercise = lift.exercise
                    for warm in lift.warmups {
                        at(clock)
                        _ = try s.logSet(
                            w, exercise: exercise, type: .warmup,
                            metrics: SetMetrics(weight: Weight(warm.kg, .kg), reps: warm.reps))
                        clock = clock.adding(seconds: 90)
                    }
                    let weight = lift.start.map { Weight($0 + lift.increment * Double(trainedWeeks / lift.every), lift.unit) }
                    for i in 0..<lift.sets {
                        // Bodyweight work adds a rep every three weeks; the last set sometimes falls one short.
                        var reps = lift.reps + (weight == nil ? trainedWeeks / 3 : 0)
                        if i == lift.sets - 1, rng.next() % 3 == 0 { reps -= 1 }
                        let rpe: Double? = lift.warmups.isEmpty ? nil : min(10, 7 + 0.5 * Double(i + Int(rng.next() % 3)))
                        // Week 4: 8 reps typed instead of 5 on the bench, fixed a minute later.
                        let typo = week == 3 && exercise == "barbell-bench-press" && i == 1
                        at(clock)
                        let setId = try s.logSet(
                            w, exercise: exercise,
                            metrics: SetMetrics(weight: weight, reps: typo ? 8 : reps, rpe: rpe))
                        clock = clock.adding(seconds: 150 + Int64(rng.next() % 60))
                        if typo {
                            at(clock.adding(seconds: -90))
                            try s.editSet(w, set: setId.lowercased, changes: SetMetrics(reps: reps))
                        }
                        // Week 5: a leg press set saved twice by a double tap; the copy is deleted.
                        if week == 4, exercise == "leg-press", i == 0 {
                            at(clock.adding(seconds: -140))
                            let copy = try s.logSet(w, exercise: exercise, metrics: SetMetrics(weight: weight, reps: reps))
                            at(clock.adding(seconds: -120))
                            try s.deleteSet(w, set: copy.lowercased)
                        }
                        // Week 9: the leg press is taken; the rest of it on the hack squat.
                        if week == 8, exercise == "leg-press", i == 0 {
                            at(clock)
                            try s.swapExercise(w, from: "leg-press", to: "hack-squat")
                            exercise = "hack-squat"
                        }
                    }
                    // Week 6: a phone call in the middle of Upper B.
                    if week == 5, session.weekday == 3, lift.exercise == "incline-dumbbell-press" {
                        at(clock)
                        try s.pauseWorkout(w)
                        clock = clock.adding(seconds: 540)
                        at(clock)
                        try s.resumeWorkout(w)
                    }
                }
                at(clock.adding(seconds: 60))
                try s.finishWorkout(w)

                // Week 10: the top deadlift set was 152.5, not 150; corrected that evening on the web app.
                if week == 9, session.weekday == 4 {
                    let state = try s.workout(w)
                    if let top = state.sets.last(where: { $0.exerciseId == "deadlift" && $0.type == .normal }) {
                        at(clock.adding(seconds: 3 * 3600), "web")
                        try s.editSet(
                            w, set: top.setId.lowercased, changes: SetMetrics(weight: Weight(152.5, .kg)),
                            historyEdit: true)
                    }
                }
            }
            trainedWeeks += 1
        }
        return s.pending
    }

    /// A local wall-clock time in the demo lifter's zone (Central Europe:
    /// summer time until the last Sunday of October).
    static func localTime(startDay: Int64, week: Int, weekday: Int, hour: Int, minute: Int) -> Timestamp {
        let day = startDay + Int64(week * 7 + weekday)
        let summerTimeEnds = CivilCalendar.days(fromCivil: 2026, 10, 25)
        let offset = day < summerTimeEnds ? 120 : 60
        let local = day * 86_400_000 + Int64(hour * 3_600_000 + minute * 60_000)
        return Timestamp(millis: local - Int64(offset) * 60_000, offsetMinutes: offset)
    }
}
