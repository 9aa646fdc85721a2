import Foundation
import LedgerTestSupport
import Testing

/// The database's password never shows in what the server prints, whatever
/// the URL's shape, and need not be on the command line: a file named by
/// `--postgres-password-file`, libpq's `PGPASSWORD` or its password file.
@Suite(
    .serialized, .enabled(if: PostgresCluster.available, "no PostgreSQL can be started here"),
    .disabled(if: ServerProcess.onPostgres, "on PostgreSQL in either pass: the main pass runs it"))
struct DatabasePasswordTests {
    static let secret = "Sw0rdfish-\(UUID().uuidString.prefix(6))"

    @Test func aPasswordNeverShowsInAnError() throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let keys = ["--keys", cli.folder.appendingPathComponent("keys").path]
        let mistakes = [
            "postgres:/repledger:\(Self.secret)@127.0.0.1:5432/repledger",
            "postgress://repledger:\(Self.secret)@127.0.0.1:5432/repledger",
            "postgres://repledger:\(Self.secret)@127.0.0.1:notaport/repledger",
            "postgres://repledger@127.0.0.1:5432/repledger?password=\(Self.secret)&target_session_attrs=any-thing",
            "repledger:\(Self.secret)@127.0.0.1/repledger",
        ]
        for url in mistakes {
            for command in [["serve", "--postgres", url] + keys, ["server", "account", "create", "x", "--postgres", url] + keys] {
                let out = try cli.run(command, useDbFlag: false)
                #expect(out.status != 0, "\(command[0]) accepted \(url)")
                #expect(!(out.stderr + out.stdout).contains(Self.secret), "\(command[0]) printed the password: \(out.stderr.prefix(300))")
                #expect(out.stderr.split(separator: "\n").count <= 3, "\(out.stderr.prefix(300))")
            }
        }
    }

    @Test func thePasswordComesFromAFilePGPASSWORDOrThePasswordFile() async throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let cluster = try #require(PostgresCluster.shared)
        let role = try cluster.createPasswordRole(password: Self.secret)
        let database = URL(string: try cluster.createDatabase())!.lastPathComponent
        let url = cluster.url(database, user: role)
        let keys = ["--keys", cli.folder.appendingPathComponent("keys").path]
        // No password anywhere: refused by the database, in words that do not hold it.
        let none = try cli.run(["server", "account", "create", "a", "--postgres", url] + keys, env: ["PGPASSFILE": "/nonexistent"], useDbFlag: false)
        #expect(none.status != 0 && !none.stderr.contains(Self.secret), "\(none.stderr.prefix(300))")
        // A file.
        let file = cli.folder.appendingPathComponent("db-password").path
        try (Self.secret + "\n").write(toFile: file, atomically: true, encoding: .utf8)
        let server = try ServerProcess(cli: cli, storage: ["--postgres", url, "--postgres-password-file", file] + keys)
        let alice = try server.createAccount("alice")
        #expect(try await server.get("/v1/accounts/\(alice.id)/verify", token: alice.token).status == 200)
        #expect(!server.log.contains(Self.secret))
        // PGPASSWORD.
        let viaEnvironment = try cli.run(
            ["server", "account", "create", "b", "--postgres", url, "--json"] + keys, env: ["PGPASSWORD": Self.secret], useDbFlag: false)
        #expect(viaEnvironment.status == 0, "\(viaEnvironment.stderr.prefix(300))")
        // libpq's password file, only its owner's to read.
        let passfile = cli.folder.appendingPathComponent("pgpass").path
        try "# host:port:database:user:password\n*:*:\(database):\(role):\(Self.secret)\n".write(toFile: passfile, atomically: true, encoding: .utf8)
        chmod(passfile, 0o600)
        let viaPassfile = try cli.run(
            ["server", "account", "create", "c", "--postgres", url, "--json"] + keys, env: ["PGPASSFILE": passfile], useDbFlag: false)
        #expect(viaPassfile.status == 0, "\(viaPassfile.stderr.prefix(300))")
    }
}
