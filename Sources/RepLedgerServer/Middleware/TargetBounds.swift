import Hummingbird
import RepLedgerService

/// Every path segment and the whole target are bounded before anything reads
/// them (414): a 40 KB exercise name cost a second of CPU in the name
/// suggestions. An exercise name is at most 100 characters, an id 36.
struct TargetBounds: RouterMiddleware {
    typealias Context = LedgerRequestContext
    static let maximumSegmentBytes = 512
    static let maximumTargetBytes = 4096

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard request.uri.string.utf8.count <= Self.maximumTargetBytes,
            request.uri.path.split(separator: "/", omittingEmptySubsequences: true).allSatisfy({ $0.utf8.count <= Self.maximumSegmentBytes })
        else {
            throw APIError(
                status: 414, code: "uriTooLong",
                message:
                    "the path is too long: a path segment takes at most \(Self.maximumSegmentBytes) bytes, the whole target \(Self.maximumTargetBytes)"
            )
        }
        return try await next(request, context)
    }
}
