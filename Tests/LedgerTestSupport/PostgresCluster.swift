import Foundation

/// A throwaway PostgreSQL cluster for tests: `initdb` as the `postgres` user
/// (when running as root; as the current user otherwise) into a temporary
/// folder, started on a free loopback port, stopped and removed when the test
/// process exits. Needs Debian's `postgresql` package (`.ci/run` installs it).
public final class PostgresCluster: @unchecked Sendable {
    public let folder: String
    public let port: Int
    let bin: String
    private var databases = 0
    private let lock = NSLock()

    /// The cluster every test of this process shares (each test takes databases of its own), or
    /// nil when no PostgreSQL can be started here: `unavailableReason` says why.
    public static let shared: PostgresCluster? = {
        do {
            let cluster = try PostgresCluster()
            atexit { PostgresCluster.sharedForExit?.remove() }
            sharedForExit = cluster
            return cluster
        } catch {
            unavailableReason = "\(error)"
            return nil
        }
    }()
    nonisolated(unsafe) static var sharedForExit: PostgresCluster?
    nonisolated(unsafe) public static var unavailableReason = ""

    /// True when the tests asked for PostgreSQL (`REPLEDGER_TEST_POSTGRES=1`) or one can be started.
    public static var available: Bool { shared != nil }

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
        public init(description: String) { self.description = description }
    }

    public convenience init() throws {
        try self.init(emptyFolder: ())
        try asOwner("\(bin)/initdb", ["-D", "\(folder)/data", "-U", "postgres", "--auth=trust", "-E", "UTF8", "--locale=C", "--no-sync"])
        try start()
    }

    /// A folder of its own on a free port, nothing in it yet.
    private init(emptyFolder: Void) throws {
        guard let bin = Self.binaries() else {
            throw Failure(description: "no PostgreSQL server binaries under /usr/lib/postgresql (apt-get install postgresql)")
        }
        self.bin = bin
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("repledger-pg-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        port = try Self.freePort()
        if getuid() == 0 { _ = try Self.run("/bin/chown", ["-R", "postgres", folder]) }
    }

    /// A hot standby of this cluster, as an operator makes one: `pg_basebackup
    /// -R` (streaming replication, the primary's connection written into the
    /// copy), started on a port of its own. `synchronous`: the primary then
    /// waits at every commit until a standby has flushed it
    /// (`synchronous_standby_names = '*'`, `synchronous_commit = on`), so an
    /// acknowledged write survives the primary's loss. The setting is made on
    /// the primary after the copy, so a promoted standby does not wait for a
    /// standby of its own.
    public func standby(synchronous: Bool) throws -> PostgresCluster {
        let standby = try PostgresCluster(emptyFolder: ())
        try standby.asOwner(
            "\(bin)/pg_basebackup",
            [
                "-h", "127.0.0.1", "-p", String(port), "-U", "postgres", "-D", "\(standby.folder)/data",
                "-R", "-X", "stream", "--checkpoint=fast", "--no-sync",
            ])
        try standby.start()
        if synchronous {
            try psql("postgres", "ALTER SYSTEM SET synchronous_standby_names = '*'")
            try psql("postgres", "SELECT pg_reload_conf()")
        }
        // Streaming (and, when asked, synchronous) before anything is written.
        let wanted = synchronous ? "sync" : "async"
        let deadline = Date().addingTimeInterval(30)
        while try psql("postgres", "SELECT count(*) FROM pg_stat_replication WHERE state = 'streaming' AND sync_state = '\(wanted)'")
            .trimmingCharacters(in: .whitespacesAndNewlines) == "0"
        {
            guard Date() < deadline else { throw Failure(description: "the standby on port \(standby.port) did not start streaming") }
            usleep(50_000)
        }
        return standby
    }

    /// The postmaster's process id (the first line of `postmaster.pid`).
    public func postmasterPID() -> Int32? {
        (try? String(contentsOfFile: "\(folder)/data/postmaster.pid", encoding: .utf8))?.split(separator: "\n").first.flatMap { Int32($0) }
    }

    /// `kill -9` of the postmaster: the machine lost, as far as clients can tell.
    public func killPostmaster() throws {
        guard let pid = postmasterPID() else { throw Failure(description: "no postmaster.pid in \(folder)") }
        kill(pid, SIGKILL)
        // Gone (or a zombie nobody reaps yet): its listening port is closed, and its backends notice and exit.
        let deadline = Date().addingTimeInterval(10)
        while kill(pid, 0) == 0, Date() < deadline {
            let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
            if stat.split(separator: " ").dropFirst(2).first == "Z" { break }
            usleep(10_000)
        }
    }

    /// `pg_ctl promote`: a standby becomes a primary that takes writes.
    public func promote() throws {
        try asOwner("\(bin)/pg_ctl", ["-D", "\(folder)/data", "-w", "-t", "60", "promote"])
    }

    /// Starts (or starts again) the server on the same port and data.
    public func start() throws {
        try asOwner(
            "\(bin)/pg_ctl",
            [
                "-D", "\(folder)/data", "-l", "\(folder)/log", "-w", "-t", "60",
                "-o", "-p \(port) -k \(folder) -c listen_addresses=127.0.0.1 -c max_connections=200", "start",
            ])
    }

    /// A fast stop: connections are cut, committed work is kept (the WAL is flushed at commit).
    public func stop() throws {
        try asOwner("\(bin)/pg_ctl", ["-D", "\(folder)/data", "-m", "fast", "-w", "stop"])
    }

    public func remove() {
        _ = try? asOwner("\(bin)/pg_ctl", ["-D", "\(folder)/data", "-m", "immediate", "-w", "stop"])
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// A new empty database → its URL (as the cluster's superuser, which the server then narrows to the app role).
    public func createDatabase() throws -> String {
        lock.lock()
        databases += 1
        let name = "t\(databases)_\(UUID().uuidString.prefix(8).lowercased())"
        lock.unlock()
        _ = try psql("postgres", "CREATE DATABASE \(name)")
        return url(name)
    }

    /// A new role that must give its password (scram-sha-256 over loopback; every other role keeps trust) → its name.
    public func createPasswordRole(password: String) throws -> String {
        let name = "pw_\(UUID().uuidString.prefix(8).lowercased())"
        _ = try psql("postgres", "CREATE ROLE \(name) LOGIN SUPERUSER PASSWORD '\(password)'")
        let hba = "\(folder)/data/pg_hba.conf"
        let rules = try String(contentsOfFile: hba, encoding: .utf8)
        // Rules are read top down: this one, first, holds for this role only.
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: hba))
        try handle.truncate(atOffset: 0)
        try handle.write(contentsOf: Data(("host all \(name) 127.0.0.1/32 scram-sha-256\n" + rules).utf8))
        try handle.close()
        _ = try psql("postgres", "SELECT pg_reload_conf()")
        return name
    }

    public func url(_ database: String, user: String = "postgres") -> String { "postgres://\(user)@127.0.0.1:\(port)/\(database)" }

    /// `pg_dump` of a database (plain SQL) into `file`: a backup as an operator takes one.
    public func dump(_ database: String, to file: String) throws {
        _ = try Self.run("\(bin)/pg_dump", ["-h", "127.0.0.1", "-p", String(port), "-U", "postgres", "-d", database, "-f", file])
    }

    /// Replaces a database by a dump: dropped (its connections cut), created empty, the dump replayed.
    public func restore(_ database: String, from file: String) throws {
        try psql("postgres", "DROP DATABASE IF EXISTS \(database) WITH (FORCE)")
        try psql("postgres", "CREATE DATABASE \(database)")
        _ = try Self.run(
            "/usr/bin/psql",
            [
                "-h", "127.0.0.1", "-p", String(port), "-U", "postgres", "-d", database, "-v", "ON_ERROR_STOP=1",
                "-q", "-f", file,
            ])
    }

    /// Writes every dirty page to the data files, so a scan of the cluster's files sees what the database holds.
    public func checkpoint() throws { try psql("postgres", "CHECKPOINT") }

    /// Runs SQL with psql → its output (unaligned, tuples only).
    @discardableResult
    public func psql(_ database: String, _ sql: String, user: String = "postgres") throws -> String {
        try Self.run(
            "/usr/bin/psql",
            [
                "-h", "127.0.0.1", "-p", String(port), "-U", user, "-d", database, "-v", "ON_ERROR_STOP=1",
                "-A", "-t", "-q", "-c", sql,
            ])
    }

    /// The result of psql, failure included.
    public func tryPSQL(_ database: String, _ sql: String, user: String = "postgres") -> (ok: Bool, output: String) {
        do { return (true, try psql(database, sql, user: user)) } catch { return (false, "\(error)") }
    }

    @discardableResult
    func asOwner(_ tool: String, _ args: [String]) throws -> String {
        if getuid() == 0 { return try Self.run("/usr/sbin/runuser", ["-u", "postgres", "--", tool] + args) }
        return try Self.run(tool, args)
    }

    static func binaries() -> String? {
        let root = "/usr/lib/postgresql"
        let versions = ((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []).compactMap(Int.init).sorted(by: >)
        return versions.map { "\(root)/\($0)/bin" }.first { FileManager.default.isExecutableFile(atPath: "\($0)/pg_ctl") }
    }

    public static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var size = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, size) == 0 && getsockname(fd, $0, &size) == 0 }
        }
        guard bound else { throw Failure(description: "no free loopback port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Runs a tool through `/bin/sh` and `system()` (fork and waitpid), not
    /// Foundation's `Process`: that learns of an exit through a socket its
    /// children inherit, so a server left running (postgres, or a `ledger
    /// serve` of another test) could make a finished `pg_ctl` seem never to
    /// end, at exit above all. Output goes through files; every descriptor
    /// above 2 is closed before the tool runs.
    @discardableResult
    static func run(_ tool: String, _ args: [String]) throws -> String {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("pg-run-\(UUID().uuidString)").path
        defer {
            try? FileManager.default.removeItem(atPath: base + ".out")
            try? FileManager.default.removeItem(atPath: base + ".err")
        }
        func quote(_ s: String) -> String { "'" + s.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        let command = ([tool] + args).map(quote).joined(separator: " ")
        let script =
            "for fd in $(ls /proc/$$/fd); do [ \"$fd\" -gt 2 ] && eval \"exec $fd>&-\" 2>/dev/null; done; "
            + "cd /tmp && exec \(command) </dev/null >\(quote(base + ".out")) 2>\(quote(base + ".err"))"
        let status = system("/bin/bash -c \(quote(script))")
        let output = (try? String(contentsOfFile: base + ".out", encoding: .utf8)) ?? ""
        guard status == 0 else {
            let error = (try? String(contentsOfFile: base + ".err", encoding: .utf8)) ?? ""
            throw Failure(description: "\(tool) \(args.joined(separator: " ")) failed (\(status)): \(error)")
        }
        return output
    }
}
