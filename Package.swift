// swift-tools-version: 6.1
import PackageDescription

// The targets, along the architecture (docs/DESIGN.md, "Module map"):
//   RepLedgerCore         the domain: events and their codec, commands and
//                         their rules (pure deciders), the EventStore protocol
//                         with the append planner, sealing and verify. No I/O
//                         but through a store.
//   RepLedgerSQLite       the event store in one SQLite file, a device's sync tables.
//   RepLedgerPostgres     the event store on PostgreSQL (the server's other backend).
//   RepLedgerProjections  the fold and its views (Projections/).
//   RepLedgerSnapshots    snapshots of folds over any store (Snapshots/).
//   RepLedgerQueries      each query's answer and JSON document, for the CLI and the server.
//   RepLedgerImport       other apps' exports read into commands.
//   RepLedgerExport       the history written for other apps: CSV in Strong's columns, Garmin FIT, Health Connect.
//   RepLedgerCharts       SVG charts for the report and the coach's pages.
//   RepLedgerDemo         the demo's twelve weeks.
//   RepLedgerAccounts     the server's accounts, tokens, keys and the storage of their logs.
//   RepLedgerService      what the server answers, without HTTP: grants, pushes, queries, the coach's API.
//   RepLedgerWeb          the web pages: the coach's dashboard over the service, the inspector over one log.
//   RepLedgerAssistant    an assistant's tools over one log, served over MCP (stdio or HTTP).
//   RepLedgerServer       the HTTP API on Hummingbird's router, the pages mounted beside it.
//   RepLedgerSync         a device's sync client.
//   RepLedgerKit          the library an app embeds: one actor on a ledger file (its DocC
//                         catalog in Sources/RepLedgerKit/RepLedgerKit.docc, an app in Examples/).
//   LedgerShell, ledger, ledger-server   what a person runs; the edges that word errors.
// `ledger demo` and every device command build without SwiftNIO,
// Hummingbird, AsyncHTTPClient or postgres-nio: those are `ledger-server`'s,
// which `ledger serve|server|sync` runs.
let package = Package(
    name: "RepLedger",
    // RepLedgerKit is for apps on Apple's systems; everything is built and tested on Linux.
    platforms: [.macOS(.v13), .iOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    products: [
        .executable(name: "ledger", targets: ["ledger"]),
        .executable(name: "ledger-server", targets: ["ledger-server"]),
        .library(name: "RepLedgerCore", targets: ["RepLedgerCore"]),
        .library(name: "RepLedgerSQLite", targets: ["RepLedgerSQLite"]),
        .library(name: "RepLedgerProjections", targets: ["RepLedgerProjections"]),
        .library(name: "RepLedgerKit", targets: ["RepLedgerKit"]),
        .library(name: "RepLedgerQueries", targets: ["RepLedgerQueries"]),
        .library(name: "RepLedgerSnapshots", targets: ["RepLedgerSnapshots"]),
        .library(name: "RepLedgerPostgres", targets: ["RepLedgerPostgres"]),
        .library(name: "RepLedgerImport", targets: ["RepLedgerImport"]),
        .library(name: "RepLedgerExport", targets: ["RepLedgerExport"]),
        .library(name: "RepLedgerDemo", targets: ["RepLedgerDemo"]),
        // For tests and benchmarks only: certificates of their own (a StoreKit chain and transactions signed with it, a
        // test server's self-signed certificate).
        .library(name: "StoreKitTestSupport", targets: ["StoreKitTestSupport"]),
    ],
    // Exact versions: what ships (ledger, ledger-server) is built from the versions CI tested, not
    // whatever resolves on the day (docs/DESIGN.md, "Pinned dependencies"). Raise one on purpose.
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        .package(url: "https://github.com/apple/swift-crypto", exact: "3.12.3"),
        .package(url: "https://github.com/x-sheep/swift-property-based", exact: "2.0.1"),
        .package(url: "https://github.com/yaslab/CSV.swift", exact: "2.5.2"),
        .package(url: "https://github.com/apple/swift-log", exact: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio", exact: "2.101.3"),
        .package(url: "https://github.com/apple/swift-nio-extras", exact: "1.35.2"),
        .package(url: "https://github.com/apple/swift-certificates", exact: "1.21.1"),
        .package(url: "https://github.com/apple/swift-asn1", exact: "1.7.4"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", exact: "2.28.1"),
        // `ledger serve --tls-cert/--tls-key`: Hummingbird's TLS, on the swift-nio-ssl async-http-client already brings.
        .package(url: "https://github.com/apple/swift-nio-ssl", exact: "2.37.6"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", exact: "2.13.0"),
        .package(url: "https://github.com/swift-server/async-http-client", exact: "1.37.0"),
        .package(url: "https://github.com/vapor/postgres-nio", exact: "1.33.2"),
        .package(url: "https://github.com/apple/swift-metrics", exact: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", exact: "2.4.1"),
        .package(url: "https://github.com/modelcontextprotocol/swift-sdk", exact: "0.12.1"),
        // `swift package generate-documentation`: RepLedgerKit's DocC catalog (a plugin; nothing of it is linked).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", exact: "1.5.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CSQLite",
            path: "Sources/CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        .target(
            name: "RepLedgerCore",
            dependencies: [
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            path: "Sources/RepLedgerCore",
            // Embedded as Swift by .ci/embed-data (SplitTemplatesText.swift), so no resource bundle travels with the binary.
            exclude: ["Programs/split_templates.json"]
        ),
        // The event store in one SQLite file (a device's ledger, or one
        // account's file on a server), with a device's sync tables.
        .target(
            name: "RepLedgerSQLite",
            dependencies: [
                "CSQLite",
                "RepLedgerCore",
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            path: "Sources/RepLedgerSQLite"
        ),
        // Other apps' exports (Strong, Hevy, FitNotes) read into commands
        // that the core's deciders check, as a person's would be.
        .target(
            name: "RepLedgerImport",
            dependencies: [
                "RepLedgerCore",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CSV", package: "CSV.swift"),
            ],
            path: "Sources/RepLedgerImport"
        ),
        // The history written for other apps (CSV in Strong's columns, Garmin FIT, Health Connect): pure renderings of the fold.
        .target(
            name: "RepLedgerExport",
            dependencies: ["RepLedgerCore", "RepLedgerProjections"],
            path: "Sources/RepLedgerExport"
        ),
        // `ledger demo`'s twelve weeks, made through the deciders.
        .target(
            name: "RepLedgerDemo",
            dependencies: ["RepLedgerCore"],
            path: "Sources/RepLedgerDemo"
        ),
        // SVG charts drawn as plain shapes: the report's and the coach's pages.
        .target(
            name: "RepLedgerCharts",
            dependencies: ["RepLedgerCore"],
            path: "Sources/RepLedgerCharts"
        ),
        .target(
            name: "RepLedgerProjections",
            dependencies: ["RepLedgerCore"],
            path: "Projections"
        ),
        .target(
            name: "RepLedgerSnapshots",
            dependencies: ["RepLedgerCore", "RepLedgerProjections"],
            path: "Snapshots"
        ),
        // The JSON documents of the queries: one implementation that the CLI
        // prints and the server serves.
        .target(
            name: "RepLedgerQueries",
            dependencies: ["RepLedgerCore", "RepLedgerProjections", "RepLedgerSnapshots"],
            path: "Sources/RepLedgerQueries"
        ),
        // The event store on PostgreSQL (`ledger serve --postgres URL`): the
        // same EventStore protocol as SQLite, through postgres-nio.
        .target(
            name: "RepLedgerPostgres",
            dependencies: [
                "RepLedgerCore",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            path: "Sources/RepLedgerPostgres"
        ),
        // The server's accounts and where they live: the account table (SQLite or PostgreSQL),
        // tokens and invites, each account's key, and the storage that opens an account's log.
        .target(
            name: "RepLedgerAccounts",
            dependencies: [
                "RepLedgerCore",
                "RepLedgerSQLite",
                "RepLedgerPostgres",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            path: "Sources/RepLedgerAccounts"
        ),
        // The library app developers embed: one actor on a ledger file, recording through the
        // CLI's deciders, reading the queries' answers, observing changes and syncing.
        .target(
            name: "RepLedgerKit",
            dependencies: [
                "RepLedgerCore", "RepLedgerSQLite", "RepLedgerProjections", "RepLedgerQueries", "RepLedgerSnapshots", "RepLedgerSync",
            ],
            path: "Sources/RepLedgerKit"
        ),
        // What the server answers, with no HTTP in it: authentication and grants, pushes, the
        // queries over warm folds, the coach's API, purchases, metrics and the errors' contract.
        .target(
            name: "RepLedgerService",
            dependencies: [
                "RepLedgerCore",
                "RepLedgerSQLite",
                "RepLedgerProjections",
                "RepLedgerQueries",
                "RepLedgerSnapshots",
                "RepLedgerAccounts",
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Sources/RepLedgerService"
        ),
        // The server's web pages (the coach's dashboard) over the service's answers: routes,
        // sessions with CSRF tokens, and HTML written by hand.
        .target(
            name: "RepLedgerWeb",
            dependencies: [
                "RepLedgerCore",
                "RepLedgerProjections",
                "RepLedgerQueries",
                "RepLedgerCharts",
                "RepLedgerAccounts",
                "RepLedgerService",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            path: "Sources/RepLedgerWeb",
            // The app's modules and stylesheet are embedded by .ci/embed-data (AppAssetsText.swift).
            exclude: ["App/Assets"]
        ),
        // An assistant's tools over one log (MCP): the CLI's queries as read tools, writes that take the
        // head they were decided on and an id that makes a retry append nothing; resources and prompts.
        .target(
            name: "RepLedgerAssistant",
            dependencies: [
                "RepLedgerCore",
                "RepLedgerProjections",
                "RepLedgerQueries",
                .product(name: "MCP", package: "swift-sdk"),
            ],
            path: "Sources/RepLedgerAssistant"
        ),
        // `ledger serve`: the HTTP API on Hummingbird's router (routes, middleware for limits,
        // authentication and headers), the web pages mounted beside it, and the process's lifecycle.
        .target(
            name: "RepLedgerServer",
            dependencies: [
                "RepLedgerCore",
                "RepLedgerQueries",
                "RepLedgerSnapshots",
                "RepLedgerAccounts",
                "RepLedgerService",
                "RepLedgerWeb",
                "RepLedgerAssistant",
                .product(name: "MCP", package: "swift-sdk"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            path: "Sources/RepLedgerServer"
        ),
        // `ledger sync`: a device's outbox, push, pull and rebase.
        .target(
            name: "RepLedgerSync",
            dependencies: [
                "RepLedgerCore",
                "RepLedgerSQLite",
                "RepLedgerSnapshots",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            path: "Sources/RepLedgerSync"
        ),
        .target(
            name: "LedgerShell",
            dependencies: [
                "RepLedgerCore",
                "RepLedgerSQLite",
                "RepLedgerProjections",
                "RepLedgerSnapshots",
                "RepLedgerQueries",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Sources/LedgerShell"
        ),
        .executableTarget(
            name: "ledger",
            dependencies: [
                "RepLedgerCore",
                "RepLedgerSQLite",
                "RepLedgerImport",
                "RepLedgerExport",
                "RepLedgerDemo",
                "RepLedgerProjections",
                "RepLedgerSnapshots",
                "RepLedgerQueries",
                "RepLedgerCharts",
                "LedgerShell",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Sources/ledger"
        ),
        .executableTarget(
            name: "ledger-server",
            dependencies: [
                "RepLedgerCore",
                "RepLedgerSQLite",
                "RepLedgerSnapshots",
                "LedgerShell",
                "RepLedgerAccounts",
                "RepLedgerService",
                "RepLedgerServer",
                "RepLedgerWeb",
                "RepLedgerQueries",
                "RepLedgerSync",
                "RepLedgerPostgres",
                "RepLedgerAssistant",
                .product(name: "MCP", package: "swift-sdk"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Sources/ledger-server"
        ),
        // One test target per library target: each tests its own target (the store conformance
        // suite, in the core's, runs over every EventStore).
        .testTarget(
            name: "RepLedgerCoreTests",
            dependencies: [
                "RepLedgerCore",
                "RepLedgerSQLite",
                "RepLedgerDemo",
                "RepLedgerPostgres",
                "RepLedgerProjections",
                "LedgerTestSupport",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            path: "Tests/RepLedgerCoreTests",
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "RepLedgerSQLiteTests",
            dependencies: [
                "RepLedgerCore", "RepLedgerSQLite", "RepLedgerSnapshots", "LedgerTestSupport",
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            path: "Tests/RepLedgerSQLiteTests"
        ),
        .testTarget(
            name: "RepLedgerPostgresTests",
            dependencies: ["RepLedgerCore", "RepLedgerSQLite", "RepLedgerPostgres", "LedgerTestSupport"],
            path: "Tests/RepLedgerPostgresTests"
        ),
        .testTarget(
            name: "RepLedgerProjectionsTests",
            dependencies: [
                "RepLedgerCore",
                "RepLedgerProjections",
                "RepLedgerSQLite",
                "RepLedgerSnapshots",
                "LedgerTestSupport",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            path: "Tests/RepLedgerProjectionsTests"
        ),
        .testTarget(
            name: "RepLedgerSnapshotsTests",
            dependencies: [
                "RepLedgerCore", "RepLedgerSQLite", "RepLedgerProjections", "RepLedgerSnapshots", "RepLedgerDemo", "LedgerTestSupport",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            path: "Tests/RepLedgerSnapshotsTests"
        ),
        .testTarget(
            name: "RepLedgerQueriesTests",
            dependencies: [
                "RepLedgerCore", "RepLedgerSQLite", "RepLedgerProjections", "RepLedgerSnapshots", "RepLedgerQueries", "RepLedgerDemo",
                "LedgerTestSupport",
            ],
            path: "Tests/RepLedgerQueriesTests"
        ),
        .testTarget(
            name: "RepLedgerImportTests",
            dependencies: [
                "RepLedgerCore", "RepLedgerSQLite", "RepLedgerProjections", "RepLedgerImport", "RepLedgerDemo", "LedgerTestSupport",
            ],
            path: "Tests/RepLedgerImportTests",
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "RepLedgerExportTests",
            dependencies: [
                "RepLedgerCore", "RepLedgerSQLite", "RepLedgerProjections", "RepLedgerImport", "RepLedgerExport", "RepLedgerDemo",
                "LedgerTestSupport",
            ],
            path: "Tests/RepLedgerExportTests",
            exclude: ["Golden"]
        ),
        .testTarget(
            name: "RepLedgerDemoTests",
            dependencies: ["RepLedgerCore", "RepLedgerProjections", "RepLedgerDemo", "LedgerTestSupport"],
            path: "Tests/RepLedgerDemoTests"
        ),
        .testTarget(
            name: "RepLedgerChartsTests",
            dependencies: ["RepLedgerCharts"],
            path: "Tests/RepLedgerChartsTests"
        ),
        // The sync client against a real server in the test's own process.
        .testTarget(
            name: "RepLedgerSyncTests",
            dependencies: [
                "RepLedgerCore", "RepLedgerSQLite", "RepLedgerSync", "RepLedgerServer", "RepLedgerService", "RepLedgerAccounts",
                "RepLedgerQueries", "RepLedgerSnapshots", "LedgerTestSupport",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tests/RepLedgerSyncTests"
        ),
        .testTarget(
            name: "LedgerShellTests",
            dependencies: ["LedgerShell", "RepLedgerCore"],
            path: "Tests/LedgerShellTests"
        ),
        .testTarget(
            name: "RepLedgerAccountsTests",
            dependencies: ["RepLedgerAccounts", "RepLedgerCore", "RepLedgerPostgres", "LedgerTestSupport"],
            path: "Tests/RepLedgerAccountsTests"
        ),
        .testTarget(
            name: "RepLedgerServiceTests",
            dependencies: ["RepLedgerService", "RepLedgerAccounts", "RepLedgerCore", "RepLedgerQueries", "LedgerTestSupport"],
            path: "Tests/RepLedgerServiceTests"
        ),
        .testTarget(
            name: "RepLedgerWebTests",
            dependencies: ["RepLedgerWeb", "RepLedgerService", "RepLedgerAccounts", .product(name: "Crypto", package: "swift-crypto")],
            path: "Tests/RepLedgerWebTests"
        ),
        // The router and its middleware in process; `ServerTests` drives a whole `ledger serve`.
        .testTarget(
            name: "RepLedgerServerTests",
            dependencies: [
                "RepLedgerServer", "RepLedgerService", "RepLedgerAccounts", "RepLedgerCore",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ],
            path: "Tests/RepLedgerServerTests"
        ),
        // Runs the built `ledger` as a script would (for the CLI and server tests), starts throwaway
        // PostgreSQL clusters, and holds the domain's samples and a fresh ledger file for the libraries' tests.
        .target(
            name: "LedgerTestSupport",
            dependencies: ["RepLedgerCore", "RepLedgerSQLite", "RepLedgerDemo", "RepLedgerPostgres"],
            path: "Tests/LedgerTestSupport"
        ),
        // Signed StoreKit transactions a server started with `--storekit-root` verifies:
        // the server tests' purchases and the server benchmark's coach.
        .target(
            name: "StoreKitTestSupport",
            dependencies: [
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            path: "Tests/StoreKitTestSupport"
        ),
        .testTarget(
            name: "LedgerCLITests",
            dependencies: ["ledger", "ledger-server", "RepLedgerCore", "RepLedgerSQLite", "LedgerTestSupport"],
            path: "Tests/LedgerCLITests",
            // Session fixtures saved from the inspector, replayed by `ledger check-fixture` (read by path, not bundled).
            exclude: ["Fixtures"]
        ),
        // A real `ledger serve` on a loopback port, driven over HTTP and by `ledger sync`.
        .testTarget(
            name: "RepLedgerKitTests",
            // RepLedgerSQLite only to change a stored event by hand, as a damaged file would be.
            dependencies: ["RepLedgerKit", "RepLedgerSQLite"], path: "Tests/RepLedgerKitTests"),
        .testTarget(
            name: "ServerTests",
            dependencies: [
                "ledger", "ledger-server", "RepLedgerCore", "LedgerTestSupport", "StoreKitTestSupport", "RepLedgerKit",
                // Only to lay out a server's storage as the first release left it (no keys, payloads in clear).
                "RepLedgerAccounts", "RepLedgerPostgres",
                // To damage a ledger on purpose (the inspector shows where its chain breaks).
                "RepLedgerSQLite",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                // A client that trusts only a test server's own certificate (`ledger serve --tls-cert`).
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
                // The tests' own Apple: RSA keys, a JWKS and identity tokens signed with them.
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ],
            path: "Tests/ServerTests"
        ),
    ],
    swiftLanguageModes: [.v6]
)
