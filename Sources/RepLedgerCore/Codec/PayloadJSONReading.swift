import Foundation

// The way back from canonical JSON to payload values, for restoring a JSONL
// backup. Each reader accepts exactly what the matching `writeJSON` writes,
// so a restored event re-encodes to the same bytes and the same hash.

extension JSONValue {
    var kindName: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .int, .number: return "a number"
        case .string(let s): return "\"\(s.prefix(40))\""
        case .array: return "an array"
        case .object: return "an object"
        case .raw: return "raw JSON"
        }
    }

    func string(_ what: String) throws -> String {
        guard case .string(let s) = self else { throw CodecError.json(expected: what, found: kindName) }
        return s
    }
}

extension PayloadValue {
    public init(json: JSONValue) throws {
        throw CodecError.json(expected: "no JSON form for \(Self.self)", found: json.kindName)
    }

    /// The value read as a (small) tree: a scalar makes none. Records, their
    /// arrays and optionals read in place below.
    public init(jsonReader: inout JSONReader) throws { try self.init(json: try jsonReader.readValue()) }
}

extension Int {
    public init(json: JSONValue) throws {
        guard case .int(let v) = json, let i = Int(exactly: v) else { throw CodecError.json(expected: "an integer", found: json.kindName) }
        self = i
    }
}

extension UInt64 {
    public init(json: JSONValue) throws {
        guard let v = UInt64(try json.string("an unsigned integer in a string")) else {
            throw CodecError.json(expected: "an unsigned integer in a string", found: json.kindName)
        }
        self = v
    }
}

extension Double {
    public init(json: JSONValue) throws {
        switch json {
        case .int(let v): self = Double(v)
        case .number(let v): self = v
        default: throw CodecError.json(expected: "a number", found: json.kindName)
        }
    }
}

extension Bool {
    public init(json: JSONValue) throws {
        guard case .bool(let v) = json else { throw CodecError.json(expected: "true or false", found: json.kindName) }
        self = v
    }
}

extension String {
    public init(json: JSONValue) throws { self = try json.string("a string") }
}

extension UUID {
    public init(json: JSONValue) throws {
        let s = try json.string("a UUID")
        guard let u = UUID.parse(s) else { throw CodecError.json(expected: "a UUID", found: json.kindName) }
        self = u
    }
}

extension Timestamp {
    public init(json: JSONValue) throws {
        let s = try json.string("an ISO 8601 time")
        // Canonical times always carry their offset, so the default offset is never used.
        guard let t = Timestamp.parseISO8601(s, defaultOffsetMinutes: 0) else {
            throw CodecError.json(expected: "an ISO 8601 time", found: json.kindName)
        }
        self = t
    }
}

extension Optional {
    public init(json: JSONValue) throws {
        if case .null = json { self = nil; return }
        guard let wrapped = Wrapped.self as? any PayloadValue.Type else { throw CodecError.json(expected: "a value", found: json.kindName) }
        self = .some(try wrapped.init(json: json) as! Wrapped)
    }
}

extension Optional where Wrapped: PayloadValue {
    public init(jsonReader: inout JSONReader) throws {
        self = jsonReader.takeNull() ? nil : try Wrapped(jsonReader: &jsonReader)
    }
}

extension Array where Element: PayloadValue {
    public init(jsonReader: inout JSONReader) throws {
        var items: [Element] = []
        try jsonReader.readArray { items.append(try Element(jsonReader: &$0)) }
        self = items
    }
}

extension Array {
    public init(json: JSONValue) throws {
        guard case .array(let items) = json, let element = Element.self as? any PayloadValue.Type else {
            throw CodecError.json(expected: "an array", found: json.kindName)
        }
        self = try items.map { try element.init(json: $0) as! Element }
    }
}

extension PayloadEnum {
    public init(json: JSONValue) throws {
        // The list of allowed values is built only for the error: reading a log decodes many enums.
        guard case .string(let raw) = json else {
            throw CodecError.json(expected: "one of \(Self.allCases.map(\.rawValue))", found: json.kindName)
        }
        guard let v = Self(rawValue: raw) else { throw CodecError.unknownEnumValue(type: String(describing: Self.self), value: raw) }
        self = v
    }
}

/// Fills a record's fields from a JSON object, by name, refusing missing and unknown keys.
///
/// Canonical JSON lists a record's fields in the order they are read, so
/// each is looked for first where the last one was found; any other order is
/// read too, by a search of the object's (few) keys. No dictionary is built:
/// a push or a pull reads thousands of payloads.
struct FieldJSONReader: PayloadCoder {
    let pairs: [(String, JSONValue)]
    var next = 0
    var used = 0

    init(pairs: [(String, JSONValue)]) { self.pairs = pairs }

    mutating func field<T: PayloadValue>(_ name: StaticString, _ value: inout T) throws {
        let key = name.description
        let found: JSONValue
        if next < pairs.count, pairs[next].0 == key {
            found = pairs[next].1
            next += 1
        } else if let i = pairs.firstIndex(where: { $0.0 == key }) {
            found = pairs[i].1
            next = i + 1
        } else {
            throw CodecError.json(expected: "the field \"\(key)\"", found: "no such key")
        }
        value = try T(json: found)
        used += 1
    }
}

extension PayloadRecord {
    public init(json: JSONValue) throws {
        guard case .object(let pairs) = json else { throw CodecError.json(expected: "an object", found: json.kindName) }
        self.init()
        var r = FieldJSONReader(pairs: pairs)
        try fields(&r)
        // Each field is read once, so a key given twice (or unknown) leaves a key unread.
        guard r.used == pairs.count else {
            throw CodecError.json(expected: "only the fields of \(Self.self)", found: "\(pairs.count - r.used) other keys")
        }
    }
}

/// Fills a record's fields from the object at a reader, in the order the
/// record lists them (canonical JSON's order); any other shape throws, and
/// the record reads the object again as a tree.
struct FieldPullReader: PayloadCoder {
    var reader: JSONReader
    var first = true

    struct OtherShape: Error {}

    mutating func field<T: PayloadValue>(_ name: StaticString, _ value: inout T) throws {
        if !first { try reader.expect(0x2C, ",") }
        first = false
        guard reader.takeKey(name) else { throw OtherShape() }
        value = try T(jsonReader: &reader)
    }
}

extension PayloadRecord {
    /// Canonical order read in place; anything else (keys in another order,
    /// a key unknown, missing or repeated, a value of the wrong kind) is read
    /// again by `init(json:)`, which accepts the same or throws its error.
    public init(jsonReader: inout JSONReader) throws {
        let start = jsonReader.offset
        do {
            try jsonReader.expect(0x7B, "an object")
            self.init()
            var pull = FieldPullReader(reader: jsonReader)
            try fields(&pull)
            jsonReader = pull.reader
            try jsonReader.expect(0x7D, "}")
        } catch {
            jsonReader.offset = start
            try self.init(json: try jsonReader.readValue())
        }
    }
}
