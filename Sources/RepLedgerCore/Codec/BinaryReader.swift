/// Reads the form `BinaryWriter` writes, straight from borrowed memory (a
/// SQLite blob during replay), so decoding copies nothing it does not keep.
/// Valid only while the memory it reads is.
public struct BinaryReader {
    @usableFromInline let base: UnsafeRawPointer?
    @usableFromInline let count: Int
    public private(set) var offset: Int = 0

    public init(_ buffer: UnsafeRawBufferPointer) {
        base = buffer.baseAddress
        count = buffer.count
    }

    public var remaining: Int { count - offset }
    public var isAtEnd: Bool { offset >= count }

    @inline(__always)
    public mutating func readByte() throws(CodecError) -> UInt8 {
        guard offset < count, let base else { throw .truncated(offset: offset) }
        let b = base.load(fromByteOffset: offset, as: UInt8.self)
        offset += 1
        return b
    }

    @inline(__always)
    public mutating func readVarint() throws(CodecError) -> UInt64 {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let b = try readByte()
            result |= UInt64(b & 0x7F) << shift
            if b < 0x80 { return result }
            shift += 7
            if shift > 63 { throw .varintTooLong(offset: offset) }
        }
    }

    @inline(__always)
    public mutating func readSigned() throws(CodecError) -> Int64 {
        let u = try readVarint()
        return Int64(bitPattern: (u >> 1) ^ (0 &- (u & 1)))
    }

    @inline(__always)
    public mutating func readFixed64() throws(CodecError) -> UInt64 {
        guard offset + 8 <= count, let base else { throw .truncated(offset: offset) }
        let v = base.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
        offset += 8
        return UInt64(littleEndian: v)
    }

    @inline(__always)
    public mutating func readDouble() throws(CodecError) -> Double {
        Double(bitPattern: try readFixed64())
    }

    public mutating func readRaw(_ n: Int) throws(CodecError) -> UnsafeRawBufferPointer {
        guard n >= 0, offset + n <= count, let base else {
            if n == 0 { return UnsafeRawBufferPointer(start: nil, count: 0) }
            throw .truncated(offset: offset)
        }
        let slice = UnsafeRawBufferPointer(start: base + offset, count: n)
        offset += n
        return slice
    }

    public mutating func readString() throws(CodecError) -> String {
        let n = Int(try readVarint())
        let raw = try readRaw(n)
        return String(decoding: raw, as: UTF8.self)
    }
}
