/// Appends the compact binary form: LEB128 varints (zigzag for signed),
/// little-endian IEEE doubles, length-prefixed UTF-8. No field names or tags:
/// a type's field order is its schema, and a change needs a new schema version.
public struct BinaryWriter: Sendable {
    public private(set) var bytes: [UInt8]

    public init(capacity: Int = 64) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    public mutating func writeVarint(_ value: UInt64) {
        var v = value
        while v >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: v) | 0x80)
            v >>= 7
        }
        bytes.append(UInt8(v))
    }

    public mutating func writeSigned(_ value: Int64) {
        writeVarint(UInt64(bitPattern: (value << 1) ^ (value >> 63)))
    }

    public mutating func writeByte(_ b: UInt8) { bytes.append(b) }

    public mutating func writeDouble(_ d: Double) {
        var bits = d.bitPattern.littleEndian
        withUnsafeBytes(of: &bits) { bytes.append(contentsOf: $0) }
    }

    public mutating func writeFixed64(_ v: UInt64) {
        var le = v.littleEndian
        withUnsafeBytes(of: &le) { bytes.append(contentsOf: $0) }
    }

    public mutating func writeString(_ s: String) {
        var s = s
        s.withUTF8 { utf8 in
            writeVarint(UInt64(utf8.count))
            bytes.append(contentsOf: utf8)
        }
    }

    public mutating func writeBytes<C: Collection>(_ raw: C) where C.Element == UInt8 {
        bytes.append(contentsOf: raw)
    }
}
