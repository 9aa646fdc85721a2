import Foundation
import Testing
import _CryptoExtras

@testable import RepLedgerServer

/// Security round four, item 7: `--apple-keys` takes RSA keys of 2048 bits or more, as Apple publishes them; a
/// JWKS with a 1024-bit key is refused when the server starts, in one line.
@Suite struct AppleKeysTests {
    static func jwks(bits: _RSA.Signing.KeySize) throws -> String {
        let key = try _RSA.Signing.PrivateKey(unsafeKeySize: bits)
        let p = try key.publicKey.getKeyPrimitives()
        func url(_ bytes: Data) -> String {
            bytes.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: "")
        }
        return #"{"keys":[{"kty":"RSA","kid":"k","use":"sig","alg":"RS256","n":"\#(url(p.modulus))","e":"\#(url(p.publicExponent))"}]}"#
    }

    @Test func aShortKeyIsRefusedAtStart() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("repledger-apple-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let short = folder.appendingPathComponent("short.jwks"), long = folder.appendingPathComponent("long.jwks")
        try Self.jwks(bits: .init(bitCount: 1024)).write(to: short, atomically: true, encoding: .utf8)
        try Self.jwks(bits: .bits2048).write(to: long, atomically: true, encoding: .utf8)
        do {
            _ = try LedgerServer.Settings.signIn(appleKeys: short.path, appleClientId: "org.example.app", mailCommand: nil)
            Issue.record("a 1024-bit key was taken")
        } catch {
            #expect("\(error)".contains("2048") && !"\(error)".contains("\n"), "\(error)")
        }
        #expect(try LedgerServer.Settings.signIn(appleKeys: long.path, appleClientId: "org.example.app", mailCommand: nil).apple != nil)
    }
}
