import Foundation
import LedgerTestSupport
import Logging
import RepLedgerAccounts
import RepLedgerCore
import RepLedgerPostgres
import RepLedgerSQLite
import Testing

/// A server's storage as the first release left it (accounts without keys,
/// names and payloads in clear) keeps working: the next `ledger serve` seals
/// every such account byte-exact before it serves, once.
@Suite(.serialized) struct LegacyAccountSealingTests {
    @Test func accountsStoredInClearAreSealedAtStartByteExact() async throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let marker = ServerEncryptionTests.newMarker()
        let data = cli.folder.appendingPathComponent("legacy").path
        let keysDirectory = ServerProcess.onPostgres ? cli.folder.appendingPathComponent("keys").path : data + "/keys"
        let keys = try AccountKeyStore(directory: keysDirectory, create: true)
        let url = ServerProcess.onPostgres ? try #require(PostgresCluster.shared).createDatabase() : nil
        let storage: any ServerStorage =
            try url.map { try PostgresServerStorage(urls: [$0], keys: keys, logger: Logger(label: "test")) }
            ?? SQLiteServerStorage(directory: data, keys: keys)

        // The first release's layout: a plain name, a token hash, a log in clear.
        let id = UUID().uuidString.lowercased(), token = "rl_legacy_\(UUID().uuidString)"
        try storage.accountTable.insertAccount(.init(accountId: id, name: "Alice \(marker)", isCoach: false), createdAt: Timestamp.now().millis)
        try storage.accountTable.insertToken(
            StoredToken(
                hash: Digest.sha256(Array(token.utf8)), accountId: id, device: "phone", name: nil, scope: .full,
                createdAt: Timestamp.now().millis, expiresAt: nil))
        let plain: any EventStore =
            try url == nil
            ? SQLiteEventStore(path: (storage as! SQLiteServerStorage).path(of: id))
            : PostgresEventStore(accountId: UUID(uuidString: id)!, pool: (storage as! PostgresServerStorage).pool)
        let ledger = Ledger(store: plain, device: "phone")
        try ledger.seedLibraryIfNeeded()
        let w = try ledger.execute { try $0.startWorkout(name: "Day \(marker)") }
        try ledger.execute {
            try $0.logSet(
                w, exercise: "barbell-bench-press", metrics: SetMetrics(weight: Weight(100, .kg), reps: 5),
                notes: "felt \(marker)")
        }
        let head = try plain.head()
        storage.shutdown()
        #expect(!FileManager.default.fileExists(atPath: keysDirectory + "/\(id).key"))

        let server = try ServerProcess(cli: cli, storage: url.map { ["--postgres", $0, "--keys", keysDirectory] } ?? ["--data", data])
        let events = try await server.get("/v1/accounts/\(id)/events", token: token)
        #expect(events.status == 200)
        #expect(events.body.contains(marker))
        let served = try #require(events.json?["head"] as? [String: Any])
        #expect(served["position"] as? Int == Int(head.position))
        #expect(served["hash"] as? String == head.hash.hex, "the same chain, sealed")
        #expect(try await server.get("/v1/accounts/\(id)/verify", token: token).json?["ok"] as? Bool == true)
        #expect(server.log.contains("account \(id): stored before encryption at rest; its \(head.position) events and its name are sealed now"))
        #expect(FileManager.default.fileExists(atPath: keysDirectory + "/\(id).key"))

        if let url {
            // In the table, every payload of the account is sealed now (the first release's WAL still holds them: see the README).
            let database = try #require(URL(string: url)?.lastPathComponent)
            let clear = try PostgresCluster.shared!.psql(
                database,
                """
                SELECT count(*) FROM events WHERE account_id = '\(id)'
                AND (get_byte(payload, 0) <> 1 OR position(convert_to('\(marker)', 'UTF8') in payload) > 0)
                """)
            #expect(clear.trimmingCharacters(in: .whitespacesAndNewlines) == "0")
            let name = try PostgresCluster.shared!.psql(database, "SELECT name FROM accounts WHERE account_id = '\(id)'")
            #expect(name.hasPrefix("sealed:") && !name.contains(marker))
        } else {
            #expect(FileScan.filesHolding(marker, under: [data]) == [])
        }

        // Sealed once: the next start has nothing to do, and still serves it.
        server.stop()
        try server.start()
        #expect(try await server.get("/v1/accounts/\(id)/verify", token: token).json?["ok"] as? Bool == true)
        #expect(!server.log.contains("stored before encryption at rest"), "the log of this start (it begins anew) seals nothing")
    }
}
