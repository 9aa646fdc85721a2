import Foundation
import NIOHTTP1
import RepLedgerCore
import RepLedgerSQLite
import RepLedgerSnapshots
import RepLedgerSync

/// The state every simulated run starts from, made once per test process and
/// copied by each run: the server holding the built-in exercise library (a
/// device's first command seeds it), four devices with their tokens that
/// have synced it, and the live-stream subscribers' tokens. Making it takes most of a run's time; copying it, little.
actor SimulationStart {
    static let shared = SimulationStart()
    static let remote = "http://simulated"

    private var made: Task<URL, any Error>?

    /// The starting state's folder, made by the first caller (the others wait for it).
    func folder() async throws -> URL {
        if made == nil { made = Task { try await Self.make() } }
        return try await made!.value
    }

    private static func make() async throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("repledger-sim-start-\(getpid())")
        try? FileManager.default.removeItem(at: folder)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let server = try SimulatedServer(
            folder: folder.appendingPathComponent("server"), accountId: SyncSimulation.accountId,
            clock: SimulationClock(startingAt: SyncSimulation.start))
        defer { server.stop() }
        for (i, name) in SyncSimulation.deviceNames.enumerated() {
            let tokenFile = folder.appendingPathComponent("\(name).token").path
            try server.token(device: name).write(toFile: tokenFile, atomically: true, encoding: .utf8)
            let device = try SimulatedDevice(name: name, path: folder.appendingPathComponent("\(name).sqlite").path, seed: UInt64(i))
            try device.store.saveSyncTarget(remote: Self.remote, account: SyncSimulation.accountId, tokenFile: tokenFile)
            if i == 0 { try device.ledger.seedLibraryIfNeeded() }
            _ = try await SyncClient(store: device.store, transport: Direct(server: server)).run()
            // Folds (the views each run compares) start here, not at the library's first event.
            try SnapshotPolicy.apply(device.store, every: 1)
        }
        for name in SyncSimulation.subscriberNames {
            try server.token(device: name).write(to: folder.appendingPathComponent("\(name).token"), atomically: true, encoding: .utf8)
        }
        try server.api.logs.log(SyncSimulation.accountId).withLedger { _ = try SnapshotPolicy.apply($0.store, every: 1) }
        Self.removeAtExit = folder.path
        atexit { if let path = SimulationStart.removeAtExit { try? FileManager.default.removeItem(atPath: path) } }
        return folder
    }

    nonisolated(unsafe) static var removeAtExit: String?

    /// Straight to the server, nothing lost.
    struct Direct: SyncTransport {
        let server: SimulatedServer
        func send(_ method: HTTPMethod, url: String, token: String, body: String?) async throws -> SyncTransportAnswer {
            server.handle(method.rawValue, url: url, token: token, body: body)
        }
    }
}
