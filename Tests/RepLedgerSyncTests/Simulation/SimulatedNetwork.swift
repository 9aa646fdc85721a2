import Foundation
import NIOHTTP1
import RepLedgerCore
import RepLedgerSync

/// Why a simulated request got no answer.
enum SimulatedFault: Error {
    case partitioned, requestLost, answerLost, serverCrashed, deviceCrashed
}

/// A device's way to the simulated server: every request passes through the
/// simulation, which may drop it, drop its answer, keep a copy to deliver
/// again later, crash either side, or let other devices act first.
struct SimulatedLink: SyncTransport {
    let simulation: SyncSimulation
    let device: Int

    func send(_ method: HTTPMethod, url: String, token: String, body: String?) async throws -> SyncTransportAnswer {
        try await simulation.deliver(from: device, method: method.rawValue, url: url, token: token, body: body)
    }
}

/// Bugs the simulation can plant, each behind its own switch, to prove the checker finds them.
struct PlantedBugs: OptionSet, Sendable {
    let rawValue: Int
    /// The server answers a push before its commit is durable, and a crash then loses the commit.
    static let acknowledgeBeforeCommit = PlantedBugs(rawValue: 1 << 0)
    /// A device that got no answer retries its push with new event ids.
    static let retryWithNewIds = PlantedBugs(rawValue: 1 << 1)
    /// A device asks for the log after a position one past what it holds.
    static let cursorAdvancedEarly = PlantedBugs(rawValue: 1 << 2)
    /// A device merges a page of the log in arrival order, its own events first, not in the server's order.
    static let arrivalOrderMerge = PlantedBugs(rawValue: 1 << 3)
    /// A live stream reconnects one past the last event its subscriber received.
    static let streamSkipsOnReconnect = PlantedBugs(rawValue: 1 << 4)

    static let all: [(String, PlantedBugs)] = [
        ("acknowledgeBeforeCommit", .acknowledgeBeforeCommit), ("retryWithNewIds", .retryWithNewIds),
        ("cursorAdvancedEarly", .cursorAdvancedEarly), ("arrivalOrderMerge", .arrivalOrderMerge),
        ("streamSkipsOnReconnect", .streamSkipsOnReconnect),
    ]
}
