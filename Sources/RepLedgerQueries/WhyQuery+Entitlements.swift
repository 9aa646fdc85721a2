import Foundation
import RepLedgerCore
import RepLedgerProjections

/// `why entitlement pro|coach`: whether the plan is in force at a time, with
/// the purchases, refunds, revocations and operator grants that decide it.
extension WhyQuery {
    /// At position N (`--as-of N`), the moment event N was recorded, as the As-of view reads entitlements; else the plan's time.
    static func entitlement(_ store: any EventStore, _ scope: QueryScope, log: TrainingLogProjection, target: String) throws -> Number {
        let plan = target.lowercased()
        guard plan == "pro" || plan == "coach" else { throw QueryError.invalidParameter("an entitlement is pro or coach, not '\(target)'") }
        let through = try scope.position(in: store)
        let at: Timestamp
        if let text = scope.asOf, Int64(text) != nil {
            at = through == 0 ? .now() : try store.event(at: through)?.recordedAt ?? .now()
        } else {
            at = try scope.planTime()
        }
        let state = log.account.entitlements
        let counts = { (p: Product) in plan == "pro" || p.grantsCoach }
        let transactions = state.order.compactMap { state.transactions[$0] }.filter { counts($0.product) }
        var lines = transactions.map { t in
            "\(t.product.rawValue) \(t.transactionId) \(t.purchasedAt.isoDate) → \(t.expiresAt.isoDate)"
                + (t.endedAt.map { ", ended \($0.isoDate)" } ?? "") + (t.isActive(at: at) ? " (in force)" : " (not in force)")
        }
        lines += state.operatorGrants.map { g in
            "a server operator's Coach \(g.from.isoDate) → \(g.until.isoDate)\(g.isActive(at: at) ? " (in force)" : " (not in force)")"
        }
        let active = plan == "pro" ? state.isPro(at: at) : state.isCoach(at: at)
        let ids = Set(transactions.map(\.transactionId))
        let cited = try store.read(stream: .account, through: through).compactMap { ev -> Event? in
            switch ev.event {
            case .purchaseRecorded(let p) where ids.contains(p.transactionId):
                return Event(
                    envelope: ev,
                    change: "\(p.product.rawValue) \(p.transactionId) bought, in force \(p.purchasedAt.iso8601) → \(p.expiresAt.iso8601)")
            case .purchaseRefunded(let p) where ids.contains(p.transactionId):
                return Event(envelope: ev, change: "\(p.transactionId) refunded \(p.refundedAt.iso8601)")
            case .purchaseRevoked(let p) where ids.contains(p.transactionId):
                return Event(envelope: ev, change: "\(p.transactionId) revoked \(p.revokedAt.iso8601)\(p.reason.isEmpty ? "" : ": \(p.reason)")")
            case .operatorCoachGranted(let g):
                return Event(envelope: ev, change: "Coach granted by the server's operator until \(g.until.iso8601)")
            default: return nil
            }
        }
        let name = plan == "pro" ? "Pro" : "Coach"
        return Number(
            kind: plan, value: active ? 1 : 0, unit: "active", repMax: nil, workoutId: nil, setIds: [], at: at,
            computation: (lines.isEmpty ? "no purchase or grant of \(name)" : lines.joined(separator: "; "))
                + ": \(name) is \(active ? "" : "not ")in force at \(at.iso8601) (a product is in force from its purchase until its expiry, unless refunded or revoked first)",
            events: cited)
    }
}
