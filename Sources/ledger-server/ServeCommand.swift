import ArgumentParser
import Foundation
import LedgerShell
import Logging
import RepLedgerCore
import RepLedgerPostgres
import RepLedgerServer
import RepLedgerService

/// `ledger serve`: the sync server (SERVER-CONTRACT.md §2).
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve", abstract: ServerCommands.serveAbstract,
        discussion: """
            One SQLite ledger per account under --data (or every account in one PostgreSQL database), each
            account's payloads encrypted under its own key from --keys; erasing an account destroys its key.
            Stops cleanly on Ctrl-C or SIGTERM.

            Examples:
              ledger serve --data ./repledger-server
              ledger serve --listen 127.0.0.1:0     # any free port; the first line says which
              ledger serve --postgres postgres://repledger@127.0.0.1:5432/repledger --postgres-password-file /etc/repledger/db-password \\
                           --keys /var/lib/repledger/keys
              ledger serve --postgres 'postgres://repledger@db1:5432,db2:5432/repledger?target_session_attrs=read-write' \\
                           --postgres-read postgres://repledger@db2:5432/repledger --postgres-password-file /etc/repledger/db-password \\
                           --keys /var/lib/repledger/keys
            """)
    @Option(help: "HOST:PORT to listen on (default: loopback, 127.0.0.1:8787).") var listen = "127.0.0.1:8787"
    @Option(
        help:
            "Serve HTTPS with this certificate chain (PEM), with --tls-key; `kill -HUP` reads both files again (a renewed certificate, no restart)."
    )
    var tlsCert: String?
    @Option(help: "The certificate's private key (PEM), with --tls-cert.") var tlsKey: String?
    @Option(help: "The server's directory: accounts, tokens and one ledger per account.") var data = "repledger-server"
    @Option(
        help:
            "A PostgreSQL URL: every account in that database instead of files under --data (several servers may share it). A primary and its standbys: one URL listing the hosts (host1:5432,host2:5432), or --postgres once per host, such as the one `pg_autoctl show uri --formation default` gives; writes go to the host that accepts them on the newest timeline. Without a user in the URL, PGUSER's (else the system user's)."
    )
    var postgres: [String] = []
    @Option(
        help:
            "A hot standby of that database (once per standby) that serves pulls, live streams and queries; a device that pushed never reads an older head."
    )
    var postgresRead: [String] = []
    @Option(
        help:
            "A file whose first line is the database's password, for URLs that name none (so it is not on the command line, where `ps` shows it); libpq's PGPASSWORD and PGPASSFILE (~/.pgpass) are read too."
    )
    var postgresPasswordFile: String?
    @Option(help: "The accounts' encryption keys, kept apart from the events (default: DATA/keys; required with --postgres).") var keys: String?
    @Option(help: ArgumentHelp("Seconds between keep-alive comments on live streams.", visibility: .hidden)) var keepAlive = 15.0
    @Option(help: "Seconds a connection may stay silent while its request is being sent, or idle between requests (default 30).")
    var idleTimeout = ConnectionLimits().idleTimeoutSeconds
    @Option(help: "Seconds a request's head and body may take to arrive whole; a slower one is cut (default 60).")
    var requestTimeout = ConnectionLimits().requestTimeoutSeconds
    @Option(help: "Open connections in all; past it new ones wait (default 1024).")
    var maxConnections = ConnectionLimits().maximumConnections
    @Option(help: "Open connections from one address; one more is closed at once (default 64).")
    var maxConnectionsPerAddress = ConnectionLimits().maximumConnectionsPerAddress
    @Option(
        help:
            "Connections still sending a request, or idle between requests, at once; one more closes the slowest, by bytes a second (default: half of --max-connections)."
    )
    var maxReadingConnections: Int?
    @Option(help: "Requests of one account in progress at once, live streams aside; one more gets 429 (default 8).")
    var maxRequestsPerAccount = ConnectionLimits().maximumRequestsPerAccount
    @Option(help: "Live streams open at once through one token; one more gets 429 (default 8).")
    var maxStreamsPerToken = ConnectionLimits().maximumStreamsPerToken
    @Option(help: "Live streams open at once of one account, its tokens together; one more gets 429 (default 32).")
    var maxStreamsPerAccount = ConnectionLimits().maximumStreamsPerAccount
    @Option(help: "Live streams open at once from one address (an IPv6 /64 counts as one); one more gets 429 (default 32).")
    var maxStreamsPerAddress = ConnectionLimits().maximumStreamsPerAddress
    @Option(
        help:
            "Live streams open at once in all, a quarter of them kept for accounts' first streams; one more gets 429 (default: a quarter of --max-connections)."
    )
    var maxStreams: Int?
    @Option(help: "Requests a minute through one key (token); one more gets 429 with Retry-After (default 600; 0: no limit).")
    var keyRequestsPerMinute = RateLimits().requestsPerKey
    @Option(help: "Requests a minute of one account, its keys together (default 1200; 0: no limit).")
    var accountRequestsPerMinute = RateLimits().requestsPerAccount
    @Option(help: "Appends a minute through one key: pushes and an assistant's writes (default 300; 0: no limit).")
    var keyAppendsPerMinute = RateLimits().appendsPerKey
    @Option(help: "Appends a minute of one account, its keys together (default 600; 0: no limit).")
    var accountAppendsPerMinute = RateLimits().appendsPerAccount
    @Option(help: ArgumentHelp("Seconds the per-minute limits count over (a test's: 60 in use).", visibility: .hidden))
    var rateWindow = RateLimits().windowSeconds
    @Option(
        help:
            "The store's root certificate (PEM or DER; Apple Root CA G3 for the App Store) that a Coach purchase's signed transaction must chain to. Without it no account holds Coach here."
    )
    var storekitRoot: String?
    @Option(help: "The app's bundle id that signed transactions must name (with --storekit-root).") var bundleId: String?
    @Option(
        help:
            "The store environment whose signed transactions count: Production (the App Store; the default) or Sandbox (TestFlight and development). Any other is refused."
    )
    var storekitEnvironment = StoreKitVerifier.Environment.production.rawValue
    @Option(help: "MiB the accounts' warm folds may hold; past it the least recently read are dropped (default 512).")
    var warmMemory = AccountLogs.defaultWarmBudgetBytes >> 20
    @Option(help: "A file holding a token that may read GET /metrics from elsewhere than loopback (loopback callers need none).")
    var metricsTokenFile: String?
    @Option(help: ArgumentHelp("Events between snapshots of an account's fold (default 10,000).", visibility: .hidden))
    var snapshotEvery: Int64?
    @Option(help: "A JWKS file of Apple's sign-in keys (from appleid.apple.com/auth/keys): Sign in with Apple is offered with it.")
    var appleKeys: String?
    @Option(help: "The app (Services ID or bundle id) that Apple identity tokens must be issued to (with --apple-keys).")
    var appleClientId: String?
    @Option(
        help:
            "The server's address as browsers reach it (https://ledger.example.org): where Sign in with Apple returns from the account page. Needed off loopback."
    )
    var publicUrl: String?
    @Option(help: ArgumentHelp("Where the account page sends a browser to sign in with Apple (a test's stand-in for Apple's).", visibility: .hidden))
    var appleAuthorizeUrl: String?
    @Option(
        help:
            "A shell command that sends mail (e.g. 'sendmail -t'): the message on its input, the address in REPLEDGER_MAIL_TO. Email sign-in is offered with it."
    )
    var mailCommand: String?

    func run() throws {
        let (host, port) = try ListenAddress.parse(listen, example: "127.0.0.1:8787")
        var settings = LedgerServer.Settings(host: host, port: port, dataDirectory: data, keepAliveSeconds: max(0.05, keepAlive))
        settings.postgres = postgres
        settings.postgresRead = postgresRead
        settings.postgresPasswordFile = postgresPasswordFile
        settings.keysDirectory = keys
        guard idleTimeout > 0, requestTimeout > 0, maxConnections > 0, maxConnectionsPerAddress > 0, maxRequestsPerAccount > 0,
            (maxReadingConnections ?? 1) > 0, maxStreamsPerToken > 0, maxStreamsPerAccount > 0, maxStreamsPerAddress > 0,
            (maxStreams ?? 1) > 0
        else {
            throw ValidationError(
                "--idle-timeout, --request-timeout and the --max- limits take a number above 0")
        }
        settings.limits.maximumStreamsPerToken = maxStreamsPerToken
        settings.limits.maximumStreamsPerAccount = maxStreamsPerAccount
        settings.limits.maximumStreamsPerAddress = maxStreamsPerAddress
        settings.limits.maximumStreams = maxStreams
        settings.limits.requestTimeoutSeconds = requestTimeout
        settings.limits.maximumReadingConnections = maxReadingConnections
        settings.limits.idleTimeoutSeconds = idleTimeout
        settings.limits.maximumConnections = maxConnections
        settings.limits.maximumConnectionsPerAddress = maxConnectionsPerAddress
        settings.limits.maximumRequestsPerAccount = maxRequestsPerAccount
        guard [keyRequestsPerMinute, accountRequestsPerMinute, keyAppendsPerMinute, accountAppendsPerMinute].allSatisfy({ $0 >= 0 }) else {
            throw ValidationError("the --…-per-minute limits take 0 (no limit) or a number above it")
        }
        settings.limits.rates.requestsPerKey = keyRequestsPerMinute
        settings.limits.rates.requestsPerAccount = accountRequestsPerMinute
        settings.limits.rates.appendsPerKey = keyAppendsPerMinute
        settings.limits.rates.appendsPerAccount = accountAppendsPerMinute
        guard rateWindow > 0 else { throw ValidationError("--rate-window takes a number of seconds above 0") }
        settings.limits.rates.windowSeconds = rateWindow
        settings.storeKitRoot = storekitRoot
        settings.bundleId = bundleId
        guard let environment = StoreKitVerifier.Environment(rawValue: storekitEnvironment) else {
            throw ValidationError("--storekit-environment takes Production or Sandbox")
        }
        settings.storeKitEnvironment = environment
        if let snapshotEvery {
            guard snapshotEvery > 0 else { throw ValidationError("--snapshot-every takes a number above 0") }
            settings.snapshotEvery = snapshotEvery
        }
        guard warmMemory >= 0 else { throw ValidationError("--warm-memory takes a number of MiB, 0 or more") }
        settings.warmBudgetBytes = warmMemory << 20
        do {
            settings.metricsAccess = try MetricsAccess.reading(tokenFile: metricsTokenFile)
        } catch let failure as MetricsAccess.Failure {
            throw ValidationError(failure.description)
        } catch {
            throw ValidationError("--metrics-token-file \(metricsTokenFile ?? ""): \(error)")
        }
        do {
            _ = try settings.purchaseVerifier()
        } catch let failure as LedgerServer.Settings.Failure {
            throw ValidationError(failure.description)
        } catch {
            throw ValidationError("--storekit-root \(storekitRoot ?? ""): \(error)")
        }
        do {
            settings.signIn = try LedgerServer.Settings.signIn(appleKeys: appleKeys, appleClientId: appleClientId, mailCommand: mailCommand)
            if let appleAuthorizeUrl { settings.signIn.appleAuthorizeURL = appleAuthorizeUrl }
            if let publicUrl {
                guard let url = URL(string: publicUrl), ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host != nil,
                    url.query == nil, url.fragment == nil
                else { throw ValidationError("--public-url takes the server's address, such as https://ledger.example.org") }
                settings.signIn.publicURL = publicUrl.hasSuffix("/") ? String(publicUrl.dropLast()) : publicUrl
            }
        } catch {
            throw ValidationError("\(error)")
        }
        if postgres.isEmpty, !postgresRead.isEmpty { throw ValidationError("--postgres-read needs --postgres: the primary that takes the writes") }
        for url in postgresRead {
            do { _ = try PostgresLocation(url: url, target: .any) } catch {
                throw ValidationError("--postgres-read: \(PostgresLocation.redacted("\(error)"))")
            }
        }
        if !postgres.isEmpty {
            do { _ = try PostgresLocation(urls: postgres) } catch { throw ValidationError("--postgres: \(PostgresLocation.redacted("\(error)"))") }
            do { _ = try settings.postgresPassword() } catch { throw ValidationError("\(error)") }
        }
        if !postgres.isEmpty, keys == nil { throw ValidationError(LedgerServer.Settings.Failure.keysRequired.description) }
        switch (tlsCert, tlsKey) {
        case (nil, nil): break
        case (let cert?, let key?):
            do { settings.certificate = try ServerCertificate(certificatePath: cert, keyPath: key) } catch { throw ValidationError("\(error)") }
        default: throw ValidationError("--tls-cert and --tls-key go together: the certificate chain and its private key")
        }
        let scheme = tlsCert == nil ? "http" : "https"
        let fixed = settings
        LoggingSystem.bootstrap { StreamLogHandler.standardError(label: $0) }
        var log = Logger(label: "ledger.serve")
        log.logLevel = .info
        let logger = log
        try blockingRun {
            try await LedgerServer.run(fixed, logger: logger) { bound in
                let storage = (try? PostgresLocation(urls: postgres)).map { "postgres: \($0.description)" } ?? "data: \(data)"
                Console.out("listening on \(scheme)://\(host):\(bound) (\(storage))")
            }
        }
    }
}
