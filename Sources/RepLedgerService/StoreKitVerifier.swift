import Crypto
import Foundation
import RepLedgerCore
import SwiftASN1
import X509

/// Checks the App Store's signed transactions (StoreKit 2's JWS) as Apple's
/// own verifier does, against a root certificate the server is configured to
/// trust: the ES256 signature over the header and payload with the leaf's
/// key; an `x5c` chain of exactly three certificates (leaf, intermediate,
/// root), each signed by the next and valid when the transaction was signed,
/// ending at the trusted root; the leaf's receipt-signing marker and the
/// intermediate's; the app's bundle id; and the store environment the server
/// serves. A server counts a product that opens another account's data
/// (Coach) only through this; the network is never asked.
public final class StoreKitVerifier: @unchecked Sendable {
    public let root: Certificate
    public let bundleId: String
    public let environment: Environment
    private let lock = NSLock()
    /// Verdicts by the SHA-256 of the JWS, at most `cacheLimit` of them.
    private var verified: [SHA256Digest: Result<SignedTransaction, Failure>] = [:]
    static let cacheLimit = 10_000
    /// A JWS the store signs is about 4 KB (three certificates and a payload); anything far larger is refused unread.
    public static let maximumBytes = 16 * 1024
    /// The leaf's marker of Apple's receipt-signing certificates, and the intermediate's (Apple's WWDR CA).
    static let leafMarker: ASN1ObjectIdentifier = [1, 2, 840, 113_635, 100, 6, 11, 1]
    static let intermediateMarker: ASN1ObjectIdentifier = [1, 2, 840, 113_635, 100, 6, 2, 1]

    /// The store environment whose transactions count: `Production` for the App Store, `Sandbox` for
    /// TestFlight and development; a transaction of any other (Xcode's own included) proves nothing.
    public enum Environment: String, Sendable, CaseIterable {
        case production = "Production"
        case sandbox = "Sandbox"
    }

    /// What a verified JWS says of its transaction.
    public struct SignedTransaction: Sendable, Equatable {
        public var transactionId: String
        public var originalTransactionId: String
        public var productId: String
        public var purchaseDate: Timestamp
        public var expiresDate: Timestamp?
        public var revocationDate: Timestamp?
        /// The app's own id for the buyer (StoreKit's `appAccountToken`), when the app set one.
        public var appAccountToken: String?

        /// Bought, not expired, not revoked at `t`.
        public func isActive(at t: Timestamp) -> Bool {
            purchaseDate <= t && (expiresDate.map { t < $0 } ?? true) && (revocationDate.map { t < $0 } ?? true)
        }
    }

    public enum Failure: Error, Equatable, CustomStringConvertible {
        case malformed(String)
        case untrusted(String)
        case badSignature
        case otherApp(String)
        case otherEnvironment(String)

        public var description: String {
            switch self {
            case .otherEnvironment(let environment):
                return
                    "the signed transaction is of the store's \(environment.isEmpty ? "unnamed" : environment) environment, not the one this server serves"
            case .malformed(let why): return "the signed transaction is malformed: \(why)"
            case .untrusted(let why): return "the signed transaction's certificates are not trusted: \(why)"
            case .badSignature: return "the signed transaction's signature does not verify"
            case .otherApp(let bundle): return "the signed transaction is another app's (\(bundle))"
            }
        }
    }

    /// `rootPath`: the trusted root certificate, PEM or DER (Apple's root CA G3 in production).
    public init(rootPath: String, bundleId: String, environment: Environment = .production) throws {
        guard let data = FileManager.default.contents(atPath: rootPath) else {
            throw Failure.untrusted("cannot read the root certificate \(rootPath)")
        }
        if let pem = String(data: data, encoding: .utf8), pem.contains("-----BEGIN CERTIFICATE-----") {
            root = try Certificate(pemEncoded: pem)
        } else {
            root = try Certificate(derEncoded: Array(data))
        }
        self.bundleId = bundleId
        self.environment = environment
    }

    /// The transaction a JWS proves, or why it proves nothing. Verdicts are kept by the JWS's hash, a bounded number of them.
    public func verify(_ jws: String) -> Result<SignedTransaction, Failure> {
        guard jws.utf8.count <= Self.maximumBytes else { return .failure(.malformed("it is over \(Self.maximumBytes >> 10) KB")) }
        let key = SHA256.hash(data: Data(jws.utf8))
        if let known = lock.withLock({ verified[key] }) { return known }
        let result: Result<SignedTransaction, Failure>
        do { result = .success(try check(jws)) } catch let failure as Failure { result = .failure(failure) } catch {
            result = .failure(.malformed("\(error)"))
        }
        lock.withLock {
            if verified.count >= Self.cacheLimit, let any = verified.keys.first { verified.removeValue(forKey: any) }
            verified[key] = result
        }
        return result
    }

    private func check(_ jws: String) throws -> SignedTransaction {
        let parts = jws.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3, let headerBytes = Self.base64url(parts[0]), let payloadBytes = Self.base64url(parts[1]),
            let signature = Self.base64url(parts[2])
        else { throw Failure.malformed("not three base64url parts") }
        guard let header = try? JSONSerialization.jsonObject(with: Data(headerBytes)) as? [String: Any],
            let payload = try? JSONSerialization.jsonObject(with: Data(payloadBytes)) as? [String: Any]
        else {
            throw Failure.malformed("the header or payload is not a JSON object")
        }
        guard header["alg"] as? String == "ES256" else { throw Failure.malformed("the algorithm is not ES256") }
        guard let x5c = header["x5c"] as? [String], x5c.count == 3 else {
            throw Failure.untrusted("the chain (x5c) is not three certificates: leaf, intermediate and root")
        }
        let chain = try x5c.map { text -> Certificate in
            guard let der = Data(base64Encoded: text) else { throw Failure.malformed("a certificate of x5c is not base64") }
            return try Certificate(derEncoded: Array(der))
        }
        let signedAt = Self.date(payload["signedDate"]) ?? .now()
        try checkChain(chain, at: Date(timeIntervalSince1970: Double(signedAt.millis) / 1000))
        guard chain[0].extensions[oid: Self.leafMarker] != nil else {
            throw Failure.untrusted("the leaf is not marked as the store's receipt-signing certificate")
        }
        guard chain[1].extensions[oid: Self.intermediateMarker] != nil else {
            throw Failure.untrusted("the intermediate is not marked as the store's certificate authority")
        }

        guard let key = P256.Signing.PublicKey(chain[0].publicKey),
            let ecdsa = try? P256.Signing.ECDSASignature(rawRepresentation: signature),
            key.isValidSignature(ecdsa, for: Data((parts[0] + "." + parts[1]).utf8))
        else { throw Failure.badSignature }

        let bundle = payload["bundleId"] as? String ?? ""
        guard bundle == bundleId else { throw Failure.otherApp(bundle) }
        let named = payload["environment"] as? String ?? ""
        guard named == environment.rawValue else { throw Failure.otherEnvironment(named) }
        guard let transactionId = Self.text(payload["transactionId"]), let productId = payload["productId"] as? String,
            let purchased = Self.date(payload["purchaseDate"])
        else {
            throw Failure.malformed("the payload lacks transactionId, productId or purchaseDate")
        }
        return SignedTransaction(
            transactionId: transactionId,
            originalTransactionId: Self.text(payload["originalTransactionId"]) ?? transactionId,
            productId: productId, purchaseDate: purchased, expiresDate: Self.date(payload["expiresDate"]),
            revocationDate: Self.date(payload["revocationDate"]), appAccountToken: payload["appAccountToken"] as? String)
    }

    /// Each certificate signed by the next, the intermediates certificate authorities, every one valid at `time`,
    /// and the chain ending at the trusted root (either included as the last, or as the issuer of the last).
    private func checkChain(_ chain: [Certificate], at time: Date) throws {
        var links = chain
        if links.last == root { links.removeLast() }
        let path = links + [root]
        for (i, certificate) in path.enumerated() {
            guard certificate.notValidBefore <= time, time <= certificate.notValidAfter else {
                throw Failure.untrusted("certificate \(i + 1) was not valid when the transaction was signed")
            }
            guard i + 1 < path.count else { break }
            let issuer = path[i + 1]
            guard certificate.issuer == issuer.subject, issuer.publicKey.isValidSignature(certificate.signature, for: certificate) else {
                throw Failure.untrusted("certificate \(i + 1) is not signed by the next one")
            }
            guard case .isCertificateAuthority? = try? issuer.extensions.basicConstraints else {
                throw Failure.untrusted("certificate \(i + 2) is not a certificate authority")
            }
        }
    }

    package static func base64url(_ text: String) -> [UInt8]? {
        var s = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while s.count % 4 != 0 { s += "=" }
        return Data(base64Encoded: s).map(Array.init)
    }

    /// Milliseconds since 1970, as StoreKit writes dates.
    package static func date(_ value: Any?) -> Timestamp? {
        guard let n = value as? NSNumber else { return nil }
        return Timestamp(millis: n.int64Value, offsetMinutes: 0)
    }

    package static func text(_ value: Any?) -> String? {
        if let s = value as? String { return s }
        if let n = value as? NSNumber { return n.stringValue }
        return nil
    }
}
