// swift-tools-version: 6.1
import PackageDescription

// Layout: Sources/ holds the SQLite binding, the core (events, codec, store,
// commands) and the `ledger` executable; Projections/ and Snapshots/ are
// their own targets so the fold logic never reaches into storage.
let package = Package(
    name: "RepLedger",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "ledger", targets: ["ledger"]),
        .library(name: "RepLedgerCore", targets: ["RepLedgerCore"]),
        .library(name: "RepLedgerProjections", targets: ["RepLedgerProjections"]),
        .library(name: "RepLedgerSnapshots", targets: ["RepLedgerSnapshots"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
        .package(url: "https://github.com/yaslab/CSV.swift", from: "2.5.2"),
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
                "CSQLite",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CSV", package: "CSV.swift"),
            ],
            path: "Sources/RepLedgerCore"
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
        .executableTarget(
            name: "ledger",
            dependencies: [
                "RepLedgerCore",
                "RepLedgerProjections",
                "RepLedgerSnapshots",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Sources/ledger"
        ),
        .testTarget(
            name: "RepLedgerCoreTests",
            dependencies: [
                "RepLedgerCore",
                "RepLedgerProjections",
                "RepLedgerSnapshots",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            path: "Tests/RepLedgerCoreTests",
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "RepLedgerProjectionsTests",
            dependencies: [
                "RepLedgerCore",
                "RepLedgerProjections",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            path: "Tests/RepLedgerProjectionsTests"
        ),
        .testTarget(
            name: "LedgerCLITests",
            dependencies: ["ledger", "RepLedgerCore"],
            path: "Tests/LedgerCLITests"
        ),
    ],
    swiftLanguageModes: [.v6]
)
