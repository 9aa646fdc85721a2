import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import RepLedgerService

/// What every answer of the server keeps, whatever route made it (SERVER-CONTRACT.md §3):
/// one log line per request (method, path, status, milliseconds; never a token
/// or a body) and its metrics; every failure as `{"error":{"code","message"}}`;
/// and headers that keep an answer to its one caller (never sniffed, cached or
/// framed, nothing in it may load or run anything; the coach's pages start
/// from these too). What no route takes goes to `unrouted`.
struct AnswerContract: RouterMiddleware {
    typealias Context = LedgerRequestContext
    let logger: Logger
    let metrics: ServerMetrics
    /// The API's routes, whose declarations name each request's metric label.
    let routes: RouteTable
    let unrouted: @Sendable (Request, Context) async throws -> Response

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let started = ContinuousClock.now
        var status = 500
        defer {
            let elapsed = ContinuousClock.now - started
            let millis = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
            logger.info("\(request.method.rawValue) \(Self.logged(request.uri.path)) \(status) \(String(format: "%.1f", millis))ms")
            let segments = request.uri.path.split(separator: "/", omittingEmptySubsequences: true)
            let label = routes.label(segments.map(String.init)) ?? ServerMetrics.pageRoute(segments)
            metrics.request(route: label, method: request.method.rawValue, status: status, duration: elapsed)
        }
        var response: Response
        do {
            do {
                response = try await next(request, context)
            } catch let error as HTTPError where error.status == .notFound {
                // The router's answer when no route takes the path and method.
                response = try await unrouted(request, context)
            }
        } catch {
            let e = APIError.from(error)
            if e.status >= 500 { logger.error("\(request.method.rawValue) \(Self.logged(request.uri.path)): \(e.logDetail ?? e.message)") }
            // Refused callers and refused proofs of purchase, for an operator to see who is knocking: the
            // address and the refusal, never the token.
            if [401, 403, 429].contains(e.status) || ["purchaseClaimed", "receiptRefused"].contains(e.code) {
                let from = context.remoteAddress?.ipAddress ?? "unknown"
                logger.notice("refused \(e.status) \(e.code): \(request.method.rawValue) \(Self.logged(request.uri.path)) from \(from)")
            }
            response = LedgerRoutes.json(e.json, status: e.status)
            if let retry = e.retryAfterSeconds { response.headers[.retryAfter] = String(retry) }
            for (name, value) in e.headers { if let field = HTTPField.Name(name) { response.headers[field] = value } }
            // A refused body may be partly unread: the connection cannot carry another request. Its input
            // is closed (the body was read to its end, or past 64 MiB left unread), so the connection closes
            // once the answer is written.
            if e.status == 413 {
                response.headers[.connection] = "close"
                context.channel.close(mode: .input, promise: nil)
            }
        }
        response.headers[.xContentTypeOptions] = "nosniff"
        // Nothing is kept by a cache unless its route says how (the app's files under their content's hash,
        // its service worker revalidated, a live stream): an answer that holds an account's data never is.
        let ownCaching = (200..<400).contains(Int(response.status.code)) ? response.headers[.cacheControl] : nil
        response.headers[.cacheControl] = ownCaching ?? "no-store"
        if response.headers[.contentSecurityPolicy] == nil { response.headers[.contentSecurityPolicy] = LedgerRoutes.contentSecurityPolicy }
        status = Int(response.status.code)
        return response
    }

    /// A path as the log shows it: each id (an account's, a workout's, an invite's) cut to its first 8
    /// characters, enough to follow one account through a log, not to name it whole.
    static func logged(_ path: String) -> String {
        path.replacingOccurrences(
            of: #"([0-9A-Fa-f]{8})-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}"#, with: "$1…", options: .regularExpression)
    }
}
