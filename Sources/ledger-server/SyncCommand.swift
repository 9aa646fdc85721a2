import ArgumentParser
import AsyncHTTPClient
import Foundation
import LedgerShell
import RepLedgerCore
import RepLedgerQueries
import RepLedgerSQLite
import RepLedgerSnapshots
import RepLedgerSync

/// `ledger sync`: this device's ledger with its account on a server (SERVER-CONTRACT.md §5).
struct SyncCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync", abstract: ServerCommands.syncAbstract,
        discussion: """
            Pushes the events recorded here since the last sync, pulls what other devices pushed, and leaves this \
            ledger holding the server's log byte for byte (plus anything still pending). Events the server refuses \
            are set aside and shown by `ledger sync status`.

            Examples:
              ledger sync http://127.0.0.1:8787 --account ACCOUNT --token-file phone.token   # the first time
              ledger sync https://repledger.example --sign-in email --email me@example.org  # sign in (or up) instead
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
        @Option(
            help:
                "Sign in (or up) on the server instead of giving a token: apple or email. The token is kept in --token-file (default: the ledger's path + .token)."
        )
        var signIn: String?
        @Option(help: "The address a code is mailed to (--sign-in email); the code is asked for on the terminal.") var email: String?
        @Option(help: "A file holding an Apple identity token your app received (--sign-in apple).") var identityTokenFile: String?
        @Option(help: "The raw nonce that identity token was made for (--sign-in apple).") var nonce: String?
        @Option(help: "This device's name on the server (default: the host's name).") var device: String?

        func run() throws {
            let store = try global.openOrCreateStore()
            if let method = signIn {
                guard let url else { throw ValidationError("--sign-in needs the server's URL") }
                try signInFirst(store: store, url: url, method: method)
            } else if let url {
                guard let account, let tokenFile else { throw ValidationError("the first sync needs URL, --account and --token-file") }
                try SyncRound.target(store, remote: url, account: account, tokenFile: tokenFile)
            }
            // Unchecked: this thread waits while the task runs, so the store has one user at a time.
            final class Box: @unchecked Sendable {
                let store: SQLiteEventStore
                var outcome = SyncClient.Outcome()
                init(_ store: SQLiteEventStore) { self.store = store }
            }
            // This device's analysis hook hears of the watch workouts the sync brings.
            let before = try AnalysisHook.command.map { _ in try AnalysisHook.watchWorkouts(store) }
            let box = Box(store)
            try blockingRun {
                box.outcome = try await SyncRound.run(box.store) { seconds in
                    Console.error("the server's storage is unavailable for now (503); this sync waits up to \(seconds) s for it")
                }
            }
            let o = box.outcome
            if let before, o.pulled > 0 {
                for id in try AnalysisHook.deliverArrived(global, store, before: before) {
                    Console.error(
                        "note: watch workout \(id.lowercased.shortId) arrived without the ledger's analysis: "
                            + "`ledger workout analysis \(id.lowercased.shortId) --record` records it and runs the hook")
                }
            }
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
        /// Signs in by `method`, keeps the token in a file of this user's alone, and makes the account
        /// this ledger's sync target; the sync then runs as after `--account --token-file`.
        func signInFirst(store: SQLiteEventStore, url: String, method: String) throws {
            try SyncRound.check(store, remote: url, account: nil)
            guard account == nil else { throw ValidationError("--sign-in finds the account itself: leave out --account") }
            let path = tokenFile ?? global.path + ".token"
            let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
            let deviceName = device ?? ProcessInfo.processInfo.hostName
            let identityToken: String?
            switch method {
            case "email":
                guard email != nil else { throw ValidationError("--sign-in email needs --email ADDRESS") }
                identityToken = nil
            case "apple":
                guard let file = identityTokenFile, let nonce, !nonce.isEmpty else {
                    throw ValidationError("--sign-in apple needs --identity-token-file FILE and --nonce NONCE (what your app got from Apple)")
                }
                guard let text = try? String(contentsOfFile: file, encoding: .utf8) else { throw ValidationError("cannot read \(file)") }
                identityToken = text.trimmingCharacters(in: .whitespacesAndNewlines)
            default:
                throw ValidationError("--sign-in takes apple or email")
            }
            final class Box: @unchecked Sendable { var signedIn: SignInClient.SignedIn? }
            let box = Box()
            let http = HTTPClient(eventLoopGroupProvider: .singleton, configuration: SyncClient.httpConfiguration)
            defer { try? http.syncShutdown() }
            let client = SignInClient(remote: url, client: http)
            let (email, nonce) = (self.email, self.nonce)
            try blockingRun {
                if let identityToken, let nonce {
                    box.signedIn = try await client.signInWithApple(identityToken: identityToken, nonce: nonce, device: deviceName)
                } else if let email {
                    try await client.startEmail(email)
                    Console.error("A code was sent to \(email): type it and press return.")
                    guard let code = readLine()?.trimmingCharacters(in: .whitespaces), !code.isEmpty else {
                        throw ValidationError("no code was given: run the sign-in again for a new one")
                    }
                    box.signedIn = try await client.verifyEmail(email, code: code, device: deviceName)
                }
            }
            guard let signedIn = box.signedIn else { return }
            try SyncRound.check(store, remote: url, account: signedIn.accountId)
            // The token is a password: a file of this user's alone, written before anything depends on it.
            guard
                FileManager.default.createFile(atPath: absolute, contents: Data((signedIn.token + "\n").utf8), attributes: [.posixPermissions: 0o600])
            else { throw ValidationError("cannot write the token to \(absolute)") }
            try SyncRound.target(store, remote: url, account: signedIn.accountId, tokenFile: absolute)
            Console.error("\(signedIn.created ? "Signed up" : "Signed in"): account \(signedIn.accountId); this device's token is in \(absolute)")
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
