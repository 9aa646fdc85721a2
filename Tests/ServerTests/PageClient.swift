import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// A browser's requests without a browser, for the server's pages: cookies
/// sent by hand, forms posted, and a redirect an answer to look at, not to follow.
struct PageClient {
    let base: String

    static let client: HTTPClient = {
        var configuration = HTTPClient.Configuration.singletonConfiguration
        configuration.connectionPool = .init(idleTimeout: .seconds(5))
        configuration.redirectConfiguration = .disallow
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }()

    struct Reply {
        var status: Int
        var headers: HTTPHeaders
        var body: String
        var json: Any? { try? JSONSerialization.jsonObject(with: Data(body.utf8)) }
        var object: [String: Any]? { json as? [String: Any] }
        var errorCode: String? { (object?["error"] as? [String: Any])?["code"] as? String }
        var location: String? { headers["Location"].first }
        /// The value a `Set-Cookie` of this answer gives `name` (nil when it sets none).
        func cookie(_ name: String) -> String? {
            headers["Set-Cookie"].lazy.compactMap { line -> String? in
                let pair = line.split(separator: ";")[0].split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                return pair.count == 2 && pair[0] == name ? String(pair[1]) : nil
            }.first
        }
        /// The value of the page's first hidden `csrf` field.
        var csrf: String? {
            body.range(of: #"name="csrf" value="[0-9a-f]+""#, options: .regularExpression).map {
                String(body[$0].dropFirst(#"name="csrf" value=""#.count).dropLast())
            }
        }
    }

    func get(_ path: String, cookie: String? = nil, json: Bool = false) async throws -> Reply {
        var request = try HTTPClient.Request(url: path.hasPrefix("http") ? path : base + path, method: .GET)
        if let cookie { request.headers.add(name: "Cookie", value: cookie) }
        if json { request.headers.add(name: "Accept", value: "application/json") }
        return try await send(request)
    }

    /// Posts a form (`application/x-www-form-urlencoded`).
    func post(_ path: String, cookie: String?, form: [(String, String)], json: Bool = false) async throws -> Reply {
        var request = try HTTPClient.Request(url: base + path, method: .POST)
        if let cookie { request.headers.add(name: "Cookie", value: cookie) }
        if json { request.headers.add(name: "Accept", value: "application/json") }
        request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        request.body = .string(form.map { "\($0)=\($1.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")" }.joined(separator: "&"))
        return try await send(request)
    }

    private func send(_ request: HTTPClient.Request) async throws -> Reply {
        let response = try await Self.client.execute(request: request, deadline: .now() + .seconds(60)).get()
        return Reply(status: Int(response.status.code), headers: response.headers, body: response.body.map { String(buffer: $0) } ?? "")
    }
}
