import Crypto
import Foundation
import SwiftASN1
import X509

/// A certificate chain made by the test (root → intermediate → leaf, P-256,
/// as the App Store's), and StoreKit 2 signed transactions made with it:
/// purchases a server can verify without Apple's network. Shared by the
/// server tests and the server benchmark's coach roster.
public struct StoreKitTestChain {
    public static let bundleId = "com.repledger.test"

    public let root: Certificate
    public let intermediate: Certificate
    public let leaf: Certificate
    public let leafKey: P256.Signing.PrivateKey

    /// `markers`: the leaf and the intermediate carry the store's certificate markers (Apple's do).
    public init(name: String = "RepLedger Test Root CA", markers: Bool = true) throws {
        let now = Date()
        let rootKey = P256.Signing.PrivateKey(), intermediateKey = P256.Signing.PrivateKey()
        leafKey = P256.Signing.PrivateKey()
        let rootName = try DistinguishedName { CommonName(name) }
        let intermediateName = try DistinguishedName { CommonName("\(name) Intermediate") }
        let leafName = try DistinguishedName { CommonName("\(name) StoreKit Signing") }
        let authority = try Certificate.Extensions { Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil)) }
        // The markers of Apple's chain (an ASN.1 NULL each): the WWDR intermediate's, and the receipt-signing leaf's.
        var intermediateExtensions = authority
        var leafExtensions = try Certificate.Extensions { BasicConstraints.notCertificateAuthority }
        if markers {
            try intermediateExtensions.append(Certificate.Extension(oid: [1, 2, 840, 113_635, 100, 6, 2, 1], critical: false, value: [0x05, 0x00]))
            try leafExtensions.append(Certificate.Extension(oid: [1, 2, 840, 113_635, 100, 6, 11, 1], critical: false, value: [0x05, 0x00]))
        }
        root = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: .init(rootKey.publicKey),
            notValidBefore: now - 86_400, notValidAfter: now + 3650 * 86_400, issuer: rootName, subject: rootName,
            signatureAlgorithm: .ecdsaWithSHA256, extensions: authority, issuerPrivateKey: .init(rootKey))
        intermediate = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: .init(intermediateKey.publicKey),
            notValidBefore: now - 86_400, notValidAfter: now + 3650 * 86_400, issuer: rootName,
            subject: intermediateName, signatureAlgorithm: .ecdsaWithSHA256, extensions: intermediateExtensions,
            issuerPrivateKey: .init(rootKey))
        leaf = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: .init(leafKey.publicKey),
            notValidBefore: now - 86_400, notValidAfter: now + 3650 * 86_400, issuer: intermediateName,
            subject: leafName, signatureAlgorithm: .ecdsaWithSHA256,
            extensions: leafExtensions,
            issuerPrivateKey: .init(intermediateKey))
    }

    /// Writes the root as PEM → its path, for `ledger serve --storekit-root`.
    public func writeRoot(in folder: URL) throws -> String {
        let path = folder.appendingPathComponent("storekit-root-\(UUID().uuidString.prefix(6)).pem").path
        try root.serializeAsPEM().pemString.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    public static func der(_ certificate: Certificate) throws -> String {
        var serializer = DER.Serializer()
        try serializer.serialize(certificate)
        return Data(serializer.serializedBytes).base64EncodedString()
    }

    public static func base64url(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// A signed transaction as StoreKit 2 writes one, of the App Store's Production environment unless
    /// `environment` says otherwise (nil: none named); `withoutRoot` leaves the root out of `x5c`;
    /// `edit` changes the payload after signing (a forgery).
    public func signedTransaction(
        id: String, product: String, original: String? = nil, bundleId: String = Self.bundleId, purchased: Date = Date() - 3600,
        expires: Date = Date() + 30 * 86_400, revoked: Date? = nil, environment: String? = "Production",
        appAccountToken: String? = nil, withoutRoot: Bool = false, edit: ((inout [String: Any]) -> Void)? = nil
    ) throws -> String {
        func ms(_ d: Date) -> Int64 { Int64(d.timeIntervalSince1970 * 1000) }
        let chain = [try Self.der(leaf), try Self.der(intermediate)] + (withoutRoot ? [] : [try Self.der(root)])
        let header: [String: Any] = ["alg": "ES256", "x5c": chain]
        var payload: [String: Any] = [
            "transactionId": id, "originalTransactionId": original ?? id, "bundleId": bundleId, "productId": product,
            "purchaseDate": ms(purchased), "expiresDate": ms(expires), "signedDate": ms(Date()),
            "type": "Auto-Renewable Subscription",
        ]
        if let environment { payload["environment"] = environment }
        if let appAccountToken { payload["appAccountToken"] = appAccountToken }
        if let revoked { payload["revocationDate"] = ms(revoked) }
        let head = Self.base64url(try JSONSerialization.data(withJSONObject: header, options: [.sortedKeys]))
        let body = Self.base64url(try JSONSerialization.data(withJSONObject: payload, options: [.sortedKeys]))
        let signature = try leafKey.signature(for: Data("\(head).\(body)".utf8)).rawRepresentation
        var signedPayload = body
        if let edit {
            edit(&payload)
            signedPayload = Self.base64url(try JSONSerialization.data(withJSONObject: payload, options: [.sortedKeys]))
        }
        return "\(head).\(signedPayload).\(Self.base64url(signature))"
    }
}
