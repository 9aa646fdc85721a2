import Foundation
import Hummingbird
import Logging
import NIOCore
import NIOPosix
import RepLedgerAccounts
import RepLedgerCore
import RepLedgerService
import RepLedgerWeb

/// SERVER-CONTRACT.md §3 on Hummingbird's router: every route of the HTTP API, the
/// coach's pages mounted under `/coach`, and the middleware that every answer
/// passes (`AnswerContract`, `TargetBounds`), the API's (`QueryBounds`) and an
/// account's (`Authentication`, `AccountRequestLimit`). Handlers read the
/// request and hand the work to `LedgerAPI` off the event loop; blocking work
/// (SQLite) runs on the thread pool, never on an event loop.
struct LedgerRoutes: Sendable {
    typealias Context = LedgerRequestContext
    let api: LedgerAPI
    let keepAliveSeconds: Double
    let logger: Logger
    var limits = ConnectionLimits()
    let metricsAccess: MetricsAccess
    /// Where store work runs, off the event loops.
    let workers: NIOThreadPool
    /// Each account's share of the workers.
    let shares: WorkerShares
    /// The coach dashboard under `/coach`.
    let coachWeb: CoachWeb
    /// The inspector under `/inspect`: an owner's own log, a coach's client's by grant.
    let inspector: InspectorWeb
    let inspectorDoor: InspectorAccountDoor
    /// The account page under `/account`: sign-up and sign-in with no operator, devices, erasure.
    let accountWeb: AccountWeb
    /// The lifter's app under `/app`, on the API's command route and queries.
    let lifterApp: LifterApp
    /// Requests in progress per account (the API's and the inspector's pages), for the 429 past `maximumRequestsPerAccount`.
    let accountRequests: CountsByKey
    /// Live streams open per token, per account and in all.
    let streams: StreamAdmission
    /// `/mcp`: the assistant's tools over the key's own account.
    let assistant: AssistantEndpoint
    /// Requests and appends a minute, per key and per account.
    let rates: RateLimiter

    static let version = RepLedgerVersion.current
    static let contentSecurityPolicy = "default-src 'none'; frame-ancestors 'none'"

    init(
        api: LedgerAPI, keepAliveSeconds: Double, logger: Logger, limits: ConnectionLimits = ConnectionLimits(),
        metricsAccess: MetricsAccess = MetricsAccess(), workers: NIOThreadPool = .singleton, secureCookiesOff: Bool = true,
        appDoor: AppCodeDoor? = nil
    ) {
        self.api = api
        self.workers = workers
        let shares = WorkerShares(workers: workers.numberOfThreads)
        self.shares = shares
        self.keepAliveSeconds = keepAliveSeconds
        self.logger = logger
        self.limits = limits
        streams = StreamAdmission(limits: limits)
        self.metricsAccess = metricsAccess
        let blockingPage: @Sendable (@escaping @Sendable () throws -> Response) async throws -> Response = { [workers] work in
            try await shares.run(for: WorkerShares.account) { try await workers.runIfActive(work) }
        }
        let rates = RateLimiter(limits: limits.rates), accountRequests = CountsByKey()
        self.rates = rates
        self.accountRequests = accountRequests
        let bounds = PageBounds(rates: rates, inProgress: accountRequests, maximumRequestsPerAccount: limits.maximumRequestsPerAccount)
        let bound: PageBound = { try await bounds.run($0, $1) }
        coachWeb = CoachWeb(api: api, secureCookies: !secureCookiesOff, blocking: blockingPage, bound: bound)
        inspectorDoor = InspectorAccountDoor(api: api)
        let lifterApp = LifterApp(secureCookies: !secureCookiesOff, door: appDoor, inspector: inspectorDoor)
        self.lifterApp = lifterApp
        accountWeb = AccountWeb(coach: coachWeb, inspector: inspectorDoor, app: lifterApp)
        inspector = InspectorWeb(door: inspectorDoor, secureCookies: !secureCookiesOff, blocking: blockingPage, bound: bound)
        assistant = AssistantEndpoint(api: api, workers: workers, shares: shares, rates: rates)
    }

    /// Off the event loop (SQLite blocks), within the share of the account the request serves.
    func blocking<T: Sendable>(for account: String? = WorkerShares.account, _ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await shares.run(for: account) { try await workers.runIfActive(body) }
    }

    /// The router with every route; what no route takes is answered by `unrouted` (404 or 405). The pages are the web
    /// targets'; the API is built from its declarations (`apiRoutes`), which fill `RouteTable` as they are added.
    func router() -> Router<Context> {
        let router = Router(context: Context.self)
        let table = RouteTable()
        router.add(
            middleware: AnswerContract(logger: logger, metrics: api.metrics, routes: table) { request, context in
                try await unrouted(request, context: context, table: table)
            })
        router.add(middleware: TargetBounds())
        coachWeb.addRoutes(to: router.group("coach"))
        accountWeb.addRoutes(to: router.group("account"))
        lifterApp.addRoutes(to: router.group("app"))
        inspector.addRoutes(to: router.group("inspect"))
        inspector.addSignInRoutes(to: router.group("inspect"), door: inspectorDoor)
        inspector.addPages(to: router.group("inspect/clients/:client"))

        let open = router.group().add(middleware: QueryBounds())
        func account(erasing: Bool = false, counted: Bool = true) -> RouterGroup<Context> {
            let group = open.group().add(middleware: Authentication(routes: self, erasing: erasing)).add(middleware: RequestRate(routes: self))
            // An account's requests in progress are bounded, so one account cannot hold every worker.
            return counted ? group.add(middleware: AccountRequestLimit(routes: self)) : group
        }
        let doors: [APIRoute.Door: RouterGroup<Context>] = [
            .metrics: router.group(), .open: open, .token: account(), .erasing: account(erasing: true), .stream: account(counted: false),
        ]
        for route in apiRoutes() {
            doors[route.door]!.on(RouterPath(route.path), method: route.method, use: route.handler)
            table.add(route)
        }
        return router
    }

    /// Every route of the API, each declared once (SERVER-CONTRACT.md §3).
    func apiRoutes() -> [APIRoute] {
        [
            APIRoute(.get, "metrics", .metrics) { request, context in
                try metricsAccess.check(remote: context.remoteAddress, authorization: request.headers[.authorization])
                return Response(
                    status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                    body: .init(byteBuffer: ByteBuffer(bytes: api.metrics.text())))
            },
            // An assistant's calls are its account's: bounded as the API's are.
            APIRoute(.post, "mcp", .token) { request, context in try await assistant.handle(request, caller: try context.authenticated()) },
            APIRoute(.get, "v1/health", .open) { _, _ in Self.json(.object([("ok", .bool(true)), ("version", .string(Self.version))])) },
            APIRoute(.get, "v1/openapi.json", .open) { _, _ in
                Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: OpenAPIDocument.bytes)))
            },
        ] + coachRoutes() + signInRoutes() + accountRoutes() + commandRoutes()
    }

    /// `/v1/coach/…`: the coach's clients and invites, and a client's acceptance of an invite.
    func coachRoutes() -> [APIRoute] {
        [
            APIRoute(.get, .coachClients, .token) { _, context in
                let caller = try context.authenticated()
                return Self.json(try await blocking { [api] in try api.coachClients(caller) })
            },
            APIRoute(.get, .coachInvites, .token) { _, context in
                let caller = try context.authenticated()
                return Self.json(try await blocking { [api] in try api.invites(caller) })
            },
            APIRoute(.post, .coachInvites, .token) { request, context in
                let caller = try context.authenticated()
                let note = try Self.inviteNote(try await Self.smallBody(request))
                return Self.json(try await blocking { [api] in try api.createInvite(caller, note: note) }, status: 201)
            },
            APIRoute(.post, .coachInviteAccept, .token) { request, context in
                let caller = try context.authenticated()
                let body = try await Self.smallBody(request)
                return Self.json(try await blocking { [api] in try api.acceptInvite(caller, body: body) })
            },
            APIRoute(.delete, .coachInvite, .token) { _, context in
                let caller = try context.authenticated(), invite = context.segment("invite")
                return Self.json(try await blocking { [api] in try api.revokeInvite(caller, id: invite) })
            },
        ]
    }

    /// `/v1/accounts/{account}/…`: the account's log, its live stream and its queries; erasure.
    func accountRoutes() -> [APIRoute] {
        var routes = [
            APIRoute(.delete, "v1/accounts/:account", .erasing) { _, context in
                let caller = try context.authenticated(), id = context.segment("account")
                return Self.json(try await blocking { [api] in try api.erase(caller, account: id) })
            },
            APIRoute(.get, "v1/accounts/:account/events/live", .stream) { request, context in
                let caller = try context.authenticated(), id = context.segment("account")
                let after = try Self.position(context.query["after"] ?? request.headers.first { $0.name.canonicalName == "last-event-id" }?.value)
                let log = try await blocking { [api] in try api.authorize(caller, account: id, write: false) }
                let slot = try streams.admit(account: caller.account.accountId, tokenId: caller.tokenId, address: context.callerAddress)
                // Found again every second: by its bearer token, or by the app's session (which ends with the browser's token).
                let authorization = request.headers[.authorization], session = context.appSessionId, app = lifterApp, api = self.api
                let reauthenticate: @Sendable () throws -> AccountDirectory.Caller = {
                    guard let session else { return try api.authenticate(authorization) }
                    guard let s = app.sessions.session(session), let again = try api.accounts.caller(tokenHash: s.tokenHash) else {
                        throw APIError.unauthorized
                    }
                    return again
                }
                return live(log: log, after: after, caller: caller, reauthenticate: reauthenticate, slot: slot, channel: context.channel)
            },
            APIRoute(.get, .events, .token) { _, context in
                let caller = try context.authenticated(), id = context.segment("account")
                let after = try Self.position(context.query["after"])
                let limit = try Self.pageSize(context.query["limit"])
                return Self.json(
                    text: try await blocking { [api] in
                        try api.events(log: try api.authorize(caller, account: id, write: false), after: after, limit: limit)
                    })
            },
            APIRoute(.post, .events, .token) { request, context in
                let caller = try context.authenticated(), id = context.segment("account")
                let text = try await Self.pushBody(request)
                return Self.json(
                    try await blocking { [api] in
                        let log = try api.authorize(caller, account: id, write: true)
                        return try api.push(text, caller: caller, log: log)
                    })
            },
            APIRoute(.get, .assignments, .token) { _, context in
                let caller = try context.authenticated(), id = context.segment("account")
                return Self.json(
                    try await blocking { [api] in try api.assignments(caller, log: try api.authorize(caller, account: id, write: false)) })
            },
            APIRoute(.get, "v1/accounts/:account/progress", .token) { _, context in
                let caller = try context.authenticated(), id = context.segment("account")
                return Self.json(try await blocking { [api] in try api.progress(log: try api.authorize(caller, account: id, write: false)).document })
            },
            APIRoute(.get, "v1/accounts/:account/verify", .token) { _, context in
                let caller = try context.authenticated(), id = context.segment("account")
                return Self.json(try await blocking { [api] in try api.verify(log: try api.authorize(caller, account: id, write: false)) })
            },
        ]
        // A query's path after its name (an exercise, a workout) is the query's to read: it says what it takes.
        for query in LedgerAPI.Query.allCases {
            let answer: @Sendable (Request, Context) async throws -> Response = { _, context in
                let caller = try context.authenticated(), id = context.segment("account"), parameters = context.query
                let path = context.parameters.getCatchAll().map { String($0).removingPercentEncoding ?? String($0) }
                return Self.json(
                    try await blocking { [api] in
                        try api.query(query, log: try api.authorize(caller, account: id, write: false), path: path, parameters: parameters)
                    })
            }
            let named = "/v1/accounts/{account}/" + ([query.rawValue] + query.pathParameters.map { "{\($0)}" }).joined(separator: "/")
            let takesPath = !query.pathParameters.isEmpty
            routes.append(APIRoute(.get, "v1/accounts/:account/\(query.rawValue)", .token, documented: takesPath ? nil : named, answer))
            routes.append(APIRoute(.get, "v1/accounts/:account/\(query.rawValue)/**", .token, documented: takesPath ? named : nil, answer))
        }
        return routes
    }

    /// The body of `POST /v1/coach/invites`: `{"note":"…"}` or nothing.
    static func inviteNote(_ body: String) throws -> String {
        guard !body.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { return "" }
        guard case .object(let fields)? = try? JSONReader.parse(body) else {
            throw APIError.badRequest(#"the body is {"note":"…"} or empty"#)
        }
        guard let value = fields.first(where: { $0.0 == "note" })?.1 else { return "" }
        guard case .string(let text) = value else { throw APIError.badRequest("note takes a string") }
        return text
    }

    static func position(_ text: String?) throws -> Int64 {
        guard let text else { return 0 }
        guard let p = Int64(text), p >= 0 else { throw APIError.badRequest("after takes a position: a whole number, 0 or more") }
        return p
    }

    static func pageSize(_ text: String?) throws -> Int {
        guard let text else { return LedgerAPI.defaultPage }
        guard let n = Int(text), (1...LedgerAPI.maximumPage).contains(n) else {
            throw APIError.badRequest("limit takes a number from 1 to \(LedgerAPI.maximumPage)")
        }
        return n
    }

    static func json(_ value: JSONValue, status: Int = 200) -> Response { json(text: value.rendered, status: status) }

    static func json(text: String, status: Int = 200) -> Response {
        Response(
            status: HTTPResponse.Status(code: status), headers: [.contentType: "application/json; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}
