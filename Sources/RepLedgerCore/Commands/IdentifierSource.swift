import Crypto
import Foundation

/// Where new ids come from: random in production, seeded for the demo and
/// tests so that the same script yields the same events (and so is idempotent).
///
/// Event ids are UUID version 7 in production (a millisecond timestamp, then
/// random bits): new ids land at the end of the event-id index instead of at
/// random places in it, which doubled batched appends (71k to 155k inserts/s
/// with synchronous=FULL on this schema). Ids of things people type (workouts,
/// sets, templates) stay random version 4, so their short prefixes stay unique.
public struct IdentifierSource: Sendable {
    private var generator: SplitMix?
    /// For seeded sources whose event ids should still be time-ordered (imports, generated logs).
    private var orderedAt: Int64?
    /// Counts the ordered event ids made, so that ids made at one instant still ascend.
    private var sequence: Int64 = 0
    /// For `derived` sources: the name every id is derived from, and how many of each kind were made.
    private var name: String?
    private var madeIds = 0, madeEventIds = 0

    public static var random: IdentifierSource { IdentifierSource(generator: nil) }
    public static func seeded(_ seed: UInt64) -> IdentifierSource { IdentifierSource(generator: SplitMix(seed: seed)) }
    /// Deterministic like `seeded`, with time-ordered event ids at `millis`.
    public static func seeded(_ seed: UInt64, orderedAt millis: Int64) -> IdentifierSource {
        IdentifierSource(generator: SplitMix(seed: seed), orderedAt: millis)
    }

    /// Ids derived from `name`: the same name gives the same ids, and the k-th event id is
    /// `eventId(derivedFrom: name, k)` however many other ids were made between (an assistant's
    /// retried request finds what its first attempt stored by them).
    public static func derived(from name: String) -> IdentifierSource {
        var source = IdentifierSource(generator: nil)
        source.name = name
        return source
    }

    /// The `k`-th event id a `derived(from: name)` source makes.
    public static func eventId(derivedFrom name: String, _ k: Int) -> UUID { UUID.derived(from: "\(name)/event/\(k)") }

    /// An id for a workout, set, template, batch or command: version 4.
    public mutating func next() -> UUID {
        if let name {
            defer { madeIds += 1 }
            return UUID.derived(from: "\(name)/id/\(madeIds)")
        }
        guard generator != nil else { return UUID() }
        let a = generator!.next(), b = generator!.next()
        var bytes: [UInt8] = []
        bytes.reserveCapacity(16)
        withUnsafeBytes(of: a.littleEndian) { bytes.append(contentsOf: $0) }
        withUnsafeBytes(of: b.littleEndian) { bytes.append(contentsOf: $0) }
        return UUID.v4(bytes)
    }

    /// An event id: version 7 (time-ordered) unless the source is plainly seeded.
    public mutating func nextEventId() -> UUID {
        if let name {
            defer { madeEventIds += 1 }
            return Self.eventId(derivedFrom: name, madeEventIds)
        }
        if generator == nil {
            var random = SystemRandomNumberGenerator()
            return UUID.v7(millis: Timestamp.now().millis, random.next(), random.next())
        }
        guard let millis = orderedAt else { return next() }
        // RFC 9562's dedicated counter: 12 bits after the version, carrying into the milliseconds.
        let counter = UInt64(sequence & 0xFFF)
        let id = UUID.v7(millis: millis + sequence >> 12, (generator!.next() & ~0xFFF) | counter, generator!.next())
        sequence += 1
        return id
    }
}

extension UUID {
    /// A name-based id: the same name always gives the same UUID (for seeded data).
    public static func derived(from name: String) -> UUID {
        let digest = Array(SHA256.hash(data: Array("repledger:\(name)".utf8)))
        var b = Array(digest.prefix(16))
        b[6] = (b[6] & 0x0F) | 0x50  // version 5 layout (name-based)
        b[8] = (b[8] & 0x3F) | 0x80
        return fromBytes(b)
    }

    /// RFC 9562 version 7: 48 bits of Unix milliseconds, then 74 random bits.
    static func v7(millis: Int64, _ r1: UInt64, _ r2: UInt64) -> UUID {
        var b = [UInt8](repeating: 0, count: 16)
        let ms = UInt64(max(0, millis))
        for i in 0..<6 { b[i] = UInt8(truncatingIfNeeded: ms >> (8 * (5 - i))) }
        b[6] = UInt8(truncatingIfNeeded: r1 >> 8)  // the low 12 bits of r1 follow the version nibble, high byte first
        b[7] = UInt8(truncatingIfNeeded: r1)
        for i in 8..<16 { b[i] = UInt8(truncatingIfNeeded: r2 >> (8 * (i - 8))) }
        b[6] = (b[6] & 0x0F) | 0x70
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
