import Foundation
import RepLedgerCore

/// What changes when the same log is read under other rules (DOMAIN.md §9):
/// records gained and lost, e1RM points moved, volumes changed. This is how a
/// coach or an app team checks a rule change before shipping it.
public struct RuleSetDiff: Sendable {
    public enum Change: Sendable, Equatable {
        case recordGained(PersonalRecordsProjection.Record)
        case recordLost(PersonalRecordsProjection.Record)
        case e1rmMoved(exerciseId: String, workoutId: UUID, fromKg: Double?, toKg: Double?)
        case volumeChanged(week: String, fromSets: Int, toSets: Int, fromKg: Double, toKg: Double)
        /// The next session's target (DOMAIN.md §14) under the active program's settings.
        case nextTargetChanged(exerciseId: String, from: NextTargetProjection.Target, to: NextTargetProjection.Target)
        /// A week of the active program's block (`ProgramWeekPlan`): its effort, added sets or deload shares.
        case programWeekChanged(from: ProgramWeekPlan, to: ProgramWeekPlan)
        /// The warm-up ramp (`warmupScheme`) up to an exercise's next target, `working` in the lifting unit.
        case warmupChanged(exerciseId: String, working: Double, from: [WarmupRamp.Set], to: [WarmupRamp.Set])
    }

    public static func changes(_ log: TrainingLogProjection, from a: RuleSet, to b: RuleSet) -> [Change] {
        var out: [Change] = []
        // Records: the same kind set by the same set (or session) under both rules is unchanged.
        func key(_ r: PersonalRecordsProjection.Record) -> String {
            "\(r.exerciseId)|\(r.kind.rawValue)|\(r.repMax ?? 0)|\(r.workoutId.lowercased)|\(r.setId?.lowercased ?? "-")"
        }
        let before = PersonalRecordsProjection.compute(log, rules: a).flatMap(\.timeline)
        let after = PersonalRecordsProjection.compute(log, rules: b).flatMap(\.timeline)
        let beforeKeys = Set(before.map(key)), afterKeys = Set(after.map(key))
        out += after.filter { !beforeKeys.contains(key($0)) }.map(Change.recordGained)
        out += before.filter { !afterKeys.contains(key($0)) }.map(Change.recordLost)

        // e1RM points per exercise and workout.
        let exercises = Set(log.countedWorkouts.flatMap(\.exercisesDone)).sorted()
        for id in exercises {
            let pa = Dictionary(E1RMTrendProjection.points(log, exerciseId: id, rules: a).map { ($0.workoutId, $0) }, uniquingKeysWith: { x, _ in x })
            let pb = Dictionary(E1RMTrendProjection.points(log, exerciseId: id, rules: b).map { ($0.workoutId, $0) }, uniquingKeysWith: { x, _ in x })
            for w in log.countedWorkouts where pa[w.workoutId] != nil || pb[w.workoutId] != nil {
                let x = pa[w.workoutId]?.e1rmKg, y = pb[w.workoutId]?.e1rmKg
                if x != y { out.append(.e1rmMoved(exerciseId: id, workoutId: w.workoutId, fromKg: x, toKg: y)) }
            }
        }

        // Weekly volume.
        let va = Dictionary(VolumeProjection.rows(log, by: .week, rules: a).map { ($0.key, $0) }, uniquingKeysWith: { x, _ in x })
        let vb = Dictionary(VolumeProjection.rows(log, by: .week, rules: b).map { ($0.key, $0) }, uniquingKeysWith: { x, _ in x })
        for week in Set(va.keys).union(vb.keys).sorted() {
            let x = va[week], y = vb[week]
            if x?.sets != y?.sets || x?.tonnageKg != y?.tonnageKg {
                out.append(
                    .volumeChanged(
                        week: week, fromSets: x?.sets ?? 0, toSets: y?.sets ?? 0,
                        fromKg: x?.tonnageKg ?? 0, toKg: y?.tonnageKg ?? 0))
            }
        }

        // Next-session targets, for every exercise trained, as the rules make them: with no time asked, so a
        // break since the last session (a comeback, the same under any rules) hides no change.
        for id in exercises {
            let x = NextTargetProjection.next(log, exerciseId: id, programId: log.programs.active, rules: a)
            let y = NextTargetProjection.next(log, exerciseId: id, programId: log.programs.active, rules: b)
            if x.weightKg != y.weightKg || x.repsMin != y.repsMin || x.repsMax != y.repsMax || x.rule != y.rule || x.deload != y.deload {
                out.append(.nextTargetChanged(exerciseId: id, from: x, to: y))
            }
            // The ramp up to the target: a scheme changes no derived number, but it changes the sets before the work.
            if a.warmupScheme != b.warmupScheme, let kg = y.weightKg, kg > 0, !y.bodyweight {
                let unit = log.account.liftingUnit
                let plates = log.account.plateInventory(for: unit)
                if let loading = Loadable.of(log.library.exercises[id]?.definition, plates: plates, step: unit == .kg ? b.incrementKg : b.incrementLb)
                {
                    let working = (unit.fromKilograms(kg) * 1000).rounded() / 1000
                    let from = WarmupRamp.sets(working: working, scheme: a.warmupScheme, unit: unit, loading: loading)
                    let to = WarmupRamp.sets(working: working, scheme: b.warmupScheme, unit: unit, loading: loading)
                    if from != to { out.append(.warmupChanged(exerciseId: id, working: working, from: from, to: to)) }
                }
            }
        }
        // The active program's planned weeks.
        if let block = log.programs.active.flatMap({ id in log.programs.live.first { $0.programId == id } })?.weekPlan {
            for (x, y) in zip(ProgramWeekPlan.weeks(block, rules: a), ProgramWeekPlan.weeks(block, rules: b)) where x != y {
                out.append(.programWeekChanged(from: x, to: y))
            }
        }
        return out
    }
}
