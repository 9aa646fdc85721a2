import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import RepLedgerAccounts
import RepLedgerService
import Testing

@testable import RepLedgerServer

/// Security round four, item 7, on a real loopback port: an account's devices are bounded, and names and addresses
/// hold nothing that misleads a reader (bidirectional overrides, C1 controls, line separators) nor, for an address,
/// a leading '-' a mail command could take for an option.
@Suite struct AccountBoundsTests {
    static func withServer(_ body: @Sendable (any TestClientProtocol, String) async throws -> Void) async throws {
        try await InProcessServer.with { server in try await server.live { client in try await body(client, server.token) } }
    }

    static func post(_ client: any TestClientProtocol, _ path: String, token: String?, _ body: [String: String]) async throws -> (Int, [String: Any])
    {
        var headers = HTTPFields()
        if let token { headers[.authorization] = "Bearer \(token)" }
        headers[.contentType] = "application/json"
        let data = try JSONSerialization.data(withJSONObject: body)
        return try await client.execute(uri: path, method: .post, headers: headers, body: ByteBuffer(bytes: data)) { response in
            let json = (try? JSONSerialization.jsonObject(with: Data(String(buffer: response.body).utf8))) as? [String: Any] ?? [:]
            return (Int(response.status.code), json)
        }
    }

    @Test("an account holds at most 100 devices in use: the next is refused until one is revoked")
    func devicesAreBounded() async throws {
        try await Self.withServer { client, token in
            var made: [String] = []
            for i in 1..<AccountDirectory.maximumDevices {
                let (status, json) = try await Self.post(client, "/v1/devices", token: token, ["device": "device \(i)"])
                #expect(status == 201, "device \(i): \(json)")
                if let id = json["tokenId"] as? String { made.append(id) }
            }
            let (refused, error) = try await Self.post(client, "/v1/devices", token: token, ["device": "one too many"])
            #expect(refused == 409 && (error["error"] as? [String: Any])?["code"] as? String == "deviceLimit", "\(error)")
            var headers = HTTPFields()
            headers[.authorization] = "Bearer \(token)"
            let revoked = try await client.execute(uri: "/v1/devices/\(made[0])", method: .delete, headers: headers) { Int($0.status.code) }
            #expect(revoked == 200)
            let again = try await Self.post(client, "/v1/devices", token: token, ["device": "in its place"])
            #expect(again.0 == 201)
        }
    }

    @Test("names and addresses that mislead a reader are refused in one line", arguments: ["\u{202E}", "\u{85}", "\u{2028}", "\u{2066}", "\u{7}"])
    func misleadingTextIsRefused(_ scalar: String) async throws {
        try await Self.withServer { client, token in
            let (device, refusal) = try await Self.post(client, "/v1/devices", token: token, ["device": "Lina\(scalar)enohp"])
            #expect(device == 400, "\(refusal)")
            let message = ((refusal["error"] as? [String: Any])?["message"] as? String) ?? ""
            #expect(!message.contains("\n") && !message.contains(scalar))
            let address = try await Self.post(client, "/v1/auth/email/start", token: nil, ["email": "lina\(scalar)@example.org"])
            #expect(address.0 == 400)
        }
    }

    @Test("an address may not begin with '-', and a plain one passes the same check")
    func addresses() async throws {
        try await Self.withServer { client, _ in
            let option = try await Self.post(client, "/v1/auth/email/start", token: nil, ["email": "-oProxyCommand=x@example.org"])
            #expect(option.0 == 400)
            // This server sends no mail: a well-formed address gets that far (501), past the address's check.
            let plain = try await Self.post(client, "/v1/auth/email/start", token: nil, ["email": "lina@example.org"])
            #expect(plain.0 == 501)
        }
    }
}
