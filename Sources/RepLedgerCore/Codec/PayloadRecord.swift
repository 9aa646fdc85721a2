/// A record whose fields are listed once, in `fields(_:)`; that single list
/// drives binary encoding, binary decoding and canonical JSON alike, so a
/// type's wire format cannot drift between the three.
///
/// Fields have default values only so that a decoder can start from `init()`
/// and fill them in declaration order.
public protocol PayloadRecord: PayloadValue {
    init()
    mutating func fields<C: PayloadCoder>(_ c: inout C) throws
}

/// Visits one field: reads it, writes it or renders it.
public protocol PayloadCoder {
    mutating func field<T: PayloadValue>(_ name: StaticString, _ value: inout T) throws
}

struct FieldEncoder: PayloadCoder {
    var writer: BinaryWriter
    @inline(__always) mutating func field<T: PayloadValue>(_ name: StaticString, _ value: inout T) {
        value.encode(to: &writer)
    }
}

struct FieldDecoder: PayloadCoder {
    var reader: BinaryReader
    @inline(__always) mutating func field<T: PayloadValue>(_ name: StaticString, _ value: inout T) throws {
        value = try T(from: &reader)
    }
}

/// Names each field and its type, reading no value.
struct FieldLister: PayloadCoder {
    var fields: [EventCatalog.Entry.Field] = []
    mutating func field<T: PayloadValue>(_ name: StaticString, _ value: inout T) {
        fields.append(EventCatalog.Entry.Field(name: "\(name)", type: String(describing: T.self)))
    }
}

struct FieldJSONRenderer: PayloadCoder {
    var json: JSONWriter
    mutating func field<T: PayloadValue>(_ name: StaticString, _ value: inout T) {
        json.key(name)
        value.writeJSON(to: &json)
    }
}

extension PayloadRecord {
    @inline(__always)
    public init(from reader: inout BinaryReader) throws {
        self.init()
        var d = FieldDecoder(reader: reader)
        try fields(&d)
        reader = d.reader
    }

    public func encode(to writer: inout BinaryWriter) {
        var copy = self
        var e = FieldEncoder(writer: writer)
        // Encoding only reads fields; FieldEncoder never throws.
        try? copy.fields(&e)
        writer = e.writer
    }

    public func writeJSON(to json: inout JSONWriter) {
        var copy = self
        var r = FieldJSONRenderer(json: json)
        r.json.beginObject()
        try? copy.fields(&r)
        r.json.endObject()
        json = r.json
    }

    /// The binary form on its own.
    public var encodedBytes: [UInt8] {
        var w = BinaryWriter()
        encode(to: &w)
        return w.bytes
    }

    /// The canonical JSON text on its own.
    public var canonicalJSON: String {
        var j = JSONWriter()
        writeJSON(to: &j)
        return j.string
    }
}
