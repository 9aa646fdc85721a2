import Foundation

/// Debian's pgbouncer in front of a test cluster, on a free loopback port, in
/// a pool mode given; stopped and its folder removed at `stop()`.
public final class PgBouncer: @unchecked Sendable {
    public let port: Int
    let folder: String

    /// True when pgbouncer is installed (`.ci/run` installs it).
    public static var available: Bool { FileManager.default.isExecutableFile(atPath: binary) }
    static let binary = "/usr/sbin/pgbouncer"

    /// pgbouncer forwarding every database of `cluster` (as its `postgres` user, trusted over loopback).
    public init(before cluster: PostgresCluster, poolMode: String, poolSize: Int = 20) throws {
        guard Self.available else { throw PostgresCluster.Failure(description: "no pgbouncer (apt-get install pgbouncer)") }
        port = try PostgresCluster.freePort()
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("repledger-bouncer-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let config = """
            [databases]
            * = host=127.0.0.1 port=\(cluster.port)
            [pgbouncer]
            listen_addr = 127.0.0.1
            listen_port = \(port)
            unix_socket_dir =
            auth_type = trust
            auth_file = \(folder)/users.txt
            pool_mode = \(poolMode)
            default_pool_size = \(poolSize)
            max_client_conn = 500
            logfile = \(folder)/pgbouncer.log
            pidfile = \(folder)/pgbouncer.pid

            """
        try config.write(toFile: "\(folder)/pgbouncer.ini", atomically: true, encoding: .utf8)
        try "\"postgres\" \"\"\n".write(toFile: "\(folder)/users.txt", atomically: true, encoding: .utf8)
        // pgbouncer will not run as root; `-d` returns once it listens.
        if getuid() == 0 { try PostgresCluster.run("/bin/chown", ["-R", "postgres", folder]) }
        let command = [Self.binary, "-d", "\(folder)/pgbouncer.ini"]
        if getuid() == 0 {
            try PostgresCluster.run("/usr/sbin/runuser", ["-u", "postgres", "--"] + command)
        } else {
            try PostgresCluster.run(command[0], Array(command.dropFirst()))
        }
    }

    /// A URL of `database` through pgbouncer.
    public func url(_ database: String) -> String { "postgres://postgres@127.0.0.1:\(port)/\(database)" }

    public func stop() {
        if let pid = (try? String(contentsOfFile: "\(folder)/pgbouncer.pid", encoding: .utf8)).flatMap({
            Int32($0.trimmingCharacters(in: .whitespacesAndNewlines))
        }) {
            kill(pid, SIGTERM)
        }
        try? FileManager.default.removeItem(atPath: folder)
    }
}
