import Foundation
import RepLedgerCore

/// A deterministic generator of realistic ledgers for benchmarks: lifters
/// training 4–5 sessions a week from their program templates, with warm-ups,
/// progressive overload, typos fixed a minute later, double-taps deleted,
/// swapped exercises, false starts thrown away, paused sessions, and the
/// account's Pro purchases, renewals and a refund. Every event goes through
/// the same `CommandSession` deciders as the CLI.
///
/// The ledger has one account; the lifters' training is interleaved day by
/// day, as a shared gym device or a coach account would record it. For the
/// store and the folds this is the same load as one lifter's long history.
public struct LogGenerator {
    public let lifters: Int
    public let seed: UInt64
    /// A Monday, days since 1970.
    public let startDay: Int64

    public init(lifters: Int, seed: UInt64 = 0x5EED_BE4C, startDay: Int64 = 20_454) {  // 2026-01-05
        self.lifters = lifters
        self.seed = seed
        self.startDay = startDay
    }

    /// Lifters for a target size: about 25,000 events a lifter, so every size covers a few years.
    public static func lifters(forEvents n: Int) -> Int { max(1, n / 25_000) }

    struct Lift {
        var exercise: String
        var sets: Int
        var reps: Int
        var startKg: Double?
        var incrementKg: Double
        var warmups: Int
    }

    /// Program days drawn from the seeded library; each lifter trains a rotation of four or five.
    static let days: [[Lift]] = [
        [
            Lift(exercise: "back-squat", sets: 4, reps: 5, startKg: 80, incrementKg: 2.5, warmups: 2),
            Lift(exercise: "romanian-deadlift", sets: 3, reps: 8, startKg: 70, incrementKg: 2.5, warmups: 0),
            Lift(exercise: "leg-press", sets: 3, reps: 10, startKg: 140, incrementKg: 5, warmups: 0),
            Lift(exercise: "standing-calf-raise", sets: 3, reps: 12, startKg: 60, incrementKg: 2.5, warmups: 0),
        ],
        [
            Lift(exercise: "barbell-bench-press", sets: 4, reps: 5, startKg: 60, incrementKg: 2.5, warmups: 2),
            Lift(exercise: "barbell-row", sets: 4, reps: 8, startKg: 55, incrementKg: 2.5, warmups: 1),
            Lift(exercise: "overhead-press", sets: 3, reps: 8, startKg: 35, incrementKg: 1.25, warmups: 1),
            Lift(exercise: "lat-pulldown", sets: 3, reps: 10, startKg: 50, incrementKg: 2.5, warmups: 0),
            Lift(exercise: "barbell-curl", sets: 2, reps: 12, startKg: 25, incrementKg: 1.25, warmups: 0),
        ],
        [
            Lift(exercise: "deadlift", sets: 3, reps: 5, startKg: 100, incrementKg: 5, warmups: 2),
            Lift(exercise: "front-squat", sets: 3, reps: 6, startKg: 60, incrementKg: 2.5, warmups: 1),
            Lift(exercise: "lying-leg-curl", sets: 3, reps: 10, startKg: 35, incrementKg: 2.5, warmups: 0),
            Lift(exercise: "hanging-leg-raise", sets: 3, reps: 12, startKg: nil, incrementKg: 0, warmups: 0),
        ],
        [
            Lift(exercise: "incline-bench-press", sets: 4, reps: 8, startKg: 50, incrementKg: 2.5, warmups: 1),
            Lift(exercise: "pull-up", sets: 4, reps: 8, startKg: nil, incrementKg: 0, warmups: 0),
            Lift(exercise: "dumbbell-bench-press", sets: 3, reps: 10, startKg: 24, incrementKg: 2, warmups: 0),
            Lift(exercise: "lateral-raise", sets: 3, reps: 15, startKg: 8, incrementKg: 1, warmups: 0),
            Lift(exercise: "triceps-pushdown", sets: 3, reps: 12, startKg: 25, incrementKg: 2.5, warmups: 0),
        ],
        [
            Lift(exercise: "trap-bar-deadlift", sets: 3, reps: 6, startKg: 110, incrementKg: 5, warmups: 1),
            Lift(exercise: "dumbbell-row", sets: 3, reps: 10, startKg: 30, incrementKg: 2, warmups: 0),
            Lift(exercise: "face-pull", sets: 3, reps: 15, startKg: 20, incrementKg: 1.25, warmups: 0),
            Lift(exercise: "chest-dip", sets: 3, reps: 10, startKg: nil, incrementKg: 0, warmups: 0),
        ],
    ]

    /// Generates at least `events` events (whole weeks), handing them over a week at a time.
    public func generate(events target: Int, library: LibraryState, sink: ([ProposedEvent]) throws -> Void) throws {
        var library = library
        var account = AccountState()
        var templates = TemplateCatalogState()
        var rng = SplitMix(seed: seed)
        var produced = 0
        var week = 0
        // Per lifter: training days (weekday offsets), hour, strength level and template ids.
        struct Lifter { var weekdays: [Int]; var hour: Int; var level: Double; var templates: [String] }
        var people: [Lifter] = (0..<lifters).map { i in
            let five = i % 3 == 0
            return Lifter(
                weekdays: five ? [0, 1, 2, 4, 5] : [0, 1, 3, 4], hour: 6 + Int(rng.next() % 14),
                level: 0.8 + Double(rng.next() % 60) / 100, templates: [])
        }
        while produced < target {
            let monday = startDay + Int64(week * 7)
            let context = CommandContext(
                occurredAt: Self.at(monday, hour: 5), device: "phone", commandId: UUID.derived(from: "bench/\(seed)/\(week)"))
            let catalog = templates
            var s = CommandSession(
                library: library, account: account, context: context,
                ids: .seeded(seed &+ UInt64(week) &* 0x9E37_79B9, orderedAt: Self.at(monday, hour: 5).millis),
                loadTemplates: { catalog })
            func at(_ t: Timestamp, _ device: String = "phone") {
                s.context = CommandContext(occurredAt: t, device: device, commandId: s.ids.next())
            }
            // The account: Pro every year from the start, plus a monthly plan bought by mistake and refunded.
            if week % 52 == 0 {
                at(Self.at(monday, hour: 5))
                try s.recordPurchase(
                    product: .proAnnual, transactionId: "annual-\(week / 52)", originalTransactionId: "annual-0",
                    purchasedAt: Self.at(monday, hour: 5), expiresAt: Self.at(monday + 366, hour: 5))
            }
            if week % 52 == 20 {
                at(Self.at(monday, hour: 5))
                try s.recordPurchase(
                    product: .proMonthly, transactionId: "monthly-\(week)", purchasedAt: Self.at(monday, hour: 5),
                    expiresAt: Self.at(monday + 30, hour: 5))
                try s.refund(transactionId: "monthly-\(week)", at: Self.at(monday + 1, hour: 9))
            }
            if week == 0 {
                for (i, _) in people.enumerated() {
                    let count = people[i].weekdays.count
                    for d in 0..<count {
                        at(Self.at(monday, hour: 5, minute: i))
                        let lifts = Self.days[(d + i) % Self.days.count]
                        let id = try s.createTemplate(name: "Lifter \(i + 1) day \(d + 1)", exercises: lifts.map(\.exercise))
                        people[i].templates.append(id.lowercased)
                    }
                }
            }
            for weekday in 0..<7 {
                // Who trains today and when; recorded in start order, as one device or account would record them.
                var today: [(lifter: Int, slot: Int, clock: Timestamp, device: String)] = []
                for (i, p) in people.enumerated() {
                    guard let slot = p.weekdays.firstIndex(of: weekday) else { continue }
                    // About one session in twenty is missed.
                    if rng.next() % 20 == 0 { continue }
                    let clock = Self.at(monday + Int64(weekday), hour: p.hour, minute: Int(rng.next() % 50))
                    today.append((i, slot, clock, rng.next() % 4 == 0 ? "watch" : "phone"))
                }
                today.sort { ($0.clock.millis, $0.lifter) < ($1.clock.millis, $1.lifter) }
                for session in today {
                    let i = session.lifter, p = people[i], slot = session.slot, device = session.device
                    var clock = session.clock
                    if rng.next() % 100 == 0 {  // a false start, thrown away
                        at(clock, device)
                        let oops = try s.startWorkout(name: "Quick session")
                        at(clock.adding(seconds: 90), device)
                        try s.discardWorkout(oops)
                        clock = clock.adding(seconds: 180)
                    }
                    at(clock, device)
                    let w = try s.startWorkout(fromTemplate: p.templates[slot])
                    let planned = try s.workout(w).sets
                    let lifts = Self.days[(slot + i) % Self.days.count]
                    let progress = Double(week) * p.level
                    for lift in lifts {
                        var exercise = lift.exercise
                        if rng.next() % 100 == 0, let other = Self.swapFor[exercise] {  // the machine is taken
                            at(clock, device)
                            try s.swapExercise(w, from: exercise, to: other)
                            exercise = other
                        }
                        let weight = lift.startKg.map { start in
                            Weight(((start * p.level + lift.incrementKg * (progress / 3).rounded(.down)) * 4).rounded() / 4, .kg)
                        }
                        for k in 0..<lift.warmups {
                            clock = clock.adding(seconds: 75)
                            at(clock, device)
                            let kg = weight.map { Weight((($0.value * Double(k + 1) / Double(lift.warmups + 2)) * 2).rounded() / 2, .kg) }
                            _ = try s.logSet(w, exercise: exercise, type: .warmup, metrics: SetMetrics(weight: kg, reps: 5))
                        }
                        let plannedSets = planned.filter { $0.exerciseId == lift.exercise }.map(\.setId)
                        for k in 0..<lift.sets {
                            clock = clock.adding(seconds: 120 + Int64(rng.next() % 90))
                            at(clock, device)
                            let reps = lift.reps - (k == lift.sets - 1 && rng.next() % 3 == 0 ? 1 : 0)
                            let rpe = k == 0 ? nil : Optional(7 + 0.5 * Double(rng.next() % 5))
                            let typo = rng.next() % 25 == 0
                            let set = try s.logSet(
                                w, exercise: exercise, metrics: SetMetrics(weight: weight, reps: typo ? reps * 10 : reps, rpe: rpe),
                                plannedSetId: k < plannedSets.count && exercise == lift.exercise ? plannedSets[k] : nil)
                            if typo {  // 50 reps instead of 5, fixed a minute later
                                at(clock.adding(seconds: 60), device)
                                try s.editSet(w, set: set.lowercased, changes: SetMetrics(reps: reps))
                            }
                            if rng.next() % 50 == 0 {  // a double tap, deleted
                                at(clock.adding(seconds: 5), device)
                                let copy = try s.logSet(w, exercise: exercise, metrics: SetMetrics(weight: weight, reps: reps))
                                at(clock.adding(seconds: 30), device)
                                try s.deleteSet(w, set: copy.lowercased)
                            }
                        }
                    }
                    if rng.next() % 50 == 0 {
                        at(clock.adding(seconds: 30), device)
                        try s.pauseWorkout(w)
                        clock = clock.adding(seconds: 600)
                        at(clock, device)
                        try s.resumeWorkout(w)
                    }
                    at(clock.adding(seconds: 240), device)
                    try s.finishWorkout(w)
                }
            }
            library = s.library
            account = s.account
            templates = try s.templateCatalog()
            produced += s.pending.count
            try sink(s.pending)
            week += 1
        }
    }

    static let swapFor = [
        "leg-press": "hack-squat", "lat-pulldown": "seated-cable-row", "triceps-pushdown": "skull-crusher",
        "dumbbell-bench-press": "machine-chest-press", "face-pull": "rear-delt-fly",
    ]

    static func at(_ day: Int64, hour: Int, minute: Int = 0) -> Timestamp {
        Timestamp(millis: (day * 86_400 + Int64(hour * 3600 + minute * 60)) * 1000, offsetMinutes: 60)
    }
}
