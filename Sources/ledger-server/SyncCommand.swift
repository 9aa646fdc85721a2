import ArgumentParser
import AsyncHTTPClient
import Foundation
import LedgerShell
import RepLedgerCore
import RepLedgerQueries
import RepLedgerSQLite
import RepLedgerSnapshots
import RepLedgerSync

/// `ledger sync`: this device's ledger with its account on a server (SERVER.md §5).
struct SyncCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync", abstract: ServerCommands.syncAbstract,
        discussion: """
            Pushes the events recorded here since the last sync, pulls what other devices pushed, and leaves this \\
            ledger holding the server's log byte for byte (plus anything still pending). Events the server refuses \\
            are set aside and shown by `ledger sync status`.

            Examples:
              ledger sync http://127.0.0.1:8787 --account ACCOUNT --token-file phone.token   # the first time
              ledger sync                                                                      # afterwards
              ledger sync status
            """,
        subcommands: [Now.self, Status.self], defaultSubcommand: Now.self)

    struct Now: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "now", abstract: "Sync now → {\"pushed\",\"pulled\",\"rejected\",\"head\"}.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The server, e.g. http://127.0.0.1:8787 (the first time; remembered).") var url: String?
        @Option(help: "The account id on the server (the first time).") var account: String?
        @Option(help: "A file holding this device's token (the first time; read at every sync, never copied).") var tokenFile: String?

        func run() throws {
            let store = try global.openOrCreateStore()
            if let url {
                guard let account, let tokenFile else { throw ValidationError("the first sync needs URL, --account and --token-file") }
                guard url.hasPrefix("http://") || url.hasPrefix("https://") else {
                    throw ValidationError("the server URL starts with http:// or https://")
                }
                let absolute = tokenFile.hasPrefix("/") ? tokenFile : FileManager.default.currentDirectoryPath + "/" + tokenFile
                if let existing = try store.syncState(), existing.confirmedPosition > 0,
                    existing.account != account.lowercased() || existing.remote != url
                {
                    throw ValidationError("this ledger syncs with account \(existing.account) at \(existing.remote); a ledger syncs with one account")
                }
                try store.saveSyncTarget(remote: url, account: account.lowercased(), tokenFile: absolute)
            }
            final class Box: @unchecked Sendable { var outcome = SyncClient.Outcome() }
            let box = Box()
            let http = HTTPClient(eventLoopGroupProvider: .singleton, configuration: SyncClient.httpConfiguration)
            defer { try? http.syncShutdown() }
            var waiting = try SyncClient(store: store, client: http)
            waiting.onWaiting = { seconds in
                Console.error("the server's storage is unavailable for now (503); this sync waits up to \(seconds) s for it")
            }
            let client = waiting
            try blockingRun {
                box.outcome = try await client.run()
            }
            let o = box.outcome
            // A sync rebases the log on the server's (its snapshots go with the old chain) and can pull a
            // whole history: snapshot it again by the same policy as any append.
            if o.pulled > 0 || o.pushed > 0 { try SnapshotPolicy.apply(store) }
            if global.json {
                Console.json(
                    .object([
                        ("pushed", .int(Int64(o.pushed))), ("pulled", .int(Int64(o.pulled))), ("rejected", .int(Int64(o.rejected))),
                        ("head", .object([("position", .int(o.headPosition)), ("hash", .string(o.headHash))])),
                    ]))
            } else {
                Console.out(
                    "Pushed \(o.pushed), pulled \(o.pulled)\(o.rejected > 0 ? ", \(o.rejected) refused by the server (see `ledger sync status`)" : ""). Head #\(o.headPosition)"
                )
            }
        }
    }

    struct Status: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "status",
            abstract: "What is pending and what the server refused → {\"remote\",\"pending\",\"rejected\",\"lastSyncAt\",\"head\"}.")
        @OptionGroup var global: GlobalOptions

        func run() throws {
            let store = try global.openStore()
            let state = try store.syncState()
            let confirmed = state?.confirmedPosition ?? 0
            let (head, headHash) = try store.head()
            let status = SyncStatusQuery.Answer(
                remote: state?.remote, account: state?.account, lastSyncAt: state?.lastSyncAt, confirmed: confirmed,
                pending: try store.pendingEvents(after: confirmed).count,
                refused: try store.rejectedEvents().map {
                    .init(eventId: $0.eventId, code: $0.code, message: $0.message, rejectedAt: $0.rejectedAt, line: $0.line)
                }, head: head, headHash: headHash.hex)
            if global.json { return Console.json(SyncStatusQuery.document(status)) }
            guard let state else { Console.out("Not synced: run `ledger sync URL --account ACCOUNT --token-file FILE`."); return }
            Console.out("Syncs with \(state.account) at \(state.remote); last sync \(state.lastSyncAt?.iso8601 ?? "never")")
            Console.out("  \(status.pending) pending, confirmed through #\(confirmed), head #\(head)")
            for r in status.refused { Console.out("  refused \(r.eventId.lowercased): \(r.code): \(r.message)") }
        }
    }
}
