import Foundation
import Logging
import NIOCore
import NIOPosix
import PostgresNIO
import RepLedgerCore

/// A few PostgreSQL connections shared by one process, used synchronously:
/// a caller blocks on the database's answer (callers are the server's
/// thread pool and the CLI, never an event loop). A connection that fails
/// below SQL (the server restarted, the network went) is dropped, and the
/// next use connects again: while the database is away every call throws
/// `StoreError.database`, which the HTTP API answers 503 `storage`.
public final class PostgresPool: @unchecked Sendable {
    public typealias Location = PostgresLocation

    public let location: Location
    /// The role every connection works as after the schema is in place
    /// (`SET ROLE`): the app role, which may not UPDATE or DELETE events.
    var workingRole: String?
    let maximum: Int
    let logger: Logger
    private var idle: [PostgresConnection] = []
    private var open = 0
    private var nextId = 0
    private let condition = NSCondition()

    /// Whose host answered last: the next connection tries it first.
    private var preferredHost = 0

    public convenience init(url: String, maximumConnections: Int = 8, logger: Logger = Logger(label: "repledger.postgres")) throws {
        try self.init(location: try Location(url: url), maximumConnections: maximumConnections, logger: logger)
    }

    public init(location: Location, maximumConnections: Int = 8, logger: Logger = Logger(label: "repledger.postgres")) throws {
        self.location = location
        maximum = max(1, maximumConnections)
        var quiet = logger
        quiet.logLevel = .critical
        self.logger = quiet
    }

    /// Runs `body` on a connection of its own.
    public func withConnection<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        let connection = try checkout()
        do {
            let result = try body(connection)
            checkin(connection, healthy: true)
            return result
        } catch {
            let lost = Self.isConnectionFailure(error)
            checkin(connection, healthy: !connection.isClosed && !lost)
            // The host went away or stopped taking writes (a failover): the idle
            // connections to it are as dead, so the next caller connects afresh.
            if lost { closeIdle() }
            throw Self.storeError(error, location)
        }
    }

    /// Runs `body` in one transaction (READ COMMITTED): committed when it
    /// returns, rolled back when it throws.
    public func transaction<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        try withConnection { c in
            try run(c, "BEGIN")
            do {
                let result = try body(c)
                try run(c, "COMMIT")
                return result
            } catch {
                if !c.isClosed { _ = try? run(c, "ROLLBACK") }
                throw error
            }
        }
    }

    /// Runs one statement and waits for its answer, or for its connection to close.
    @discardableResult
    public func run(_ connection: PostgresConnection, _ query: PostgresQuery) throws -> PostgresQueryResult {
        let answer = connection.query(query, logger: logger)
        let answered = DispatchSemaphore(value: 0)
        answer.whenComplete { _ in answered.signal() }
        // A query sent as its connection closes (the host lost, mid-failover) can be left pending for
        // good by postgres-nio: seen under load, every request then hung behind its account's lock.
        // A closed connection that has not answered within a second more has lost the query.
        while answered.wait(timeout: .now() + .seconds(1)) == .timedOut {
            if connection.isClosed, answered.wait(timeout: .now() + .seconds(1)) == .timedOut { throw ConnectionLost() }
        }
        return try answer.wait()
    }

    /// The connection closed while a statement was waiting for its answer.
    struct ConnectionLost: Error {}

    deinit { shutdown() }

    /// Closes every idle connection (the process is stopping).
    public func shutdown() { closeIdle() }

    private func closeIdle() {
        condition.lock()
        let all = idle
        idle = []
        open -= all.count
        condition.unlock()
        for c in all {
            let closing: EventLoopFuture<Void> = c.close()
            try? closing.wait()
        }
    }

    /// A connection of its own, outside the pool (a `LISTEN` holds one for good).
    public func listenerConnection() throws -> PostgresConnection {
        do { return try connect() } catch { throw Self.storeError(error, location) }
    }

    /// A connection to a host that answers and fits the location's target,
    /// starting with the one that answered last: after a failover the old
    /// primary refuses or is read-only, and the promoted standby is taken.
    ///
    /// With several hosts and writes wanted, every host is asked: an old
    /// primary started again without rejoining (no HA manager demoted it)
    /// also takes writes, but on the timeline it left. The host on the newest
    /// timeline is the primary; writing to the other would fork the log.
    func connect() throws -> PostgresConnection {
        condition.lock()
        nextId += 1
        let id = nextId, first = preferredHost
        condition.unlock()
        var failure: Error?
        var chosen: (index: Int, connection: PostgresConnection, timeline: Int)?
        let count = location.hosts.count
        let survey = count > 1 && location.target == .readWrite
        for step in 0..<count {
            let index = (first + step) % count
            do {
                let connection = try connect(to: location.hosts[index], id: id)
                guard survey else {
                    chosen = (index, connection, 0)
                    break
                }
                let timeline = try self.timeline(connection)
                if let best = chosen, best.timeline >= timeline {
                    close(connection)
                } else {
                    if let best = chosen { close(best.connection) }
                    chosen = (index, connection, timeline)
                }
            } catch {
                failure = error
            }
        }
        if let chosen {
            do {
                if let role = workingRole { try run(chosen.connection, PostgresQuery(unsafeSQL: "SET ROLE \(role)")) }
            } catch {
                close(chosen.connection)
                throw error
            }
            condition.lock()
            preferredHost = chosen.index
            condition.unlock()
            return chosen.connection
        }
        if count > 1 {
            let why = failure.map { Self.isConnectionFailure($0) ? "" : " (\($0))" } ?? ""
            throw StoreError.database(
                "no PostgreSQL host of \(location.description) accepts \(location.target == .readWrite ? "writes" : "connections") now\(why); the request was not carried out"
            )
        }
        throw failure ?? StoreError.database("no PostgreSQL host in \(location.description)")
    }

    /// The timeline a writable host writes on: each promotion starts a newer one.
    private func timeline(_ connection: PostgresConnection) throws -> Int {
        do {
            // The WAL file's name begins with its timeline, in hexadecimal.
            let file = try run(connection, "SELECT pg_walfile_name(pg_current_wal_lsn())").rows.first?.decode(String.self) ?? ""
            return Int(file.prefix(8), radix: 16) ?? 0
        } catch {
            close(connection)
            throw error
        }
    }

    private func close(_ connection: PostgresConnection) {
        let closing: EventLoopFuture<Void> = connection.close()
        try? closing.wait()
    }

    private func connect(to host: Location.Host, id: Int) throws -> PostgresConnection {
        var configuration = PostgresConnection.Configuration(
            host: host.name, port: host.port, username: location.user,
            password: location.password, database: location.database, tls: .disable)
        configuration.options.connectTimeout = .seconds(5)
        let connection = try PostgresConnection.connect(
            on: MultiThreadedEventLoopGroup.singleton.any(), configuration: configuration,
            id: id, logger: logger
        ).wait()
        do {
            if location.target == .readWrite {
                // libpq's read-write check: a hot standby (or a primary set read-only) answers "on".
                let readOnly = try run(connection, "SHOW transaction_read_only").rows.first?.decode(String.self)
                guard readOnly == "off" else { throw NotWritable(host: host) }
            }
        } catch {
            close(connection)
            throw error
        }
        return connection
    }

    /// A host that answered but takes no writes (a standby not yet promoted).
    struct NotWritable: Error, CustomStringConvertible {
        var host: Location.Host
        var description: String { "\(host.name):\(host.port) is read-only" }
    }

    private func checkout() throws -> PostgresConnection {
        condition.lock()
        while true {
            if let c = idle.popLast() {
                condition.unlock()
                if c.isClosed {
                    release()
                    condition.lock()
                    continue
                }
                return c
            }
            if open < maximum {
                open += 1
                condition.unlock()
                do { return try connect() } catch {
                    release()
                    throw Self.storeError(error, location)
                }
            }
            condition.wait()
        }
    }

    private func checkin(_ connection: PostgresConnection, healthy: Bool) {
        if healthy {
            condition.lock()
            idle.append(connection)
            condition.signal()
            condition.unlock()
        } else {
            let closing: EventLoopFuture<Void> = connection.close()
            try? closing.wait()
            release()
        }
    }

    private func release() {
        condition.lock()
        open -= 1
        condition.signal()
        condition.unlock()
    }

    /// A failure below SQL: the connection is not to be used again.
    static func isConnectionFailure(_ error: Error) -> Bool {
        if let e = error as? PSQLError {
            guard e.code == .server else { return true }
            // Refusals that say the host is no longer the primary, or is going away.
            let state = e.serverInfo?[.sqlState] ?? ""
            return state.hasPrefix("08") || ["25006", "57P01", "57P02", "57P03"].contains(state)
        }
        return error is ChannelError || error is IOError || error is NotWritable || error is ConnectionLost
    }

    /// A database failure as one line a user can act on (never the password,
    /// never a query's values); the caller's own errors (a refusal, a
    /// conflict) pass through unchanged.
    static func storeError(_ error: Error, _ location: Location) -> Error {
        if let e = error as? PSQLError {
            if e.code == .server, let message = e.serverInfo?[.message] {
                let state = e.serverInfo?[.sqlState].map { " (SQLSTATE \($0))" } ?? ""
                return StoreError.database("PostgreSQL at \(location.description) refused: \(message)\(state)")
            }
            return StoreError.database("PostgreSQL at \(location.description) cannot be reached (\(e.code)); the request was not carried out")
        }
        if let e = error as? NotWritable {
            return StoreError.database("PostgreSQL at \(e.host.name):\(e.host.port) is read-only (a standby); the request was not carried out")
        }
        if error is ChannelError || error is IOError || error is PostgresError || error is ConnectionLost {
            return StoreError.database("PostgreSQL at \(location.description) cannot be reached; the request was not carried out")
        }
        return error
    }

    /// The SQLSTATE of a refusal by the server, if it was one.
    public static func sqlState(_ error: Error) -> String? { (error as? PSQLError)?.serverInfo?[.sqlState] }
}
