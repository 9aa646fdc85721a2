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
    public struct Location: Sendable, Equatable {
        public var host: String
        public var port: Int
        public var user: String
        public var password: String?
        public var database: String

        /// `postgres://user[:password]@host[:port]/database` (or `postgresql://`).
        public init(url: String) throws {
            guard let c = URLComponents(string: url), ["postgres", "postgresql"].contains(c.scheme ?? ""),
                  let host = c.host, !host.isEmpty, let user = c.user, !user.isEmpty else {
                throw StoreError.database("--postgres takes a URL such as postgres://USER:PASSWORD@127.0.0.1:5432/DATABASE")
            }
            self.host = host
            port = c.port ?? 5432
            self.user = user.removingPercentEncoding ?? user
            password = c.password.map { $0.removingPercentEncoding ?? $0 }
            let path = c.path.hasPrefix("/") ? String(c.path.dropFirst()) : c.path
            database = path.isEmpty ? self.user : path
        }

        /// Where, without the password: for messages and logs.
        public var description: String { "\(user)@\(host):\(port)/\(database)" }
    }

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

    public init(url: String, maximumConnections: Int = 8, logger: Logger = Logger(label: "repledger.postgres")) throws {
        location = try Location(url: url)
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
            checkin(connection, healthy: !connection.isClosed && !Self.isConnectionFailure(error))
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

    @discardableResult
    public func run(_ connection: PostgresConnection, _ query: PostgresQuery) throws -> PostgresQueryResult {
        try connection.query(query, logger: logger).wait()
    }

    deinit { shutdown() }

    /// Closes every idle connection (the process is stopping).
    public func shutdown() {
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

    func connect() throws -> PostgresConnection {
        var configuration = PostgresConnection.Configuration(host: location.host, port: location.port, username: location.user,
                                                             password: location.password, database: location.database, tls: .disable)
        configuration.options.connectTimeout = .seconds(5)
        condition.lock()
        nextId += 1
        let id = nextId
        condition.unlock()
        let connection = try PostgresConnection.connect(on: MultiThreadedEventLoopGroup.singleton.any(), configuration: configuration,
                                                        id: id, logger: logger).wait()
        if let role = workingRole {
            do { try run(connection, PostgresQuery(unsafeSQL: "SET ROLE \(role)")) } catch {
                let closing: EventLoopFuture<Void> = connection.close()
                try? closing.wait()
                throw error
            }
        }
        return connection
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
        if let e = error as? PSQLError { return e.code != .server }
        return error is ChannelError || error is IOError
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
        if error is ChannelError || error is IOError || error is PostgresError {
            return StoreError.database("PostgreSQL at \(location.description) cannot be reached; the request was not carried out")
        }
        return error
    }

    /// The SQLSTATE of a refusal by the server, if it was one.
    public static func sqlState(_ error: Error) -> String? { (error as? PSQLError)?.serverInfo?[.sqlState] }
}
