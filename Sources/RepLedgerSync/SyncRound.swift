import AsyncHTTPClient
import Foundation
import RepLedgerCore
import RepLedgerSQLite
import RepLedgerSnapshots

/// One sync as `ledger sync` and RepLedgerKit run it, so both name a target and sync by the same rules.
public enum SyncRound {
    /// Makes the account at `remote` this ledger's sync target (the first sync; later ones reuse it),
    /// after ``check(_:remote:account:)``.
    public static func target(_ store: SQLiteEventStore, remote: String, account: String, tokenFile: String) throws {
        try check(store, remote: remote, account: account)
        let absolute = tokenFile.hasPrefix("/") ? tokenFile : FileManager.default.currentDirectoryPath + "/" + tokenFile
        try store.saveSyncTarget(remote: remote, account: account.lowercased(), tokenFile: absolute)
    }

    /// Refuses `remote` when it is not an http(s) URL, and the account when the ledger has synced
    /// with another account or server: a ledger syncs with one account.
    public static func check(_ store: SQLiteEventStore, remote: String, account: String?) throws {
        guard remote.hasPrefix("http://") || remote.hasPrefix("https://") else { throw SyncClient.Failure.notAServerURL(remote) }
        guard let account, let existing = try store.syncState(), existing.confirmedPosition > 0 else { return }
        if existing.account != account.lowercased() || existing.remote != remote {
            throw SyncClient.Failure.syncsElsewhere(account: existing.account, remote: existing.remote)
        }
    }

    /// Syncs over an HTTP client of its own, then snapshots the log again by the append policy: a sync
    /// rebases the log on the server's (its snapshots go with the old chain) and can pull a whole history.
    /// It runs on the caller's actor (`isolation`), which keeps the store.
    public static func run(
        _ store: SQLiteEventStore, onWaiting: (@Sendable (_ patienceSeconds: Int) -> Void)? = nil,
        isolation: isolated (any Actor)? = #isolation
    ) async throws -> SyncClient.Outcome {
        let http = HTTPClient(eventLoopGroupProvider: .singleton, configuration: SyncClient.httpConfiguration)
        let outcome: SyncClient.Outcome
        do {
            var client = try SyncClient(store: store, client: http)
            client.onWaiting = onWaiting
            outcome = try await client.run()
        } catch {
            try? await http.shutdown()
            throw error
        }
        try await http.shutdown()
        if outcome.pulled > 0 || outcome.pushed > 0 { try SnapshotPolicy.apply(store) }
        return outcome
    }
}
