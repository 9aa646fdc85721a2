import Foundation

/// The whole log as canonical JSON lines (the lines of `ledger log`): the
/// backup, the audit hand-off and the way to move a ledger between machines.
/// Restoring into an empty file reproduces every event with its position,
/// times and hash; a line whose content does not give its recorded hash
/// stops the restore, and nothing is kept.
///
/// Into a ledger that holds events, the lines are merged instead (a watch's
/// workout arriving as a batch): the file's own chain is checked first, events
/// whose ids are stored already are skipped, and the new ones are appended
/// in one transaction with this ledger's positions. Re-sending the same batch
/// appends nothing.
public enum JSONLBackup {
    /// Writes every event, one line each, through `write`; returns the count.
    @discardableResult
    public static func export(_ store: any EventStore, write: (String) throws -> Void) throws -> Int {
        var n = 0
        var buffer = ""
        buffer.reserveCapacity(1 << 16)
        try store.read(EventQuery()) { e in
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

    public static func restore(_ text: String, into store: any EventStore) throws -> Restored {
        let head = try store.headPosition()
        guard head == 0 else { throw ImportError.notEmpty(events: head) }
        let lines = try parse(text)
        try checkChain(lines)
        return try restore(lines, into: store)
    }

    public struct Merged: Sendable, Equatable {
        /// Lines in the file.
        public var events: Int
        /// Positions of the events appended now.
        public var appended: [Int64]
        /// Events already in the ledger (the same id and content), skipped.
        public var alreadyStored: Int
    }

    /// Merges a batch of JSON lines into a ledger that holds events (see the type's note).
    public static func merge(_ text: String, into store: any EventStore, now: Timestamp = .now()) throws -> Merged {
        let lines = try parse(text)
        try checkChain(lines)
        let result = try store.appendAdoptingStoredDevices(lines.map(\.event.proposed), expecting: [:], now: now)
        return Merged(events: lines.count, appended: result.appended, alreadyStored: result.alreadyStored)
    }

    /// The file's events must chain among themselves as the ledger that wrote
    /// them chained them: from the genesis hash when the file starts at
    /// position 1, else from its first line's hash on.
    static func checkChain(_ lines: [(number: Int, event: Line)]) throws {
        var previous: [UInt8]? = lines.first?.event.position == 1 ? genesisHash : nil
        for (number, line) in lines {
            if let previous {
                let hash = line.link(after: previous)
                guard hash.hex == line.hash else { throw ImportError.chainMismatch(line: number, position: line.position) }
            }
            guard let bytes = line.hashBytes else { throw ImportError.chainMismatch(line: number, position: line.position) }
            previous = bytes
        }
    }

    static func parse(_ text: String) throws -> [(number: Int, event: Line)] {
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
        return lines
    }

    /// One parsed line: the event as proposed plus what the ledger recorded about it.
    struct Line: Sendable {
        var proposed: ProposedEvent
        var position: Int64
        var version: Int64
        var recordedAt: Timestamp
        var hash: String
        var hashBytes: [UInt8]? {
            let digits = Array(hash.utf8)
            guard digits.count == 64 else { return nil }
            var out: [UInt8] = []
            for i in stride(from: 0, to: 64, by: 2) {
                guard let b = UInt8(String(decoding: digits[i..<i + 2], as: UTF8.self), radix: 16) else { return nil }
                out.append(b)
            }
            return out
        }

        /// The hash this line links to when it follows `previous`.
        func link(after previous: [UInt8]) -> [UInt8] {
            CanonicalBytes.link(
                previousHash: previous, position: position, version: version, recordedAt: recordedAt,
                content: proposed.content)
        }

        init(parsing text: String) throws { try self.init(json: try JSONReader.parse(text)) }

        /// The line at `r`, `depth` deep in its document, read in place; on
        /// any failure the caller reads the document as a tree (`init(json:)`).
        init(_ r: inout JSONReader, depth: Int) throws {
            let e = try EnvelopeInPlace(&r, depth: depth)
            guard e.servedEntry != nil, let event = e.event, e.stream == event.stream.raw, let eventId = e.eventId,
                let occurredAt = e.occurredAt, let device = e.device, let causationId = e.causationId,
                let correlationId = e.correlationId, let position = e.position, let version = e.version,
                let recordedAt = e.recordedAt, let hash = e.hash
            else { throw EnvelopeInPlace.Unread() }
            proposed = ProposedEvent(
                eventId: eventId, event: event, occurredAt: occurredAt, device: device,
                causationId: causationId, correlationId: correlationId)
            self.position = Int64(position)
            self.version = Int64(version)
            self.recordedAt = recordedAt
            self.hash = hash
        }

        init(json: JSONValue) throws {
            guard case .object(let pairs) = json else {
                throw CodecError.json(expected: "an event object", found: "another value")
            }
            // A dozen keys: found by a search of the pairs (the first of a repeated key); a pull reads thousands of lines.
            func get(_ key: String) throws -> JSONValue {
                guard let v = pairs.first(where: { $0.0 == key })?.1 else {
                    throw CodecError.json(expected: "the key \"\(key)\"", found: "no such key")
                }
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
            proposed = ProposedEvent(
                eventId: try UUID(json: get("eventId")), event: event,
                occurredAt: try Timestamp(json: get("occurredAt")), device: try String(json: get("device")),
                causationId: try UUID?(json: get("causationId")),
                correlationId: try UUID?(json: get("correlationId")))
            position = Int64(try Int(json: get("position")))
            version = Int64(try Int(json: get("version")))
            recordedAt = try Timestamp(json: get("recordedAt"))
            hash = try String(json: get("hash"))
        }
    }
}

extension JSONLBackup {
    /// Appends restored events in one transaction, each with its recorded
    /// time, checking that each lands at its recorded position with its
    /// recorded hash (which covers the stream version the store assigns and
    /// the recorded time). Lines recorded at the same instant (one command's
    /// events) go in one append: a million-event restore into a database is
    /// not a million round trips.
    static func restore(_ lines: [(number: Int, event: Line)], into store: any EventStore) throws -> Restored {
        try store.writeTransaction {
            var headHash = ""
            var start = 0
            while start < lines.count {
                var end = start + 1
                while end < lines.count, lines[end].event.recordedAt == lines[start].event.recordedAt, end - start < 1000 { end += 1 }
                let group = lines[start..<end]
                let result = try store.append(group.map(\.event.proposed), expecting: [:], now: group.first!.event.recordedAt)
                guard result.appended == group.map(\.event.position) else {
                    let number =
                        zip(group, result.appended + Array(repeating: -1, count: group.count))
                        .first { $0.0.event.position != $0.1 }?.0.number ?? group.first!.number
                    throw ImportError.malformedLine(line: number, reason: "an event is out of order or repeated")
                }
                headHash = try store.head().hash.hex
                guard let last = group.last, headHash == last.event.hash else {
                    // The chain check before restoring names the line; here the store disagrees with the file.
                    throw ImportError.chainMismatch(line: group.last!.number, position: group.last!.event.position)
                }
                start = end
            }
            return Restored(events: lines.count, headHash: headHash)
        }
    }
}
