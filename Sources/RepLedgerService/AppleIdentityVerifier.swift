import Crypto
import Foundation
import _CryptoExtras

/// Checks a Sign in with Apple identity token as Apple documents it, with
/// nothing asked of Apple's network: an RS256 JWT signed by one of the keys
/// in the JWKS the server is configured with (`--apple-keys`), issued by
/// `https://appleid.apple.com` for this app (`--apple-client-id`), unexpired,
/// and carrying the SHA-256 (hex) of the nonce the app made for this sign-in.
public struct AppleIdentityVerifier: Sendable {
    /// Who the token speaks for: Apple's stable user id for this app, and the address Apple gives (maybe a relay).
    public struct Identity: Sendable, Equatable {
        public var subject: String
        public var email: String?
    }

    public enum Failure: Error, Equatable, CustomStringConvertible {
        case keysUnreadable(String)
        case malformed(String)
        case unknownKey
        case badSignature
        case wrongIssuer
        case wrongAudience
        case expired
        case wrongNonce

        public var description: String {
            switch self {
            case .keysUnreadable(let why): return "--apple-keys: \(why)"
            case .malformed(let why): return "the identity token is not a JWT: \(why)"
            case .unknownKey: return "the identity token is signed with a key this server does not know"
            case .badSignature: return "the identity token's signature does not verify"
            case .wrongIssuer: return "the identity token was not issued by Apple"
            case .wrongAudience: return "the identity token is for another app"
            case .expired: return "the identity token has expired: sign in again"
            case .wrongNonce: return "the identity token was not made for this sign-in (its nonce differs)"
            }
        }
    }

    public static let issuer = "https://appleid.apple.com"
    /// Clocks differ: a token issued this far ahead of ours, or expired this little, still counts.
    static let skewSeconds: Int64 = 60

    let keys: [String: _RSA.Signing.PublicKey]
    public let clientId: String

    /// The keys of a JWKS document (`{"keys":[{"kty":"RSA","kid","n","e"},…]}`).
    public init(jwks: Data, clientId: String) throws(Failure) {
        guard let document = try? JSONSerialization.jsonObject(with: jwks) as? [String: Any], let list = document["keys"] as? [[String: Any]]
        else { throw .keysUnreadable(#"not a JWKS document ({"keys":[…]})"#) }
        var keys: [String: _RSA.Signing.PublicKey] = [:]
        for entry in list where entry["kty"] as? String == "RSA" {
            guard let kid = entry["kid"] as? String, let n = (entry["n"] as? String).flatMap(StoreKitVerifier.base64url),
                let e = (entry["e"] as? String).flatMap(StoreKitVerifier.base64url), let key = try? _RSA.Signing.PublicKey(n: n, e: e),
                // The initializer takes a 1024-bit modulus: the size is checked here, as NIST SP 800-131A asks.
                key.keySizeInBits >= 2048
            else { throw .keysUnreadable("a key lacks kid, n or e, or is not an RSA key of 2048 bits or more") }
            keys[kid] = key
        }
        guard !keys.isEmpty else { throw .keysUnreadable("it holds no RSA key") }
        guard !clientId.isEmpty else { throw .keysUnreadable("--apple-client-id names the app the tokens are for") }
        self.keys = keys
        self.clientId = clientId
    }

    /// A JWT part as canonical base64url (RFC 7515 §2: no padding, only `A–Z a–z 0–9 - _`, unused low bits zero):
    /// any other spelling of the same bytes is refused, so one token has one text.
    static func canonicalBase64url(_ text: String) -> [UInt8]? {
        guard text.utf8.count % 4 != 1,
            text.utf8.allSatisfy({ ($0 >= 65 && $0 <= 90) || ($0 >= 97 && $0 <= 122) || ($0 >= 48 && $0 <= 57) || $0 == 45 || $0 == 95 }),
            let bytes = StoreKitVerifier.base64url(text)
        else { return nil }
        let again = Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
        return again == text ? bytes : nil
    }

    /// The identity in `token`, made for the sign-in whose raw nonce is `nonce`, at `now` (seconds since 1970), and
    /// what the token is remembered by once used: its `jti`, else the SHA-256 of its decoded parts (never its text,
    /// which another spelling would change).
    public func verify(_ token: String, nonce: String, now: Int64) throws(Failure) -> (identity: Identity, expiresAt: Int64, replayKey: String) {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3, let headerBytes = Self.canonicalBase64url(parts[0]), let payloadBytes = Self.canonicalBase64url(parts[1]),
            let signature = Self.canonicalBase64url(parts[2])
        else { throw .malformed("not three canonical base64url parts") }
        guard let header = try? JSONSerialization.jsonObject(with: Data(headerBytes)) as? [String: Any],
            let claims = try? JSONSerialization.jsonObject(with: Data(payloadBytes)) as? [String: Any]
        else { throw .malformed("its header or claims are not a JSON object") }
        guard header["alg"] as? String == "RS256" else { throw .malformed("its algorithm is not RS256") }
        guard let kid = header["kid"] as? String, let key = keys[kid] else { throw .unknownKey }
        guard
            key.isValidSignature(
                _RSA.Signing.RSASignature(rawRepresentation: signature), for: Data((parts[0] + "." + parts[1]).utf8), padding: .insecurePKCS1v1_5)
        else { throw .badSignature }
        guard claims["iss"] as? String == Self.issuer else { throw .wrongIssuer }
        let audience = (claims["aud"] as? String).map { [$0] } ?? (claims["aud"] as? [String] ?? [])
        guard audience.contains(clientId) else { throw .wrongAudience }
        guard let exp = (claims["exp"] as? NSNumber)?.int64Value, now < exp + Self.skewSeconds,
            (claims["iat"] as? NSNumber).map({ $0.int64Value <= now + Self.skewSeconds }) ?? true
        else { throw .expired }
        let expected = SHA256.hash(data: Array(nonce.utf8)).map { String(format: "%02x", $0) }.joined()
        guard !nonce.isEmpty, let sent = claims["nonce"] as? String, sent == expected else { throw .wrongNonce }
        guard let subject = claims["sub"] as? String, !subject.isEmpty, subject.utf8.count <= 256 else { throw .malformed("it names no subject") }
        let decoded = SHA256.hash(data: headerBytes + [0] + payloadBytes + [0] + signature).map { String(format: "%02x", $0) }.joined()
        let replayKey = (claims["jti"] as? String).map { "jti:" + $0 } ?? "sha256:" + decoded
        return (Identity(subject: subject, email: claims["email"] as? String), exp, replayKey)
    }
}
