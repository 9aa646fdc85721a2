import Crypto
import Foundation
import RepLedgerCore
import SwiftASN1
import X509

/// Checks the App Store's signed transactions (StoreKit 2's JWS) against a
/// root certificate the server is configured to trust: the ES256 signature
/// over the header and payload with the leaf's key, each certificate of the
/// `x5c` chain signed by the next and valid when the transaction was signed,
/// the chain ending at the trusted root, and the app's bundle id. A server
/// counts a product that opens another account's data (Coach) only through
/// this; the network is never asked.
public final class StoreKitVerifier: @unchecked Sendable {
    public let root: Certificate
    public let bundleId: String
    private let lock = NSLock()
    private var verified: [String: Result<SignedTransaction, Failure>] = [:]

    /// What a verified JWS says of its transaction.
    public struct SignedTransaction: Sendable, Equatable {
        public var transactionId: String
        public var originalTransactionId: String
        public var productId: String
        public var purchaseDate: Timestamp
        public var expiresDate: Timestamp?
        public var revocationDate: Timestamp?

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

        public var description: String {
            switch self {
            case .malformed(let why): return "the signed transaction is malformed: \(why)"
            case .untrusted(let why): return "the signed transaction's certificates are not trusted: \(why)"
            case .badSignature: return "the signed transaction's signature does not verify"
            case .otherApp(let bundle): return "the signed transaction is another app's (\(bundle))"
            }
        }
    }

    /// `rootPath`: the trusted root certificate, PEM or DER (Apple's root CA G3 in production).
    public init(rootPath: String, bundleId: String) throws {
        guard let data = FileManager.default.contents(atPath: rootPath) else {
            throw Failure.untrusted("cannot read the root certificate \(rootPath)")
        }
        if let pem = String(data: data, encoding: .utf8), pem.contains("-----BEGIN CERTIFICATE-----") {
            root = try Certificate(pemEncoded: pem)
        } else {
            root = try Certificate(derEncoded: Array(data))
        }
        self.bundleId = bundleId
    }

    /// The transaction a JWS proves, or why it proves nothing. Results are kept by the JWS's bytes.
    public func verify(_ jws: String) -> Result<SignedTransaction, Failure> {
        if let known = lock.withLock({ verified[jws] }) { return known }
        let result: Result<SignedTransaction, Failure>
        do { result = .success(try check(jws)) } catch let failure as Failure { result = .failure(failure) } catch {
            result = .failure(.malformed("\(error)"))
        }
        lock.withLock { verified[jws] = result }
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
        guard let x5c = header["x5c"] as? [String], x5c.count >= 2 else { throw Failure.malformed("no certificate chain (x5c)") }
        let chain = try x5c.map { text -> Certificate in
            guard let der = Data(base64Encoded: text) else { throw Failure.malformed("a certificate of x5c is not base64") }
            return try Certificate(derEncoded: Array(der))
        }
        let signedAt = Self.date(payload["signedDate"]) ?? .now()
        try checkChain(chain, at: Date(timeIntervalSince1970: Double(signedAt.millis) / 1000))

        guard let key = P256.Signing.PublicKey(chain[0].publicKey),
            let ecdsa = try? P256.Signing.ECDSASignature(rawRepresentation: signature),
            key.isValidSignature(ecdsa, for: Data((parts[0] + "." + parts[1]).utf8))
        else { throw Failure.badSignature }

        let bundle = payload["bundleId"] as? String ?? ""
        guard bundle == bundleId else { throw Failure.otherApp(bundle) }
        guard let transactionId = Self.text(payload["transactionId"]), let productId = payload["productId"] as? String,
            let purchased = Self.date(payload["purchaseDate"])
        else {
            throw Failure.malformed("the payload lacks transactionId, productId or purchaseDate")
        }
        return SignedTransaction(
            transactionId: transactionId,
            originalTransactionId: Self.text(payload["originalTransactionId"]) ?? transactionId,
            productId: productId, purchaseDate: purchased, expiresDate: Self.date(payload["expiresDate"]),
            revocationDate: Self.date(payload["revocationDate"]))
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
