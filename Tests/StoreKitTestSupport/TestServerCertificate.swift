import Crypto
import Foundation
import SwiftASN1
import X509

/// A self-signed certificate for a test server on loopback (127.0.0.1 and
/// localhost), with its key, written as PEM files for `ledger serve
/// --tls-cert/--tls-key`; a client trusts it by its PEM.
public struct TestServerCertificate: Sendable {
    public let certificatePEM: String
    public let keyPEM: String

    public init(name: String = "RepLedger test server") throws {
        let key = P256.Signing.PrivateKey()
        let subject = try DistinguishedName { CommonName(name) }
        let now = Date()
        let extensions = try Certificate.Extensions {
            Critical(BasicConstraints.notCertificateAuthority)
            SubjectAlternativeNames([.ipAddress(ASN1OctetString(contentBytes: [127, 0, 0, 1])), .dnsName("localhost")])
            try ExtendedKeyUsage([.serverAuth])
        }
        let certificate = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: .init(key.publicKey), notValidBefore: now - 3_600,
            notValidAfter: now + 86_400, issuer: subject, subject: subject, signatureAlgorithm: .ecdsaWithSHA256,
            extensions: extensions, issuerPrivateKey: .init(key))
        certificatePEM = try certificate.serializeAsPEM().pemString
        keyPEM = key.pemRepresentation
    }

    /// Writes both files into `folder` (replacing what is there) → their paths.
    @discardableResult
    public func write(in folder: URL) throws -> (certificate: String, key: String) {
        let certificate = folder.appendingPathComponent("server-cert.pem").path
        let key = folder.appendingPathComponent("server-key.pem").path
        try certificatePEM.write(toFile: certificate, atomically: true, encoding: .utf8)
        try keyPEM.write(toFile: key, atomically: true, encoding: .utf8)
        return (certificate, key)
    }
}
