import Foundation
import RepLedgerCore
import RepLedgerQueries

/// REPLEDGER_ANALYSIS_HOOK: the command this device runs (with /bin/sh) with
/// the ledger's analysis of a workout on its standard input, so an outside
/// engine can fill in its own. It runs where the analysis is recorded, and
/// on every device a watch workout reaches later, by sync or by a watch's
/// batch: each device's engine hears of it once, on that device.
public enum AnalysisHook {
    /// The hook's command, when one is set.
    public static var command: String? {
        guard let hook = ProcessInfo.processInfo.environment["REPLEDGER_ANALYSIS_HOOK"], !hook.trimmingSpaces().isEmpty else { return nil }
        return hook
    }

    /// Runs the hook, if set, with `markdown` on its standard input and REPLEDGER_WORKOUT_ID and REPLEDGER_DB in its
    /// environment. A failing hook is said in one line and changes nothing.
    public static func run(_ global: GlobalOptions, _ id: UUID, _ markdown: String) {
        guard let hook = command else { return }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/sh")
        p.arguments = ["-c", hook]
        var env = ProcessInfo.processInfo.environment
        env["REPLEDGER_WORKOUT_ID"] = id.lowercased
        env["REPLEDGER_DB"] = URL(fileURLWithPath: global.path).standardizedFileURL.path
        p.environment = env
        let input = Pipe()
        p.standardInput = input
        // A hook that exits without reading its input must not take the ledger with it.
        signal(SIGPIPE, SIG_IGN)
        do {
            try p.run()
            // A hook may stop reading early: what it did not read is its own choice, not a failure here.
            try? input.fileHandleForWriting.write(contentsOf: Data(markdown.utf8))
            try? input.fileHandleForWriting.close()
            p.waitUntilExit()
            if p.terminationStatus != 0 { Console.error("warning: the analysis hook exited with \(p.terminationStatus)") }
        } catch {
            Console.error("warning: the analysis hook could not run: \(error.localizedDescription)")
        }
    }

    /// The ledger's latest analysis recorded for the workout, if any.
    public static func recorded(_ store: any EventStore, _ id: UUID) throws -> String? {
        try WorkoutAnalysisQuery.recorded(store, workoutId: id).last { $0.engine == WorkoutAnalysisQuery.ledgerEngine }?.markdown
    }

    /// The log's finished watch workouts (heart rate or energy sampled): what a sync or a batch is compared by.
    public static func watchWorkouts(_ store: any EventStore) throws -> Set<UUID> {
        let log = try QueryScope().log(store)
        return Set(log.workouts.values.filter { $0.status == .finished && ($0.heartRateSamples > 0 || $0.activeEnergyKcal > 0) }.map(\.workoutId))
    }

    /// Runs the hook for each watch workout a merge or a sync brought (the log's `watchWorkouts` now, less
    /// `before`), in id order, with the ledger's analysis recorded for it; answers those that came with none.
    public static func deliverArrived(_ global: GlobalOptions, _ store: any EventStore, before: Set<UUID>) throws -> [UUID] {
        var missing: [UUID] = []
        for id in try watchWorkouts(store).subtracting(before).sorted(by: { $0.lowercased < $1.lowercased }) {
            if let markdown = try recorded(store, id) { run(global, id, markdown) } else { missing.append(id) }
        }
        return missing
    }
}
