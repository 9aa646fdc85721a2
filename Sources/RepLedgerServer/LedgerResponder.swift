import Foundation
import Hummingbird
import Logging
import NIOCore
import NIOPosix
import RepLedgerCore

/// Routes SERVER.md §3 to `LedgerAPI`. Every answer is JSON; every failure is
/// `{"error":{"code","message"}}`; blocking work (SQLite) runs on the thread
/// pool, never on an event loop. One log line per request: method, path,
/// status, milliseconds (never a token or a body).
struct LedgerResponder: HTTPResponder {
    typealias Context = LedgerRequestContext
    let api: LedgerAPI
    let keepAliveSeconds: Double
    let logger: Logger
    var limits = ConnectionLimits()
    /// Requests in progress per account, for the 429 past `maximumRequestsPerAccount`.
    let accountRequests = CountsByKey()
    static let version = "2.0.0"
    /// The longest path segment and query value the API reads (an exercise name is at most 100
    /// characters, an id 36): longer ones are refused before any work.
    static let maximumSegmentBytes = 512
    static let maximumTargetBytes = 4096
    static let contentSecurityPolicy = "default-src 'none'; frame-ancestors 'none'"

    let metricsAccess: MetricsAccess
    /// Where store work runs, off the event loops.
    let workers: NIOThreadPool
    /// The coach dashboard under `/coach`.
    var coachWeb: CoachWeb?

    init(
        api: LedgerAPI, keepAliveSeconds: Double, logger: Logger, limits: ConnectionLimits = ConnectionLimits(),
        metricsAccess: MetricsAccess = MetricsAccess(), workers: NIOThreadPool = .singleton, secureCookiesOff: Bool = true
    ) {
        self.api = api
        self.workers = workers
        self.keepAliveSeconds = keepAliveSeconds
        self.logger = logger
        self.limits = limits
        self.metricsAccess = metricsAccess
        coachWeb = CoachWeb(api: api, secureCookies: !secureCookiesOff, blocking: { [workers] work in try await workers.runIfActive(work) })
    }

    func respond(to request: Request, context: Context) async throws -> Response {
        let started = ContinuousClock.now
        var status = 500
        defer {
            let elapsed = ContinuousClock.now - started
            let millis = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
            logger.info("\(request.method.rawValue) \(request.uri.path) \(status) \(String(format: "%.1f", millis))ms")
            let segments = request.uri.path.split(separator: "/", omittingEmptySubsequences: true)
            api.metrics.request(route: ServerMetrics.route(segments), method: request.method.rawValue, status: status, duration: elapsed)
        }
        var response: Response
        do {
            if request.uri.path == "/metrics" {
                try allow(request.method, [.get])
                try metricsAccess.check(remote: context.remoteAddress, authorization: request.headers[.authorization])
                response = Response(
                    status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                    body: .init(byteBuffer: ByteBuffer(bytes: api.metrics.text())))
            } else {
                response = try await route(request)
            }
        } catch {
            let e = APIError.from(error)
            if e.status >= 500 { logger.error("\(request.method.rawValue) \(request.uri.path): \(e.logDetail ?? e.message)") }
            response = Self.json(e.json, status: e.status)
            if let retry = e.retryAfterSeconds { response.headers[.retryAfter] = String(retry) }
            // A refused body may be partly unread: the connection cannot carry another request. Its input
            // is closed (the body was read to its end, or past 64 MiB left unread), so the connection closes
            // once the answer is written.
            if e.status == 413 {
                response.headers[.connection] = "close"
                context.channel.close(mode: .input, promise: nil)
            }
        }
        // Answers are data for one caller: never sniffed as another type, never kept by a cache, never
        // framed, and nothing in them may load or run anything (the coach's pages start from this too).
        response.headers[.xContentTypeOptions] = "nosniff"
        response.headers[.cacheControl] = "no-store"
        if response.headers[.contentSecurityPolicy] == nil { response.headers[.contentSecurityPolicy] = Self.contentSecurityPolicy }
        status = Int(response.status.code)
        return response
    }

    /// Off the event loop: SQLite blocks.
    func blocking<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await workers.runIfActive(body)
    }

    func route(_ request: Request) async throws -> Response {
        // Every path segment and query value is bounded before anything reads it: a 40 KB
        // exercise name cost a second of CPU in the name suggestions.
        let target = request.uri.string
        let rawSegments = request.uri.path.split(separator: "/", omittingEmptySubsequences: true)
        guard target.utf8.count <= Self.maximumTargetBytes,
            rawSegments.allSatisfy({ $0.utf8.count <= Self.maximumSegmentBytes })
        else {
            throw APIError(
                status: 414, code: "uriTooLong",
                message:
                    "the path is too long: a path segment takes at most \(Self.maximumSegmentBytes) bytes, the whole target \(Self.maximumTargetBytes)"
            )
        }
        let segments = rawSegments.map { String($0).removingPercentEncoding ?? String($0) }
        let method = request.method
        if segments.first == "coach", let coachWeb { return try await coachWeb.route(request, segments) }
        guard segments.first == "v1" else { throw APIError.notFound("no such path: the API is under /v1") }
        let rest = Array(segments.dropFirst())
        var parameters: [String: String] = [:]
        for (k, v) in request.uri.queryParameters {
            guard k.utf8.count <= Self.maximumSegmentBytes, v.utf8.count <= Self.maximumSegmentBytes else {
                throw APIError.badRequest("a query parameter takes at most \(Self.maximumSegmentBytes) bytes")
            }
            parameters[String(k).removingPercentEncoding ?? String(k)] = String(v).removingPercentEncoding ?? String(v)
        }

        switch rest.first {
        case "health" where rest.count == 1:
            try allow(method, [.get])
            return Self.json(.object([("ok", .bool(true)), ("version", .string(Self.version))]))
        case "openapi.json" where rest.count == 1:
            try allow(method, [.get])
            return Response(
                status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: OpenAPIDocument.bytes)))
        case "coach" where rest.count == 2 && rest[1] == "clients":
            try allow(method, [.get])
            let caller = try await blocking { [api] in try api.authenticate(request.headers[.authorization]) }
            return Self.json(try await blocking { [api] in try api.coachClients(caller) })
        case "coach" where rest.count >= 2 && rest.count <= 3 && rest[1] == "invites":
            let caller = try await blocking { [api] in try api.authenticate(request.headers[.authorization]) }
            if rest.count == 3 && rest[2] == "accept" {
                try allow(method, [.post])
                let body = try await Self.smallBody(request)
                return Self.json(try await blocking { [api] in try api.acceptInvite(caller, body: body) })
            }
            if rest.count == 3 {
                try allow(method, [.delete])
                return Self.json(try await blocking { [api] in try api.revokeInvite(caller, id: rest[2]) })
            }
            try allow(method, [.get, .post])
            if method == .post {
                let body = try await Self.smallBody(request)
                var note = ""
                if !body.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
                    guard case .object(let fields)? = try? JSONReader.parse(body) else {
                        throw APIError.badRequest(#"the body is {"note":"…"} or empty"#)
                    }
                    if let value = fields.first(where: { $0.0 == "note" })?.1 {
                        guard case .string(let text) = value else { throw APIError.badRequest("note takes a string") }
                        note = text
                    }
                }
                return Self.json(try await blocking { [api, note] in try api.createInvite(caller, note: note) }, status: 201)
            }
            return Self.json(try await blocking { [api] in try api.invites(caller) })
        case "accounts" where rest.count >= 2:
            break
        default:
            throw APIError.notFound("no such path: see /v1/openapi.json")
        }

        let account = rest[1]
        let tail = Array(rest.dropFirst(2))
        let authorization = request.headers[.authorization]
        let caller = try await blocking { [api] in try api.authenticate(authorization, erasing: tail.isEmpty && method == .delete) }
        // One account's requests in progress are bounded, so one account cannot hold every worker.
        // A live stream holds its connection, not a worker: it is not counted.
        let streaming = tail.count == 2 && tail[0] == "events" && tail[1] == "live"
        let key = caller.account.accountId
        if !streaming {
            guard accountRequests.admit(key, limit: limits.maximumRequestsPerAccount) else {
                throw APIError(
                    status: 429, code: "tooManyRequests",
                    message: "this account has \(limits.maximumRequestsPerAccount) requests in progress; retry in a moment",
                    retryAfterSeconds: 1)
            }
        }
        defer { if !streaming { accountRequests.release(key) } }

        if tail.isEmpty {
            try allow(method, [.delete])
            return Self.json(try await blocking { [api] in try api.erase(caller, account: account) })
        }
        switch tail[0] {
        case "events" where tail.count == 1:
            try allow(method, [.get, .post])
            if method == .post {
                if let length = request.headers[.contentLength].flatMap(Int.init), length > PushBatch.maximumBytes {
                    try await Self.refuseBody(request, length: length)
                }
                let body: ByteBuffer
                do {
                    body = try await request.body.collect(upTo: PushBatch.maximumBytes)
                } catch is NIOTooManyBytesError {
                    // A body sent without its length: refused as soon as it passes the limit.
                    throw APIError.tooLarge
                } catch {
                    throw APIError.badRequest("the body could not be read (a malformed chunk?)")
                }
                // Refused rather than read with replacement characters: the log keeps exactly what was sent.
                guard
                    let text = body.getString(at: body.readerIndex, length: body.readableBytes, encoding: .utf8)
                        ?? (body.readableBytes == 0 ? "" : nil)
                else {
                    throw APIError.badRequest("the body is not UTF-8 text")
                }
                let answer = try await blocking { [api] in
                    let log = try api.authorize(caller, account: account, write: true)
                    return try api.push(text, caller: caller, log: log)
                }
                return Self.json(answer)
            }
            let after = try position(parameters["after"])
            let limit = try pageSize(parameters["limit"])
            return Self.json(
                text: try await blocking { [api] in
                    try api.events(log: try api.authorize(caller, account: account, write: false), after: after, limit: limit)
                })
        case "events" where tail.count == 2 && tail[1] == "live":
            try allow(method, [.get])
            let after = try position(parameters["after"] ?? request.headers.first { $0.name.canonicalName == "last-event-id" }?.value)
            let log = try await blocking { [api] in try api.authorize(caller, account: account, write: false) }
            return live(log: log, after: after, caller: caller, authorization: authorization)
        case "assignments" where tail.count == 1:
            try allow(method, [.get])
            return Self.json(
                try await blocking { [api] in try api.assignments(caller, log: try api.authorize(caller, account: account, write: false)) })
        case "progress" where tail.count == 1:
            try allow(method, [.get])
            return Self.json(
                try await blocking { [api] in try api.progress(log: try api.authorize(caller, account: account, write: false)).document })
        case "verify" where tail.count == 1:
            try allow(method, [.get])
            return Self.json(try await blocking { [api] in try api.verify(log: try api.authorize(caller, account: account, write: false)) })
        default:
            guard let query = LedgerAPI.Query(rawValue: tail[0]) else { throw APIError.notFound("no such query '\(tail[0])': see /v1/openapi.json") }
            try allow(method, [.get])
            let path = Array(tail.dropFirst())
            let parameters = parameters
            return Self.json(
                try await blocking { [api] in
                    try api.query(query, log: try api.authorize(caller, account: account, write: false), path: path, parameters: parameters)
                })
        }
    }

    /// The body of a small JSON request (an invite, an accept): at most 16 KiB, UTF-8.
    static func smallBody(_ request: Request) async throws -> String {
        let body: ByteBuffer
        do {
            body = try await request.body.collect(upTo: 16 << 10)
        } catch is NIOTooManyBytesError {
            throw APIError(status: 413, code: "tooLarge", message: "this request's body takes at most 16 KiB")
        } catch {
            throw APIError.badRequest("the body could not be read (a malformed chunk?)")
        }
        guard let text = body.getString(at: body.readerIndex, length: body.readableBytes, encoding: .utf8) ?? (body.readableBytes == 0 ? "" : nil)
        else {
            throw APIError.badRequest("the body is not UTF-8 text")
        }
        return text
    }

    /// The most of a refused body that is read (and dropped) before the 413:
    /// a client that writes its whole body before reading (Python's urllib)
    /// then gets the answer at once instead of a stalled write and a reset.
    /// Past it the connection is closed with the answer unread.
    static let maximumDiscardedBytes = 64 << 20

    /// Reads and drops what remains of a body over the limit, then refuses it
    /// (413, and the connection closes: see `respond`).
    static func refuseBody(_ request: Request, length: Int) async throws -> Never {
        if length <= maximumDiscardedBytes {
            var seen = 0
            do {
                for try await chunk in request.body {
                    seen += chunk.readableBytes
                    if seen > maximumDiscardedBytes { break }
                }
            } catch {}
        }
        throw APIError.tooLarge
    }

    func allow(_ method: HTTPRequest.Method, _ allowed: [HTTPRequest.Method]) throws {
        guard allowed.contains(method) else {
            throw APIError(
                status: 405, code: "methodNotAllowed",
                message: "\(method.rawValue) is not served here; use \(allowed.map(\.rawValue).joined(separator: " or "))")
        }
    }

    func position(_ text: String?) throws -> Int64 {
        guard let text else { return 0 }
        guard let p = Int64(text), p >= 0 else { throw APIError.badRequest("after takes a position: a whole number, 0 or more") }
        return p
    }

    func pageSize(_ text: String?) throws -> Int {
        guard let text else { return LedgerAPI.defaultPage }
        guard let n = Int(text), (1...LedgerAPI.maximumPage).contains(n) else {
            throw APIError.badRequest("limit takes a number from 1 to \(LedgerAPI.maximumPage)")
        }
        return n
    }

    /// Server-Sent Events: the catch-up after `after`, then each new event;
    /// the subscription is registered before the catch-up is read, and each
    /// wake-up reads the log after the last position sent, so no event is
    /// missed or repeated across the boundary.
    ///
    /// The caller's right to read is checked again before every page and
    /// every second (`LedgerAPI.streamLimit`): a revoked token, an erased
    /// account or an ended Coach product end the stream, and a coach's stream
    /// stops just before the client's revocation of its grant, in the order
    /// of the log. It ends with an `error` event carrying the JSON error.
    func live(log: AccountLog, after: Int64, caller: AccountDirectory.Caller, authorization: String?) -> Response {
        let (id, signals) = log.subscribe(keepAlive: keepAliveSeconds, recheck: min(1, keepAliveSeconds))
        let api = self.api
        let body = ResponseBody { [self] writer in
            defer { log.unsubscribe(id) }
            var last = after
            // Since when the storage has been unavailable (a database failing over), if it is.
            var unavailableSince: ContinuousClock.Instant?
            /// Sends what the caller may still read → false once the stream must end (its error event sent).
            func drain(_ writer: inout any ResponseBodyWriter) async throws -> Bool {
                while true {
                    let from = last
                    let limit: Int64, page: [(position: Int64, json: String)]
                    do {
                        // The page first, then the limit: a revocation pushed between the two reads is then
                        // seen by the limit (the log only grows), never sent in the page as an ordinary event.
                        page = try await blocking { try api.page(log: log, after: from, limit: LedgerAPI.defaultPage) }.lines
                        limit = try await blocking { try api.streamLimit(authorization, caller: caller, log: log, after: from) }
                        unavailableSince = nil
                    } catch {
                        let e = APIError.from(error)
                        // A storage that may be back in a moment keeps the stream open: the next wake-up (a second
                        // at most) reads again after the last position sent, so nothing is missed or repeated.
                        let since = unavailableSince ?? .now
                        if e.status == 503, e.retryAfterSeconds != nil, ContinuousClock.now - since < Self.streamOutageLimit {
                            unavailableSince = since
                            try await writer.write(ByteBuffer(string: ": storage unavailable; retrying\n\n"))
                            return true
                        }
                        try await end(&writer, e)
                        return false
                    }
                    let lines = page.filter { $0.position < limit }
                    if !lines.isEmpty {
                        var chunk = ""
                        for line in lines { chunk += "id: \(line.position)\ndata: \(line.json)\n\n" }
                        try await writer.write(ByteBuffer(string: chunk))
                        last = lines[lines.count - 1].position
                    }
                    if lines.count < page.count {
                        try await end(&writer, APIError.forbidden("the account's owner revoked this coach's access at position \(limit)"))
                        return false
                    }
                    if page.count < LedgerAPI.defaultPage { return true }
                }
            }
            try await writer.write(ByteBuffer(string: ": live after \(after)\n\n"))
            guard try await drain(&writer) else { return }
            for await signal in signals {
                switch signal {
                case .appended, .recheck:
                    guard try await drain(&writer) else { return }
                case .keepAlive:
                    // Also a chance to catch an append made through a connection
                    // this stream was not told about (see `AccountLogs`).
                    guard try await drain(&writer) else { return }
                    try await writer.write(ByteBuffer(string: ": keep-alive\n\n"))
                }
            }
            // The signals ended: the account was erased, or the server is stopping.
            let from = last
            do {
                _ = try await blocking { try api.streamLimit(authorization, caller: caller, log: log, after: from) }
            } catch {
                try await end(&writer, APIError.from(error))
                return
            }
            try await writer.finish(nil)
        }
        return Response(status: .ok, headers: [.contentType: "text/event-stream", .cacheControl: "no-cache"], body: body)
    }

    /// How long a live stream waits out a storage that is unavailable before it ends with the 503.
    static let streamOutageLimit: Duration = .seconds(60)

    /// The last words of a live stream: an SSE `error` event with the JSON error, then the end.
    func end(_ writer: inout any ResponseBodyWriter, _ error: APIError) async throws {
        try await writer.write(ByteBuffer(string: "event: error\ndata: \(error.json.rendered)\n\n"))
        try await writer.finish(nil)
    }

    static func json(_ value: JSONValue, status: Int = 200) -> Response { json(text: value.rendered, status: status) }

    static func json(text: String, status: Int = 200) -> Response {
        Response(
            status: HTTPResponse.Status(code: status), headers: [.contentType: "application/json; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}
