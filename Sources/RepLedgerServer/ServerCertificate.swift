import Dispatch
import Foundation
import HummingbirdTLS
import Logging
import NIOCore
import NIOSSL

/// `ledger serve --tls-cert FILE --tls-key FILE`: the server's certificate
/// chain and key, read from their PEM files at start and again on SIGHUP,
/// so a renewed certificate (certbot's, an ACME client's) takes effect
/// without a restart: every handshake after the reload presents it, and
/// connections already open keep theirs. A reload that cannot read the
/// files keeps the certificate in use and says why in the log.
public final class ServerCertificate: @unchecked Sendable {
    public let certificatePath: String
    public let keyPath: String
    private let lock = NSLock()
    private var chain: [NIOSSLCertificate]
    private var key: NIOSSLPrivateKey
    private var hangups: DispatchSourceSignal?

    /// What stops the files from being used, in one line.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Reads both files; throws `Failure` when either is missing, is not PEM, or the key is not the certificate's.
    public init(certificatePath: String, keyPath: String) throws {
        self.certificatePath = certificatePath
        self.keyPath = keyPath
        (chain, key) = try Self.read(certificatePath: certificatePath, keyPath: keyPath)
    }

    static func read(certificatePath: String, keyPath: String) throws -> ([NIOSSLCertificate], NIOSSLPrivateKey) {
        let chain: [NIOSSLCertificate]
        do { chain = try NIOSSLCertificate.fromPEMFile(certificatePath) } catch {
            throw Failure(description: "--tls-cert \(certificatePath): not a readable PEM certificate chain")
        }
        guard !chain.isEmpty else { throw Failure(description: "--tls-cert \(certificatePath): holds no certificate") }
        let key: NIOSSLPrivateKey
        do { key = try NIOSSLPrivateKey(file: keyPath, format: .pem) } catch {
            throw Failure(description: "--tls-key \(keyPath): not a readable PEM private key")
        }
        // A key that is not the certificate's would fail every handshake: refuse it here, in one line.
        do {
            var check = TLSConfiguration.makeServerConfiguration(certificateChain: chain.map { .certificate($0) }, privateKey: .privateKey(key))
            check.minimumTLSVersion = .tlsv12
            _ = try NIOSSLContext(configuration: check)
        } catch {
            throw Failure(description: "--tls-key \(keyPath) is not the key of the certificate in \(certificatePath)")
        }
        return (chain, key)
    }

    /// Reads the files again; on failure the certificate in use stays.
    public func reload() throws {
        let (chain, key) = try Self.read(certificatePath: certificatePath, keyPath: keyPath)
        lock.withLock { (self.chain, self.key) = (chain, key) }
    }

    /// The server's TLS configuration: TLS 1.2 and later, and each handshake given the chain and key in use then.
    public func configuration() -> TLSConfiguration {
        let (chain, key) = lock.withLock { (self.chain, self.key) }
        var tls = TLSConfiguration.makeServerConfiguration(certificateChain: chain.map { .certificate($0) }, privateKey: .privateKey(key))
        tls.minimumTLSVersion = .tlsv12
        tls.sslContextCallback = { [weak self] _, promise in
            guard let self else { return promise.succeed(.noChanges) }
            let (chain, key) = self.lock.withLock { (self.chain, self.key) }
            var current = NIOSSLContextConfigurationOverride()
            current.certificateChain = chain.map { .certificate($0) }
            current.privateKey = .privateKey(key)
            promise.succeed(current)
        }
        return tls
    }

    /// Reloads on every SIGHUP from now on, saying in the log what it did.
    public func reloadOnHangup(logger: Logger) {
        signal(SIGHUP, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: SIGHUP, queue: .global())
        source.setEventHandler { [weak self] in
            guard let self else { return }
            do {
                try self.reload()
                logger.notice("SIGHUP: the TLS certificate is read again from \(self.certificatePath)")
            } catch {
                logger.error("SIGHUP: \(error); the certificate in use stays")
            }
        }
        source.resume()
        hangups = source
    }
}
