import Foundation
import LedgerTestSupport
import Testing

/// Encryption at rest and crypto-shredding (DOMAIN.md §11), on the backend
/// this run uses (SQLite files, or PostgreSQL with `REPLEDGER_TEST_BACKEND=postgres`).
@Suite(.serialized) struct ServerEncryptionTests {
    /// Written into names (the account's too) and notes; a scan of the server's files must never find it.
    static func newMarker() -> String { "rlmark" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(20) }

    /// The files a server's data lives in: its data directory, or the whole
    /// PostgreSQL cluster (data files and WAL, after a checkpoint so every
    /// dirty page is on disk too).
    static func dataFiles(_ server: ServerProcess) throws -> [String] {
        if ServerProcess.onPostgres {
            let cluster = try #require(PostgresCluster.shared)
            try cluster.checkpoint()
            return [cluster.folder, server.data]
        }
        return [server.data]
    }

    /// A phone that names a workout, a template and an exercise with the marker and writes it in notes, then syncs.
    static func phoneWritingMarker(_ marker: String, server: ServerProcess, account: ServerProcess.Account) throws -> Device {
        let phone = try Device("phone-\(account.id.prefix(8))", cli: server.cli, token: account.token)
        try phone.run(["settings", "unit", "kg"])
        let exercise = try phone.id(["exercise", "add", "Press \(marker)", "--muscle", "chest"], "exerciseId")
        let workout = try phone.id(["workout", "start", "--name", "Day \(marker)"], "workoutId")
        _ = try phone.id(
            ["workout", "log", workout, "Bench Press (Barbell)", "--reps", "5", "--weight", "100kg", "--notes", "felt \(marker)"], "setId")
        _ = try phone.id(["workout", "log", workout, exercise, "--reps", "8", "--weight", "40kg"], "setId")
        try phone.run(["workout", "finish", workout])
        _ = try phone.id(["template", "create", "Plan \(marker)", "--exercise", "Bench Press (Barbell)"], "templateId")
        #expect(try phone.sync(server, account: account.id).status == 0)
        return phone
    }

    /// Alice (the marker in her account's name and in her log) and Bob (a marker of his own), both synced.
    static func aliceAndBob(
        _ server: ServerProcess
    ) throws
        -> (marker: String, alice: ServerProcess.Account, bob: ServerProcess.Account, phone: Device)
    {
        let marker = newMarker()
        let alice = try server.createAccount("Alice \(marker)")
        let bob = try server.createAccount("bob")
        let phone = try phoneWritingMarker(marker, server: server, account: alice)
        _ = try phoneWritingMarker(newMarker(), server: server, account: bob)
        return (marker, alice, bob, phone)
    }

    @Test func noPayloadReachesTheServersFilesInClearBeforeOrAfterErasure() async throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let server = try ServerProcess(cli: cli)
        let (marker, alice, bob, phone) = try Self.aliceAndBob(server)

        // The keys are the server's alone: the directory 0700, each key 0600 (never wider, whatever the umask).
        let keys = server.storage.firstIndex(of: "--keys").map { server.storage[$0 + 1] } ?? server.data + "/keys"
        let directoryMode = try FileManager.default.attributesOfItem(atPath: keys)[.posixPermissions] as? Int
        let keyMode = try FileManager.default.attributesOfItem(atPath: keys + "/\(alice.id).key")[.posixPermissions] as? Int
        #expect(
            directoryMode == 0o700 && keyMode.map { $0 & 0o077 == 0 } == true,
            "modes \(String(directoryMode ?? 0, radix: 8)), \(String(keyMode ?? 0, radix: 8))")

        // The owner reads it back in clear, and every query answers (those on SQLite store results, sealed too).
        let events = try await server.get("/v1/accounts/\(alice.id)/events", token: alice.token)
        #expect(events.status == 200 && events.body.contains(marker))
        for query in ["prs", "history", "volume", "hint/barbell-bench-press", "entitlements"] {
            #expect(try await server.get("/v1/accounts/\(alice.id)/\(query)", token: alice.token).status == 200, "\(query)")
        }
        #expect(try await server.get("/v1/accounts/\(alice.id)/verify", token: alice.token).json?["ok"] as? Bool == true)

        // The scan finds the marker where it is in clear (the phone's own ledger), and nowhere on the server.
        #expect(!FileScan.filesHolding(marker, under: [phone.db, phone.db + "-wal"]).isEmpty)
        #expect(FileScan.filesHolding(marker, under: try Self.dataFiles(server)) == [])

        let erased = try await server.request(.DELETE, "/v1/accounts/\(alice.id)", token: alice.token)
        #expect(erased.status == 200)
        #expect(erased.json?["keyDestroyed"] as? Bool == true)
        #expect((erased.json?["events"] as? Int ?? 0) > 0)
        #expect(FileScan.filesHolding(marker, under: try Self.dataFiles(server)) == [])
        // Its token hears that the account is gone.
        #expect(try await server.get("/v1/accounts/\(alice.id)/events", token: alice.token).errorCode == "erased")
        #expect(try await server.get("/v1/accounts/\(bob.id)/verify", token: bob.token).json?["ok"] as? Bool == true)
    }

    @Test func aBackupTakenBeforeErasureAndRestoredCannotBringTheAccountBack() async throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let server = try ServerProcess(cli: cli)
        let (marker, alice, bob, _) = try Self.aliceAndBob(server)
        _ = try await server.get("/v1/accounts/\(alice.id)/prs", token: alice.token)

        // The operator's backup of the database (not of the key store, which is kept apart).
        let backup = cli.folder.appendingPathComponent("backup").path
        if ServerProcess.onPostgres {
            try PostgresCluster.shared!.dump(try database(server), to: backup)
        } else {
            try FileManager.default.createDirectory(atPath: backup, withIntermediateDirectories: true)
            server.stop()
            for name in try FileManager.default.contentsOfDirectory(atPath: server.data) where name != "keys" {
                try FileManager.default.copyItem(atPath: server.data + "/" + name, toPath: backup + "/" + name)
            }
            try server.start()
        }
        #expect(try await server.request(.DELETE, "/v1/accounts/\(alice.id)", token: alice.token).status == 200)

        // Restored over the live data, with the server stopped.
        server.stop()
        if ServerProcess.onPostgres {
            try PostgresCluster.shared!.restore(try database(server), from: backup)
        } else {
            for name in try FileManager.default.contentsOfDirectory(atPath: server.data) where name != "keys" {
                try FileManager.default.removeItem(atPath: server.data + "/" + name)
            }
            for name in try FileManager.default.contentsOfDirectory(atPath: backup) {
                try FileManager.default.copyItem(atPath: backup + "/" + name, toPath: server.data + "/" + name)
            }
        }
        try server.start()

        // The backup's token finds the account, and every read or write of it is 410: nothing is served.
        for path in ["events", "verify", "prs", "history", "events/live"] {
            let reply = try await server.get("/v1/accounts/\(alice.id)/\(path)", token: alice.token)
            #expect(reply.status == 410, "\(path)")
            #expect(reply.errorCode == "erased")
            #expect(!reply.body.contains(marker))
        }
        let push = try await server.post("/v1/accounts/\(alice.id)/events", token: alice.token, body: #"{"events":[]}"#)
        #expect(push.status == 410)
        // Every other account restored from the same backup works and verifies.
        #expect(try await server.get("/v1/accounts/\(bob.id)/verify", token: bob.token).json?["ok"] as? Bool == true)
        #expect(try await server.get("/v1/accounts/\(bob.id)/prs", token: bob.token).status == 200)
        #expect(FileScan.filesHolding(marker, under: try Self.dataFiles(server)) == [])

        // Erasing again deletes what the backup brought back.
        let again = try await server.request(.DELETE, "/v1/accounts/\(alice.id)", token: alice.token)
        #expect(again.status == 200)
        #expect((again.json?["events"] as? Int ?? 0) > 0)
        #expect(try await server.get("/v1/accounts/\(alice.id)/events", token: alice.token).errorCode == "erased")
        #expect(try await server.get("/v1/accounts/\(bob.id)/verify", token: bob.token).json?["ok"] as? Bool == true)
    }

    @Test func aMissingOrUnreadableKeyStoreAnswers503AndSaysWhyInTheLog() async throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let keys = cli.folder.appendingPathComponent("vault").path
        let storage =
            ServerProcess.onPostgres
            ? ["--postgres", try PostgresCluster.shared!.createDatabase(), "--keys", keys]
            : ["--data", cli.folder.appendingPathComponent("data").path, "--keys", keys]
        let server = try ServerProcess(cli: cli, storage: storage)
        let alice = try server.createAccount("alice")
        let marker = Self.newMarker()
        _ = try Self.phoneWritingMarker(marker, server: server, account: alice)
        let keyFile = keys + "/\(alice.id).key"
        let key = try #require(FileManager.default.contents(atPath: keyFile))

        func expect503(_ cause: String) async throws {
            for path in ["events", "prs", "verify"] {
                let reply = try await server.get("/v1/accounts/\(alice.id)/\(path)", token: alice.token)
                #expect(reply.status == 503, "\(cause): \(path)")
                #expect(reply.errorCode == "storage")
                #expect(!reply.body.contains(marker) && !reply.body.contains(keys), "the answer names no file and shows no payload")
            }
            #expect(try await server.get("/v1/health", token: nil).status == 200)
        }

        // The key store is missing (an unmounted volume).
        server.stop()
        try FileManager.default.moveItem(atPath: keys, toPath: keys + ".away")
        try server.start()
        try await expect503("missing")
        #expect(server.log.contains("key store \(keys) is unavailable (it does not exist)"))
        #expect(!FileManager.default.fileExists(atPath: keys), "a server never makes an empty key store in place of a missing one")

        // The key store is back, but the account's key is damaged.
        server.stop()
        try FileManager.default.moveItem(atPath: keys + ".away", toPath: keys)
        try Data("not a key".utf8).write(to: URL(fileURLWithPath: keyFile))
        try server.start()
        try await expect503("damaged")
        #expect(server.log.contains("the key of account \(alice.id) cannot be read"))

        // The key is gone from a store that is otherwise there.
        server.stop()
        try FileManager.default.removeItem(atPath: keyFile)
        try server.start()
        try await expect503("no key")
        #expect(server.log.contains("has no key for account \(alice.id), which was not erased"))

        // With its key back, the account reads and verifies.
        try key.write(to: URL(fileURLWithPath: keyFile))
        let events = try await server.get("/v1/accounts/\(alice.id)/events", token: alice.token)
        #expect(events.status == 200 && events.body.contains(marker))
        #expect(try await server.get("/v1/accounts/\(alice.id)/verify", token: alice.token).json?["ok"] as? Bool == true)
    }

    @Test func postgreSQLWithoutAKeyStoreIsRefusedBeforeAnythingIsWritten() throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        // Port 9 (discard): nothing is contacted, the refusal comes first.
        let url = "postgres://nobody@127.0.0.1:9/none"
        for args in [["serve", "--listen", "127.0.0.1:0", "--postgres", url], ["server", "account", "create", "alice", "--postgres", url]] {
            let out = try cli.run(args, useDbFlag: false)
            #expect(out.status == 2, "\(args)")
            #expect(out.stderr.contains("--keys DIR is required with --postgres"), "\(out.stderr)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: cli.folder.path).allSatisfy { !$0.hasPrefix("repledger-server") })
    }

    /// The database name of a PostgreSQL server's URL.
    func database(_ server: ServerProcess) throws -> String {
        let url = try #require(server.storage.first { $0.hasPrefix("postgres://") })
        return try #require(URL(string: url)?.lastPathComponent)
    }
}
