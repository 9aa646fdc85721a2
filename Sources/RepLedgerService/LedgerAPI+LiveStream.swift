import Foundation
import RepLedgerAccounts
import RepLedgerCore

/// What a live stream sends next: the rule the server's stream follows and the
/// sync simulation drives, so that both page, cut and end alike.
public struct LivePage: Sendable {
    /// The canonical lines after the stream's last position, in order.
    public var lines: [(position: Int64, json: String)]
    /// Why the stream ends after these lines, when it must (a coach's access revoked within them).
    public var end: APIError?
    /// A whole page came: read again at once, more may follow.
    public var more: Bool
}

extension LedgerAPI {
    /// The next page of a live stream after `after`, cut where the caller's right to read stops.
    /// The page is read first, then the limit: a revocation pushed between the two reads is then seen
    /// by the limit (the log only grows), never sent in the page as an ordinary event.
    public func livePage(
        log: AccountLog, after: Int64, caller: AccountDirectory.Caller, reauthenticate: () throws -> AccountDirectory.Caller
    ) throws -> LivePage {
        let page = try page(log: log, after: after, limit: Self.defaultPage).lines
        let limit = try streamLimit(reauthenticate: reauthenticate, caller: caller, log: log, after: after)
        let lines = page.filter { $0.position < limit }
        if lines.count < page.count {
            return LivePage(lines: lines, end: .forbidden("the account's owner revoked this coach's access at position \(limit)"), more: false)
        }
        return LivePage(lines: lines, end: nil, more: page.count == Self.defaultPage)
    }

    /// What a live stream may still send, checked before every page: it throws
    /// when the caller may no longer read this log at all (the token revoked, the
    /// account erased, a coach's product ended), else gives the position the
    /// stream must stop before (a revocation of this coach's grant after
    /// `after`; `.max` when there is none). Permission follows the log: the
    /// events before a revocation were readable when they were recorded.
    /// `reauthenticate` finds the caller again (by a bearer token, or the app's session).
    public func streamLimit(
        reauthenticate: () throws -> AccountDirectory.Caller, caller: AccountDirectory.Caller, log: AccountLog, after: Int64
    ) throws -> Int64 {
        let current = try reauthenticate()
        guard current == caller else { throw APIError.unauthorized }
        if caller.account.accountId == log.accountId { return .max }
        guard try hasCoachProduct(caller.account.accountId) else {
            throw APIError.forbidden("the Coach product on this account has ended")
        }
        return try log.withLedger { ledger in
            var stop = Int64.max
            try ledger.store.read(EventQuery(stream: .coaching, types: [CoachAccessRevoked.eventType.name], from: after + 1)) { e in
                if stop == .max, case .coachAccessRevoked(let r) = e.event, r.coachAccountId == caller.account.accountId { stop = e.position }
            }
            return stop
        }
    }
}
