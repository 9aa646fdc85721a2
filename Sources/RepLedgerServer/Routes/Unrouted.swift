import Hummingbird
import RepLedgerService

extension LedgerRoutes {
    /// A request no route takes. Under `/coach`, `/inspect` and `/account` the pages answer
    /// with a page; elsewhere the answer is JSON: a known path with a method it does
    /// not take is 405 and names the methods to use, anything else 404 with
    /// where to look. Under an account, as on its routes, the token is asked
    /// for first.
    func unrouted(_ request: Request, context: Context, table: RouteTable) async throws -> Response {
        let segments = request.uri.path.split(separator: "/", omittingEmptySubsequences: true).map {
            String($0).removingPercentEncoding ?? String($0)
        }
        if segments.first == "coach" { return try await coachWeb.unrouted(request, context: context, path: Array(segments.dropFirst())) }
        if segments.first == "inspect" { return inspector.unrouted(request) }
        if segments.first == "account" { return try await accountWeb.unrouted(request, context: context) }
        let routes = table.matching(segments)
        let underAccount = segments.count >= 3 && segments[0] == "v1" && segments[1] == "accounts"
        if underAccount || routes.contains(where: \.authenticated) {
            let authorization = request.headers[.authorization], api = self.api
            _ = try await blocking { try api.authenticate(authorization) }
        }
        if !routes.isEmpty {
            var allowed: [HTTPRequest.Method] = []
            for method in routes.flatMap(\.methods) where !allowed.contains(method) { allowed.append(method) }
            throw APIError(
                status: 405, code: "methodNotAllowed",
                message: "\(request.method.rawValue) is not served here; use \(allowed.map(\.rawValue).joined(separator: " or "))")
        }
        if segments.first != "v1" { throw APIError.notFound("no such path: the API is under /v1") }
        if underAccount { throw APIError.notFound("no such query '\(segments.count > 3 ? segments[3] : "")': see /v1/openapi.json") }
        throw APIError.notFound("no such path: see /v1/openapi.json")
    }
}
