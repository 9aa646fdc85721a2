import Foundation

/// The whole log as canonical JSON lines (the lines of `ledger log`): the
/// backup, the audit hand-off and the way to move a ledger between machines.
/// Restoring into an empty file reproduces every event with its position,
/// times and hash; a line whose content does not give its recorded hash
/// stops the restore, and nothing is kept.
public enum JSONLBackup {
    /// Writes every event, one line each, through `write`; returns the count.
    @discardableResult
    public static func export(_ store: SQLiteEventStore, write: (String) throws -> Void) throws -> Int {
        var n = 0
        var buffer = ""
        buffer.reserveCapacity(1 << 16)
        try store.read(SQLiteEventStore.Query()) { e in
            buffer += e.canonicalJSON
            buffer += "\n"
            n += 1
            if buffer.utf8.count >= 1 << 16 { try write(buffer); buffer = "" }
        }
        if !buffer.isEmpty { try write(buffer) }
        return n
    }

    public struct Restored: Sendable, Equatable {
        public var events: Int
        public var headHash: String
    }

    public static func restore(_ text: String, into store: SQLiteEventStore) throws -> Restored {
        let head = try store.headPosition()
        guard head == 0 else { throw ImportError.notEmpty(events: head) }
        var lines: [(number: Int, event: Line)] = []
        var number = 0
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            number += 1
            let line = raw.hasSuffix("\r") ? raw.dropLast() : raw
            if line.allSatisfy({ $0 == " " || $0 == "\t" }) { continue }
            do {
                lines.append((number, try Line(parsing: String(line))))
            } catch let e as ImportError {
                throw e
            } catch {
                throw ImportError.malformedLine(line: number, reason: "\(error)")
            }
        }
        return try store.restore(lines.map { ($0.number, $0.event) })
    }

    /// One parsed line: the event as proposed plus what the ledger recorded about it.
    struct Line {
        var proposed: ProposedEvent
        var position: Int64
        var recordedAt: Timestamp
        var hash: String

        init(parsing text: String) throws {
            guard case .object(let pairs) = try JSONReader.parse(text) else {
                throw CodecError.json(expected: "an event object", found: "another value")
            }
            let f = Dictionary(pairs, uniquingKeysWith: { a, _ in a })
            func get(_ key: String) throws -> JSONValue {
                guard let v = f[key] else { throw CodecError.json(expected: "the key \"\(key)\"", found: "no such key") }
                return v
            }
            let typeName = try String(json: get("type"))
            guard let entry = EventCatalog.entry(named: typeName) else { throw CodecError.unknownEventTypeName(typeName) }
            let schema = try Int(json: get("schema"))
            guard schema == entry.type.schema else {
                throw CodecError.unsupportedSchema(type: typeName, schema: schema, current: entry.type.schema)
            }
            let event = try entry.decodeJSON(get("payload"))
            let stream = try String(json: get("stream"))
            guard stream == event.stream.raw else {
                throw CodecError.json(expected: "the stream \(event.stream.raw) of the payload", found: stream)
            }
            proposed = ProposedEvent(eventId: try UUID(json: get("eventId")), event: event,
                                     occurredAt: try Timestamp(json: get("occurredAt")), device: try String(json: get("device")),
                                     causationId: try UUID?(json: get("causationId")),
                                     correlationId: try UUID?(json: get("correlationId")))
            position = Int64(try Int(json: get("position")))
            recordedAt = try Timestamp(json: get("recordedAt"))
            hash = try String(json: get("hash"))
        }
    }
}

extension SQLiteEventStore {
    /// Appends restored events in one transaction, each with its recorded
    /// time, checking that it lands at its recorded position with its recorded
    /// hash (which covers the stream version the store assigns).
    func restore(_ lines: [(number: Int, event: JSONLBackup.Line)]) throws -> JSONLBackup.Restored {
        do {
            return try db.transaction {
                var headHash = ""
                for (number, line) in lines {
                    let result = try appendInTransaction([line.proposed], [:], line.recordedAt)
                    let head = try readHead()
                    guard result.appended == [line.position], head.recordedAt == line.recordedAt else {
                        throw ImportError.malformedLine(line: number, reason: "event \(line.position) is out of order or repeated")
                    }
                    headHash = head.hash.hex
                    guard headHash == line.hash else { throw ImportError.chainMismatch(line: number, position: line.position) }
                }
                return JSONLBackup.Restored(events: lines.count, headHash: headHash)
            }
        } catch let e as SQLiteError {
            throw StoreError.sqlite(e)
        }
    }
}
