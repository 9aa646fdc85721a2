import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import Logging
import NIOCore
import NIOPosix
import RepLedgerAccounts
import RepLedgerService
import RepLedgerSnapshots
import RepLedgerWeb
import ServiceLifecycle

/// `ledger serve`: the HTTP API on Hummingbird, stopped cleanly by SIGINT or
/// SIGTERM (in-flight requests finish; live streams are closed first, since
/// they would otherwise never finish).
public enum LedgerServer {
    public struct Settings: Sendable {
        public var host: String
        public var port: Int
        public var dataDirectory: String
        /// PostgreSQL URLs of one database (one URL, which may list several hosts,
        /// or one per host): all accounts there instead of files under
        /// `dataDirectory`; writes go to whichever host accepts them.
        public var postgres: [String] = []
        /// Hot standbys of that database that serve reads (`--postgres-read`).
        public var postgresRead: [String] = []
        /// A file holding the database's password (`--postgres-password-file`), for URLs that name none.
        public var postgresPasswordFile: String?
        /// The accounts' keys (`--keys DIR`): `DATA/keys` by default, required with `postgres`.
        public var keysDirectory: String?
        /// Seconds between `: keep-alive` comments on live streams.
        public var keepAliveSeconds: Double
        /// Timeouts and caps on connections and requests.
        public var limits = ConnectionLimits()
        /// The store root certificate (PEM or DER) that signed transactions must chain to, and the app's
        /// bundle id: without them no account holds a Coach product on this server.
        public var storeKitRoot: String?
        public var bundleId: String?
        /// The store environment whose transactions count (`--storekit-environment`): the App Store's by default.
        public var storeKitEnvironment = StoreKitVerifier.Environment.production
        /// The memory the accounts' warm folds may hold (`--warm-memory`).
        public var warmBudgetBytes = AccountLogs.defaultWarmBudgetBytes
        /// Events between snapshots of an account's fold: the device's policy at a fifth of its
        /// interval, so a restarted server's first read folds at most 10,000 events after one.
        public var snapshotEvery = LedgerAPI.serverSnapshotEvery
        /// Who may read `GET /metrics` besides loopback callers.
        public var metricsAccess = MetricsAccess()
        /// Served over HTTPS with this certificate (`--tls-cert`, `--tls-key`), reloaded on SIGHUP; plain HTTP without.
        public var certificate: ServerCertificate?
        /// How people sign in and up with no operator: Apple's keys, the mail command.
        public var signIn = SignInDesk.Settings()

        /// The sign-in settings of `--apple-keys FILE`, `--apple-client-id ID` and `--mail-command CMD`.
        public static func signIn(appleKeys: String?, appleClientId: String?, mailCommand: String?) throws -> SignInDesk.Settings {
            var out = SignInDesk.Settings(mailCommand: mailCommand.flatMap { $0.isEmpty ? nil : $0 })
            guard let appleKeys else {
                if appleClientId != nil { throw Failure.appleKeysRequired }
                return out
            }
            guard let data = FileManager.default.contents(atPath: appleKeys) else { throw Failure.appleKeysUnreadable(appleKeys) }
            out.apple = try AppleIdentityVerifier(jwks: data, clientId: appleClientId ?? "")
            return out
        }

        /// The verifier of signed transactions these settings name.
        public func purchaseVerifier() throws -> StoreKitVerifier? {
            guard let storeKitRoot else { return nil }
            guard let bundleId, !bundleId.isEmpty else { throw Failure.bundleIdRequired }
            return try StoreKitVerifier(rootPath: storeKitRoot, bundleId: bundleId, environment: storeKitEnvironment)
        }

        public init(host: String = "127.0.0.1", port: Int = 8787, dataDirectory: String = "repledger-server", keepAliveSeconds: Double = 15) {
            self.host = host
            self.port = port
            self.dataDirectory = dataDirectory
            self.keepAliveSeconds = keepAliveSeconds
        }

        /// The storage these settings name (PostgreSQL's schema is created or
        /// migrated here). `provisioning` (the commands that create accounts)
        /// creates a missing key store; a server never does, except the default
        /// one inside its own data directory: a key store that went missing must
        /// show as missing (503), not be replaced by an empty one.
        public func storage(logger: Logger, provisioning: Bool = false) throws -> any ServerStorage {
            guard let keysDirectory = keysDirectory ?? (postgres.isEmpty ? dataDirectory + "/keys" : nil) else {
                throw Failure.keysRequired
            }
            let keys = try AccountKeyStore(directory: keysDirectory, create: provisioning || self.keysDirectory == nil)
            if !postgres.isEmpty {
                return try PostgresServerStorage(
                    urls: postgres, readURLs: postgresRead, password: try postgresPassword(), keys: keys, logger: logger)
            }
            return try SQLiteServerStorage(directory: dataDirectory, keys: keys)
        }

        /// The first line of `postgresPasswordFile`, if one is named.
        public func postgresPassword() throws -> String? {
            guard let postgresPasswordFile else { return nil }
            guard let text = try? String(contentsOfFile: postgresPasswordFile, encoding: .utf8),
                let line = text.split(whereSeparator: \.isNewline).first, !line.isEmpty
            else { throw Failure.passwordFileUnreadable(postgresPasswordFile) }
            return String(line)
        }

        public enum Failure: Error, CustomStringConvertible {
            case keysRequired
            case bundleIdRequired
            case passwordFileUnreadable(String)
            case appleKeysRequired
            case appleKeysUnreadable(String)
            public var description: String {
                switch self {
                case .appleKeysRequired: return "--apple-client-id needs --apple-keys: the keys identity tokens are checked against"
                case .appleKeysUnreadable(let path): return "--apple-keys \(path) cannot be read"
                case .keysRequired:
                    return
                        "--keys DIR is required with --postgres: the accounts' keys must be kept apart from the database (a directory of its own, backed up apart)"
                case .bundleIdRequired:
                    return "--storekit-root needs --bundle-id: signed transactions are checked to be this app's"
                case .passwordFileUnreadable(let path):
                    return "--postgres-password-file \(path) cannot be read, or its first line is empty"
                }
            }
        }
    }

    /// Runs until a signal stops it; `onListening` gets the bound port (useful with port 0).
    public static func run(_ settings: Settings, logger: Logger, onListening: @escaping @Sendable (Int) -> Void) async throws {
        // A data directory made by an earlier release (0755) becomes the owner's alone.
        if settings.postgres.isEmpty { chmod(settings.dataDirectory, 0o700) }
        try await run(settings, storage: try settings.storage(logger: logger), logger: logger, onListening: onListening)
    }

    /// The same server over `storage` (`ledger app`: one account on a device's file), its app opened by `appDoor`'s codes.
    package static func run(
        _ settings: Settings, storage: any ServerStorage, appDoor: AppCodeDoor? = nil, logger: Logger,
        onListening: @escaping @Sendable (Int) -> Void
    ) async throws {
        defer { storage.shutdown() }
        do {
            for account in try storage.keys.finishErasures() {
                logger.notice("account \(account): finished an erasure a crash had interrupted (its key is destroyed)")
            }
        } catch {
            // The server still starts: every account answers 503 until the key store is back.
            logger.error("\(error)")
        }
        LegacyAccountSealing.run(storage, logger: logger)
        let api = LedgerAPI(
            storage: storage, purchases: try settings.purchaseVerifier(), warmBudgetBytes: settings.warmBudgetBytes,
            snapshotEvery: settings.snapshotEvery, signIn: settings.signIn)
        CoachClientIndex.backfill(api, logger: logger)
        // Mail still queued or running when the server stops is dropped and killed with what it started.
        defer { api.signIn.closeMail() }
        try storage.watchAppends { [logs = api.logs] account in logs.appendedElsewhere(account) }
        let limits = {
            var limits = settings.limits
            limits.maximumConnections = FileLimit.fit(connections: limits.maximumConnections, logger: logger)
            return limits
        }()
        let workers = NIOThreadPool(numberOfThreads: storage.workerThreads)
        workers.start()
        let routes = LedgerRoutes(
            api: api, keepAliveSeconds: settings.keepAliveSeconds, logger: logger, limits: limits,
            metricsAccess: settings.metricsAccess, workers: workers,
            secureCookiesOff: settings.certificate == nil
                && (["127.0.0.1", "::1", "localhost"].contains(settings.host) || settings.host.hasPrefix("127.")),
            appDoor: appDoor)
        let counts = CountsByKey()
        let readers = ReadingConnections(budget: limits.readingBudget)
        let http: HTTPServerBuilder = .http1(
            configuration: .init(
                additionalChannelHandlers: [
                    PerAddressLimit(counts: counts, limit: limits.maximumConnectionsPerAddress),
                    RequestDeadline(seconds: limits.requestTimeoutSeconds, readers: readers), ParserErrorAnswer(),
                ],
                idleTimeout: .nanoseconds(Int64(limits.idleTimeoutSeconds * 1e9))))
        settings.certificate?.reloadOnHangup(logger: logger)
        let app = Application(
            responder: routes.router().buildResponder(),
            server: try settings.certificate.map { try .tls(http, tlsConfiguration: $0.configuration()) } ?? http,
            configuration: .init(
                address: .hostname(settings.host, port: settings.port), serverName: nil,
                availableConnectionsDelegate: MaximumAvailableConnections(limits.maximumConnections, logger: logger)),
            onServerRunning: { channel in onListening(channel.localAddress?.port ?? settings.port) },
            logger: logger)
        try await runUntilSignalled(
            [app, LiveStreamsShutdown(logs: api.logs), WebhookDispatcher(api: api, workers: workers, logger: logger)], workers: workers,
            logger: logger)
    }

    /// Runs `services` until SIGTERM or SIGINT, then lets `workers` finish what they hold (also when a service fails).
    static func runUntilSignalled(_ services: [any Service], workers: NIOThreadPool, logger: Logger) async throws {
        let group = ServiceGroup(configuration: .init(services: services, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        do {
            try await group.run()
        } catch {
            try? await workers.shutdownGracefully()
            throw error
        }
        try await workers.shutdownGracefully()
    }
}

/// Ends every live stream when the server begins to shut down, so that the
/// HTTP server's wait for in-flight requests ends.
struct LiveStreamsShutdown: Service {
    let logs: AccountLogs
    func run() async throws {
        try? await gracefulShutdown()
        logs.finishSubscribers()
        logs.snapshotWarmFolds(every: 1_000)
    }
}
