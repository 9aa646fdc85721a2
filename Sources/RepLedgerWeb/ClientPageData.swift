import Foundation
import RepLedgerAccounts
import RepLedgerCore
import RepLedgerProjections
import RepLedgerQueries
import RepLedgerService

/// Everything a coach's client page shows, read under one hold of the
/// client's log through the same queries the JSON API answers with:
/// `progress` is `/progress`'s, the e1RM lines are `/e1rm/{exercise}`'s
/// weekly points, the volume bars `/volume?by=week`'s rows.
struct ClientPageData {
    package var accountId: String
    package var name: String
    package var progress: ClientProgress
    /// The three weighted lifts most trained in the last 12 weeks: their best e1RM of each workout in those weeks (kg), days since 1970.
    package var lifts: [(name: String, points: [(day: Double, kg: Double)])]
    /// Weekly tonnage (kg), the last 12 weeks with training.
    package var volume: [(label: String, kg: Double)]
    /// Weigh-ins (kg), the last 30.
    package var bodyweight: [(day: Double, kg: Double)]
    package var notes: [(at: Timestamp, text: String)]
    package var offers: [(offer: LedgerAPI.Offer, status: String)]
    package var programs: [(String, String)]
    package var templates: [(String, String)]
}

extension LedgerAPI {
    /// The e1RM chart's window: the last 12 weeks.
    static let liftChartDays: Int64 = 84

    /// The page of `client` for a coach that may read it (403 otherwise, as the API answers).
    func clientPage(_ caller: AccountDirectory.Caller, client: String, now: Timestamp = .now()) throws -> ClientPageData {
        let log = try authorize(caller, account: client, write: false)
        guard let account = try accounts.account(client) else { throw APIError.forbidden("this token may not read account \(client)") }
        defer { logs.keepWarmWithinBudget() }
        let (progress, lifts, volume, bodyweight, answers) = try log.withLedger { ledger in
            let store = ledger.store
            let scope = QueryScope(warm: log.warm)
            let training = try scope.log(store)
            let progress = try self.progress(ledger, log: log, now: now)
            // The weighted lifts most trained in the chart's window, by working sets: the ones a coach follows
            // now. A lift not done in the window has no place on it, however much it was done before.
            let windowStart = now.local.daysSinceEpoch - Self.liftChartDays
            var sets: [String: Int] = [:]
            for w in training.countedWorkouts where (w.startedAt?.local.daysSinceEpoch ?? .min) > windowStart {
                for s in w.sets where s.completed && s.type.isWorking && (s.weightKg ?? 0) > 0 { sets[s.exerciseId, default: 0] += 1 }
            }
            let top = sets.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.prefix(3).map(\.key)
            let lifts = try top.map { id -> (String, [(Double, Double)]) in
                let answer = try E1RMQuery.answer(store, scope, exercise: id)
                let points = answer.points.map { (Double($0.date.local.daysSinceEpoch), $0.e1rmKg) }.filter { $0.0 > Double(windowStart) }
                return (answer.exercise.name, points)
            }
            let volume = try VolumeQuery.answer(store, scope, by: "week").rows.suffix(12).map { ($0.label, $0.tonnageKg) }
            let bodyweight = training.body.measurements.suffix(30).map { (Double($0.at.local.daysSinceEpoch), $0.kilograms) }
            return (progress, lifts, volume, bodyweight, try ledger.coaching().answers)
        }
        let offers = try self.offers(to: log.accountId, from: caller.account.accountId).map { o in
            (o, answers[o.offer.assignmentId].map { $0 ? "accepted" : "declined" } ?? "offered")
        }
        let (programs, templates) = try assignables(caller)
        return ClientPageData(
            accountId: log.accountId, name: accounts.name(of: account), progress: progress,
            lifts: lifts.map { (name: $0.0, points: $0.1.map { (day: $0.0, kg: $0.1) }) },
            volume: volume.map { (label: $0.0, kg: $0.1) }, bodyweight: bodyweight.map { (day: $0.0, kg: $0.1) },
            notes: try notes(caller, about: log.accountId), offers: offers, programs: programs, templates: templates)
    }
}
