import AsyncHTTPClient
import Foundation
import LedgerTestSupport
import NIOSSL
import StoreKitTestSupport
import Testing

/// Issue 80's `ledger serve --tls-cert FILE --tls-key FILE`: HTTPS served by
/// the server itself (a phone off loopback gets a service worker only in a
/// secure context), the certificate read again on SIGHUP.
@Suite struct TLSServeTests {
    /// A client that trusts only `pem`; shut down by the caller.
    static func client(trusting pem: String) throws -> HTTPClient {
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.trustRoots = .certificates(try NIOSSLCertificate.fromPEMBytes(Array(pem.utf8)))
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: .init(tlsConfiguration: tls))
    }

    /// `GET /v1/health` over HTTPS → its status, nil when no answer came (a handshake refused).
    static func health(_ client: HTTPClient, port: Int) async -> Int? {
        do {
            let reply = try await client.execute(HTTPClientRequest(url: "https://127.0.0.1:\(port)/v1/health"), timeout: .seconds(10))
            return Int(reply.status.code)
        } catch {
            return nil
        }
    }

    /// The status a client that trusts only `pem` gets on a new connection.
    static func freshHealth(trusting pem: String, port: Int) async throws -> Int? {
        let client = try client(trusting: pem)
        let status = await health(client, port: port)
        try await client.shutdown()
        return status
    }

    @Test func httpsIsServedAndARenewedCertificateIsReadOnSIGHUP() async throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let first = try TestServerCertificate()
        let (certificate, key) = try first.write(in: cli.folder)
        let server = try ServerProcess(cli: cli, serveFlags: ["--tls-cert", certificate, "--tls-key", key])
        defer { _ = server.stop() }
        #expect(try await Self.freshHealth(trusting: first.certificatePEM, port: server.port) == 200)

        // Renewed in place, then SIGHUP: every handshake from then on presents the new certificate.
        let second = try TestServerCertificate()
        try second.write(in: cli.folder)
        server.send(SIGHUP)
        var renewed: Int?
        let deadline = Date().addingTimeInterval(30)
        while renewed != 200, Date() < deadline {
            renewed = try await Self.freshHealth(trusting: second.certificatePEM, port: server.port)
        }
        #expect(renewed == 200, "\(server.log)")
        #expect(try await Self.freshHealth(trusting: first.certificatePEM, port: server.port) == nil, "the old certificate is still presented")

        // A renewal that cannot be read keeps the certificate in use, and says so.
        try "not a certificate".write(toFile: certificate, atomically: true, encoding: .utf8)
        server.send(SIGHUP)
        let said = Date().addingTimeInterval(30)
        while !server.log.contains("the certificate in use stays"), Date() < said { try await Task.sleep(nanoseconds: 20_000_000) }
        #expect(server.log.contains("--tls-cert \(certificate): not a readable PEM certificate chain; the certificate in use stays"))
        #expect(try await Self.freshHealth(trusting: second.certificatePEM, port: server.port) == 200)
    }

    @Test func aCertificateWithoutItsKeyOrAnotherKeyIsRefusedInOneLine() throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let (certificate, _) = try TestServerCertificate().write(in: cli.folder)
        let otherKey = cli.folder.appendingPathComponent("other-key.pem").path
        try TestServerCertificate().keyPEM.write(toFile: otherKey, atomically: true, encoding: .utf8)
        let data = cli.folder.appendingPathComponent("server").path
        for (flags, words) in [
            (["--tls-cert", certificate], "--tls-cert and --tls-key go together"),
            (["--tls-cert", certificate, "--tls-key", otherKey], "is not the key of the certificate"),
            (["--tls-cert", otherKey, "--tls-key", otherKey], "not a readable PEM certificate chain"),
        ] {
            let out = try cli.run(["serve", "--listen", "127.0.0.1:0", "--data", data] + flags, useDbFlag: false)
            #expect(out.status == 2 && (out.stderr.split(separator: "\n").first ?? "").contains(words), "\(flags): \(out.stderr)")
        }
    }
}
