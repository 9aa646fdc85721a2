import Foundation

/// A pg_auto_failover formation for tests, as an operator runs one (Debian's
/// `postgresql-15-auto-failover`): a monitor and two nodes on free loopback
/// ports, each a `pg_autoctl run` keeper in a process group of its own that
/// supervises its PostgreSQL. Failover, rejoining and switchover are the
/// manager's; the test only kills and starts processes. Removed at `remove()`.
public final class AutoFailoverFormation: @unchecked Sendable {
    public struct Node: Sendable {
        public var name: String
        public var port: Int
        public var pgdata: String
    }

    /// A node's state as the monitor reports it.
    public struct State: Sendable, Equatable {
        public var name: String
        public var port: Int
        public var current: String
        public var assigned: String
    }

    public let folder: String
    public let monitorPort: Int
    public private(set) var nodes: [Node] = []
    private let bin: String
    private var keepers: [String: Int32] = [:]
    private let lock = NSLock()

    /// True when Debian's pg_auto_failover is installed (`.ci/run` installs it).
    public static var available: Bool { FileManager.default.isExecutableFile(atPath: tool) && PostgresCluster.binaries() != nil }
    static let tool = "/usr/bin/pg_autoctl"

    /// The monitor's timings made short for tests (the defaults take about 50 s from a lost primary to the
    /// first write: 20 s until the node counts as unhealthy, then 30 s for the old primary to demote itself),
    /// yet long enough that a keeper slowed by a loaded machine is not taken for lost.
    public static let quickTimings = [
        "health_check_period": 1000, "health_check_timeout": 2000, "health_check_max_retries": 1,
        "health_check_retry_delay": 500, "node_considered_unhealthy_timeout": 5000, "primary_demote_timeout": 5000,
    ]

    /// A monitor and `nodes` nodes holding the database `database`, running, one primary and the rest
    /// secondaries. `timings` are the monitor's `pgautofailover.*` settings (none: its defaults).
    public init(nodes count: Int = 2, database: String = "ledger", timings: [String: Int] = quickTimings) throws {
        guard Self.available, let bin = PostgresCluster.binaries() else {
            throw PostgresCluster.Failure(description: "no pg_autoctl (apt-get install postgresql-15-auto-failover)")
        }
        self.bin = bin
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("repledger-paf-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: folder + "/run", withIntermediateDirectories: true)
        monitorPort = try PostgresCluster.freePort()
        if getuid() == 0 { _ = try PostgresCluster.run("/bin/chown", ["-R", "postgres", folder]) }
        do {
            try autoctl([
                "create", "monitor", "--pgdata", monitorData, "--pgport", String(monitorPort), "--hostname", "127.0.0.1",
                "--listen", "127.0.0.1", "--auth", "trust", "--no-ssl",
            ])
            try startMonitor()
            guard poll(seconds: 60, for: { (try? self.monitorSQL("SELECT 1")) != nil }) else {
                throw PostgresCluster.Failure(description: "the monitor did not start: \(log("monitor"))")
            }
            for (name, value) in timings.sorted(by: { $0.key < $1.key }) {
                try monitorSQL("ALTER SYSTEM SET pgautofailover.\(name) = \(value)")
            }
            try monitorSQL("SELECT pg_reload_conf()")
            let monitorURI = "postgres://autoctl_node@127.0.0.1:\(monitorPort)/pg_auto_failover?sslmode=prefer"
            for i in 1...count {
                let node = Node(name: "node_\(i)", port: try PostgresCluster.freePort(), pgdata: "\(folder)/node\(i)")
                try autoctl([
                    "create", "postgres", "--pgdata", node.pgdata, "--pgport", String(node.port), "--hostname", "127.0.0.1",
                    "--listen", "127.0.0.1", "--auth", "trust", "--no-ssl", "--monitor", monitorURI, "--dbname", database,
                    "--name", node.name,
                ])
                nodes.append(node)
                try startNode(i - 1)
                // One node at a time: the second clones the first once that one is the primary.
                let want = i == 1 ? ["single"] : ["primary", "secondary"]
                guard
                    poll(
                        seconds: 120,
                        for: {
                            (try? self.state()).map { $0.count == i && $0.allSatisfy { want.contains($0.current) && $0.current == $0.assigned } }
                                == true
                        })
                else {
                    throw PostgresCluster.Failure(description: "the formation did not settle: \((try? self.state()) ?? []); \(log(node.name))")
                }
            }
        } catch {
            remove()
            throw error
        }
    }

    var monitorData: String { "\(folder)/monitor" }

    /// The connection string the monitor gives (`pg_autoctl show uri --formation default`), with `user` set.
    public func uri(user: String? = nil) throws -> String {
        let uri = try autoctl(["show", "uri", "--pgdata", monitorData, "--formation", "default"]).trimmingCharacters(in: .whitespacesAndNewlines)
        guard let user else { return uri }
        return uri.replacingOccurrences(of: "postgres://", with: "postgres://\(user)@")
    }

    /// Every node's state, as `pg_autoctl show state --json` gives it.
    public func state() throws -> [State] {
        let json = try autoctl(["show", "state", "--pgdata", monitorData, "--json"])
        guard let rows = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]] else { return [] }
        return rows.map {
            State(
                name: $0["nodename"] as? String ?? "", port: $0["nodeport"] as? Int ?? 0,
                current: $0["current_group_state"] as? String ?? "", assigned: $0["assigned_group_state"] as? String ?? "")
        }
    }

    /// The index of the node the monitor holds as primary (reported and assigned), if one is.
    public func primary() -> Int? {
        guard let states = try? state() else { return nil }
        let name = states.first { ["primary", "single", "wait_primary"].contains($0.current) && $0.current == $0.assigned }?.name
        return nodes.firstIndex { $0.name == name }
    }

    /// Whether every node's reported state is its assigned one and one of them is `primary`.
    public var settled: Bool {
        guard let states = try? state() else { return false }
        return states.allSatisfy { $0.current == $0.assigned } && states.contains { $0.current == "primary" }
    }

    /// Waits until the formation has `settled`.
    @discardableResult
    public func waitUntilSettled(seconds: Double = 120) async -> Bool { await wait(seconds: seconds) { self.settled } }

    /// `kill -9` of a node's keeper and its PostgreSQL together: the machine lost.
    public func killNode(_ index: Int) { killGroup(nodes[index].name, pgdata: nodes[index].pgdata) }

    /// `kill -9` of a node's postmaster alone: its keeper notices and starts it again.
    public func killPostmaster(_ index: Int) {
        guard let pid = Self.pid(in: "\(nodes[index].pgdata)/postmaster.pid") else { return }
        kill(pid, SIGKILL)
        let deadline = Date().addingTimeInterval(10)
        while Self.isRunning(pid), Date() < deadline { usleep(10_000) }
    }

    /// `kill -9` of the monitor's keeper and its PostgreSQL.
    public func killMonitor() { killGroup("monitor", pgdata: monitorData) }

    /// Starts a node's keeper (again): it brings its PostgreSQL up in whatever role the monitor assigns.
    public func startNode(_ index: Int) throws { try spawn(nodes[index].name, pgdata: nodes[index].pgdata) }

    public func startMonitor() throws { try spawn("monitor", pgdata: monitorData) }

    /// Starts a node's PostgreSQL by hand, without its keeper: an old primary brought back without rejoining.
    public func startPostgresAlone(_ index: Int) throws {
        let node = nodes[index]
        removeStalePostmasterPID(node.pgdata)
        try asOwner("\(bin)/pg_ctl", ["-D", node.pgdata, "-l", "\(node.pgdata)/alone.log", "-w", "-t", "60", "start"])
    }

    /// `pg_autoctl perform switchover`: the monitor makes the secondary the primary, in order.
    public func switchover() throws { try autoctl(["perform", "switchover", "--pgdata", monitorData]) }

    /// Runs SQL on a node (as `postgres`) → its output.
    @discardableResult
    public func psql(_ index: Int, _ database: String, _ sql: String) throws -> String {
        try Self.psql(port: nodes[index].port, database, sql)
    }

    public func remove() {
        lock.withLock {
            for pid in keepers.values { kill(-pid, SIGKILL) }
            keepers = [:]
        }
        for data in [monitorData] + nodes.map(\.pgdata) where FileManager.default.fileExists(atPath: data + "/postmaster.pid") {
            _ = try? asOwner("\(bin)/pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"])
        }
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// Polls `condition` until it holds or `seconds` pass, blocking the thread: for the formation's
    /// creation, which tests run on a thread of its own.
    private func poll(seconds: Double, for condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while !condition() {
            guard Date() < deadline else { return false }
            usleep(200_000)
        }
        return true
    }

    /// Polls `condition` until it holds or `seconds` pass, without holding a thread.
    public func wait(seconds: Double, for condition: () -> Bool) async -> Bool {
        await eventually(within: seconds, every: 0.2, condition)
    }

    /// The end of a keeper's log, for a failure's message.
    public func log(_ name: String) -> String {
        let text = (try? String(contentsOfFile: "\(folder)/\(name).log", encoding: .utf8)) ?? ""
        return text.split(separator: "\n").suffix(15).joined(separator: "\n")
    }

    private func monitorSQL(_ sql: String) throws { try Self.psql(port: monitorPort, "pg_auto_failover", sql) }

    @discardableResult
    static func psql(port: Int, _ database: String, _ sql: String) throws -> String {
        try PostgresCluster.run(
            "/usr/bin/psql",
            ["-h", "127.0.0.1", "-p", String(port), "-U", "postgres", "-d", database, "-v", "ON_ERROR_STOP=1", "-A", "-t", "-q", "-c", sql])
    }

    private func killGroup(_ name: String, pgdata: String) {
        let postmaster = Self.pid(in: "\(pgdata)/postmaster.pid")
        let keeper = lock.withLock { keepers.removeValue(forKey: name) }
        if let keeper { kill(-keeper, SIGKILL) }
        if let postmaster { kill(postmaster, SIGKILL) }
        // Gone once the keeper and the postmaster are no more (or zombies nobody reaped yet).
        let deadline = Date().addingTimeInterval(10)
        while [keeper, postmaster].contains(where: { $0.map(Self.isRunning) == true }), Date() < deadline { usleep(10_000) }
    }

    /// PostgreSQL refuses to start while its lock file names a live process: a killed postmaster not yet reaped.
    private func removeStalePostmasterPID(_ pgdata: String) {
        if let old = Self.pid(in: "\(pgdata)/postmaster.pid"), !Self.isRunning(old) {
            try? FileManager.default.removeItem(atPath: "\(pgdata)/postmaster.pid")
        }
    }

    /// The process id on a pid file's first line.
    static func pid(in file: String) -> Int32? {
        (try? String(contentsOfFile: file, encoding: .utf8))?.split(separator: "\n").first.flatMap { Int32($0.trimmingCharacters(in: .whitespaces)) }
    }

    /// Alive and not a zombie.
    static func isRunning(_ pid: Int32) -> Bool {
        guard kill(pid, 0) == 0 else { return false }
        let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
        return stat.split(separator: " ").dropFirst(2).first != "Z"
    }

    /// `pg_autoctl run` in the background, in a process group of its own (so a kill takes its children too).
    private func spawn(_ name: String, pgdata: String) throws {
        // A keeper killed a moment ago may not be reaped yet; its pid file would make the new one refuse to run.
        let pidFile = "\(folder)/run/pg_autoctl\(pgdata)/pg_autoctl.pid"
        if let old = Self.pid(in: pidFile), !Self.isRunning(old) { try? FileManager.default.removeItem(atPath: pidFile) }
        removeStalePostmasterPID(pgdata)
        let log = "\(folder)/\(name).log"
        let pid = try PostgresCluster.run(
            "/bin/bash", ["-c", "setsid \(ownerPrefix)\(Self.tool) run --pgdata '\(pgdata)' </dev/null >>'\(log)' 2>&1 & echo $!"])
        guard let id = Int32(pid.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw PostgresCluster.Failure(description: "pg_autoctl run for \(name) did not start")
        }
        lock.withLock { keepers[name] = id }
    }

    /// The environment pg_autoctl keeps its state under: this formation's folder, PostgreSQL's binaries first.
    private var environment: [String] {
        ["XDG_CONFIG_HOME=\(folder)/config", "XDG_DATA_HOME=\(folder)/share", "XDG_RUNTIME_DIR=\(folder)/run", "PATH=\(bin):/usr/bin:/bin"]
    }

    private var ownerPrefix: String {
        (getuid() == 0 ? "/usr/sbin/runuser -u postgres -- " : "") + "/usr/bin/env " + environment.map { "'\($0)'" }.joined(separator: " ") + " "
    }

    @discardableResult
    private func autoctl(_ args: [String]) throws -> String { try asOwner("/usr/bin/env", environment + [Self.tool] + args) }

    @discardableResult
    private func asOwner(_ tool: String, _ args: [String]) throws -> String {
        if getuid() == 0 { return try PostgresCluster.run("/usr/sbin/runuser", ["-u", "postgres", "--", tool] + args) }
        return try PostgresCluster.run(tool, args)
    }
}
