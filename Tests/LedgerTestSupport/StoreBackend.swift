import Foundation
import RepLedgerCore
import RepLedgerPostgres
import RepLedgerSQLite
import Testing

/// The stores the conformance suite runs against: memory and SQLite always,
/// PostgreSQL when a throwaway cluster can be started (always in CI, which
/// sets `REPLEDGER_REQUIRE_POSTGRES=1` so that a missing PostgreSQL fails).
///
/// Each also runs sealed, as the server keeps accounts: payloads encrypted
/// under a key of the log's own (`PayloadCipher`), which must change nothing
/// a caller can see.
package enum StoreBackend: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case memory, sqlite, postgres
    case sqliteSealed = "sqlite, sealed"
    case postgresSealed = "postgres, sealed"

    package var testDescription: String { rawValue }

    package static var available: [StoreBackend] {
        PostgresTestDatabase.shared == nil ? [.memory, .sqlite, .sqliteSealed] : allCases
    }

    /// A new key for a sealed log; nil for a plain one.
    package func newCipher() throws -> PayloadCipher? {
        switch self {
        case .memory, .sqlite, .postgres: return nil
        case .sqliteSealed, .postgresSealed: return try PayloadCipher(key: PayloadCipher.newKey())
        }
    }

    /// A new empty log that several handles open at once (as several
    /// processes or connections would), and what removes it.
    package func makeSharedLog() throws -> (open: @Sendable () throws -> any EventStore, cleanUp: () -> Void) {
        let cipher = try newCipher()
        switch self {
        case .memory:
            let log = InMemoryEventStore()
            return ({ log.handle() }, {})
        case .sqlite, .sqliteSealed:
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("conformance-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let path = folder.appendingPathComponent("ledger.sqlite").path
            return ({ try SQLiteEventStore(path: path, cipher: cipher) }, { try? FileManager.default.removeItem(at: folder) })
        case .postgres, .postgresSealed:
            let database = try #require(PostgresTestDatabase.shared, "no PostgreSQL: \(PostgresCluster.unavailableReason)")
            let account = UUID()
            return ({ PostgresEventStore(accountId: account, pool: database.pool, cipher: cipher) }, {})
        }
    }

    /// A new empty store, and what removes it.
    package func makeStore() throws -> (store: any EventStore, cleanUp: () -> Void) {
        let cipher = try newCipher()
        switch self {
        case .memory: return (InMemoryEventStore(), {})
        case .sqlite, .sqliteSealed:
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("conformance-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let store = try SQLiteEventStore(path: folder.appendingPathComponent("ledger.sqlite").path, cipher: cipher)
            return (store, { try? FileManager.default.removeItem(at: folder) })
        case .postgres, .postgresSealed:
            let database = try #require(PostgresTestDatabase.shared, "no PostgreSQL: \(PostgresCluster.unavailableReason)")
            // A new account of one shared database: accounts are what the schema isolates.
            return (PostgresEventStore(accountId: UUID(), pool: database.pool, cipher: cipher), {})
        }
    }
}

/// One database of the test cluster with the schema in place, shared by the suite.
package final class PostgresTestDatabase: Sendable {
    package let url: String
    package let pool: PostgresPool

    package static let shared: PostgresTestDatabase? = {
        guard let cluster = PostgresCluster.shared, let url = try? cluster.createDatabase(),
            let pool = try? PostgresPool(url: url), (try? PostgresSchema.prepare(pool)) != nil
        else { return nil }
        return PostgresTestDatabase(url: url, pool: pool)
    }()

    package init(url: String, pool: PostgresPool) {
        self.url = url
        self.pool = pool
    }
}

@Suite("PostgreSQL for the tests")
package struct PostgresAvailabilityTests {
    @Test("a throwaway PostgreSQL cluster starts (required in CI; elsewhere its absence is reported, not failed)")
    package func clusterStarts() throws {
        guard PostgresTestDatabase.shared == nil else { return }
        let message = "PostgreSQL tests skipped: \(PostgresCluster.unavailableReason)"
        if ProcessInfo.processInfo.environment["REPLEDGER_REQUIRE_POSTGRES"] == "1" {
            Issue.record(Comment(rawValue: message))
        } else {
            withKnownIssue(Comment(rawValue: message)) { throw PostgresCluster.Failure(description: message) }
        }
    }
}
