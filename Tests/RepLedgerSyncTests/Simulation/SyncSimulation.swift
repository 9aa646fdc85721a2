import Foundation
import RepLedgerCore
import RepLedgerSQLite
import RepLedgerSync

/// A seeded run of devices syncing with one server over a faulty network.
/// One generator drives every choice (which device acts, what it does, which
/// request is dropped, who crashes, when the clock moves) and every wait is on
/// the simulation's own clock, so a seed replays its run exactly; the history
/// it records is what `SyncHistoryChecker` reads.
final class SyncSimulation: @unchecked Sendable {
    struct Settings {
        var steps = 60
        var devices = 2...3
        var bugs: PlantedBugs = []
    }

    let seed: UInt64
    let settings: Settings
    let folder: URL
    let clock: SimulationClock
    var random: SimulationRandom
    let server: SimulatedServer
    /// Where the log stood before the first step: the built-in library, the same in every run.
    let startHead: Int64
    private(set) var devices: [SimulatedDevice] = []
    /// Live-stream subscribers following the account's log.
    private(set) var subscribers: [SimulatedSubscriber] = []
    /// Devices inside a sync now: another step may not use them until it ends.
    private var syncing: Set<Int> = []
    private var depth = 0
    /// While faults are on, the network and the server may fail; the setup and the final heal run without.
    private var faults = false
    /// Pushes delivered once and kept to be delivered again later (a duplicated, delayed request).
    private var lateCopies: [(device: Int, url: String, token: String, body: String)] = []
    private var partitioned: Set<Int> = []
    /// Whether each device's last request went unanswered (what a retry follows).
    private var unanswered: Set<Int> = []
    var history = SyncHistory()

    static let start = Timestamp(millis: 1_793_599_200_000)  // 2026-11-02T06:00:00Z

    static let deviceNames = ["phone", "watch", "laptop", "tablet"]
    static let subscriberNames = ["app", "inspector"]
    static let accountId = UUID.derived(from: "simulation/account").lowercased

    /// A run from the shared starting state (`SimulationStart`): its files copied, then the seed's
    /// own choices from the first step.
    init(seed: UInt64, settings: Settings = Settings()) async throws {
        self.seed = seed
        self.settings = settings
        random = SimulationRandom(seed: seed)
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("repledger-sim-\(seed)-\(UUID().uuidString)")
        try FileManager.default.copyItem(at: try await SimulationStart.shared.folder(), to: folder)
        clock = SimulationClock(startingAt: Self.start)
        server = try SimulatedServer(folder: folder.appendingPathComponent("server"), accountId: Self.accountId, clock: clock)
        startHead = try server.headPosition()
        for (i, name) in Self.deviceNames.prefix(random.int(settings.devices)).enumerated() {
            let device = try SimulatedDevice(
                name: name, path: folder.appendingPathComponent("\(name).sqlite").path, seed: seed &* 31 &+ UInt64(i) &+ 1)
            let tokenFile = folder.appendingPathComponent("\(name).token").path
            try device.store.saveSyncTarget(remote: SimulationStart.remote, account: Self.accountId, tokenFile: tokenFile)
            devices.append(device)
        }
        for name in Self.subscriberNames.prefix(random.int(1...2)) {
            let token = try String(contentsOf: folder.appendingPathComponent("\(name).token"), encoding: .utf8)
            let subscriber = SimulatedSubscriber(name: name, token: token, after: startHead)
            subscriber.connect(skipping: false)
            subscribers.append(subscriber)
        }
    }

    deinit {
        server.stop()
        try? FileManager.default.removeItem(at: folder)
    }

    /// The whole run: the library seeded and synced without faults, the steps with faults, then the network
    /// healed and every device synced until nothing moves → the history to check.
    func run() async throws -> SyncHistory {
        faults = true
        for _ in 0..<settings.steps { try await step() }
        faults = false
        partitioned = []
        for (i, device) in devices.enumerated() where device.crashedInFlight { try restartDevice(i) }
        try await heal()
        for subscriber in subscribers {
            if subscriber.connection == nil { reconnect(subscriber) }
            _ = try subscriber.wake(server) { _ in nil }
            history.streams[subscriber.name] = subscriber.received
        }
        (history.serverLog, history.serverEvents) = try server.log(decodingAfter: startHead)
        history.serverVerified = try server.api.logs.log(server.accountId).withLedger { try $0.store.verify().ok }
        for device in devices {
            history.deviceLogs[device.name] = try device.log()
            history.rejected[device.name] = Set(try device.store.rejectedEvents().map(\.eventId))
            history.views[device.name] = try SyncHistory.views(device.store)
        }
        history.views["server"] = try server.api.logs.log(server.accountId).withLedger { try SyncHistory.views($0.store) }
        return history
    }

    /// Every device syncs in turn until a whole round moves nothing (or it is clear that nothing will).
    private func heal() async throws {
        for _ in 0..<6 {
            var moved = false
            for i in devices.indices {
                let before = try devices[i].store.head()
                try await sync(i)
                let after = try devices[i].store.head()
                if before.position != after.position || before.hash != after.hash { moved = true }
            }
            let heads = try Set(devices.map { try $0.store.head().hash })
            if !moved, heads.count == 1 { return }
        }
    }

    /// One step of the run, or of another device's turn while a request is out.
    private func step() async throws {
        clock.advance(seconds: random.int(5...300))
        if random.chance(0.3) { try streamStep() }
        let free = devices.indices.filter { !syncing.contains($0) }
        guard let d = free.isEmpty ? nil : random.pick(free) else { return }
        let roll = random.int(0...99)
        switch roll {
        case 0..<55:
            let device = devices[d]
            let time = Timestamp(millis: clock.now.millis + Int64(device.skewSeconds) * 1000)
            let (command, appended) = try device.act(&random, at: time)
            history.trace.append("\(device.name) \(command) +\(appended.count)")
            history.counts[command == "refused" ? "commands refused on the device" : "commands", default: 0] += 1
            history.local[device.name, default: []].formUnion(appended)
        case 55..<80:
            try await sync(d)
        case 80..<85:
            guard !lateCopies.isEmpty else { return }
            let copy = lateCopies.remove(at: random.int(0...lateCopies.count - 1))
            let answer = server.handle("POST", url: copy.url, token: copy.token, body: copy.body)
            history.note("late copy delivered", "late copy of a \(devices[copy.device].name) push → \(answer.status)")
        case 85..<90:
            if partitioned.remove(d) == nil { partitioned.insert(d) }
            history.note(
                partitioned.contains(d) ? "device cut off" : "device reconnected",
                "\(devices[d].name) \(partitioned.contains(d) ? "cut off" : "reconnected")")
        case 90..<94:
            try restartDevice(d)
        case 94..<97:
            try restartServer()
            history.note("server restart", "server restarted")
        default:
            devices[d].skewSeconds = random.int(-7200...7200)
            history.note("clock skewed", "\(devices[d].name) clock skewed \(devices[d].skewSeconds) s")
        }
    }

    /// A subscriber's turn: it reconnects if it was cut off; else its connection drops, or the server's
    /// stream wakes and writes what is new, and the connection may drop partway through what it wrote.
    private func streamStep() throws {
        let subscriber = random.pick(subscribers)
        if subscriber.connection == nil { return reconnect(subscriber) }
        if random.chance(0.15) {
            subscriber.drop()
            return history.note("stream cut", "\(subscriber.name)'s stream cut")
        }
        let received = try subscriber.wake(server) { [self] written in
            guard random.chance(0.1) else { return nil }
            history.note("stream cut partway through a write", nil)
            return random.int(0...written - 1)
        }
        history.counts["events received on live streams", default: 0] += received
        history.trace.append("\(subscriber.name) received \(received)\(subscriber.connection == nil ? ", then cut" : "")")
    }

    private func reconnect(_ subscriber: SimulatedSubscriber) {
        subscriber.connect(skipping: settings.bugs.contains(.streamSkipsOnReconnect))
        history.note("stream reconnected", "\(subscriber.name) reconnected after #\(subscriber.lastEventId)")
    }

    /// A server crash and restart: what was committed stays; every live stream's connection is gone.
    private func restartServer() throws {
        try server.restart()
        for subscriber in subscribers { subscriber.drop() }
    }

    private func restartDevice(_ d: Int) throws {
        try devices[d].restart()
        history.note("device restart", "\(devices[d].name) restarted")
    }

    /// A device's `ledger sync`, as the kit runs it, over its simulated link.
    private func sync(_ d: Int) async throws {
        let device = devices[d]
        syncing.insert(d)
        defer { syncing.remove(d) }
        let confirmedBefore = try device.store.syncState()?.confirmedPosition ?? 0
        do {
            let outcome = try await SyncClient(store: device.store, transport: SimulatedLink(simulation: self, device: d)).run()
            history.trace.append("\(device.name) synced: +\(outcome.pushed) pushed, +\(outcome.pulled) pulled, \(outcome.rejected) refused")
            history.counts["events refused by the server", default: 0] += outcome.rejected
        } catch {
            history.trace.append("\(device.name) sync failed: \(Self.kind(of: error))")
            if !faults { history.failedFinalSyncs.append("\(device.name): \(error)") }
        }
        if device.crashedInFlight { return try restartDevice(d) }
        let confirmed = try device.store.syncState()?.confirmedPosition ?? 0
        if confirmed < confirmedBefore { history.backwards.append("\(device.name): confirmed \(confirmedBefore) → \(confirmed)") }
        if confirmed > 0 {
            var hash = ""
            try device.store.read(EventQuery(from: confirmed, through: confirmed)) { hash = $0.hash.hex }
            history.confirmed.append(.init(device: device.name, position: confirmed, hash: hash))
        }
    }

    static func kind(of error: Error) -> String {
        if case SyncClient.Failure.unreachable = error { return "unreachable" }
        if case SyncClient.Failure.refused(let status, let code, _) = error { return "\(status) \(code)" }
        return String(describing: type(of: error))
    }

    /// One request from device `d`: the network's faults, other devices' turns
    /// while it is out, the server's answer and what the device is told.
    func deliver(from d: Int, method: String, url: String, token: String, body: String?) async throws -> SyncTransportAnswer {
        let name = devices[d].name
        var body = body, url = url
        // A planted bug is in the code, so it acts in the healed network too.
        if settings.bugs.contains(.retryWithNewIds), unanswered.contains(d), method == "POST", let b = body {
            body = try Self.withNewIds(b, device: name, random: &random)
        }
        if settings.bugs.contains(.cursorAdvancedEarly), method == "GET", random.chance(0.3) {
            url = Self.oneFurther(url)
        }
        var answer = try await faulty(from: d, method: method, url: url, token: token, body: body)
        unanswered.remove(d)
        if method == "POST", answer.status == 200, let body, let batch = try? PushBatch(json: body, device: name) {
            // What this device sent is acknowledged: it may drop its copy, so the server must keep it.
            history.acknowledged.formUnion(batch.events.map(\.eventId))
        }
        if method == "GET", answer.status == 200, settings.bugs.contains(.arrivalOrderMerge) {
            answer.body = try Self.ownEventsFirst(answer.body, device: name)
        }
        if faults { history.trace.append("\(name) \(method) → \(answer.status)") }
        return answer
    }

    /// The request through the network while faults are on: lost, answered and
    /// lost, kept to be delivered again, a crash of either side, other devices'
    /// turns while it is out.
    private func faulty(from d: Int, method: String, url: String, token: String, body: String?) async throws -> SyncTransportAnswer {
        guard faults else { return server.handle(method, url: url, token: token, body: body) }
        let name = devices[d].name
        if partitioned.contains(d) { throw SimulatedFault.partitioned }
        unanswered.insert(d)
        if depth < 2, random.chance(0.2) {
            history.note("turns taken while a request is out", nil)
            depth += 1
            defer { depth -= 1 }
            for _ in 0..<random.int(1...3) { try await step() }
        }
        if random.chance(0.08) {
            history.note("request lost", "\(name) \(method) lost")
            throw SimulatedFault.requestLost
        }
        let crashing = random.chance(0.04)
        let answer: SyncTransportAnswer
        if crashing, method == "POST", settings.bugs.contains(.acknowledgeBeforeCommit) {
            return try answerThenLoseCommit(method, url: url, token: token, body: body)
        }
        answer = server.handle(method, url: url, token: token, body: body)
        if method == "POST", let body, random.chance(0.1) {
            lateCopies.append((d, url, token, body))
            history.note("push duplicated", nil)
        }
        if crashing {
            try restartServer()
            history.note("server crash after commit", "server crashed after \(name)'s \(method)")
            throw SimulatedFault.serverCrashed
        }
        if random.chance(0.08) {
            history.note("answer lost", "\(name)'s \(method) answer lost")
            throw SimulatedFault.answerLost
        }
        if random.chance(0.03) {
            devices[d].crashedInFlight = true
            history.note("device crash in flight", "\(name) crashed awaiting its \(method)")
            throw SimulatedFault.deviceCrashed
        }
        return answer
    }

    /// The planted bug: the answer is given, then a crash loses the commit (the data before it is put back).
    private func answerThenLoseCommit(_ method: String, url: String, token: String, body: String?) throws -> SyncTransportAnswer {
        server.stop()
        let data = server.folder.appendingPathComponent("data"), kept = folder.appendingPathComponent("server-before-crash")
        try? FileManager.default.removeItem(at: kept)
        try FileManager.default.copyItem(at: data, to: kept)
        try restartServer()
        let answer = server.handle(method, url: url, token: token, body: body)
        server.stop()
        try FileManager.default.removeItem(at: data)
        try FileManager.default.moveItem(at: kept, to: data)
        try restartServer()
        history.note("planted: acknowledged then lost", "server acknowledged, then lost the commit")
        return answer
    }

    static func withNewIds(_ body: String, device: String, random: inout SimulationRandom) throws -> String {
        let batch = try PushBatch(json: body, device: device)
        let events = batch.events.map { e -> ProposedEvent in
            var copy = e
            copy.eventId = UUID(
                uuidString: String(format: "%08X-0000-4000-8000-%012llX", UInt32(truncatingIfNeeded: random.next()), random.next() & 0xFFFF_FFFF_FFFF)
            )!
            return copy
        }
        return PushBatch(events: events, expectedVersions: batch.expectedVersions).json
    }

    static func oneFurther(_ url: String) -> String {
        guard var parts = URLComponents(string: url), let i = parts.queryItems?.firstIndex(where: { $0.name == "after" }),
            let after = parts.queryItems?[i].value.flatMap({ Int64($0) })
        else { return url }
        parts.queryItems?[i].value = String(after + 1)
        return parts.string ?? url
    }

    static func ownEventsFirst(_ body: String, device: String) throws -> String {
        let page = try JSONReader.parse(body)
        guard case .array(let events)? = page["events"], case .object(var pairs) = page else { return body }
        let own = events.filter { $0["device"] == .string(device) }, others = events.filter { $0["device"] != .string(device) }
        for i in pairs.indices where pairs[i].0 == "events" { pairs[i].1 = .array(own + others) }
        return JSONValue.object(pairs).rendered
    }
}
