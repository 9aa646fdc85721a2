import Logging
import RepLedgerCore

/// Accounts stored by the first server release, in clear and without a key,
/// are sealed when a server starts: a key is made, the log is sealed
/// byte-exact (same positions and hashes), then the name. The sealed name
/// marks the account done, so a crash at any step is finished at the next
/// start.
package enum LegacyAccountSealing {
    package static func run(_ storage: any ServerStorage, logger: Logger) {
        do {
            for account in try storage.accountTable.accounts() where !account.name.hasPrefix(AccountDirectory.sealedNamePrefix) {
                guard !storage.keys.isErased(account.accountId) else { continue }
                do {
                    let cipher = try storage.keys.existingOrNewKey(for: account.accountId)
                    let events = try storage.sealLegacyLog(account.accountId, with: cipher)
                    try storage.accountTable.replaceName(
                        account.accountId, with: try AccountDirectory.sealedName(account.name, accountId: account.accountId, cipher: cipher))
                    logger.notice("account \(account.accountId): stored before encryption at rest; its \(events) events and its name are sealed now")
                } catch {
                    logger.error("account \(account.accountId): stored before encryption at rest, and sealing it failed: \(error)")
                }
            }
        } catch {
            logger.error("accounts stored before encryption at rest could not be listed: \(error)")
        }
    }
}
