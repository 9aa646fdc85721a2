import Foundation
import LedgerTestSupport
import RepLedgerSQLite
import Testing

/// Issue 74's tamper evidence on the server: a query over an account whose
/// stored log was changed answers the first bad position (500 `logDamaged`,
/// one line), never numbers, on SQLite and on PostgreSQL.
@Suite struct DamagedAccountLogTests {
    /// Changes one stored event of the account in place, as a hand edit of the database would.
    static func damage(_ server: ServerProcess, account: String, at position: Int) throws {
        if ServerProcess.onPostgres {
            let cluster = try #require(PostgresCluster.shared)
            let url = try #require(server.storage.last { $0.hasPrefix("postgres") })
            let database = String(try #require(url.split(separator: "/").last?.split(separator: "?").first))
            try cluster.psql(
                database,
                """
                ALTER TABLE events DISABLE TRIGGER events_immutable;
                UPDATE events SET device = 'elsewhere' WHERE account_id = '\(account)' AND position = \(position);
                ALTER TABLE events ENABLE TRIGGER events_immutable;
                """)
        } else {
            let db = try SQLiteDatabase(path: "\(server.data)/accounts/\(account).sqlite")
            try db.execute("DROP TRIGGER events_no_update")
            try db.execute("UPDATE events SET device = 'elsewhere' WHERE position = \(position)")
        }
    }

    @Test func aQueryOverADamagedLogNamesItsFirstBadPosition() async throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let server = try ServerProcess(cli: cli)
        let (alice, _) = try server.accountWithDemo()
        let damaged = 20
        try Self.damage(server, account: alice.id, at: damaged)
        for query in ["prs", "history?limit=2", "volume", "entitlements"] {
            let reply = try await server.get("/v1/accounts/\(alice.id)/\(query)", token: alice.token)
            let message = (reply.json?["error"] as? [String: Any])?["message"] as? String ?? ""
            #expect(reply.status == 500 && reply.errorCode == "logDamaged", "\(query): \(reply.status) \(reply.body.prefix(200))")
            #expect(message.contains("position \(damaged)") && !message.contains("\n"), "\(query): \(message)")
        }
        let verify = try await server.get("/v1/accounts/\(alice.id)/verify", token: alice.token)
        #expect(verify.json?["firstBadPosition"] as? Int == damaged)
    }
}
