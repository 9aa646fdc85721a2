import Foundation
import RepLedgerCore

/// What changed between two points of the log (`ledger diff`): workouts added,
/// removed (discarded) or changed, records moved, entitlements changed.
public struct LogDiff: ProjectionView {
    public static let name = "log-diff"
    /// 2: weights in the lifter's unit (they were always in kg). 3: rep maxes among the records that moved.
    public static let version = 3

    public struct Change: Sendable, Equatable {
        /// `history`, `records` or `entitlements`.
        public var area: String
        /// `added`, `removed` or `changed`.
        public var kind: String
        public var subject: String
        public var detail: String
    }

    /// `unit`: the lifter's unit to word weights in (the caller's current setting; by default the later point's).
    public static func between(
        _ a: TrainingLogProjection, _ b: TrainingLogProjection, rules: RuleSet = .default,
        timeBefore: Timestamp, timeAfter: Timestamp, unit: WeightUnit? = nil
    ) -> [Change] {
        var out: [Change] = []
        let unit = unit ?? b.account.liftingUnit
        func kg(_ v: Double?) -> String { v.map { unit.words(kilograms: $0) } ?? "none" }

        // History.
        let before = Dictionary(uniqueKeysWithValues: WorkoutHistoryProjection.workouts(a, rules: rules).map { ($0.workoutId, $0) })
        let after = WorkoutHistoryProjection.workouts(b, rules: rules)
        let afterIds = Set(after.map(\.workoutId))
        for w in after.reversed() {
            let subject = "\(w.startedAt.isoDate) \(w.name) [\(w.workoutId.lowercased.prefix(8))]"
            guard let old = before[w.workoutId] else {
                out.append(Change(area: "history", kind: "added", subject: subject, detail: "\(w.sets) sets, \(kg(w.tonnageKg))"))
                continue
            }
            guard old != w else { continue }
            var details: [String] = []
            if old.sets != w.sets { details.append("sets \(old.sets) → \(w.sets)") }
            if old.tonnageKg != w.tonnageKg { details.append("tonnage \(kg(old.tonnageKg)) → \(kg(w.tonnageKg))") }
            if old.finishedAt == nil, w.finishedAt != nil { details.append("finished") }
            if details.isEmpty { details.append("sets edited") }
            out.append(Change(area: "history", kind: "changed", subject: subject, detail: details.joined(separator: ", ")))
        }
        for old in before.values.sorted(by: { $0.startedAt < $1.startedAt }) where !afterIds.contains(old.workoutId) {
            out.append(
                Change(
                    area: "history", kind: "removed", subject: "\(old.startedAt.isoDate) \(old.name) [\(old.workoutId.lowercased.prefix(8))]",
                    detail: b.workouts[old.workoutId]?.status == .discarded ? "discarded" : "no longer counted"))
        }

        // Records.
        let recordsBefore = Dictionary(uniqueKeysWithValues: PersonalRecordsProjection.compute(a, rules: rules).map { ($0.exerciseId, $0) })
        for r in PersonalRecordsProjection.compute(b, rules: rules) {
            let old = recordsBefore[r.exerciseId]
            var pairs: [(String, Double?, Double?)] = [
                ("heaviest", old?.heaviestKg, r.heaviestKg), ("e1RM", old?.bestE1rmKg, r.bestE1rmKg),
                ("set volume", old?.bestSetVolumeKg, r.bestSetVolumeKg), ("session volume", old?.bestSessionVolumeKg, r.bestSessionVolumeKg),
            ]
            // Each rep max that moved, appeared or went, in rep order ("5RM 100 kg → 102.5 kg").
            for reps in Set(r.repMaxesKg.keys).union(old.map { Array($0.repMaxesKg.keys) } ?? []).sorted() {
                pairs.append(("\(reps)RM", old?.repMaxesKg[reps], r.repMaxesKg[reps]))
            }
            let moved = pairs.filter { $0.1 != $0.2 }.map { "\($0.0) \(kg($0.1)) → \(kg($0.2))" }
            if !moved.isEmpty {
                out.append(
                    Change(area: "records", kind: old == nil ? "added" : "changed", subject: r.exercise, detail: moved.joined(separator: ", ")))
            }
        }
        let exercisesAfter = Set(PersonalRecordsProjection.compute(b, rules: rules).map(\.exerciseId))
        for old in recordsBefore.values.sorted(by: { $0.exercise < $1.exercise }) where !exercisesAfter.contains(old.exerciseId) {
            out.append(Change(area: "records", kind: "removed", subject: old.exercise, detail: "no records any more"))
        }

        // Entitlements.
        let ea = EntitlementsProjection.state(a, at: timeBefore), eb = EntitlementsProjection.state(b, at: timeAfter)
        func plan(_ s: EntitlementsProjection.State) -> String { s.isCoach ? "Coach" : s.isPro ? "Pro" : "Free" }
        if plan(ea) != plan(eb) || ea.activeProducts != eb.activeProducts {
            let products = eb.activeProducts.map(\.rawValue).joined(separator: ", ")
            out.append(
                Change(
                    area: "entitlements", kind: "changed", subject: "plan",
                    detail: "\(plan(ea)) → \(plan(eb))" + (products.isEmpty ? "" : " (\(products))")))
        }
        if ea.softUpsell != eb.softUpsell {
            out.append(Change(area: "entitlements", kind: "changed", subject: "upsell", detail: eb.softUpsell ? "now offered" : "no longer offered"))
        }
        return out
    }
}
