import Hummingbird
import RepLedgerService

/// The API's query parameters, each name and value at most
/// `TargetBounds.maximumSegmentBytes`, percent-decoded into the context once.
struct QueryBounds: RouterMiddleware {
    typealias Context = LedgerRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        for (k, v) in request.uri.queryParameters {
            guard k.utf8.count <= TargetBounds.maximumSegmentBytes, v.utf8.count <= TargetBounds.maximumSegmentBytes else {
                throw APIError.badRequest("a query parameter takes at most \(TargetBounds.maximumSegmentBytes) bytes")
            }
            context.query[String(k).removingPercentEncoding ?? String(k)] = String(v).removingPercentEncoding ?? String(v)
        }
        return try await next(request, context)
    }
}
