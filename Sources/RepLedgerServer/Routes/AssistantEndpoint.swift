import Foundation
import HTTPTypes
import Hummingbird
import MCP
import NIOCore
import NIOPosix
import RepLedgerAccounts
import RepLedgerAssistant
import RepLedgerCore
import RepLedgerQueries
import RepLedgerService

/// `POST /mcp`: the assistant's tools over the key's own account, on MCP's Streamable HTTP transport,
/// stateless: every request is answered with JSON by a server of its own (so any number of clients,
/// on any number of server processes, need no session between requests). The route authenticates
/// the key first (401); each call is then run for that caller: a `read` key is offered the read
/// tools only and refused on a write (`scope`), and writes land under the account's lock like a
/// push, live streams woken after.
struct AssistantEndpoint: Sendable {
    let api: LedgerAPI
    let workers: NIOThreadPool
    let shares: WorkerShares
    let rates: RateLimiter

    /// The largest body an MCP request may have (a tool call's arguments are small).
    static let maximumBody = 256 << 10

    func handle(_ request: Request, caller: AccountDirectory.Caller) async throws -> Response {
        let body = try await LedgerRoutes.text(
            request, upTo: Self.maximumBody,
            tooLarge: APIError(status: 413, code: "tooLarge", message: "an MCP request takes at most 256 KiB"))
        // A write tool's call counts as an append, as a push does.
        let appends = Self.callsWriteTool(body) ? try RateHeaders.charge(rates, .appends, key: caller.tokenId, account: caller.account.accountId) : []
        var headers: [String: String] = [:]
        for field in request.headers { headers[field.name.canonicalName] = field.value }
        // A browser page may never call this: a request with an Origin is refused. Clients are programs with a key.
        let transport = StatelessHTTPServerTransport(
            validationPipeline: StandardValidationPipeline(validators: [
                NoBrowserOrigin(), AcceptHeaderValidator(mode: .jsonOnly), ContentTypeValidator(), ProtocolVersionValidator(),
            ]))
        let server = await AssistantMCP.server(readOnly: false, session: session)
        try await server.start(transport: transport)
        let answer = await transport.handleRequest(
            MCP.HTTPRequest(method: request.method.rawValue, headers: headers, body: Data(body.utf8), path: request.uri.path))
        await server.stop()
        var response = Response(status: .init(code: answer.statusCode))
        for (name, value) in answer.headers {
            if let field = HTTPField.Name(name) { response.headers[field] = value }
        }
        if let data = answer.bodyData { response.body = .init(byteBuffer: ByteBuffer(bytes: data)) }
        RateHeaders.add(appends, of: rates, to: &response.headers)
        return response
    }

    /// Whether the JSON-RPC body calls a tool that records.
    static func callsWriteTool(_ body: String) -> Bool {
        guard case .object(let fields)? = try? JSONReader.parse(body),
            case .string("tools/call")? = fields.first(where: { $0.0 == "method" })?.1,
            case .object(let params)? = fields.first(where: { $0.0 == "params" })?.1,
            case .string(let name)? = params.first(where: { $0.0 == "name" })?.1
        else { return false }
        return AssistantCatalog.tool(name)?.writes == true
    }

    /// The caller of the call being handled, from its request's key, and the log it works on.
    @Sendable private func session() async throws -> AssistantSession {
        let authorization = Server.currentHandlerContext?.httpContext?.header("Authorization")
        let api = self.api
        let caller = try await blocking(nil) { try api.authenticate(authorization) }
        let account = caller.account.accountId
        let log = try await blocking(account) { try api.logs.log(account) }
        return AssistantSession(
            ledger: AccountAssistantLedger(log: log, device: caller.device),
            writesRefused: caller.scope == .read ? .scope(caller.scope.rawValue) : nil,
            run: { work in _ = try? await blocking(account) { work() } })
    }

    /// Off the event loop and within the account's share of the workers, as every route's store work.
    @Sendable private func blocking<T: Sendable>(_ account: String?, _ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await shares.run(for: account) { try await workers.runIfActive(body) }
    }
}

/// An account's log on the server, as the assistant records on it: under the account's lock, its
/// events stamped with the key's device name, live streams woken after.
struct AccountAssistantLedger: AssistantLedger {
    let log: AccountLog
    let device: String

    func withLedger<T>(_ body: (Ledger) throws -> T) throws -> T {
        try log.withLedger { ledger in
            let kept = ledger.device
            ledger.device = device
            defer { ledger.device = kept }
            return try body(ledger)
        }
    }

    var warm: WarmFold? { log.warm }

    func appended() { log.notifyAppended() }
}

/// Refuses a request that carries an `Origin`: only a browser sends one, and no page may call `/mcp`.
struct NoBrowserOrigin: HTTPRequestValidator {
    func validate(_ request: MCP.HTTPRequest, context: HTTPValidationContext) -> MCP.HTTPResponse? {
        guard request.header(HTTPHeaderName.origin) != nil else { return nil }
        return .error(statusCode: 403, .invalidRequest("Forbidden: /mcp is for programs with a key, not for pages in a browser"))
    }
}
