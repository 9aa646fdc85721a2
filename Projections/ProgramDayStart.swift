import Foundation
import RepLedgerCore

extension Ledger {
    /// `workout start --program P --day N`: the program's day as planned sets. In a planned week the day
    /// takes that week's sets (fitted to the program's session minutes), and a planned deload week's
    /// workout is a deload.
    public func startProgramDay(
        program: String, day: Int, name: String? = nil, at time: Timestamp? = nil, activity: WorkoutActivity? = nil, deload: Bool = false
    ) throws -> UUID {
        try execute(at: time) { session in
            let p = try session.programCatalog().resolve(program)
            let week = p.weekPlan.map { ProgramWeekPlan($0, onDay: (time ?? .now()).local.daysSinceEpoch, rules: .default) }
            let sets = week.map { $0.sets(p.generated, library: session.library, minutes: p.sessionMinutes) }.flatMap {
                $0.indices.contains(day - 1) ? $0[day - 1] : nil
            }
            let id = try session.startWorkout(program: program, day: day, name: name, sets: sets)
            if let activity, activity != .strength { try session.setActivity(id, activity) }
            if deload || week?.deload == true { try session.markDeload(id, true) }
            return id
        }
    }
}
