import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import RepLedgerCore

/// `ledger sync --sign-in`: a device signs in (or up) on a server with no
/// token yet, by an email code or an Apple identity token, and is given a
/// token of its own (`POST /v1/auth/…`, SERVER-CONTRACT.md's accounts section).
public struct SignInClient: Sendable {
    public let remote: String
    let client: HTTPClient

    public init(remote: String, client: HTTPClient) {
        self.remote = remote.hasSuffix("/") ? String(remote.dropLast()) : remote
        self.client = client
    }

    /// What a sign-in gives the device.
    public struct SignedIn: Sendable {
        public var accountId: String
        public var token: String
        public var created: Bool
    }

    /// Asks the server to mail a code to `email`.
    public func startEmail(_ email: String) async throws {
        _ = try await post(APIPath.emailSignInStart.path(), .object([("email", .string(email))]))
    }

    public func verifyEmail(_ email: String, code: String, device: String) async throws -> SignedIn {
        try Self.signedIn(
            try await post(
                APIPath.emailSignInVerify.path(), .object([("email", .string(email)), ("code", .string(code)), ("device", .string(device))])))
    }

    public func signInWithApple(identityToken: String, nonce: String, device: String) async throws -> SignedIn {
        try Self.signedIn(
            try await post(
                APIPath.appleSignIn.path(),
                .object([("identityToken", .string(identityToken)), ("nonce", .string(nonce)), ("device", .string(device))])))
    }

    static func signedIn(_ answer: JSONValue) throws -> SignedIn {
        guard case .string(let account)? = answer["accountId"], case .string(let token)? = answer["token"] else {
            throw SyncClient.Failure.malformedAnswer("a sign-in answered without accountId and token")
        }
        var created = false
        if case .bool(let b)? = answer["created"] { created = b }
        return SignedIn(accountId: account, token: token, created: created)
    }

    func post(_ path: String, _ body: JSONValue) async throws -> JSONValue {
        var request = HTTPClientRequest(url: remote + path)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.body = .bytes(ByteBuffer(string: body.rendered))
        let status: Int, text: String
        do {
            let response = try await client.execute(request, timeout: .seconds(60))
            status = Int(response.status.code)
            text = String(buffer: try await response.body.collect(upTo: 1 << 20))
        } catch {
            throw SyncClient.Failure.unreachable(remote, reason: "\(error)")
        }
        let answer = try? JSONReader.parse(text)
        guard (200..<300).contains(status) else {
            let (code, message) = SyncClient.codeAndMessage(answer?["error"], otherwise: "HTTP \(status)")
            throw SyncClient.Failure.refused(status: status, code: code, message: message)
        }
        guard let answer else { throw SyncClient.Failure.malformedAnswer("\(path) answered what is not JSON") }
        return answer
    }
}
