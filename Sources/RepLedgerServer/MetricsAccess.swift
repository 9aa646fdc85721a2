import Crypto
import Foundation
import Hummingbird
import NIOCore
import RepLedgerService

/// Who may read `GET /metrics`: a caller on the loopback interface (a
/// Prometheus agent on the same machine), or one presenting the metrics
/// token (`--metrics-token-file`), compared by hash in constant time. The
/// figures name no account, but they show traffic: nobody else reads them.
public struct MetricsAccess: Sendable {
    /// SHA-256 of the token; nil: loopback callers only.
    let tokenHash: [UInt8]?

    public init(token: String? = nil) {
        tokenHash = token.map { Array(SHA256.hash(data: Data($0.utf8))) }
    }

    /// The token in a file of its own (kept out of the command line and the process list).
    public static func reading(tokenFile: String?) throws -> MetricsAccess {
        guard let tokenFile else { return MetricsAccess() }
        let token = try String(contentsOfFile: tokenFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        guard token.count >= 16 else { throw Failure.shortToken(tokenFile) }
        return MetricsAccess(token: token)
    }

    public enum Failure: Error, CustomStringConvertible {
        case shortToken(String)
        public var description: String {
            switch self {
            case .shortToken(let file): return "the metrics token in \(file) is shorter than 16 characters"
            }
        }
    }

    func check(remote: SocketAddress?, authorization: String?) throws {
        if let header = authorization, let tokenHash {
            let parts = header.split(separator: " ", maxSplits: 1)
            guard parts.count == 2, parts[0].lowercased() == "bearer" else { throw APIError.unauthorized }
            let presented = Array(SHA256.hash(data: Data(parts[1].utf8)))
            // Constant time: every byte is compared whatever the first difference.
            guard zip(presented, tokenHash).reduce(UInt8(0), { $0 | ($1.0 ^ $1.1) }) == 0 else { throw APIError.unauthorized }
            return
        }
        guard Self.isLoopback(remote) else {
            throw APIError.forbidden(
                tokenHash == nil
                    ? "metrics are served to loopback callers only"
                    : "metrics are served to loopback callers and to the metrics token")
        }
    }

    static func isLoopback(_ address: SocketAddress?) -> Bool {
        guard let ip = address?.ipAddress else { return false }
        return ip.hasPrefix("127.") || ip == "::1" || ip.hasPrefix("::ffff:127.")
    }
}
