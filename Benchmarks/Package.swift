// swift-tools-version: 6.1
import Foundation
import PackageDescription

// A path dependency is named after its folder, and a clone may have any name.
let core = URL(fileURLWithPath: Context.packageDirectory).deletingLastPathComponent().lastPathComponent

// The benchmark harness lives in its own package so the main build (and CI's
// first build) stays light. It measures RepLedger, the raw SQLite floor and,
// through peer/, the Python eventsourcing library in one run.
let package = Package(
    name: "RepLedgerBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(path: ".."),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        // The guarded benchmarks (KitBenchmarks): `swift package benchmark`, with allocation counts.
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        // What an app feels (append, a read at a point, a rebuild), checked against Thresholds/
        // by `swift package benchmark thresholds check` (package-benchmark runs the targets in
        // this folder).
        .executableTarget(
            name: "KitBenchmarks",
            dependencies: [
                "LogGenerator",
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "RepLedgerCore", package: core),
                .product(name: "RepLedgerSQLite", package: core),
                .product(name: "RepLedgerProjections", package: core),
                .product(name: "RepLedgerSnapshots", package: core),
                .product(name: "RepLedgerQueries", package: core),
            ],
            path: "KitBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .target(
            name: "LogGenerator",
            dependencies: [.product(name: "RepLedgerCore", package: core)]
        ),
        .executableTarget(
            name: "repledger-bench",
            dependencies: [
                "LogGenerator",
                .product(name: "RepLedgerCore", package: core),
                .product(name: "RepLedgerSQLite", package: core),
                .product(name: "RepLedgerProjections", package: core),
                .product(name: "RepLedgerSnapshots", package: core),
                .product(name: "RepLedgerQueries", package: core),
            ]
        ),
        // The event store on PostgreSQL against SQLite and the peer's PostgreSQL recorder (Benchmarks/postgres.sh).
        .executableTarget(
            name: "repledger-pg-bench",
            dependencies: [
                "LogGenerator",
                .product(name: "RepLedgerCore", package: core),
                .product(name: "RepLedgerSQLite", package: core),
                .product(name: "RepLedgerPostgres", package: core),
            ]
        ),
        // A real `ledger serve` under load from simulated devices over loopback HTTP.
        .executableTarget(
            name: "repledger-server-bench",
            dependencies: [
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                // The coach roster's Coach product, signed by a chain of the benchmark's own.
                .product(name: "StoreKitTestSupport", package: core),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
