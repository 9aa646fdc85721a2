import Foundation
import RepLedgerCore

/// What a week of a program's block asks for (issue 49, rows 4 and 5), from
/// the block's shape (`ProgramBlock`) and the rules: a mesocycle's
/// accumulation weeks step the target effort from `mesocycleStartRIR` down to
/// `mesocycleEndRIR` and add `mesocycleSetsPerMuscle` sets to each muscle's
/// week per week after the first; the block's last week is a deload at
/// `deloadIntensity` of the load and `deloadVolume` of the sets. A plain
/// deload cycle leaves its other weeks as the program has them.
public struct ProgramWeekPlan: Sendable, Equatable {
    public var kind: ProgramBlockKind
    /// 1-based, and the block's length.
    public var week: Int
    public var weeks: Int
    /// Which repetition of the block (1 is the first).
    public var cycle: Int
    public var deload: Bool
    /// The target reps in reserve of a mesocycle's accumulation week.
    public var rir: Int?
    /// Sets added to each muscle's week.
    public var setsAddedPerMuscle: Int
    /// Shares of the load and of the sets (1 outside a deload).
    public var loadFactor: Double
    public var volumeFactor: Double
    /// The week's first day, `YYYY-MM-DD`, and whether the block has begun.
    public var startsOn: String
    public var begun: Bool

    /// The week of `block` that `day` (local days since 1970-01-01) falls in.
    public init(_ block: ProgramBlock, onDay day: Int64, rules: RuleSet) {
        let p = block.position(onDay: day)
        self.init(block, week: p.week, rules: rules)
        cycle = p.cycle
        startsOn = ProgramBlock.date(p.firstDay)
        begun = p.begun
    }

    /// Week `week` (1-based) of `block`'s first repetition.
    public init(_ block: ProgramBlock, week: Int, rules: RuleSet) {
        kind = block.kind
        self.week = week
        weeks = block.weeks
        cycle = 1
        deload = block.isDeload(week: week)
        startsOn = ProgramBlock.date(block.startDay + Int64(week - 1) * 7)
        begun = true
        loadFactor = deload ? rules.deloadIntensity : 1
        volumeFactor = deload ? rules.deloadVolume : 1
        rir = nil
        setsAddedPerMuscle = 0
        guard kind == .mesocycle, !deload else { return }
        let accumulation = block.weeks - 1
        let (from, to) = (Double(rules.mesocycleStartRIR), Double(rules.mesocycleEndRIR))
        rir = accumulation <= 1 ? rules.mesocycleStartRIR : Int((from - (from - to) * Double(week - 1) / Double(accumulation - 1)).rounded())
        setsAddedPerMuscle = (week - 1) * rules.mesocycleSetsPerMuscle
    }

    /// Every week of the block's first repetition.
    public static func weeks(_ block: ProgramBlock, rules: RuleSet) -> [ProgramWeekPlan] {
        (1...block.weeks).map { ProgramWeekPlan(block, week: $0, rules: rules) }
    }

    /// A deload's share of `sets`, never below one set.
    public func sets(deloading sets: Int) -> Int { deload ? max(1, Int((Double(sets) * volumeFactor).rounded())) : sets }

    /// The week's sets of each of the program's own exercises, by day and line: the program's sets, a deload's share of
    /// them, or in an accumulation week the muscle's added sets dealt out over its exercises in the program's order
    /// (day by day, line by line), so a muscle's week grows by `setsAddedPerMuscle`, where its days have the time:
    /// given the session's `minutes`, a set goes to a day only while the day still fits them (`SessionTime`), so the
    /// last accumulation week is as long as the session, never longer; a set no day has room for is not added.
    public func sets(_ program: ProgramGenerated, library: LibraryState, minutes: Int?) -> [[Int]] {
        var out = program.sessions.map { $0.exercises.map { sets(deloading: $0.sets) } }
        guard setsAddedPerMuscle > 0 else { return out }
        var byMuscle: [String: [(day: Int, line: Int)]] = [:]
        var order: [String] = []
        for (d, s) in program.sessions.enumerated() {
            for (i, x) in s.exercises.enumerated() {
                let muscle = library.exercises[x.exerciseId]?.definition.primaryMuscles.first?.rawValue ?? x.exerciseId
                if byMuscle[muscle] == nil { order.append(muscle) }
                byMuscle[muscle, default: []].append((d, i))
            }
        }
        var seconds = program.sessions.indices.map { SessionTime.seconds(program.sessions[$0], sets: out[$0]) }
        let budget = minutes.map { $0 * 60 } ?? .max
        // Round by round over the muscles, so a week's sets are the week before's and more: no line loses a set.
        for k in 0..<setsAddedPerMuscle {
            for muscle in order {
                let lines = byMuscle[muscle]!
                // The line whose turn it is, else the muscle's next line on a day with room.
                let turn = (0..<lines.count).map { lines[(k + $0) % lines.count] }
                let cost = { (l: (day: Int, line: Int)) in
                    SessionTime.secondsPerSet(restSeconds: program.sessions[l.day].exercises[l.line].restSeconds)
                }
                guard let l = turn.first(where: { seconds[$0.day] + cost($0) <= budget }) else { continue }
                out[l.day][l.line] += 1
                seconds[l.day] += cost(l)
            }
        }
        return out
    }

    /// "week 2 of 5 (accumulation, RIR 2, +1 set per muscle)", "week 5 of 5 (deload: 90 % load, 60 % sets)".
    public var line: String {
        let what: String
        if deload {
            what = "deload: \(Int((loadFactor * 100).rounded())) % load, \(Int((volumeFactor * 100).rounded())) % sets"
        } else if let rir {
            what =
                "accumulation, RIR \(rir)"
                + (setsAddedPerMuscle > 0 ? ", +\(setsAddedPerMuscle) set\(setsAddedPerMuscle == 1 ? "" : "s") per muscle" : "")
        } else {
            what = "as written"
        }
        return "week \(week) of \(weeks) (\(what))"
    }

    /// A next-session target in this week: its sets (`sets`, the week's for the exercise's program day), an accumulation
    /// week's effort, or a deload's lighter load (the last session's top weight × `loadFactor`, loadable) and fewer sets.
    /// A reactive deload or a comeback gives way to a planned deload; in any other week either keeps its load,
    /// and a reactive deload takes no more sets than the week's.
    public func apply(to target: NextTargetProjection.Target, sets: Int?, log: TrainingLogProjection, rules: RuleSet) -> NextTargetProjection.Target {
        var t = target
        t.sets = sets
        if !deload, let lighter = t.deload, lighter.kind == .deload { t.sets = sets.map { min($0, lighter.sets) } ?? lighter.sets }
        if deload {
            t.deload = nil
            // A percentage target deloads from its share of the max; any other from the last top weight.
            let base = t.percentOf.map { $0.maxKg * Double($0.percent) / 100 }
            let top = base ?? NextTargetProjection.sessions(log, exerciseId: t.exerciseId).last?.top ?? 0
            if top > 0 {
                t.weightKg = DeloadAdvice.load(log, exerciseId: t.exerciseId, topKg: top, factor: loadFactor, rules: rules)
                t.unroundedKg = nil
            }
            let of = base == nil ? "the last top weight" : "the \(t.percentOf!.percent) % target"
            t.reason = "planned deload, \(line)" + (top > 0 ? ": \(Int((loadFactor * 100).rounded())) % of \(of)" : "")
        } else if let rir {
            t.rir = rir
            if t.rpe != nil {
                // No session to go on: the week's effort chooses the starting weight.
                t.rpe = Double(10 - rir)
                t.reason =
                    rir == 0
                    ? "no session yet: start at a weight you can lift \(t.repsMax) times and no more"
                    : "no session yet: start at a weight you could lift \(t.repsMax + rir) times, so \(t.repsMax) reps leave \(rir) in reserve"
            }
            t.reason += "; \(line)"
        }
        return t
    }
}
