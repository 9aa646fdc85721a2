import Foundation
import RepLedgerAccounts
import RepLedgerCore
import RepLedgerService
import RepLedgerSync

/// The server's service (`LedgerAPI`) on its own SQLite storage, in this
/// process, answering a sync's two requests as the HTTP routes do: a push
/// (`POST …/events`) and a page of the log (`GET …/events?after=&limit=`).
/// A restart opens the storage again from what was durable.
final class SimulatedServer: @unchecked Sendable {
    let folder: URL
    let accountId: String
    let clock: SimulationClock
    private(set) var storage: SQLiteServerStorage
    private(set) var api: LedgerAPI
    private(set) var restarts = 0

    init(folder: URL, accountId: String, clock: SimulationClock) throws {
        self.folder = folder
        self.accountId = accountId
        self.clock = clock
        (storage, api) = try Self.open(folder, clock: clock)
        if try api.accounts.account(accountId) == nil { _ = try api.accounts.createAccount(name: "lifter", coach: false, id: accountId) }
    }

    private static func open(_ folder: URL, clock: SimulationClock) throws -> (SQLiteServerStorage, LedgerAPI) {
        let keys = try AccountKeyStore(directory: folder.appendingPathComponent("keys").path, create: true)
        // A crash here is the process's, never the machine's: commits need not wait for the disk.
        let storage = try SQLiteServerStorage(directory: folder.appendingPathComponent("data").path, keys: keys, durability: .normal)
        return (storage, LedgerAPI(storage: storage, clock: { clock.now }))
    }

    func token(device: String) throws -> String { try api.accounts.createToken(account: accountId, device: device) }

    /// A crash and a restart: whatever was committed stays, nothing else does.
    func restart() throws {
        storage.shutdown()
        (storage, api) = try Self.open(folder, clock: clock)
        restarts += 1
    }

    func stop() { storage.shutdown() }

    /// One request, answered as the routes answer it: the service's JSON, or its error document.
    func handle(_ method: String, url: String, token: String, body: String?) -> SyncTransportAnswer {
        do {
            let caller = try api.authenticate("Bearer \(token)")
            guard let path = URLComponents(string: url), path.path.hasSuffix("/v1/accounts/\(accountId)/events") else {
                throw APIError.notFound("no such route in the simulation: \(url)")
            }
            let log = try api.authorize(caller, account: accountId, write: method == "POST")
            if method == "POST" {
                return SyncTransportAnswer(status: 200, body: try api.push(body ?? "", caller: caller, log: log).rendered)
            }
            func number(_ name: String) -> Int64? { path.queryItems?.first { $0.name == name }?.value.flatMap { Int64($0) } }
            return SyncTransportAnswer(
                status: 200, body: try api.events(log: log, after: number("after") ?? 0, limit: Int(number("limit") ?? 1000)))
        } catch {
            let e = APIError.from(error)
            return SyncTransportAnswer(status: e.status, body: e.json.rendered, retryAfter: e.retryAfterSeconds)
        }
    }

    /// A live stream's next page after `after` for the holder of `token`, as the route's stream reads it.
    func livePage(token: String, after: Int64) throws -> LivePage {
        let caller = try api.authenticate("Bearer \(token)")
        let log = try api.authorize(caller, account: accountId, write: false)
        return try api.livePage(log: log, after: after, caller: caller) { [api] in try api.authenticate("Bearer \(token)") }
    }

    /// The server's rows as stored, and its events after `position` decoded.
    func log(decodingAfter position: Int64) throws -> (rows: [StoredEvent], events: [EventEnvelope]) {
        var rows: [StoredEvent] = [], events: [EventEnvelope] = []
        try api.logs.log(accountId).withLedger { ledger in
            try ledger.store.storedEvents(from: 1, through: .max) { rows.append($0) }
            try ledger.store.read(EventQuery(from: position + 1)) { events.append($0) }
        }
        return (rows, events)
    }

    func headPosition() throws -> Int64 { try api.logs.log(accountId).withLedger { try $0.store.headPosition() } }
}

/// The simulation's time: a test clock the run advances, never the machine's.
final class SimulationClock: @unchecked Sendable {
    private let lock = NSLock()
    private var millis: Int64

    init(startingAt start: Timestamp) { millis = start.millis }

    var now: Timestamp { lock.withLock { Timestamp(millis: millis) } }

    func advance(seconds: Int) { lock.withLock { millis += Int64(seconds) * 1000 } }
}
