import AsyncHTTPClient
import Foundation
import LedgerTestSupport
import NIOCore
import NIOHTTP1

/// A real `ledger inspect` on a free loopback port over a ledger file, and an
/// HTTP client's way in: the printed address's one-time code traded for the
/// session cookie.
final class InspectorProcess: @unchecked Sendable {
    let process: Process
    /// The address the first line printed, with its one-time code.
    let address: String
    let base: String

    convenience init(db: String, folder: URL) throws { try self.init(["--db", db], folder: folder) }

    /// `ledger inspect ARGUMENTS --listen 127.0.0.1:0` (`--db FILE` or `--bundle FILE`).
    init(_ arguments: [String], folder: URL) throws {
        process = Process()
        process.executableURL = LedgerProcess.binary
        process.arguments = ["inspect"] + arguments + ["--listen", "127.0.0.1:0"]
        process.currentDirectoryURL = folder
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        // The first line: "inspector: open http://127.0.0.1:PORT/inspect/open?code=…".
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = out.fileHandleForReading.availableData
            guard !chunk.isEmpty else { throw ServerFailure.didNotStart("ledger inspect printed no address") }
            line += chunk
        }
        let text = String(decoding: line, as: UTF8.self)
        guard let range = text.range(of: #"http://127\.0\.0\.1:\d+/inspect/open\?code=[0-9a-f]+"#, options: .regularExpression) else {
            throw ServerFailure.didNotStart(text)
        }
        address = String(text[range])
        base = String(address[..<address.range(of: "/inspect")!.lowerBound])
    }

    deinit {
        kill(process.processIdentifier, SIGKILL)
    }

    /// The suite's client, but a redirect is an answer to look at, not to follow.
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
    }

    func get(_ path: String, cookie: String? = nil, json: Bool = false) async throws -> Reply {
        var request = try HTTPClient.Request(url: path.hasPrefix("http") ? path : base + path, method: .GET)
        if let cookie { request.headers.add(name: "Cookie", value: cookie) }
        if json { request.headers.add(name: "Accept", value: "application/json") }
        let response = try await Self.client.execute(request: request, deadline: .now() + .seconds(60)).get()
        return Reply(status: Int(response.status.code), headers: response.headers, body: response.body.map { String(buffer: $0) } ?? "")
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
        let response = try await Self.client.execute(request: request, deadline: .now() + .seconds(60)).get()
        return Reply(status: Int(response.status.code), headers: response.headers, body: response.body.map { String(buffer: $0) } ?? "")
    }

    /// Opens the printed address → the session's `Cookie` header value (the code is spent).
    func signIn() async throws -> String {
        let reply = try await get(address)
        guard reply.status == 303, let set = reply.headers["Set-Cookie"].first, let pair = set.split(separator: ";").first else {
            throw ServerFailure.cli("opening the address answered \(reply.status)")
        }
        return String(pair)
    }
}

/// Two JSON documents are the same value (key order aside).
func sameJSON(_ a: Any?, _ b: Any?) -> Bool {
    guard let a, let b else { return a == nil && b == nil }
    return NSDictionary(dictionary: ["v": a]).isEqual(to: ["v": b])
}
