/// Why stored bytes could not be turned back into an event. Any of these on a
/// stored log means corruption or a build older than the log.
public enum CodecError: Error, Equatable, CustomStringConvertible {
    case truncated(offset: Int)
    case varintTooLong(offset: Int)
    case unknownEnumValue(type: String, value: String)
    case unknownEventType(code: Int)
    case unknownEventTypeName(String)
    case unsupportedSchema(type: String, schema: Int, current: Int)
    case trailingBytes(type: String, count: Int)
    case json(expected: String, found: String)

    public var description: String {
        switch self {
        case .truncated(let o): return "payload ends early at byte \(o)"
        case .varintTooLong(let o): return "malformed integer at byte \(o)"
        case .unknownEnumValue(let t, let v): return "unknown \(t) '\(v)'"
        case .unknownEventType(let c): return "unknown event type code \(c); is this ledger newer than this build?"
        case .unknownEventTypeName(let n): return "unknown event type '\(n)'"
        case .unsupportedSchema(let t, let s, let cur):
            return "\(t) schema \(s) is not readable by this build (current schema \(cur)); no upcaster is registered"
        case .trailingBytes(let t, let n): return "\(t) payload has \(n) unread trailing bytes"
        case .json(let expected, let found): return "expected \(expected), found \(found)"
        }
    }
}
