import Foundation

/// A value that can live in an event payload: it has one binary form (the
/// stored bytes) and one canonical JSON form (log, export, audit).
public protocol PayloadValue: Sendable, Equatable {
    init(from reader: inout BinaryReader) throws
    func encode(to writer: inout BinaryWriter)
    func writeJSON(to json: inout JSONWriter)
    /// Reads the canonical JSON form back (JSONL restore); see PayloadJSONReading.swift.
    init(json: JSONValue) throws
    /// Reads the canonical JSON form where it stands (a pushed batch), as
    /// `init(json:)` reads it; see PayloadJSONReading.swift.
    init(jsonReader: inout JSONReader) throws
}

extension Int: PayloadValue {
    @inline(__always) public init(from r: inout BinaryReader) throws { self = Int(try r.readSigned()) }
    public func encode(to w: inout BinaryWriter) { w.writeSigned(Int64(self)) }
    public func writeJSON(to j: inout JSONWriter) { j.int(Int64(self)) }
}

extension UInt64: PayloadValue {
    @inline(__always) public init(from r: inout BinaryReader) throws { self = try r.readVarint() }
    public func encode(to w: inout BinaryWriter) { w.writeVarint(self) }
    // As a string: JSON readers commonly lose integers above 2^53.
    public func writeJSON(to j: inout JSONWriter) { j.string(String(self)) }
}

extension Double: PayloadValue {
    @inline(__always) public init(from r: inout BinaryReader) throws { self = try r.readDouble() }
    public func encode(to w: inout BinaryWriter) { w.writeDouble(self) }
    public func writeJSON(to j: inout JSONWriter) { j.number(self) }
}

extension Bool: PayloadValue {
    @inline(__always) public init(from r: inout BinaryReader) throws { self = try r.readByte() != 0 }
    public func encode(to w: inout BinaryWriter) { w.writeByte(self ? 1 : 0) }
    public func writeJSON(to j: inout JSONWriter) { j.bool(self) }
}

extension String: PayloadValue {
    @inline(__always) public init(from r: inout BinaryReader) throws { self = try r.readString() }
    public func encode(to w: inout BinaryWriter) { w.writeString(self) }
    public func writeJSON(to j: inout JSONWriter) { j.string(self) }
}

extension UUID: PayloadValue {
    @inline(__always) public init(from r: inout BinaryReader) throws {
        let raw = try r.readRaw(16)
        var t: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &t) { $0.copyMemory(from: raw) }
        self = UUID(uuid: t)
    }
    public func encode(to w: inout BinaryWriter) { w.writeBytes(bytes16) }
    public func writeJSON(to j: inout JSONWriter) { j.string(lowercased) }

    /// The 16 bytes, as stored.
    public var bytes16: [UInt8] { withUnsafeBytes(of: uuid) { Array($0) } }
    /// Lower-case canonical text (Foundation prints upper case, through sprintf;
    /// this runs for every stream name, so it formats the bytes directly).
    public var lowercased: String {
        let hex: [UInt8] = Array("0123456789abcdef".utf8)
        return withUnsafeBytes(of: uuid) { raw in
            String(unsafeUninitializedCapacity: 36) { out in
                var o = 0
                for i in 0..<16 {
                    if i == 4 || i == 6 || i == 8 || i == 10 { out[o] = 0x2D; o += 1 }
                    out[o] = hex[Int(raw[i] >> 4)]
                    out[o + 1] = hex[Int(raw[i] & 0xF)]
                    o += 2
                }
                return o
            }
        }
    }
    /// The all-zero UUID, used only as the "not yet decoded" placeholder.
    public static let zero = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
}

extension Timestamp: PayloadValue {
    @inline(__always) public init(from r: inout BinaryReader) throws {
        self.init(millis: try r.readSigned(), offsetMinutes: Int(try r.readSigned()))
    }
    public func encode(to w: inout BinaryWriter) {
        w.writeSigned(millis)
        w.writeSigned(Int64(offsetMinutes))
    }
    public func writeJSON(to j: inout JSONWriter) { j.string(iso8601) }
}

/// Optionals carry a presence byte.
extension Optional: PayloadValue where Wrapped: PayloadValue {
    @inline(__always) public init(from r: inout BinaryReader) throws {
        self = try r.readByte() == 0 ? nil : try Wrapped(from: &r)
    }
    public func encode(to w: inout BinaryWriter) {
        if let v = self { w.writeByte(1); v.encode(to: &w) } else { w.writeByte(0) }
    }
    public func writeJSON(to j: inout JSONWriter) {
        if let v = self { v.writeJSON(to: &j) } else { j.null() }
    }
}

/// Arrays carry a count.
extension Array: PayloadValue where Element: PayloadValue {
    public init(from r: inout BinaryReader) throws {
        let n = Int(try r.readVarint())
        guard n <= r.remaining else { throw CodecError.truncated(offset: r.offset) }
        self.init()
        reserveCapacity(n)
        for _ in 0..<n { append(try Element(from: &r)) }
    }
    public func encode(to w: inout BinaryWriter) {
        w.writeVarint(UInt64(count))
        for e in self { e.encode(to: &w) }
    }
    public func writeJSON(to j: inout JSONWriter) {
        j.beginArray()
        for e in self { e.writeJSON(to: &j) }
        j.endArray()
    }
}

/// A closed vocabulary stored by its raw string, so reordering or adding
/// cases never changes the meaning of stored bytes.
public protocol PayloadEnum: PayloadValue, RawRepresentable, CaseIterable where RawValue == String {}

extension PayloadEnum {
    public init(from r: inout BinaryReader) throws {
        let raw = try r.readString()
        guard let v = Self(rawValue: raw) else {
            throw CodecError.unknownEnumValue(type: String(describing: Self.self), value: raw)
        }
        self = v
    }
    public func encode(to w: inout BinaryWriter) { w.writeString(rawValue) }
    public func writeJSON(to j: inout JSONWriter) { j.string(rawValue) }
}
