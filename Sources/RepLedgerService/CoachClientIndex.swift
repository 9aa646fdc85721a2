import Foundation
import Logging
import RepLedgerAccounts
import RepLedgerCore

/// The roster's index: which clients' logs granted a coach access, so
/// `GET /v1/coach/clients` opens those clients' logs and not every account
/// on the server. The client's log stays the rule: each indexed client is
/// checked against its log's grants, so a row only ever names a candidate.
/// A row is written before its grant is appended (a crash between leaves a
/// row without a grant, never a grant without a row) and kept when the
/// grant is revoked (deleting it could race a new grant in another
/// process); erasing either account removes it.
package enum CoachClientIndex {
    /// The coaches `events` grant access to, by well-formed account id (a
    /// grant naming anything else is refused by admission, in its own words).
    package static func coaches(grantedIn events: [ProposedEvent]) -> Set<String> {
        Set(
            events.compactMap { proposed in
                guard case .coachAccessGranted(let grant) = proposed.event,
                    UUID(uuidString: grant.coachAccountId)?.uuidString.lowercased() == grant.coachAccountId
                else { return nil }
                return grant.coachAccountId
            })
    }

    /// Notes the grants of a batch about to be appended to `client`'s log.
    package static func note(_ events: [ProposedEvent], client: String, in table: any AccountTable) throws {
        let coaches = coaches(grantedIn: events)
        if !coaches.isEmpty { try table.indexCoachClients(client: client, coaches: coaches) }
    }

    /// Notes the grants in force in an account's whole log: a restored backup, or a log older than the index.
    package static func note(logOf accountId: String, logs: AccountLogs, in table: any AccountTable) throws {
        let coaches = try logs.log(accountId).withLedger { try $0.coaching().coaches }
        if !coaches.isEmpty { try table.indexCoachClients(client: accountId, coaches: coaches) }
    }

    /// At a server's start, once per storage: indexes the logs appended
    /// before the index existed, then marks it done. Idempotent, so servers
    /// starting together on one PostgreSQL may both run it; should it fail,
    /// the next start tries again.
    package static func backfill(_ api: LedgerAPI, logger: Logger) {
        let table = api.accounts.table
        do {
            guard try !table.coachClientsIndexed() else { return }
            var indexed = 0, failed = 0
            for account in try table.accounts() {
                do {
                    guard try api.hasReadableLog(account.accountId) else { continue }
                    try note(logOf: account.accountId, logs: api.logs, in: table)
                    indexed += 1
                } catch {
                    // One unreadable log leaves the others indexed; the index is marked done only when none failed.
                    failed += 1
                    logger.error("account \(account.accountId): its coach grants could not be indexed for the roster: \(error)")
                }
            }
            guard failed == 0 else { return }
            try table.markCoachClientsIndexed()
            logger.notice("indexed the coach grants of \(indexed) accounts' logs for the roster")
        } catch {
            logger.error("indexing the coach grants for the roster failed (the next start tries again): \(error)")
        }
    }
}
