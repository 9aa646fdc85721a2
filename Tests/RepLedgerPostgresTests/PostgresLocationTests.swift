import Foundation
import RepLedgerPostgres
import Testing

/// The PostgreSQL URLs `--postgres` and `--postgres-read` take: libpq's
/// multi-host form, or one URL per host of the same database.
struct PostgresLocationTests {
    @Test func oneHostKeepsItsUserPasswordPortAndDatabase() throws {
        let l = try PostgresLocation(url: "postgres://app:s%40cret@db.example:6543/ledger")
        #expect(l.hosts == [.init(name: "db.example", port: 6543)])
        #expect(l.user == "app")
        #expect(l.password == "s@cret")
        #expect(l.database == "ledger")
        #expect(l.target == .readWrite)
        #expect(l.description == "app@db.example:6543/ledger", "no password in what is shown")
    }

    @Test func severalHostsInOneURLInOrderWithDefaultPorts() throws {
        let l = try PostgresLocation(url: "postgresql://app@primary,standby:5433,[::1]:5434/ledger?target_session_attrs=read-write")
        #expect(l.hosts == [.init(name: "primary", port: 5432), .init(name: "standby", port: 5433), .init(name: "::1", port: 5434)])
        #expect(l.target == .readWrite)
        #expect(try PostgresLocation(url: "postgres://app@a/x").database == "x")
        #expect(try PostgresLocation(url: "postgres://app@a").database == "app", "the database defaults to the user's name, as libpq's")
    }

    @Test func severalURLsOfOneDatabaseJoinTheirHosts() throws {
        let l = try PostgresLocation(urls: ["postgres://app:pw@a:1/ledger", "postgres://app:pw@b:2,a:1/ledger"])
        #expect(l.hosts == [.init(name: "a", port: 1), .init(name: "b", port: 2)])
        #expect(throws: PostgresLocation.Failure.mismatched("database")) {
            try PostgresLocation(urls: ["postgres://app:pw@a/one", "postgres://app:pw@b/two"])
        }
        #expect(throws: PostgresLocation.Failure.mismatched("user and password")) {
            try PostgresLocation(urls: ["postgres://app:pw@a/one", "postgres://other:pw@b/one"])
        }
    }

    @Test func aWritingServerRefusesATargetThatMayBeAStandby() throws {
        #expect(throws: PostgresLocation.Failure.unsupportedTarget("any")) {
            try PostgresLocation(url: "postgres://app@a,b/ledger?target_session_attrs=any")
        }
        #expect(try PostgresLocation(url: "postgres://app@a/ledger?target_session_attrs=primary").target == .readWrite)
        #expect(try PostgresLocation(url: "postgres://app@a/ledger?target_session_attrs=standby", target: .any).target == .any)
    }

    @Test func theURLPgAutoFailoversMonitorGivesIsTakenAsItIs() throws {
        // `pg_autoctl show uri --formation default`: no user (libpq's PGUSER, else the system user), sslmode=prefer.
        let uri = "postgres://127.0.0.1:16101,127.0.0.1:16102/ledger?target_session_attrs=read-write&sslmode=prefer"
        let l = try PostgresLocation(url: uri, environment: ["PGUSER": "repledger"])
        #expect(l.hosts == [.init(name: "127.0.0.1", port: 16101), .init(name: "127.0.0.1", port: 16102)])
        #expect(l.user == "repledger" && l.database == "ledger" && l.target == .readWrite)
        #expect(try PostgresLocation(url: uri, environment: [:]).user == ProcessInfo.processInfo.userName)
        // A mode that demands TLS is refused, not quietly weakened: these connections are plain.
        for mode in ["require", "verify-ca", "verify-full"] {
            #expect(throws: PostgresLocation.Failure.unsupportedSSLMode(mode)) {
                try PostgresLocation(url: "postgres://app@a/ledger?sslmode=\(mode)")
            }
        }
        #expect(try PostgresLocation(url: "postgres://app@a/ledger?sslmode=disable").database == "ledger")
    }

    @Test func malformedURLsAreRefusedWithoutShowingThePassword() {
        for url in [
            "mysql://app@a/x", "postgres://app@a:port/x", "postgres://app@a:70000/x", "postgres://app@,/x",
            "postgres://:pw@a/x",
        ] {
            #expect(throws: PostgresLocation.Failure.self, "\(url)") { try PostgresLocation(url: url) }
        }
        do {
            _ = try PostgresLocation(url: "postgres://app:hunter2@a:nope/x")
            Issue.record("accepted a port that is not a number")
        } catch {
            #expect(!"\(error)".contains("hunter2"))
            #expect("\(error)".contains("postgres://app:…@a:nope/x"))
        }
    }

    @Test func aPasswordIsHiddenWhateverTheURLsShape() {
        for text in [
            "postgres:/app:hunter2@a/x", "postgress://app:hunter2@a/x", "app:hunter2@a/x", "postgres:app:hunter2@a/x",
            "postgres://app@a/x?sslmode=disable&password=hunter2", "postgres://app@a/x?PASSWORD=hunter2",
        ] {
            #expect(!PostgresLocation.redacted(text).contains("hunter2"), "\(text) → \(PostgresLocation.redacted(text))")
        }
        #expect(PostgresLocation.redacted("postgres://app:hunter2@a:1/x") == "postgres://app:…@a:1/x")
    }

    @Test func aURLWithoutAPasswordTakesTheFileThenPGPASSWORDThenThePasswordFile() throws {
        let url = "postgres://app@db.example:6543/ledger"
        #expect(try PostgresLocation(url: url, password: "from-file", environment: ["PGPASSWORD": "env"]).password == "from-file")
        #expect(try PostgresLocation(url: url, environment: ["PGPASSWORD": "env"]).password == "env")
        #expect(try PostgresLocation(url: "postgres://app:inline@a/x", password: "from-file").password == "inline")
        #expect(try PostgresLocation(url: "postgres://app@a/x?password=q%40ery").password == "q@ery")
        let passfile = FileManager.default.temporaryDirectory.appendingPathComponent("pgpass-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: passfile) }
        let lines = "# a comment\nother:*:*:*:wrong\ndb.example:6543:ledger:someone:wrong\n*:6543:ledger:app:pass\\:word\n"
        try lines.write(toFile: passfile, atomically: true, encoding: .utf8)
        chmod(passfile, 0o600)
        #expect(try PostgresLocation(url: url, environment: ["PGPASSFILE": passfile]).password == "pass:word")
        // libpq ignores a password file others may read; so does this.
        chmod(passfile, 0o644)
        #expect(try PostgresLocation(url: url, environment: ["PGPASSFILE": passfile]).password == nil)
    }
}
