import Foundation
import Hummingbird
import NIOCore
import RepLedgerCore
import RepLedgerProjections
import RepLedgerQueries
import RepLedgerService

/// One ledger the inspector reads, one request at a time (a SQLite connection
/// is not shared between threads). `ledger inspect` opens it read-only.
/// Its As-of folds are kept between requests (a step folds one event, not the log).
package final class InspectedLedger: @unchecked Sendable {
    private let store: any EventStore
    /// Recursive: a page reads under it and asks for its As-of views within.
    private let lock = NSRecursiveLock()
    private let folds = AsOfFolds()
    /// The rule set the views are read with (a bundle's own; else the built-in rules).
    package let rules: RuleSet

    package init(_ store: any EventStore, rules: RuleSet = .default) {
        self.store = store
        self.rules = rules
    }

    package func read<T>(_ body: (any EventStore) throws -> T) throws -> T { try lock.withLock { try body(store) } }

    /// Counts per period of a filter, kept: the log cannot change under a read-only inspector, and a count
    /// reads the whole log (seconds at a million events), so each filter is counted once.
    private var counts: [CountsKey: [(key: String, events: Int)]] = [:]
    private struct CountsKey: Hashable {
        var filter: LogPageQuery.Filter
        var period: LogPageQuery.Period
        var head: Int64
    }

    package func counts(_ filter: LogPageQuery.Filter, by period: LogPageQuery.Period) throws -> [(key: String, events: Int)] {
        try lock.withLock {
            let key = CountsKey(filter: filter, period: period, head: try store.headPosition())
            if let kept = counts[key] { return kept }
            let made = try LogPageQuery.counts(store, filter, by: period)
            if counts.count >= 64 { counts.removeAll() }
            counts[key] = made
            return made
        }
    }

    /// Counts the whole log by week before the first page asks (`ledger inspect` does it before printing its address).
    package func warmUp() throws { _ = try counts(LogPageQuery.Filter(), by: .week) }

    /// The As-of views at `position`, from the kept folds.
    package func asOf(_ position: Int64) throws -> AsOfQuery.Answer {
        try lock.withLock { try AsOfQuery.answer(store, position: position, rules: rules, folds: folds) }
    }
}

/// The inspector (issue 44) under `/inspect`: the Log, As-of, Session, Why and
/// Verify pages over one ledger, read-only. Each page answers JSON at the same
/// path for `Accept: application/json`, built by the same query as the CLI's
/// `--json`. A browser gets in through `open?code=…` (see `InspectorSessions`);
/// every other page but the stylesheet and the script needs its cookie.
package struct InspectorWeb: Sendable {
    package let ledger: InspectedLedger
    package let sessions = InspectorSessions()
    package let base: String
    /// Cookies carry `Secure` unless the server listens on loopback only (plain HTTP there).
    package let secureCookies: Bool
    package let blocking: @Sendable (@escaping @Sendable () throws -> Response) async throws -> Response

    package init(
        ledger: InspectedLedger, base: String = "/inspect", secureCookies: Bool,
        blocking: @escaping @Sendable (@escaping @Sendable () throws -> Response) async throws -> Response
    ) {
        self.ledger = ledger
        self.base = base
        self.secureCookies = secureCookies
        self.blocking = blocking
    }

    package static let sessionCookie = "rl_inspect"
    /// The pages' own script may run (no inline script); styles from the one stylesheet.
    package static let contentSecurityPolicy =
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

    /// What a page answers, before it is a response.
    enum Answer {
        case html(String)
        case json(JSONValue)
        case redirect(String)
        /// A file to save (a session fixture).
        case download(String, name: String)
    }

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
        group.get("open") { request, _ in open(request) }
        group.get("") { request, _ in try await serve(request) { _, _ in .redirect(base + "/log") } }
        group.get("log") { request, _ in try await serve(request) { store, json in try log(store, request, json: json) } }
        group.get("at") { request, _ in
            try await serve(request) { store, _ in
                let p = try Self.parameters(request)["position"].flatMap { Int64($0) } ?? store.headPosition()
                return .redirect("\(base)/at/\(p)")
            }
        }
        group.get("at/:position") { request, context in
            let text = context.parameters.get("position") ?? ""
            return try await serve(request) { _, json in
                guard let p = Int64(text) else { throw QueryError.invalidParameter("a position is a whole number, not '\(text)'") }
                let a = try ledger.asOf(p)
                return json ? .json(AsOfQuery.document(a)) : .html(InspectorPages.asOf(a, base: base))
            }
        }
        group.get("workouts/:workout") { request, context in
            let id = context.parameters.get("workout") ?? ""
            return try await serve(request) { store, json in
                let steps = try AuditQuery.steps(store, workout: id)
                if json { return .json(AuditQuery.replayDocument(steps.steps, library: steps.library)) }
                let name = steps.steps.lazy.compactMap { step -> String? in
                    if case .workoutStarted(let s) = step.envelope.event { return s.name }
                    return nil
                }.first
                return .html(InspectorPages.session(steps, name: name ?? "Workout", base: base))
            }
        }
        group.get("workouts/:workout/fixture") { request, context in
            let id = context.parameters.get("workout") ?? ""
            return try await serve(request) { store, _ in
                var text = ""
                try SessionFixture.make(store, workout: id, rules: ledger.rules) { text += $0 }
                return .download(text, name: "session-\(id.prefix(8)).fixture")
            }
        }
        group.get("why") { request, _ in
            try await serve(request) { store, json in
                let q = Self.parameters(request)
                let subject = try vocabulary(WhyQuery.Subject.self, "subject", q["subject"] ?? "")
                guard let target = q["target"], !target.isEmpty else {
                    throw QueryError.invalidParameter("why needs a target: an exercise, or a week")
                }
                let scope = QueryScope(asOf: q["asOf"], rules: ledger.rules)
                let log = try scope.log(store)
                let a = try WhyQuery.answer(store, scope, log: log, subject: subject, target: target, workout: q["workout"])
                if json { return .json(WhyQuery.document(a, log: log)) }
                return .html(
                    InspectorPages.why(
                        a, exercise: a.exerciseId.map(log.exerciseName), unit: log.account.liftingUnit, asOf: q["asOf"].flatMap { Int64($0) },
                        base: base))
            }
        }
        group.get("rules") { request, _ in
            try await serve(request) { _, json, csrf in
                if json { throw QueryError.invalidParameter("post a rule file to preview what it changes") }
                return .html(InspectorPages.rules(nil, text: RulesPreview.defaultText, csrf: csrf, base: base))
            }
        }
        group.post("rules") { request, _ in
            let form = try await CoachWeb.form(request)
            return try await serve(request) { store, json, csrf in
                guard let sent = form["csrf"], CoachWebSessions.same(sent, csrf) else {
                    throw APIError(status: 403, code: "forbidden", message: "this form has expired: reload the page and send it again")
                }
                let text = form["rules"] ?? ""
                let a = try RulesPreview.answer(store, text: text)
                return json ? .json(RebuildQuery.document(a)) : .html(InspectorPages.rules(a, text: text, csrf: csrf, base: base))
            }
        }
        group.get("verify") { request, _ in
            try await serve(request) { store, json in
                let report = try store.verify()
                return json ? .json(VerifyQuery.document(report)) : .html(InspectorPages.verify(report, base: base))
            }
        }
    }

    func log(_ store: any EventStore, _ request: Request, json: Bool) throws -> Answer {
        let q = Self.parameters(request)
        if let at = q["at"], !at.isEmpty {
            return .redirect("\(base)/log?from=\(try LogPageQuery.jump(store, to: at))")
        }
        var filter = LogPageQuery.Filter()
        filter.types = request.uri.queryParameters.getAll("type").map { $0.removingPercentEncoding ?? $0 }.filter { !$0.isEmpty }
        filter.stream = q["stream"]
        filter.workout = q["workout"]
        filter.device = q["device"]
        filter.since = q["since"]
        filter.until = q["until"]
        let period = try vocabulary(LogPageQuery.Period.self, "by", q["by"] ?? "week")
        let from: Int64
        if let text = q["from"] {
            guard let p = Int64(text), p >= 1 else { throw QueryError.invalidParameter("from takes a position of 1 or more, not '\(text)'") }
            from = p
        } else {
            from = 1
        }
        let limit = try q["limit"].map { text -> Int in
            guard let n = Int(text) else { throw QueryError.invalidParameter("limit takes a number, not '\(text)'") }
            return n
        }
        let page = try LogPageQuery.page(store, filter, from: from, limit: limit ?? LogPageQuery.pageSize)
        let counts = try ledger.counts(filter, by: period)
        if json { return .json(LogPageQuery.document(page, counts: counts, by: period)) }
        var names: [String: String] = [:]
        for ev in page.events {
            if case .workoutStarted(let s) = ev.event { names[s.workoutId.lowercased] = s.name }
        }
        return .html(
            InspectorPages.log(.init(page: page, filter: filter, counts: counts, period: period, workoutNames: names), base: base))
    }

    /// A page behind the session: off the event loop, the ledger read under its lock; a refusal is
    /// one line in the page (or the API's error object in JSON), never a stack trace.
    func serve(_ request: Request, _ build: @escaping @Sendable (any EventStore, Bool) throws -> Answer) async throws -> Response {
        try await serve(request) { store, json, _ in try build(store, json) }
    }

    /// A page behind the session that also needs its CSRF token (a form's page).
    func serve(_ request: Request, _ build: @escaping @Sendable (any EventStore, Bool, String) throws -> Answer) async throws -> Response {
        let json = Self.wantsJSON(request)
        guard let id = CoachWeb.cookies(request)[Self.sessionCookie], let csrf = sessions.csrf(id) else {
            return respond(
                error: APIError(
                    status: 401, code: "unauthorized", message: "open the address `ledger inspect` printed (its code works once), or run it again"),
                json: json, title: "Not signed in")
        }
        let ledger = self.ledger
        return try await blocking { [self] in
            do {
                switch try ledger.read({ try build($0, json, csrf) }) {
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
                return respond(error: APIError.from(error, query: true), json: json, title: "Cannot show that")
            }
        }
    }

    func respond(error e: APIError, json: Bool, title: String) -> Response {
        if json {
            let body = JSONValue.object([("error", .object([("code", .string(e.code)), ("message", .string(e.message))]))])
            return Response(status: .init(code: e.status), headers: Self.jsonHeaders, body: .init(byteBuffer: ByteBuffer(string: body.rendered)))
        }
        return html(InspectorPages.message(title, e.message, base: base), status: e.status)
    }

    /// `open?code=…`: a good code becomes a session cookie and a redirect to the log; a spent one is refused
    /// (a browser already signed in goes on to the log).
    func open(_ request: Request) -> Response {
        let code = Self.parameters(request)["code"] ?? ""
        if let id = sessions.open(code: code) {
            var response = CoachWeb.redirect(base + "/log")
            response.headers.append(
                .init(
                    name: .setCookie,
                    value:
                        "\(Self.sessionCookie)=\(id); Path=\(base); Max-Age=\(12 * 3600); HttpOnly; SameSite=Strict\(secureCookies ? "; Secure" : "")"
                ))
            return response
        }
        if let id = CoachWeb.cookies(request)[Self.sessionCookie], sessions.csrf(id) != nil { return CoachWeb.redirect(base + "/log") }
        return html(
            InspectorPages.message(
                "Code used or expired", "This address works once, for 15 minutes: run `ledger inspect` again for a new one.", base: base),
            status: 401)
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
