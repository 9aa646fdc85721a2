import Foundation
import Hummingbird
import NIOCore
import RepLedgerService

/// How many connections and requests the server takes, and how long it
/// waits on a quiet connection. Defaults hold a busy small server; each has
/// a `ledger serve` flag.
public struct ConnectionLimits: Sendable {
    /// Seconds a connection may send nothing while its request's head or body
    /// is still expected, or while it sits idle between requests. A live
    /// stream, whose request was read whole, is never cut by it.
    public var idleTimeoutSeconds: Double = 30
    /// Seconds a request's head and body may take to arrive whole, from when
    /// the connection is ready for it: a client trickling a byte at a time is
    /// cut here, however often it sends.
    public var requestTimeoutSeconds: Double = 60
    /// Open connections in all; past it the server stops accepting until one closes.
    public var maximumConnections = 1024
    /// Open connections from one address; one more is closed at once.
    public var maximumConnectionsPerAddress = 64
    /// Connections still reading a request (or idle between requests) at
    /// once; one more closes the slowest (bytes a second). Half the connection cap
    /// unless set, so that connections with requests in progress keep the rest.
    public var maximumReadingConnections: Int?
    /// The reading budget in force.
    public var readingBudget: Int { max(1, maximumReadingConnections ?? maximumConnections / 2) }
    /// Requests of one account in progress at once (live streams aside); one more gets 429 with Retry-After.
    public var maximumRequestsPerAccount = 8
    /// Live streams open at once through one token, and of one account (its tokens together); one more gets 429.
    public var maximumStreamsPerToken = 8
    public var maximumStreamsPerAccount = 32
    /// Live streams open at once from one source address (an IPv6 /64 counts as one).
    public var maximumStreamsPerAddress = 32
    /// Live streams open at once in all: a quarter of the connection cap unless set.
    public var maximumStreams: Int?
    /// The stream budget in force.
    public var streamBudget: Int { max(1, maximumStreams ?? maximumConnections / 4) }
    /// Requests and appends a minute, per key and per account (429 with `Retry-After` past them).
    public var rates = RateLimits()

    public init() {}
}

/// How many of something each key holds (connections by address, requests
/// in progress by account), each key bounded by a limit.
final class CountsByKey: @unchecked Sendable {
    private let lock = NSLock()
    private var held: [String: Int] = [:]

    /// Counts one more for `key` → whether it is within `limit` (when not, nothing is counted).
    func admit(_ key: String, limit: Int) -> Bool {
        lock.withLock {
            let n = held[key, default: 0]
            guard n < limit else { return false }
            held[key] = n + 1
            return true
        }
    }

    /// How many `key` holds now.
    func held(_ key: String) -> Int { lock.withLock { held[key, default: 0] } }

    func release(_ key: String) {
        lock.withLock {
            let n = held[key, default: 1] - 1
            held[key] = n > 0 ? n : nil
        }
    }
}

/// Closes a connection at once when its address already holds its share.
final class PerAddressLimit: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny
    let counts: CountsByKey
    let limit: Int
    private var counted: String?

    init(counts: CountsByKey, limit: Int) {
        self.counts = counts
        self.limit = limit
    }

    func handlerAdded(context: ChannelHandlerContext) {
        let address = context.channel.remoteAddress?.ipAddress ?? "unknown"
        if counts.admit(address, limit: limit) {
            counted = address
        } else {
            context.close(promise: nil)
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        if let counted { counts.release(counted) }
        counted = nil
    }
}
