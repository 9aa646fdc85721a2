import Hummingbird
import NIOCore
import RepLedgerAccounts
import RepLedgerService
import RepLedgerWeb

/// What a request carries through the middleware to its handler: Hummingbird's
/// core, the caller's address (for `MetricsAccess`), the connection (closed
/// after a refused body), the bounded and decoded query, and the caller once
/// `Authentication` has found who the token speaks for.
struct LedgerRequestContext: RequestContext, CoachWebContext {
    var coreContext: CoreRequestContextStorage
    let remoteAddress: SocketAddress?
    let channel: any Channel
    /// The query's parameters, percent-decoded (set by `QueryBounds`).
    var query: [String: String] = [:]
    /// Who the request's token speaks for (set by `Authentication`).
    var caller: AccountDirectory.Caller?
    /// The app's session cookie the caller was found by, when it was (set by `Authentication`).
    var appSessionId: String?
    /// The dashboard's signed-in coach and the posted form (set by the web's middleware).
    var coachWeb = CoachWebRequest()

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
        channel = source.channel
    }

    var callerAddress: String { remoteAddress?.ipAddress ?? "unknown" }

    var serverAddress: String? {
        guard let local = channel.localAddress, let ip = local.ipAddress, let port = local.port else { return nil }
        return ip.contains(":") ? "[\(ip)]:\(port)" : "\(ip):\(port)"
    }

    /// The caller `Authentication` found; only routes behind it ask.
    func authenticated() throws -> AccountDirectory.Caller {
        guard let caller else { throw APIError.unauthorized }
        return caller
    }

    /// A path parameter, percent-decoded.
    func segment(_ name: String) -> String {
        let raw = parameters.get(name) ?? ""
        return raw.removingPercentEncoding ?? raw
    }
}
