import Crypto
import Foundation

/// Where new ids come from: random in production, seeded for the demo and
/// tests so that the same script yields the same events (and so is idempotent).
public struct IdentifierSource: Sendable {
    private var generator: SplitMix?

    public static var random: IdentifierSource { IdentifierSource(generator: nil) }
    public static func seeded(_ seed: UInt64) -> IdentifierSource { IdentifierSource(generator: SplitMix(seed: seed)) }

    public mutating func next() -> UUID {
        guard generator != nil else { return UUID() }
        var bytes = [UInt8]()
        bytes.reserveCapacity(16)
        for _ in 0..<2 {
            withUnsafeBytes(of: generator!.next().littleEndian) { bytes.append(contentsOf: $0) }
        }
        return UUID.v4(bytes)
    }
}

extension UUID {
    /// A name-based id: the same name always gives the same UUID (for seeded data).
    public static func derived(from name: String) -> UUID {
        let digest = Array(SHA256.hash(data: Array("repledger:\(name)".utf8)))
        var b = Array(digest.prefix(16))
        b[6] = (b[6] & 0x0F) | 0x50 // version 5 layout (name-based)
        b[8] = (b[8] & 0x3F) | 0x80
        return fromBytes(b)
    }

    static func v4(_ raw: [UInt8]) -> UUID {
        var b = raw
        b[6] = (b[6] & 0x0F) | 0x40
        b[8] = (b[8] & 0x3F) | 0x80
        return fromBytes(b)
    }

    static func fromBytes(_ b: [UInt8]) -> UUID {
        UUID(uuid: (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]))
    }
}
