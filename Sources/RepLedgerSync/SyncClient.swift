import AsyncHTTPClient
import Foundation
import NIOHTTP1
import RepLedgerCore
import RepLedgerSQLite

/// `ledger sync`: pushes the pending events in order, pulls what the server
/// has after the last confirmed position, checks its chain and rebases the
/// device's log onto it; repeats until neither side has anything new.
///
/// Every step is safe to interrupt: a push is atomic on the server and
/// idempotent by event id, and the device changes its file only in the
/// rebase transaction, so the next sync converges without loss or duplicates.
/// Unchecked: used by one task at a time (the store is not shared).
public struct SyncClient: @unchecked Sendable {
    public struct Outcome: Sendable, Equatable {
        public var pushed = 0
        public var pulled = 0
        public var rejected = 0
        public var headPosition: Int64 = 0
        public var headHash = ""
        public init() {}
    }

    public enum Failure: Error, CustomStringConvertible {
        case notConfigured
        case unreadableToken(String)
        case unreachable(String, reason: String)
        case refused(status: Int, code: String, message: String)
        case malformedAnswer(String)
        case notAServerURL(String)
        case syncsElsewhere(account: String, remote: String)

        public var description: String {
            switch self {
            case .notConfigured:
                return "this ledger has no sync target yet: run `ledger sync URL --account ACCOUNT --token-file FILE` once"
            case .unreadableToken(let path): return "cannot read the token file \(path)"
            case .unreachable(let url, let reason): return "cannot reach the server at \(url): \(reason)"
            case .refused(let status, let code, let message): return "the server refused (\(status) \(code)): \(message)"
            case .malformedAnswer(let what): return "the server's answer is not understood: \(what)"
            case .notAServerURL(let url): return "the server URL starts with http:// or https:// (not \(url))"
            case .syncsElsewhere(let account, let remote):
                return "this ledger syncs with account \(account) at \(remote); a ledger syncs with one account"
            }
        }
    }

    /// Pending events per push: far below the server's 5000-event and 4 MiB limits.
    public static let batchSize = 500
    public static let pullPage = 1000

    let store: SQLiteEventStore
    let state: SyncState
    let token: String
    let transport: any SyncTransport

    /// Told once a request, when the server first answers 503 with
    /// `Retry-After` and the sync begins to wait it out: the seconds it will
    /// wait at most. The CLI says so on standard error, so a person (or a
    /// script) knows the sync is waiting, not hung.
    public var onWaiting: (@Sendable (_ patienceSeconds: Int) -> Void)?

    /// The HTTP settings a device uses with its server. A kept-alive
    /// connection is let go after 5 s idle, well under a server's idle timeout
    /// (`ledger serve --idle-timeout`, 30 s by default), so a request is not
    /// sent on a connection the server is closing; a server that is down fails
    /// within seconds, not at the request's deadline.
    public static var httpConfiguration: HTTPClient.Configuration {
        var configuration = HTTPClient.Configuration()
        configuration.timeout.connect = .seconds(5)
        configuration.connectionPool = .init(idleTimeout: .seconds(5))
        return configuration
    }

    public init(store: SQLiteEventStore, client: HTTPClient) throws {
        try self.init(store: store, transport: HTTPSyncTransport(client))
    }

    /// A sync whose requests go by `transport` (a simulated network in the sync simulation).
    public init(store: SQLiteEventStore, transport: any SyncTransport) throws {
        guard let state = try store.syncState() else { throw Failure.notConfigured }
        guard let raw = try? String(contentsOfFile: state.tokenFile, encoding: .utf8) else { throw Failure.unreadableToken(state.tokenFile) }
        self.store = store
        self.state = state
        self.token = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        self.transport = transport
    }

    /// The remote's root, without a trailing slash: an `APIPath`'s path follows it.
    var root: String { state.remote.hasSuffix("/") ? String(state.remote.dropLast()) : state.remote }

    /// The account's log on the remote.
    var eventsURL: String { root + APIPath.events.path(state.account) }

    public func run(maxRounds: Int = 20) async throws -> Outcome {
        var outcome = Outcome()
        for _ in 0..<maxRounds {
            let confirmed = try store.syncState()?.confirmedPosition ?? 0
            var pendingIds: Set<UUID> = []
            var rejected: [RejectedEvent] = []
            var rejectedIds: Set<UUID> = []
            var pushed = 0
            // The server's copy of this round's pushes, while it is exactly the pending events in order.
            var copy: [PushedBatch]? = []
            // Pending events are read a batch at a time: the next batch is read, and its body
            // written, while this one is on the wire and being appended.
            func events(at start: Int) throws -> (read: Int, batch: [EventEnvelope]) {
                let from = confirmed + 1 + Int64(start)
                var read: [EventEnvelope] = []
                try store.read(EventQuery(from: from, through: from + Int64(Self.batchSize) - 1)) { read.append($0) }
                pendingIds.formUnion(read.map(\.eventId))
                return (read.count, read.filter { !rejectedIds.contains($0.eventId) })
            }
            var start = 0
            var current = try events(at: 0)
            var written: (start: Int, body: String)?
            while current.read > 0 {
                let batch = current.batch
                let body = written?.start == start ? written!.body : Self.body(batch)
                async let answer = push(batch, body: body)
                let next = start + Self.batchSize
                let upcoming = try events(at: next)
                written = upcoming.read > 0 ? (next, Self.body(upcoming.batch)) : nil
                switch try await answer {
                case .accepted(let n, let stored):
                    pushed += n
                    copy = copy.flatMap { Self.extend($0, with: batch, stored: stored, after: confirmed) }
                    start = next
                    current = upcoming
                case .refused(let eventId, let code, let message):
                    // Set the refused event aside and push the rest of the batch again.
                    copy = nil
                    written = nil
                    if let e = batch.first(where: { $0.eventId == eventId }) ?? batch.first {
                        rejected.append(RejectedEvent(eventId: e.eventId, line: e.canonicalJSON, code: code, message: message, rejectedAt: .now()))
                        rejectedIds.insert(e.eventId)
                        current = try events(at: start)
                    } else {
                        start = next
                        current = upcoming
                    }
                }
            }
            // What was pushed is confirmed from the push answers (the next round pulls
            // whatever else is new); when that copy is unknown or differs, it is pulled.
            if let copy, !copy.isEmpty {
                do {
                    _ = try store.rebase(confirmed: confirmed, pushed: copy, pulled: [], rejected: [])
                    outcome.pushed += pushed
                    continue
                } catch is PushedCopyDiffers {}
            }
            let pulled = try await pull(after: confirmed)
            // Quiet: nothing was pending and the server had nothing new.
            if pulled.isEmpty && rejected.isEmpty && pendingIds.isEmpty { break }
            _ = try store.rebase(confirmed: confirmed, pulled: pulled, rejected: rejected)
            outcome.pushed += pushed
            outcome.pulled += pulled.filter { !pendingIds.contains($0.eventId) }.count
            outcome.rejected += rejected.count
        }
        let head = try store.head()
        outcome.headPosition = head.position
        outcome.headHash = head.hash.hex
        return outcome
    }

    /// What the server stamped on a batch it appended whole (an answer without
    /// these keys, from an older server, gives nil and the push is pulled back).
    struct Stored { var positions: [Int64], alreadyStored: Int, recordedAt: Timestamp, device: String, head: Int64, hash: String }

    /// The copy grown by one answered batch, or nil once the server's log is not
    /// the pending events in order (another device's events between, ids stored already).
    static func extend(_ copy: [PushedBatch], with batch: [EventEnvelope], stored: Stored?, after confirmed: Int64) -> [PushedBatch]? {
        guard !batch.isEmpty else { return copy }
        guard let stored, stored.alreadyStored == 0, stored.positions.count == batch.count else { return nil }
        let first = (copy.last?.headPosition ?? confirmed) + 1
        guard stored.positions == Array(first..<first + Int64(batch.count)), stored.head == stored.positions.last else { return nil }
        let events = batch.map { e in
            var p = ProposedEvent(e)
            p.device = stored.device
            return p
        }
        return copy + [PushedBatch(events: events, recordedAt: stored.recordedAt, headPosition: stored.head, headHash: stored.hash)]
    }

    enum PushAnswer {
        case accepted(Int, Stored?)
        case refused(UUID, String, String)
    }

    static func body(_ events: [EventEnvelope]) -> String { PushBatch(events: events.map(ProposedEvent.init)).json }

    func push(_ events: [EventEnvelope], body: String) async throws -> PushAnswer {
        guard !events.isEmpty else { return .accepted(0, nil) }
        let (status, reply) = try await send(.POST, eventsURL, body: body)
        let answer = try JSONReader.parse(reply)
        if status == 200 {
            guard case .array(let appended)? = answer["appended"], case .int(let already)? = answer["alreadyStored"] else {
                throw Failure.malformedAnswer("no appended/alreadyStored in the push answer")
            }
            return .accepted(appended.count + Int(already), Self.stored(answer, appended: appended, alreadyStored: Int(already)))
        }
        let error = answer["error"]
        let (code, message) = Self.codeAndMessage(error, otherwise: reply)
        if status == 422 || (status == 409 && code == "eventIdConflict") {
            let id = error?["eventId"].flatMap { if case .string(let s) = $0 { UUID(uuidString: s) } else { nil } }
            return .refused(id ?? events[0].eventId, code, message)
        }
        throw Failure.refused(status: status, code: code, message: message)
    }

    static func stored(_ answer: JSONValue, appended: [JSONValue], alreadyStored: Int) -> Stored? {
        guard case .string(let time)? = answer["recordedAt"], let recordedAt = try? Timestamp(json: .string(time)),
            case .string(let device)? = answer["device"],
            case .int(let head)? = answer["head"]?["position"], case .string(let hash)? = answer["head"]?["hash"]
        else { return nil }
        let positions = appended.compactMap { if case .int(let p) = $0 { p } else { nil } }
        guard positions.count == appended.count else { return nil }
        return Stored(positions: positions, alreadyStored: alreadyStored, recordedAt: recordedAt, device: device, head: head, hash: hash)
    }

    /// Everything after `confirmed`, a page a request. Positions are gapless, so
    /// the next page starts where a full one ends: it is asked for while this
    /// one is read (the server's work and the device's overlap), and dropped
    /// unread when this one turns out to be the last.
    func pull(after confirmed: Int64) async throws -> [PulledEvent] {
        var out: [PulledEvent] = []
        var chain = try store.pulledChain(after: confirmed)
        var after = confirmed
        var next = fetch(after: after)
        while true {
            let (status, body) = try await next.value
            guard status == 200 else { throw refusal(status, body) }
            let end = after + Int64(Self.pullPage)
            // A page too short to hold a full page's envelopes is the last: nothing is asked
            // ahead of it (a cancelled guess may still reach the server and cost it a read).
            let ahead = body.utf8.count >= Self.pullPage * Self.envelopeBytesAtLeast ? fetch(after: end) : nil
            // Each envelope is re-hashed from its fields before anything is applied (`PulledChain`).
            let page: [PulledEvent]
            do {
                page = try Self.envelopes(in: body)
                try chain.check(page)
            } catch {
                ahead?.cancel()
                throw error
            }
            out += page
            guard page.count == Self.pullPage, page.last?.position == end else {
                ahead?.cancel()
                return out
            }
            after = end
            next = ahead ?? fetch(after: end)
        }
    }

    /// Fewer bytes than any served envelope takes (its keys, a 36-character
    /// id and a 64-character hash alone exceed it).
    static let envelopeBytesAtLeast = 200

    private func fetch(after: Int64) -> Task<(Int, String), Error> {
        let url = "\(eventsURL)?after=\(after)&limit=\(Self.pullPage)"
        return Task { try await send(.GET, url, body: nil) }
    }

    /// The `events` array of a page.
    static func envelopes(in body: String) throws -> [PulledEvent] {
        if let page = PulledEvent.pageInPlace(body) { return page }
        guard case .array(let items)? = try JSONReader.parse(body)["events"] else {
            throw Failure.malformedAnswer("no events array in the pull answer")
        }
        return try items.map { try PulledEvent(envelope: $0) }
    }

    func refusal(_ status: Int, _ body: String) -> Failure {
        let (code, message) = Self.codeAndMessage((try? JSONReader.parse(body))?["error"], otherwise: "HTTP \(status)")
        return .refused(status: status, code: code, message: message)
    }

    /// The code and message of an error document (SERVER-CONTRACT.md's `{"error":{"code","message"}}`);
    /// `unknown` and `otherwise` where the body has none (a proxy's page, say).
    static func codeAndMessage(_ error: JSONValue?, otherwise: String) -> (code: String, message: String) {
        func text(_ key: String) -> String? { error?[key].flatMap { if case .string(let s) = $0 { s } else { nil } } }
        return (text("code") ?? "unknown", text("message") ?? otherwise)
    }

    /// How long a sync waits out a server whose storage is briefly unavailable
    /// (503 with `Retry-After`, as during a database failover) before it gives up.
    public static let unavailablePatience: Duration = .seconds(30)

    /// One request; a 503 with `Retry-After` is sent again after that many seconds,
    /// for up to `unavailablePatience` in all (a push is idempotent by event id).
    func send(_ method: HTTPMethod, _ url: String, body: String?) async throws -> (Int, String) {
        let started = ContinuousClock.now
        var told = false
        while true {
            let (status, reply, retryAfter) = try await sendOnce(method, url, body: body)
            guard status == 503, let retryAfter, ContinuousClock.now - started + .seconds(retryAfter) <= Self.unavailablePatience else {
                return (status, reply)
            }
            if !told { onWaiting?(Int(Self.unavailablePatience.components.seconds)) }
            told = true
            try await Task.sleep(for: .seconds(max(retryAfter, 1)))
        }
    }

    func sendOnce(_ method: HTTPMethod, _ url: String, body: String?) async throws -> (Int, String, Int?) {
        do {
            let answer = try await transport.send(method, url: url, token: token, body: body)
            return (answer.status, answer.body, answer.retryAfter)
        } catch let e as Failure {
            throw e
        } catch {
            throw Failure.unreachable(state.remote, reason: "\(error)")
        }
    }
}

extension JSONValue {
    /// The value of a key of an object; nil for other values or a missing key.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let pairs) = self else { return nil }
        return pairs.first { $0.0 == key }?.1
    }
}

extension SyncClient {
    /// This device's account on the server.
    public var accountId: String { state.account }

    /// One request to the server this ledger syncs with, by this device's
    /// token: `path` from the server's root (`/v1/coach/invites`) → the JSON
    /// answer; a non-2xx answer throws `.refused` with the server's code and words.
    public func call(_ method: HTTPMethod, _ path: String, body: String? = nil) async throws -> JSONValue {
        let (status, reply) = try await send(method, root + path, body: body)
        guard (200..<300).contains(status) else { throw refusal(status, reply) }
        do {
            return try JSONReader.parse(reply)
        } catch {
            throw Failure.malformedAnswer("\(method) \(path) answered what is not JSON")
        }
    }
}
