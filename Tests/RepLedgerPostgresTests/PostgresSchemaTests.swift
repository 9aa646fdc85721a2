import Foundation
import LedgerTestSupport
import RepLedgerCore
import RepLedgerPostgres
import RepLedgerSQLite
import Testing

/// The database itself keeps the log append-only; erasure is the one way out.
@Suite("PostgreSQL schema", .enabled(if: PostgresTestDatabase.shared != nil, "no PostgreSQL can be started here"))
struct PostgresSchemaTests {
    @Test("the app role may read and append events but never UPDATE or DELETE them; no role edits an event")
    func appRoleCannotEditTheLog() throws {
        let db = try #require(PostgresTestDatabase.shared)
        let cluster = try #require(PostgresCluster.shared)
        let store = PostgresEventStore(accountId: UUID(), pool: db.pool)
        try store.append([proposed(started(UUID()))], expecting: [:], now: .now())
        let database = String(db.url.split(separator: "/").last!)
        let account = store.accountId.uuidString.lowercased()
        let user = "app_\(UUID().uuidString.prefix(8).lowercased())"
        try cluster.psql(database, "CREATE ROLE \(user) LOGIN IN ROLE \(PostgresSchema.appRole)")
        #expect(
            try cluster.psql(database, "SELECT COUNT(*) FROM events WHERE account_id = '\(account)'", user: user)
                .trimmingCharacters(in: .whitespacesAndNewlines) == "1")
        for sql in [
            "UPDATE events SET device = 'forged' WHERE account_id = '\(account)'",
            "DELETE FROM events WHERE account_id = '\(account)'",
            "TRUNCATE events",
            "UPDATE heads SET position = 0 WHERE account_id = '\(account)' RETURNING 1; DELETE FROM heads",
        ] {
            let attempt = cluster.tryPSQL(database, sql, user: user)
            #expect(!attempt.ok, "the app role ran: \(sql)")
            #expect(attempt.output.contains("permission denied"), "\(attempt.output)")
        }
        // Not even the owner edits an event: the trigger refuses.
        for sql in ["UPDATE events SET device = 'forged' WHERE account_id = '\(account)'", "DELETE FROM events WHERE account_id = '\(account)'"] {
            let attempt = cluster.tryPSQL(database, sql)
            #expect(!attempt.ok && attempt.output.contains("events are immutable"), "\(attempt.output)")
        }
        #expect(try store.verify().ok && store.count() == 1)
        // Erasure is the one path, and the app role may take it.
        #expect(
            try cluster.psql(database, "SELECT events FROM repledger_erase_account('\(account)')", user: user)
                .trimmingCharacters(in: .whitespacesAndNewlines) == "1")
        #expect(try store.count() == 0)
    }

    @Test("every primary and unique key leads with the account id, so the tables distribute by account")
    func keysLeadWithTheAccount() throws {
        let db = try #require(PostgresTestDatabase.shared)
        let cluster = try #require(PostgresCluster.shared)
        let database = String(db.url.split(separator: "/").last!)
        let keys = try cluster.psql(
            database,
            """
            SELECT c.conrelid::regclass || ':' || a.attname FROM pg_constraint c
            JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = c.conkey[1]
            WHERE c.contype IN ('p', 'u') AND c.conrelid::regclass::text IN ('accounts', 'tokens', 'heads', 'events')
            """
        ).split(separator: "\n").map(String.init)
        #expect(keys.count >= 6)
        for key in keys { #expect(key.hasSuffix(":account_id"), "\(key)") }
    }
}
