import Foundation
import LedgerShell
import RepLedgerCore
import RepLedgerProjections

/// `rebuild --diff` for people: totals first, then one block per exercise
/// with its changes grouped and dated, then weekly volume in one line.
/// Nothing unchanged and no line twice; `--json` keeps every change.
enum RebuildDiffText {
    static func lines(_ changes: [RuleSetDiff.Change], log: TrainingLogProjection, against: String) -> [String] {
        let unit = log.account.liftingUnit
        var perExercise: [String: Block] = [:]
        var weeks: [(week: String, sets: Int, kg: Double)] = []
        var planned: [(from: ProgramWeekPlan, to: ProgramWeekPlan)] = []
        var warmups: [String] = []
        for c in changes {
            switch c {
            case .recordGained(let r): perExercise[r.exerciseId, default: Block()].gained.append(r)
            case .recordLost(let r): perExercise[r.exerciseId, default: Block()].lost.append(r)
            case .e1rmMoved(let id, let w, let from, let to):
                perExercise[id, default: Block()].moved.append((log.workouts[w]?.startedAt, from, to))
            case .volumeChanged(let week, let fs, let ts, let fk, let tk):
                weeks.append((week, ts - fs, tk - fk))
            case .nextTargetChanged(let id, let from, let to):
                perExercise[id, default: Block()].next = to
                perExercise[id, default: Block()].previous = from
            case .programWeekChanged(let from, let to):
                planned.append((from, to))
            case .warmupChanged(let id, let working, let from, let to):
                func ramp(_ sets: [WarmupRamp.Set]) -> String { sets.map { "\($0.weight.formatted)×\($0.reps)" }.joined(separator: ", ") }
                warmups.append("  \(log.exerciseName(id)), up to \(working.formatted) \(unit.rawValue): \(ramp(from)) → \(ramp(to))")
            }
        }
        let gained = perExercise.values.map(\.gained.count).reduce(0, +)
        let lost = perExercise.values.map(\.lost.count).reduce(0, +)
        let moved = perExercise.values.map(\.moved.count).reduce(0, +)
        let movedIn = perExercise.values.filter { !$0.moved.isEmpty }.count
        var out = [
            "Against \(against): \(gained) records gained, \(lost) lost; e1RM moved in \(moved) workouts of \(movedIn) exercises; "
                + "volume changed in \(weeks.count) weeks; next target changed for \(perExercise.values.filter { $0.next != nil }.count) exercises."
        ]

        let order = perExercise.sorted { a, b in
            (a.value.size, log.exerciseName(b.key)) > (b.value.size, log.exerciseName(a.key))
        }
        out.append("")
        for (id, block) in order {
            // One line per exercise with its e1RM shift; records gained and lost, grouped by kind, under it.
            var line = log.exerciseName(id)
            if !block.moved.isEmpty {
                let deltas = block.moved.compactMap { m in m.from.flatMap { f in m.to.map { $0 - f } } }
                let dates = block.moved.compactMap(\.date).sorted()
                line += ": e1RM moved in \(block.moved.count) workout\(block.moved.count == 1 ? "" : "s")"
                if let first = dates.first, let last = dates.last {
                    line += first.isoDate == last.isoDate ? " (\(first.isoDate))" : " (\(first.isoDate) to \(last.isoDate))"
                }
                if let lo = deltas.min(), let hi = deltas.max() {
                    let mean = deltas.reduce(0, +) / Double(deltas.count)
                    line += lo == hi ? ", \(signed(lo, unit))" : ", \(signed(lo, unit)) to \(signed(hi, unit)), mean \(signed(mean, unit))"
                }
                let appeared = block.moved.filter { $0.from == nil }.count, vanished = block.moved.filter { $0.to == nil }.count
                if appeared > 0 { line += "; \(appeared) new" }
                if vanished > 0 { line += "; \(vanished) gone" }
            }
            out.append(line)
            if !block.gained.isEmpty { out.append("  + gained: " + grouped(block.gained, unit)) }
            if !block.lost.isEmpty { out.append("  − lost: " + grouped(block.lost, unit)) }
            if let t = block.next, let was = block.previous {
                if t.weightKg != was.weightKg || t.repsMin != was.repsMin || t.repsMax != was.repsMax || t.rule != was.rule {
                    let what = t.weightKg.map { "\(WeightText.show(kg: $0, in: unit)) × \(t.repsMin)–\(t.repsMax)" } ?? "× \(t.repsMin)–\(t.repsMax)"
                    let rule = t.deload == nil ? "\(t.rule.rawValue): " : ""
                    out.append("  → next: \(what) (\(rule)\(t.reason))")
                } else if t.deload != was.deload {
                    // Only the deload moved: its reason names the exercise's own e1RM and dates.
                    out.append("  → deload: " + (t.deload?.reason ?? "none suggested now (was: \(was.deload?.reason ?? ""))"))
                }
            }
        }
        if !weeks.isEmpty {
            let keys = weeks.map(\.week).sorted()
            let sets = weeks.map(\.sets), kg = weeks.map(\.kg)
            out.append("")
            out.append(
                "Weekly volume changed in \(weeks.count) weeks (\(keys.first!) to \(keys.last!)): sets "
                    + "\(signedInt(sets.min()!)) to \(signedInt(sets.max()!)), tonnage \(signed(kg.min()!, unit)) to \(signed(kg.max()!, unit))")
        }
        if !warmups.isEmpty {
            out.append("")
            out.append("Warm-ups before the next targets:")
            out += warmups
        }
        if !planned.isEmpty {
            out.append("")
            out.append("The active program's planned weeks:")
            for (from, to) in planned {
                out.append("  \(from.line) → \(to.line.replacingOccurrences(of: "week \(to.week) of \(to.weeks) ", with: ""))")
            }
        }
        out.append("")
        out.append("Every change, with its workout and set: `ledger rebuild --diff --json`.")
        return out
    }

    private struct Block {
        var gained: [PersonalRecordsProjection.Record] = []
        var lost: [PersonalRecordsProjection.Record] = []
        var moved: [(date: Timestamp?, from: Double?, to: Double?)] = []
        var next: NextTargetProjection.Target?
        var previous: NextTargetProjection.Target?
        var size: Int { gained.count + lost.count + moved.count + (next == nil ? 0 : 1) }
    }

    /// "e1RM ×12 (latest 104.5 kg, 2023-05-02), 5RM 90 kg (2022-01-03)": one entry per kind of record.
    private static func grouped(_ records: [PersonalRecordsProjection.Record], _ unit: WeightUnit) -> String {
        var kinds: [String: [PersonalRecordsProjection.Record]] = [:]
        var order: [String] = []
        for r in records.sorted(by: { $0.at < $1.at }) {
            let label = RecordText.label(r.kind, repMax: r.repMax)
            if kinds[label] == nil { order.append(label) }
            kinds[label, default: []].append(r)
        }
        return order.map { label in
            let rs = kinds[label]!
            let last = rs.last!
            let value = "\(RecordText.value(last.kind, last.value, in: unit)), \(last.at.isoDate)"
            return rs.count == 1 ? "\(label) \(value)" : "\(label) ×\(rs.count) (latest \(value))"
        }.joined(separator: "; ")
    }

    private static func signed(_ kg: Double, _ unit: WeightUnit) -> String {
        let v = (unit.fromKilograms(kg) * 10).rounded() / 10
        return (v > 0 ? "+" : v < 0 ? "−" : "±") + "\(abs(v).formatted) \(unit.rawValue)"
    }

    private static func signedInt(_ n: Int) -> String { n > 0 ? "+\(n)" : n < 0 ? "−\(-n)" : "±0" }
}
