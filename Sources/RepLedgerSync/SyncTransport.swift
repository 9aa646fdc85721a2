import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// How a sync's requests reach the server: over HTTP in every product, over a
/// simulated network in the sync simulation's tests. The sync's rules
/// (`SyncClient`) are the same either way.
public protocol SyncTransport: Sendable {
    /// Sends one request with the device's bearer token → the answer's status,
    /// body and `Retry-After` seconds. Throws when no answer came: the request
    /// may or may not have reached the server.
    func send(_ method: HTTPMethod, url: String, token: String, body: String?) async throws -> SyncTransportAnswer
}

/// One answer to a sync's request.
public struct SyncTransportAnswer: Sendable, Equatable {
    /// The HTTP status.
    public var status: Int
    /// The answer's body: JSON, or an error document.
    public var body: String
    /// The seconds `Retry-After` asks a client to wait (a 503 during a failover, a 429).
    public var retryAfter: Int?

    /// An answer as received.
    public init(status: Int, body: String, retryAfter: Int? = nil) {
        self.status = status
        self.body = body
        self.retryAfter = retryAfter
    }
}

/// The transport of every product: AsyncHTTPClient, one request at a time.
public struct HTTPSyncTransport: SyncTransport {
    let client: HTTPClient

    /// Requests through `client`, whose connections the caller owns and shuts down.
    public init(_ client: HTTPClient) { self.client = client }

    public func send(_ method: HTTPMethod, url: String, token: String, body: String?) async throws -> SyncTransportAnswer {
        var request = HTTPClientRequest(url: url)
        request.method = method
        request.headers.add(name: "Authorization", value: "Bearer \(token)")
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(string: body))
        }
        let response: HTTPClientResponse
        do {
            response = try await client.execute(request, timeout: .seconds(60))
        } catch ChannelError.ioOnClosedChannel {
            // The connection closed as the request went out: it never left, so it goes again on a new one.
            response = try await client.execute(request, timeout: .seconds(60))
        }
        let bytes = try await response.body.collect(upTo: 256 << 20)
        return SyncTransportAnswer(
            status: Int(response.status.code), body: String(buffer: bytes),
            retryAfter: response.headers.first(name: "Retry-After").flatMap { Int($0) })
    }
}
