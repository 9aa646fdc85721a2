// swift-tools-version: 6.1
import Foundation
import PackageDescription

// A path dependency is named after its folder, and a clone may have any name.
let kit = URL(fileURLWithPath: Context.packageDirectory).deletingLastPathComponent().deletingLastPathComponent().lastPathComponent

// An app's use of RepLedgerKit, as small as it gets: a watch records a session and syncs it.
let package = Package(
    name: "WatchSession",
    platforms: [.macOS(.v13), .iOS(.v16), .watchOS(.v9)],
    dependencies: [.package(path: "../..")],
    targets: [
        .executableTarget(name: "WatchSession", dependencies: [.product(name: "RepLedgerKit", package: kit)])
    ],
    swiftLanguageModes: [.v6]
)
