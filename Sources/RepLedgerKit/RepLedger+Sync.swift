import Foundation
import RepLedgerSync

/// Syncing with an account on a `ledger serve` server, by the rules `ledger sync` follows.
extension RepLedger {
    /// Pushes what this device recorded, pulls what other devices pushed, and leaves this log holding
    /// the server's byte for byte, plus anything recorded meanwhile, still pending.
    ///
    /// The first sync names the server, the account and the file holding this device's token (read at
    /// every sync, never copied); later syncs take none. Concurrent edits of one workout from two
    /// devices both stay in the log, in the server's order; a pull rebases this device's pending
    /// events on the server's head, and observers of ``changes()`` hear what it brought.
    ///
    /// - Parameters:
    ///   - server: The server's URL (`https://…`), the first time.
    ///   - account: The account's id on the server, the first time.
    ///   - tokenFile: The path of the file holding this device's token, the first time.
    /// - Returns: How many events were pushed, pulled and refused, and the head after.
    /// - Throws: `SyncClient.Failure` when the server cannot be reached, refuses the token, or answers what a server does not.
    public func sync(server: String? = nil, account: String? = nil, tokenFile: String? = nil) async throws -> SyncClient.Outcome {
        if let server {
            guard let account, let tokenFile else { throw SyncClient.Failure.notConfigured }
            try SyncRound.target(store, remote: server, account: account, tokenFile: tokenFile)
        }
        let before = try store.headPosition()
        let outcome = try await SyncRound.run(store)
        if outcome.pulled > 0 { try announce(after: min(before, outcome.headPosition - Int64(outcome.pulled))) }
        return outcome
    }
}
