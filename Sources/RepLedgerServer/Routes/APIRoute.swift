import Hummingbird
import RepLedgerCore

/// One route of the HTTP API, declared once: its method and path, the door a
/// request passes before its handler (which decides authentication, rate and
/// concurrency), and the handler. The router is built from the declarations
/// (`LedgerRoutes.router()`), and so are the rest of what knows the routes:
/// the methods a path takes (405 with `Allow`, `RouteTable`), the metric
/// labels, and the OpenAPI document's path list the tests hold it to.
struct APIRoute: Sendable {
    /// What a request passes before its handler.
    enum Door: Sendable {
        /// Anyone, under `/v1` (query parameters bounded): health, the OpenAPI document, sign-in.
        case open
        /// `/metrics`: its own access check, in the handler.
        case metrics
        /// A bearer token, the account's rate and its requests in progress.
        case token
        /// As `token`, for erasure (a token of an erased account is told apart).
        case erasing
        /// A token and the rate, not the requests in progress: a live stream holds its connection, not a worker.
        case stream
    }

    let method: HTTPRequest.Method
    /// Hummingbird's path syntax: literals, `:name` for one segment, `**` for the rest.
    let path: String
    let door: Door
    let handler: @Sendable (Request, LedgerRequestContext) async throws -> Response
    /// Its path in the OpenAPI document (`/v1/accounts/{account}/hint/{exercise}`); nil for what the document leaves
    /// out (`/metrics`, `/mcp`, a query's bare name when it takes a path).
    let documented: String?

    /// `documented` defaults to the path with `{name}` for each `:name`, for a route under `/v1` without a catch-all.
    init(
        _ method: HTTPRequest.Method, _ path: String, _ door: Door, documented: String?? = .none,
        _ handler: @escaping @Sendable (Request, LedgerRequestContext) async throws -> Response
    ) {
        self.method = method
        self.path = path
        self.door = door
        self.handler = handler
        let derived =
            path.hasPrefix("v1/") && !path.contains("**")
            ? "/" + path.split(separator: "/").map { $0.hasPrefix(":") ? "{\($0.dropFirst())}" : String($0) }.joined(separator: "/") : nil
        self.documented = documented ?? derived
    }

    /// A route on a path its clients call too (`APIPath`), so that both read one declaration.
    init(
        _ method: HTTPRequest.Method, _ path: APIPath, _ door: Door,
        _ handler: @escaping @Sendable (Request, LedgerRequestContext) async throws -> Response
    ) {
        self.init(method, path.pattern, door, handler)
    }

    /// Whether a request asks for a token before anything else, a path with a method it does not take too.
    var authenticated: Bool { [.token, .erasing, .stream].contains(door) }

    /// The label a request of this route is counted under: the path with `{name}` for each parameter and `{}` for
    /// each segment the catch-all took (`/v1/accounts/{account}/hint/{}`).
    func metricLabel(segments: Int) -> String {
        var parts: [String] = []
        for part in path.split(separator: "/") {
            if part == "**" {
                parts += Array(repeating: "{}", count: max(0, segments - parts.count))
            } else {
                parts.append(part.hasPrefix(":") ? "{\(part.dropFirst())}" : String(part))
            }
        }
        return "/" + parts.joined(separator: "/")
    }
}
