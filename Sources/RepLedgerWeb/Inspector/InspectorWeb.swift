import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import RepLedgerCore
import RepLedgerProjections
import RepLedgerQueries
import RepLedgerService

/// The inspector (issue 44) under `/inspect`: the Log, As-of, Session, Why,
/// Rules and Verify pages over one ledger, read-only. Each page answers JSON at
/// the same path for `Accept: application/json`, built by the same query as
/// the CLI's `--json`. Which ledger a request reads, and whether it may, is its
/// door's answer (`InspectorDoor`): `ledger inspect`'s one-time code, or
/// `ledger serve`'s accounts and grants. Every page but the stylesheet and
/// the script needs a session.
package struct InspectorWeb: Sendable {
    package let door: any InspectorDoor
    /// Cookies carry `Secure` unless the server listens on loopback only (plain HTTP there).
    package let secureCookies: Bool
    package let blocking: @Sendable (@escaping @Sendable () throws -> Response) async throws -> Response
    /// The bounds a signed-in reader's pages are held to (`ledger serve`'s per-account ones); none for `ledger inspect`.
    package let bound: PageBound?

    package init(
        door: any InspectorDoor, secureCookies: Bool,
        blocking: @escaping @Sendable (@escaping @Sendable () throws -> Response) async throws -> Response, bound: PageBound? = nil
    ) {
        self.door = door
        self.secureCookies = secureCookies
        self.blocking = blocking
        self.bound = bound
    }

    /// Where the pages are mounted, on both servers.
    package static let root = "/inspect"

    package static let sessionCookie = "rl_inspect"
    /// The pages' own script may run (no inline script); styles from the one stylesheet.
    package static let contentSecurityPolicy =
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

    /// What a page's builder is given: the store (read under the ledger's lock), what the request asked
    /// for, and the seat it reads from.
    struct Page {
        var store: any EventStore
        var json: Bool
        var seat: InspectorSeat
        var base: String { seat.frame.base }
        var frame: InspectorPages.Frame {
            var frame = seat.frame
            frame.damage = seat.ledger.damage
            return frame
        }
        var ledger: InspectedLedger { seat.ledger }
    }

    /// What a page answers, before it is a response.
    enum Answer {
        case html(String)
        case json(JSONValue)
        case redirect(String)
        /// A file to save (a session fixture).
        case download(String, name: String)
    }

    /// The pages under `group`: `ledger inspect` mounts them at `/inspect`; `ledger serve` there too (the
    /// signed-in account's own log) and at `/inspect/clients/:client` (a coach's client's).
    package func addRoutes<Context: RequestContext>(to group: RouterGroup<Context>) {
        group.get("style.css") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "text/css; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(string: CoachPages.css + InspectorAssets.css)))
        }
        group.get("inspector.js") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "text/javascript; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(string: InspectorAssets.script)))
        }
        addPages(to: group)
    }

    /// The pages alone, for a group whose stylesheet and script are another's.
    package func addPages<Context: RequestContext>(to group: RouterGroup<Context>) {
        group.get("") { request, context in try await serve(request, context) { p in .redirect(p.base + "/log") } }
        group.get("log") { request, context in try await serve(request, context) { p in try log(p, request) } }
        group.get("at") { request, context in
            try await serve(request, context) { p in
                let position = try Self.parameters(request)["position"].flatMap { Int64($0) } ?? p.store.headPosition()
                return .redirect("\(p.base)/at/\(position)")
            }
        }
        group.get("at/:position") { request, context in
            let text = context.parameters.get("position") ?? ""
            return try await serve(request, context) { p in
                guard let position = Int64(text) else { throw QueryError.invalidParameter("a position is a whole number, not '\(text)'") }
                let a = try p.ledger.asOf(position)
                guard !p.json else { return .json(AsOfQuery.document(a)) }
                return .html(InspectorPages.asOf(a, days: try TrainingDaySteps.around(p.store, position: a.position), frame: p.frame))
            }
        }
        group.get("workouts/:workout") { request, context in
            let id = context.parameters.get("workout") ?? ""
            return try await serve(request, context) { p in
                let steps = try AuditQuery.steps(p.store, workout: id)
                if p.json { return .json(AuditQuery.replayDocument(steps.steps, library: steps.library)) }
                let name = steps.steps.lazy.compactMap { step -> String? in
                    if case .workoutStarted(let s) = step.envelope.event { return s.name }
                    return nil
                }.first
                // Against last time as the log stands now (a later edit of last time's sets moves it too).
                let head = try p.store.headPosition()
                let log = try p.ledger.fold(at: head)
                let against = AgainstLastTime.rows(log, workoutId: steps.workoutId, rules: p.ledger.rules)
                return .html(
                    InspectorPages.session(
                        steps, name: name ?? "Workout", against: against, head: head, unit: log.account.liftingUnit, frame: p.frame))
            }
        }
        group.get("workouts/:workout/fixture") { request, context in
            let id = context.parameters.get("workout") ?? ""
            return try await serve(request, context) { p in
                var text = ""
                try SessionFixture.make(p.store, workout: id, rules: p.ledger.rules) { text += $0 }
                return .download(text, name: "session-\(id.prefix(8)).fixture")
            }
        }
        group.get("why") { request, context in
            try await serve(request, context) { p in
                let q = Self.parameters(request)
                let subject = try vocabulary(WhyQuery.Subject.self, "subject", q["subject"] ?? "")
                guard let target = q["target"], !target.isEmpty else {
                    throw QueryError.invalidParameter("why needs a target: an exercise, or a week")
                }
                let scope = QueryScope(asOf: q["asOf"], rules: p.ledger.rules)
                let log = try scope.log(p.store)
                let a = try WhyQuery.answer(p.store, scope, log: log, subject: subject, target: target, workout: q["workout"])
                if p.json { return .json(WhyQuery.document(a, log: log)) }
                return .html(
                    InspectorPages.why(
                        a, exercise: a.exerciseId.map(log.exerciseName), unit: log.account.liftingUnit, asOf: q["asOf"].flatMap { Int64($0) },
                        frame: p.frame))
            }
        }
        group.get("rules") { request, context in
            try await serve(request, context) { p in
                if p.json { throw QueryError.invalidParameter("post a rule file to preview what it changes") }
                return .html(InspectorPages.rules(nil, text: RulesPreview.defaultText, csrf: p.seat.csrf, frame: p.frame))
            }
        }
        group.post("rules") { request, context in
            let form = try await CoachWeb.form(request)
            return try await serve(request, context) { p in
                guard let sent = form["csrf"], CoachWebSessions.same(sent, p.seat.csrf) else {
                    throw APIError(status: 403, code: "forbidden", message: "this form has expired: reload the page and send it again")
                }
                let text = form["rules"] ?? ""
                let a = try RulesPreview.answer(p.store, text: text)
                return p.json ? .json(RebuildQuery.document(a)) : .html(InspectorPages.rules(a, text: text, csrf: p.seat.csrf, frame: p.frame))
            }
        }
        group.get("verify") { request, context in
            try await serve(request, context) { p in
                let report = try p.store.verify()
                return p.json ? .json(VerifyQuery.document(report)) : .html(InspectorPages.verify(report, frame: p.frame))
            }
        }
    }

    func log(_ p: Page, _ request: Request) throws -> Answer {
        let q = Self.parameters(request)
        if let at = q["at"], !at.isEmpty {
            return .redirect("\(p.base)/log?from=\(try LogPageQuery.jump(p.store, to: at))")
        }
        var filter = LogPageQuery.Filter()
        filter.types = request.uri.queryParameters.getAll("type").map { $0.removingPercentEncoding ?? $0 }.filter { !$0.isEmpty }
        filter.stream = q["stream"]
        filter.workout = q["workout"]
        filter.device = q["device"]
        filter.since = q["since"]
        filter.until = q["until"]
        filter.correlation = q["correlation"].flatMap { $0.isEmpty ? nil : $0 }
        filter.grep = q["grep"].flatMap { $0.isEmpty ? nil : $0 }
        let touching = LogPageQuery.Touching.Kind.allCases.compactMap { kind in
            q[InspectorPages.touchingParameter(kind)].flatMap { $0.isEmpty ? nil : LogPageQuery.Touching(kind: kind, reference: $0) }
        }
        guard touching.count <= 1 else {
            throw QueryError.invalidParameter("give one of touchingExercise, touchingWorkout and touchingSet")
        }
        filter.touching = touching.first
        if let text = q["causedBy"], !text.isEmpty {
            guard let n = Int64(text), n >= 1 else { throw QueryError.invalidParameter("causedBy takes a position of 1 or more, not '\(text)'") }
            filter.causedBy = n
        }
        let period = try vocabulary(LogPageQuery.Period.self, "by", q["by"] ?? "week")
        let from: Int64
        if let text = q["from"] {
            guard let n = Int64(text), n >= 1 else { throw QueryError.invalidParameter("from takes a position of 1 or more, not '\(text)'") }
            from = n
        } else {
            from = 1
        }
        let limit = try q["limit"].map { text -> Int in
            guard let n = Int(text) else { throw QueryError.invalidParameter("limit takes a number, not '\(text)'") }
            return n
        }
        let page = try LogPageQuery.page(p.store, filter, from: from, limit: limit ?? LogPageQuery.pageSize)
        let counts = try p.ledger.counts(filter, by: period)
        if p.json { return .json(LogPageQuery.document(page, counts: counts, by: period)) }
        var names: [String: String] = [:]
        for ev in page.events {
            if case .workoutStarted(let s) = ev.event { names[s.workoutId.lowercased] = s.name }
        }
        return .html(InspectorPages.log(.init(page: page, filter: filter, counts: counts, period: period, workoutNames: names), frame: p.frame))
    }

    /// A page behind the door: off the event loop, its seat found and its ledger read under the ledger's
    /// lock; a refusal is one line in the page (or the API's error object in JSON), never a stack trace.
    /// A browser without a session is sent to sign in where the server has a sign-in page.
    func serve<Context: RequestContext>(
        _ request: Request, _ context: Context, _ build: @escaping @Sendable (Page) throws -> Answer
    ) async throws
        -> Response
    {
        let json = Self.wantsJSON(request)
        let cookies = CoachWeb.cookies(request)
        let client = context.parameters.get("client").map { ($0.removingPercentEncoding ?? $0).lowercased() }
        let door = self.door
        let work: @Sendable () async throws -> Response = { try await page(door, cookies, client, json, build) }
        guard let bound, let reader = door.reader(cookies: cookies) else { return try await work() }
        do {
            return try await bound(reader, work)
        } catch let e as APIError {
            var refused = respond(error: e, json: json, title: "Too many requests")
            if let wait = e.retryAfterSeconds { refused.headers[.retryAfter] = String(wait) }
            for (name, value) in e.headers { if let field = HTTPField.Name(name) { refused.headers[field] = value } }
            return refused
        }
    }

    /// The page itself, off the event loop.
    private func page(
        _ door: any InspectorDoor, _ cookies: [String: String], _ client: String?, _ json: Bool, _ build: @escaping @Sendable (Page) throws -> Answer
    ) async throws -> Response {
        try await blocking { [self] in
            do {
                let seat = try door.seat(cookies: cookies, client: client)
                switch try seat.ledger.read({ try build(Page(store: $0, json: json, seat: seat)) }) {
                case .html(let text): return html(text)
                case .json(let value):
                    return Response(status: .ok, headers: Self.jsonHeaders, body: .init(byteBuffer: ByteBuffer(string: value.rendered)))
                case .redirect(let to): return CoachWeb.redirect(to)
                case .download(let text, let name):
                    return Response(
                        status: .ok,
                        headers: [
                            .contentType: "application/x-ndjson", .contentDisposition: "attachment; filename=\"\(name)\"", .cacheControl: "no-store",
                        ],
                        body: .init(byteBuffer: ByteBuffer(string: text)))
                }
            } catch {
                let e = APIError.from(error, query: true)
                if e.status == 401, !json, let signIn = door.signIn { return CoachWeb.redirect(signIn) }
                let title = e.status == 401 ? "Not signed in" : e.status == 403 ? "Not yours to see" : "Cannot show that"
                return respond(error: e, json: json, title: title)
            }
        }
    }

    /// A request under `/inspect` that no route takes: 404, as a page or in JSON.
    package func unrouted(_ request: Request) -> Response {
        respond(error: APIError.notFound("there is no such page"), json: Self.wantsJSON(request), title: "Not found")
    }

    func respond(error e: APIError, json: Bool, title: String) -> Response {
        if json {
            let body = JSONValue.object([("error", .object([("code", .string(e.code)), ("message", .string(e.message))]))])
            return Response(status: .init(code: e.status), headers: Self.jsonHeaders, body: .init(byteBuffer: ByteBuffer(string: body.rendered)))
        }
        return html(InspectorPages.message(title, e.message, frame: .init(base: Self.root)), status: e.status)
    }

    /// A cookie of the inspector's: `HttpOnly`, `SameSite=Strict`, and `Secure` off loopback.
    func cookie(_ name: String, _ value: String, path: String = root, maxAge: Int) -> String {
        "\(name)=\(value); Path=\(path); Max-Age=\(maxAge); HttpOnly; SameSite=Strict\(secureCookies ? "; Secure" : "")"
    }

    func html(_ text: String, status: Int = 200) -> Response {
        Response(
            status: HTTPResponse.Status(code: status),
            headers: [.contentType: "text/html; charset=utf-8", .contentSecurityPolicy: Self.contentSecurityPolicy, .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    static let jsonHeaders: HTTPFields = [.contentType: "application/json", .cacheControl: "no-store"]

    static func wantsJSON(_ request: Request) -> Bool { request.headers[.accept]?.contains("application/json") ?? false }

    /// The query's parameters, percent-decoded (the first of each name).
    static func parameters(_ request: Request) -> [String: String] {
        var out: [String: String] = [:]
        for (k, v) in request.uri.queryParameters {
            let key = String(k).removingPercentEncoding ?? String(k)
            if out[key] == nil { out[key] = String(v).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String(v) }
        }
        return out
    }
}
