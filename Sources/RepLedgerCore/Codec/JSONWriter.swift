/// Writes canonical JSON: keys in the order the writer is given them (field
/// declaration order for payloads, so it never depends on a dictionary),
/// no insignificant white space, numbers in their shortest round-trip form
/// with integral values written without a fraction, and strings escaped
/// minimally (`"` `\` and control characters only; everything else as UTF-8).
public struct JSONWriter: Sendable {
    public private(set) var bytes: [UInt8] = []
    // One entry per open container: whether a value has been written in it.
    private var hasValue: [Bool] = []
    private var afterKey = false

    public init() { bytes.reserveCapacity(256) }

    public var string: String { String(decoding: bytes, as: UTF8.self) }

    private mutating func separate() {
        if afterKey { afterKey = false; return }
        if let last = hasValue.last {
            if last { bytes.append(0x2C) }
            hasValue[hasValue.count - 1] = true
        }
    }

    public mutating func beginObject() { separate(); bytes.append(0x7B); hasValue.append(false) }
    public mutating func endObject() { hasValue.removeLast(); bytes.append(0x7D) }
    public mutating func beginArray() { separate(); bytes.append(0x5B); hasValue.append(false) }
    public mutating func endArray() { hasValue.removeLast(); bytes.append(0x5D) }

    public mutating func key(_ name: StaticString) {
        separate()
        bytes.append(0x22)
        name.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(0x22); bytes.append(0x3A)
        afterKey = true
    }

    public mutating func key(_ name: String) {
        separate()
        appendQuoted(name)
        bytes.append(0x3A)
        afterKey = true
    }

    public mutating func null() { separate(); bytes.append(contentsOf: [0x6E, 0x75, 0x6C, 0x6C]) }
    public mutating func bool(_ b: Bool) { separate(); bytes.append(contentsOf: Array((b ? "true" : "false").utf8)) }
    public mutating func int(_ i: Int64) { separate(); bytes.append(contentsOf: Array(String(i).utf8)) }

    /// Non-finite numbers cannot occur in a validated log; they are written as null
    /// rather than producing invalid JSON.
    public mutating func number(_ d: Double) {
        guard d.isFinite else { null(); return }
        separate()
        bytes.append(contentsOf: Array((d == 0 ? "0" : d.formatted).utf8))
    }

    public mutating func string(_ s: String) { separate(); appendQuoted(s) }

    /// Inserts already-canonical JSON as one value.
    public mutating func raw(_ json: [UInt8]) { separate(); bytes.append(contentsOf: json) }

    /// Runs of bytes that need no escape are copied at once: almost every
    /// string in a log (ids, names, times) is one such run.
    private mutating func appendQuoted(_ s: String) {
        bytes.append(0x22)
        var text = s
        text.withUTF8 { utf8 in
            var start = 0
            for i in 0..<utf8.count {
                let b = utf8[i]
                guard b == 0x22 || b == 0x5C || b < 0x20 else { continue }
                if start < i { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<i])) }
                appendEscaped(b)
                start = i + 1
            }
            if start < utf8.count { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start...])) }
        }
        bytes.append(0x22)
    }

    private mutating func appendEscaped(_ b: UInt8) {
        switch b {
        case 0x22: bytes.append(0x5C); bytes.append(0x22)
        case 0x5C: bytes.append(0x5C); bytes.append(0x5C)
        case 0x0A: bytes.append(0x5C); bytes.append(0x6E)
        case 0x0D: bytes.append(0x5C); bytes.append(0x72)
        case 0x09: bytes.append(0x5C); bytes.append(0x74)
        default:
            let hex = Array("0123456789abcdef".utf8)
            bytes.append(contentsOf: [0x5C, 0x75, 0x30, 0x30, hex[Int(b >> 4)], hex[Int(b & 0xF)]])
        }
    }
}

/// A JSON document built in code, for CLI answers: objects keep key order.
public indirect enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case int(Int64)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])
    /// Already-canonical JSON text, embedded as is (an event's canonical line).
    case raw(String)

    public static func == (a: JSONValue, b: JSONValue) -> Bool { a.rendered == b.rendered }

    public func write(to w: inout JSONWriter) {
        switch self {
        case .null: w.null()
        case .bool(let b): w.bool(b)
        case .int(let i): w.int(i)
        case .number(let d): w.number(d)
        case .string(let s): w.string(s)
        case .array(let items):
            w.beginArray()
            for item in items { item.write(to: &w) }
            w.endArray()
        case .object(let pairs):
            w.beginObject()
            for (k, v) in pairs { w.key(k); v.write(to: &w) }
            w.endObject()
        case .raw(let json):
            w.raw(Array(json.utf8))
        }
    }

    public var rendered: String {
        var w = JSONWriter()
        write(to: &w)
        return w.string
    }

    public static func optional(_ s: String?) -> JSONValue { s.map(JSONValue.string) ?? .null }
    public static func optional(_ d: Double?) -> JSONValue { d.map(JSONValue.number) ?? .null }
    public static func optional(_ i: Int?) -> JSONValue { i.map { .int(Int64($0)) } ?? .null }
}
