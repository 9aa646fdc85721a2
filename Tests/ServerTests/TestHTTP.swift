import AsyncHTTPClient
import NIOCore

/// The suite's HTTP client. Its kept-alive connections are let go after 5 s
/// idle, well under the server's idle timeout (30 s): the process-wide shared
/// client keeps them 600 s, and on a loaded machine a test that resumed after
/// a long pause sent its next request on a connection the server was closing
/// ("I/O on closed channel").
enum TestHTTP {
    static let client: HTTPClient = {
        var configuration = HTTPClient.Configuration.singletonConfiguration
        configuration.connectionPool = .init(idleTimeout: .seconds(5))
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }()
}
