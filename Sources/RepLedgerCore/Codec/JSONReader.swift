/// Reads JSON text into a `JSONValue`, keeping object key order and the exact
/// numbers: integers stay integers, other numbers read back to the same
/// Double that `JSONWriter` wrote (shortest round-trip form). For restoring
/// backups and reading canonical lines, not a general-purpose parser.
public struct JSONReader {
    public enum Failure: Error, Equatable, CustomStringConvertible {
        case invalid(offset: Int, expected: String)
        public var description: String {
            switch self {
            case .invalid(let o, let e): return "invalid JSON at character \(o + 1): expected \(e)"
            }
        }
    }

    private let b: [UInt8]
    private var i = 0

    public static func parse(_ text: String) throws(Failure) -> JSONValue {
        var r = JSONReader(b: Array(text.utf8))
        r.skipSpace()
        let v = try r.value(depth: 0)
        r.skipSpace()
        guard r.i == r.b.count else { throw .invalid(offset: r.i, expected: "the end of the text") }
        return v
    }

    private init(b: [UInt8]) { self.b = b }

    private mutating func skipSpace() {
        while i < b.count, b[i] == 0x20 || b[i] == 0x0A || b[i] == 0x0D || b[i] == 0x09 { i += 1 }
    }

    private mutating func literal(_ word: String, _ v: JSONValue) throws(Failure) -> JSONValue {
        let w = Array(word.utf8)
        guard i + w.count <= b.count, Array(b[i..<(i + w.count)]) == w else { throw .invalid(offset: i, expected: word) }
        i += w.count
        return v
    }

    private mutating func value(depth: Int) throws(Failure) -> JSONValue {
        guard depth < 64, i < b.count else { throw .invalid(offset: i, expected: "a value") }
        switch b[i] {
        case 0x7B:  // {
            i += 1
            var pairs: [(String, JSONValue)] = []
            skipSpace()
            if i < b.count, b[i] == 0x7D { i += 1; return .object(pairs) }
            while true {
                skipSpace()
                guard i < b.count, b[i] == 0x22 else { throw .invalid(offset: i, expected: "a key") }
                let k = try string()
                skipSpace()
                guard i < b.count, b[i] == 0x3A else { throw .invalid(offset: i, expected: ":") }
                i += 1
                skipSpace()
                pairs.append((k, try value(depth: depth + 1)))
                skipSpace()
                guard i < b.count else { throw .invalid(offset: i, expected: "} or ,") }
                if b[i] == 0x2C { i += 1; continue }
                guard b[i] == 0x7D else { throw .invalid(offset: i, expected: "} or ,") }
                i += 1
                return .object(pairs)
            }
        case 0x5B:  // [
            i += 1
            var items: [JSONValue] = []
            skipSpace()
            if i < b.count, b[i] == 0x5D { i += 1; return .array(items) }
            while true {
                skipSpace()
                items.append(try value(depth: depth + 1))
                skipSpace()
                guard i < b.count else { throw .invalid(offset: i, expected: "] or ,") }
                if b[i] == 0x2C { i += 1; continue }
                guard b[i] == 0x5D else { throw .invalid(offset: i, expected: "] or ,") }
                i += 1
                return .array(items)
            }
        case 0x22: return .string(try string())
        case 0x74: return try literal("true", .bool(true))
        case 0x66: return try literal("false", .bool(false))
        case 0x6E: return try literal("null", .null)
        default: return try number()
        }
    }

    private mutating func number() throws(Failure) -> JSONValue {
        let start = i
        var integral = true
        while i < b.count {
            let c = b[i]
            if (c >= 0x30 && c <= 0x39) || c == 0x2D || c == 0x2B {
                i += 1
            } else if c == 0x2E || c == 0x65 || c == 0x45 {
                integral = false; i += 1
            } else {
                break
            }
        }
        let text = String(decoding: b[start..<i], as: UTF8.self)
        if integral, let v = Int64(text) { return .int(v) }
        guard let d = Double(text), d.isFinite else { throw .invalid(offset: start, expected: "a number") }
        return .number(d)
    }

    private mutating func string() throws(Failure) -> String {
        i += 1  // opening quote
        let start = i
        // Most strings hold no escape: found in one pass and copied once.
        while i < b.count {
            let c = b[i]
            if c == 0x22 {
                let text = String(decoding: b[start..<i], as: UTF8.self)
                i += 1
                return text
            }
            if c == 0x5C { break }
            i += 1
        }
        var out = Array(b[start..<i])
        while i < b.count {
            let c = b[i]
            if c == 0x22 { i += 1; return String(decoding: out, as: UTF8.self) }
            if c == 0x5C {
                guard i + 1 < b.count else { break }
                let e = b[i + 1]
                i += 2
                switch e {
                case 0x22: out.append(0x22)
                case 0x5C: out.append(0x5C)
                case 0x2F: out.append(0x2F)
                case 0x6E: out.append(0x0A)
                case 0x72: out.append(0x0D)
                case 0x74: out.append(0x09)
                case 0x62: out.append(0x08)
                case 0x66: out.append(0x0C)
                case 0x75:
                    var scalar = try hex4()
                    if (0xD800..<0xDC00).contains(scalar), i + 1 < b.count, b[i] == 0x5C, b[i + 1] == 0x75 {
                        i += 2
                        let low = try hex4()
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let u = Unicode.Scalar(scalar) else { throw .invalid(offset: i, expected: "a valid \\u escape") }
                    out.append(contentsOf: Array(String(Character(u)).utf8))
                default: throw .invalid(offset: i - 1, expected: "an escape")
                }
                continue
            }
            out.append(c)
            i += 1
        }
        throw .invalid(offset: i, expected: "a closing quote")
    }

    private mutating func hex4() throws(Failure) -> UInt32 {
        guard i + 4 <= b.count else { throw .invalid(offset: i, expected: "4 hex digits") }
        var v: UInt32 = 0
        for c in b[i..<(i + 4)] {
            v <<= 4
            switch c {
            case 0x30...0x39: v |= UInt32(c - 0x30)
            case 0x61...0x66: v |= UInt32(c - 0x61 + 10)
            case 0x41...0x46: v |= UInt32(c - 0x41 + 10)
            default: throw .invalid(offset: i, expected: "4 hex digits")
            }
        }
        i += 4
        return v
    }
}

// MARK: Reading in place

/// For decoders that know the shape they expect (a pushed batch's payloads):
/// values are read where they stand, without a tree of the document. Each
/// step reads exactly what `parse` would, so a decoder built on them that
/// falls back to `parse` on any failure answers as `parse` does.
extension JSONReader {
    /// A reader at the start of `bytes`.
    public init(utf8 bytes: [UInt8]) { self.init(b: bytes) }

    /// Where the next read starts: saved to read a value again another way.
    public var offset: Int {
        get { i }
        set { i = newValue }
    }

    /// Whether only whitespace is left.
    public mutating func atEnd() -> Bool {
        skipSpace()
        return i == b.count
    }

    /// Consumes `byte` (after whitespace) when it comes next.
    public mutating func take(_ byte: UInt8) -> Bool {
        skipSpace()
        guard i < b.count, b[i] == byte else { return false }
        i += 1
        return true
    }

    /// Consumes `byte` (after whitespace), else throws naming `what` was expected.
    public mutating func expect(_ byte: UInt8, _ what: String) throws(Failure) {
        guard take(byte) else { throw .invalid(offset: i, expected: what) }
    }

    /// Consumes the key `name` and its colon when they come next, written
    /// without escapes; leaves everything in place when they do not.
    public mutating func takeKey(_ name: StaticString) -> Bool {
        skipSpace()
        let n = name.utf8CodeUnitCount
        guard i + n + 2 <= b.count, b[i] == 0x22, b[i + n + 1] == 0x22 else { return false }
        let same = name.withUTF8Buffer { key in
            var k = 0
            while k < n, b[i + 1 + k] == key[k] { k += 1 }
            return k == n
        }
        guard same else { return false }
        let start = i
        i += n + 2
        guard take(0x3A) else { i = start; return false }
        return true
    }

    /// The key at the reader and its colon.
    public mutating func key() throws(Failure) -> String {
        skipSpace()
        guard i < b.count, b[i] == 0x22 else { throw .invalid(offset: i, expected: "a key") }
        let k = try string()
        try expect(0x3A, ":")
        return k
    }

    /// Reads the object at the reader: `member` is called with each key in
    /// turn, the reader at its value, and must read that value.
    public mutating func readObject(_ member: (String, inout JSONReader) throws -> Void) throws {
        try expect(0x7B, "{")
        if take(0x7D) { return }
        repeat { try member(try key(), &self) } while take(0x2C)
        try expect(0x7D, "} or ,")
    }

    /// Reads the array at the reader: `element` is called with the reader at each element, and must read it.
    public mutating func readArray(_ element: (inout JSONReader) throws -> Void) throws {
        try expect(0x5B, "[")
        if take(0x5D) { return }
        repeat { try element(&self) } while take(0x2C)
        try expect(0x5D, "] or ,")
    }

    /// Consumes `null` when it comes next.
    public mutating func takeNull() -> Bool {
        skipSpace()
        guard i + 4 <= b.count, b[i] == 0x6E, b[i + 1] == 0x75, b[i + 2] == 0x6C, b[i + 3] == 0x6C else { return false }
        i += 4
        return true
    }

    /// The value at the reader, as `parse` reads it (a scalar makes no
    /// tree); `depth` is how deep in the document it stands, so nesting is
    /// refused where `parse` refuses it.
    public mutating func readValue(depth: Int = 0) throws(Failure) -> JSONValue {
        skipSpace()
        return try value(depth: depth)
    }
}
