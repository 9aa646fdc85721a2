import ArgumentParser
import LedgerShell
import RepLedgerCore
import RepLedgerDemo
import RepLedgerProjections

struct DemoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Seed 12 weeks of realistic training into the ledger and take a short tour.",
        discussion: "Deterministic: running it again appends nothing.")
    @OptionGroup var global: GlobalOptions

    func run() throws {
        let ledger = try global.openLedger()
        try ledger.seedLibraryIfNeeded()
        let events = try DemoHistory.events(library: try ledger.library())
        let result = try ledger.store.append(events)
        let store = ledger.store
        let report = try store.verify()
        let log = try TrainingLogProjection.build(from: store)
        let rows = WorkoutHistoryProjection.workouts(log)

        if global.json {
            Console.json(
                .object([
                    ("appended", .int(Int64(result.appended.count))), ("alreadyPresent", .int(Int64(result.alreadyStored))),
                    ("events", .int(report.events)), ("workouts", .int(Int64(rows.count))), ("verified", .bool(report.ok)),
                ]))
            return
        }
        Console.out("RepLedger demo: 12 weeks of a 4-day upper/lower plan, 24 Aug – 15 Nov 2026, in \(global.path)")
        if result.appended.isEmpty {
            Console.out("  Nothing appended: all \(result.alreadyStored) demo events are in the ledger already (event ids are idempotent).")
        } else {
            Console.out("  Appended \(result.appended.count) events in one transaction (\(result.alreadyStored) were there already).")
        }
        // The rest of the log is the exercise library, recorded once in every ledger as events of its own.
        let libraryEvents = try store.version(of: .library)
        Console.out(
            "  The log holds \(report.events) events (\(libraryEvents) of them the exercise library, recorded once in every new ledger); hash chain \(report.ok ? "verified" : "BROKEN at \(report.firstBadPosition ?? 0)"), head \(report.headHash.prefix(16))…"
        )

        Console.out("\nThe last three workouts (`ledger history`):")
        for w in rows.prefix(3) {
            Console.out(
                "  \(w.startedAt.isoDate)  \(w.name) · \((w.durationSeconds ?? 0) / 60) min · \(w.sets) working sets · \(WeightText.show(kg: w.tonnageKg, in: .kg))"
            )
            for x in w.exercises {
                let sets = x.sets.filter { $0.type.isWorking }.map { WeightText.set(kg: $0.weightKg, reps: $0.reps, in: .kg) }
                Console.out("      \(x.exercise): \(sets.joined(separator: ", "))")
            }
        }

        Console.out("\nBench press, heaviest working set of each session (`ledger history --exercise barbell-bench-press`):")
        let bench = WorkoutHistoryProjection.workouts(log, exerciseId: "barbell-bench-press").reversed()
        for w in bench {
            let top = w.exercises.filter { $0.exerciseId == "barbell-bench-press" }.flatMap(\.sets)
                .filter { $0.type.isWorking }.max { ($0.weightKg ?? 0, $0.reps ?? 0) < ($1.weightKg ?? 0, $1.reps ?? 0) }
            let bar = String(repeating: "▇", count: Int(((top?.weightKg ?? 0) - 70) / 2.5))
            Console.out("  \(w.startedAt.isoDate)  \(WeightText.set(kg: top?.weightKg, reps: top?.reps, in: .kg))  \(bar)")
        }

        Console.out("\nPersonal records of the main lifts (`ledger prs`):")
        for r in PersonalRecordsProjection.compute(log)
        where ["barbell-bench-press", "back-squat", "deadlift", "overhead-press"].contains(r.exerciseId) {
            Console.out(
                "  \(r.exercise.padding(toLength: 26, withPad: " ", startingAt: 0)) heaviest \(WeightText.value(kg: r.heaviestKg, in: .kg)), e1RM \(WeightText.value(kg: r.bestE1rmKg, in: .kg)), \(r.timeline.filter { $0.kind != .repMax }.count) records set (rep maxes aside)"
            )
        }
        let monday = Timestamp.parseISO8601("2026-11-16T18:30:00+01:00", defaultOffsetMinutes: 0)!
        let hint = LastTimeHintProjection.hint(log, exerciseId: "barbell-bench-press", context: .init(time: monday))
        Console.out("\nBefore Monday's bench press (`ledger hint \"Bench Press (Barbell)\" --at 2026-11-16T18:30:00+01:00`):")
        Console.out(
            "  last time \(hint.ago ?? "never"): \(hint.sets.map { WeightText.set(kg: $0.weightKg, reps: $0.reps, in: .kg) }.joined(separator: ", "))"
        )
        let volume = VolumeProjection.rows(log, by: .muscle).prefix(4)
        Console.out("\nMost trained muscles (`ledger volume --by muscle`): " + volume.map { "\($0.key) \($0.sets) sets" }.joined(separator: ", "))
        let access = EntitlementsProjection.state(log, at: monday)
        Console.out(
            "Plan (`ledger entitlements`): \(access.isPro ? "Pro" : "Free")."
                + (access.softUpsell ? " With \(counted(access.completedWorkouts, "workout")) completed on Free, the app may now suggest Pro." : ""))

        let discarded = try countEvents(store, "WorkoutDiscarded")
        let edits = try countEvents(store, "SetEdited")
        let swaps = try countEvents(store, "WorkoutExerciseSwapped")
        Console.out(
            "\nIn the log but not in your numbers: \(discarded) discarded workout, \(edits) set corrections, \(swaps) exercise swap (week 9, leg press → hack squat); week 7 was missed."
        )
        Console.out(
            """

            Try next:
              ledger history --month 2026-11
              ledger e1rm "Squat (Barbell)"              # with a terminal chart
              ledger prs deadlift --timeline
              ledger log --type SetEdited --json        # every correction, with device and times
              ledger workout start --name "Push"         # then: ledger workout log last "Bench Press (Barbell)" --reps 5 --weight 100
              ledger verify                              # walk the hash chain
            """)
    }

    private func countEvents(_ store: any EventStore, _ type: String) throws -> Int {
        var n = 0
        try store.read(EventQuery(types: [type])) { _ in n += 1 }
        return n
    }
}
