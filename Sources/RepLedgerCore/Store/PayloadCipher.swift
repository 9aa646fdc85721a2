import CCryptoBoringSSL
import Crypto
import Foundation

/// Seals what a server stores of one account (event payloads, snapshot
/// states) with AES-256-GCM under the account's own key, so that erasing the
/// key leaves every copy of the rows (WAL, replica, old backup) unreadable.
///
/// Only the bytes at rest change: the hash chain covers the plaintext, so a
/// device and the server hold the same chain and `verify` decrypts to check.
/// A sealed value is `format (1 byte) | nonce (12) | ciphertext | tag (16)`:
/// standard AES-GCM, which `Crypto`'s `AES.GCM.open` opens too (a test holds
/// it to that). Nonces are random: rows are never rewritten, but a
/// rolled-back append may be retried with other content at the same
/// position, and a counter or a position as nonce would then repeat.
///
/// The work is swift-crypto's BoringSSL, through its C module: `AES.GCM`
/// builds a cipher context (key schedule, GHASH table) and four buffers for
/// every call, which made a replay 2.3× slower; here one context per key is
/// reused and nothing is allocated per event (see Benchmarks/README).
public struct PayloadCipher: Sendable {
    /// The first byte of a sealed value: AES-256-GCM with a 96-bit random
    /// nonce. Another format (a rotated key, another cipher) gets another byte.
    public static let aesGCM: UInt8 = 1
    static let nonceBytes = 12
    static let tagBytes = 16
    /// Bytes a sealed value adds to its plaintext.
    public static let overhead = 1 + nonceBytes + tagBytes
    public static let keyBytes = 32

    let context: Context

    /// A cipher over a 256-bit key.
    public init(key bytes: [UInt8]) throws {
        guard bytes.count == Self.keyBytes else { throw Failure.badKey(bytes.count) }
        context = try Context(key: bytes)
    }

    /// A fresh random 256-bit key.
    public static func newKey() -> [UInt8] {
        SymmetricKey(size: .bits256).withUnsafeBytes { Array($0) }
    }

    public enum Failure: Error, Equatable, CustomStringConvertible {
        case badKey(Int)
        case unsealed(String)
        case sealing

        public var description: String {
            switch self {
            case .badKey(let n): return "an account key is 32 bytes, this one has \(n)"
            case .unsealed(let why): return "cannot be decrypted with the account's key (\(why))"
            case .sealing: return "the payload could not be encrypted"
            }
        }
    }

    /// The sealed form of `plaintext`, bound to `context` (an event id, a
    /// snapshot's checksum): a sealed value copied under another context
    /// does not open.
    public func seal(_ plaintext: [UInt8], context bound: [UInt8]) throws -> [UInt8] {
        let total = plaintext.count + Self.overhead
        var ok = false
        let out = [UInt8](unsafeUninitializedCapacity: total) { buffer, count in
            buffer[0] = Self.aesGCM
            // BoringSSL's generator (seeded from the kernel, one system call per
            // refill): the system generator took twelve system calls a nonce.
            guard CCryptoBoringSSL_RAND_bytes(buffer.baseAddress! + 1, Self.nonceBytes) == 1 else { count = 0; return }
            var written = 0
            ok =
                plaintext.withUnsafeBufferPointer { p in
                    bound.withUnsafeBufferPointer { ad in
                        CCryptoBoringSSL_EVP_AEAD_CTX_seal(
                            self.context.pointer, buffer.baseAddress! + 1 + Self.nonceBytes, &written, total - 1 - Self.nonceBytes,
                            buffer.baseAddress! + 1, Self.nonceBytes, p.baseAddress, p.count, ad.baseAddress, ad.count) == 1
                    }
                } && written == plaintext.count + Self.tagBytes
            count = ok ? total : 0
        }
        guard ok else {
            CCryptoBoringSSL_ERR_clear_error()
            throw Failure.sealing
        }
        return out
    }

    /// Opens a sealed value and calls `body` with the plaintext (valid during the call only).
    public func open<T>(
        _ sealed: UnsafeRawBufferPointer, context bound: UnsafeRawBufferPointer,
        _ body: (UnsafeRawBufferPointer) throws -> T
    ) throws -> T {
        guard sealed.count >= Self.overhead else { throw Failure.unsealed("\(sealed.count) bytes are too short to be sealed") }
        guard sealed[0] == Self.aesGCM else { throw Failure.unsealed("unknown format \(sealed[0])") }
        let base = sealed.baseAddress!.assumingMemoryBound(to: UInt8.self)
        let inputCount = sealed.count - 1 - Self.nonceBytes
        // Small payloads (nearly all) open on the stack: no allocation per event.
        return try withUnsafeTemporaryAllocation(byteCount: max(1, inputCount), alignment: 16) { out in
            var written = 0
            let ok =
                CCryptoBoringSSL_EVP_AEAD_CTX_open(
                    context.pointer, out.baseAddress!.assumingMemoryBound(to: UInt8.self), &written, inputCount,
                    base + 1, Self.nonceBytes, base + 1 + Self.nonceBytes, inputCount,
                    bound.baseAddress?.assumingMemoryBound(to: UInt8.self), bound.count) == 1
            guard ok else {
                CCryptoBoringSSL_ERR_clear_error()  // BoringSSL queues the failure per thread
                throw Failure.unsealed("authentication failed: another key, or altered bytes")
            }
            return try body(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(out)[0..<written]))
        }
    }

    public func open<T>(_ sealed: UnsafeRawBufferPointer, context bound: [UInt8], _ body: (UnsafeRawBufferPointer) throws -> T) throws -> T {
        try bound.withUnsafeBytes { try open(sealed, context: $0, body) }
    }

    public func open(_ sealed: [UInt8], context bound: [UInt8]) throws -> [UInt8] {
        try sealed.withUnsafeBytes { s in try bound.withUnsafeBytes { b in try open(s, context: b) { Array($0) } } }
    }

    /// One BoringSSL AES-256-GCM context per key. Sealing and opening take it
    /// read-only, so threads may share it.
    final class Context: @unchecked Sendable {
        let pointer: UnsafeMutablePointer<EVP_AEAD_CTX>

        init(key: [UInt8]) throws {
            guard
                let made = key.withUnsafeBufferPointer({
                    CCryptoBoringSSL_EVP_AEAD_CTX_new(CCryptoBoringSSL_EVP_aead_aes_256_gcm(), $0.baseAddress, $0.count, PayloadCipher.tagBytes)
                })
            else { throw Failure.badKey(key.count) }
            pointer = made
        }

        deinit { CCryptoBoringSSL_EVP_AEAD_CTX_free(pointer) }
    }
}
