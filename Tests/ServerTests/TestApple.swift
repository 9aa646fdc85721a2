import Crypto
import Foundation
import _CryptoExtras

/// The tests' own Sign in with Apple: an RSA key pair, its JWKS (what
/// `--apple-keys` reads), and identity tokens signed with it whose claims a
/// test chooses (an expired one, another app's, a forged one).
struct TestApple {
    let key: _RSA.Signing.PrivateKey
    let kid: String
    static let clientId = "org.repledger.tests"

    init(kid: String = "test-key-1") throws {
        key = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        self.kid = kid
    }

    static func base64url(_ bytes: some DataProtocol) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// `{"keys":[…]}` with this key's public half.
    func jwks() throws -> String {
        let p = try key.publicKey.getKeyPrimitives()
        return
            #"{"keys":[{"kty":"RSA","kid":"\#(kid)","use":"sig","alg":"RS256","n":"\#(Self.base64url(p.modulus))","e":"\#(Self.base64url(p.publicExponent))"}]}"#
    }

    /// Writes the JWKS to a file → its path.
    func writeJWKS(in folder: URL) throws -> String {
        let url = folder.appendingPathComponent("apple-\(kid).jwks")
        try jwks().write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    /// The SHA-256 in hex of a raw nonce: what the app gives Apple, and Apple puts in the token.
    static func hashed(_ nonce: String) -> String { SHA256.hash(data: Array(nonce.utf8)).map { String(format: "%02x", $0) }.joined() }

    /// A signed identity token for `subject`, made for the raw `nonce`.
    func token(
        subject: String, nonce: String, audience: String = clientId, issuer: String = "https://appleid.apple.com",
        issuedAt: Date = Date(), lifetime: TimeInterval = 600
    ) throws -> String {
        try token(subject: subject, nonceClaim: Self.hashed(nonce), audience: audience, issuer: issuer, issuedAt: issuedAt, lifetime: lifetime)
    }

    /// A signed identity token whose `nonce` claim is `nonceClaim` as given (what a web sign-in sent Apple).
    func token(
        subject: String, nonceClaim: String, audience: String = clientId, issuer: String = "https://appleid.apple.com",
        issuedAt: Date = Date(), lifetime: TimeInterval = 600
    ) throws -> String {
        let header = #"{"alg":"RS256","kid":"\#(kid)"}"#
        let iat = Int(issuedAt.timeIntervalSince1970), exp = iat + Int(lifetime)
        let claims =
            #"{"iss":"\#(issuer)","aud":"\#(audience)","exp":\#(exp),"iat":\#(iat),"sub":"\#(subject)","nonce":"\#(nonceClaim)","email":"\#(subject)@privaterelay.appleid.com"}"#
        let signed = Self.base64url(Data(header.utf8)) + "." + Self.base64url(Data(claims.utf8))
        let signature = try key.signature(for: Data(signed.utf8), padding: .insecurePKCS1v1_5)
        return signed + "." + Self.base64url(signature.rawRepresentation)
    }
}

/// The messages a server's `--mail-command` sent, one file each in a folder of the test's.
struct CapturedMail {
    let folder: URL

    init(in parent: URL) throws {
        folder = parent.appendingPathComponent("mail-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    /// The `--mail-command` that writes each message to a file of its own.
    var command: String { #"cat > "\#(folder.path)/$(date +%s%N)-$$.eml""# }

    /// Every message to `address`, oldest first.
    func messages(to address: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted().compactMap { name in
            let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            return text.hasPrefix("To: \(address)\r\n") ? text : nil
        }
    }

    /// The code in the `n`th message to `address` (the first by default), waited for: the server answers a code
    /// request at once and mails it from its queue, so the message may still be on its way (30 s at most).
    func code(to address: String, message n: Int = 1) throws -> String? {
        let deadline = Date().addingTimeInterval(30)
        while true {
            let all = try messages(to: address)
            // A message still being written has no code yet: wait for the whole of it.
            if all.count >= n, let range = all[n - 1].range(of: #"code is \d{6}"#, options: .regularExpression) {
                return String(all[n - 1][range].suffix(6))
            }
            if Date() > deadline { return nil }
            Thread.sleep(forTimeInterval: 0.05)
        }
    }

    /// Waits until `count` messages to `address` have arrived (30 s at most) → how many there are.
    func waitForMessages(to address: String, count: Int) throws -> Int {
        let deadline = Date().addingTimeInterval(30)
        while true {
            let n = try messages(to: address).count
            if n >= count || Date() > deadline { return n }
            Thread.sleep(forTimeInterval: 0.05)
        }
    }
}
