import CSV
import Foundation
import RepLedgerCore

/// One CSV record and the physical line it starts on (1 = the header), so an
/// error can point at the line a person sees in an editor even when earlier
/// fields held real newlines.
public struct CSVRecord: Sendable {
    public var fields: [String]
    public var line: Int
}

/// A whole CSV file read with CSV.swift (quotes, doubled quotes, newlines
/// inside quotes, CRLF, a missing final newline), with its delimiter guessed
/// from the header line.
public struct CSVText: Sendable {
    public var header: [String]
    public var delimiter: Character
    public var records: [CSVRecord]

    public init(text raw: String, path: String) throws(ImportError) {
        let text = raw.hasPrefix("\u{FEFF}") ? String(raw.dropFirst()) : raw
        let firstLine = text.prefix { $0 != "\n" && $0 != "\r\n" && $0 != "\r" }
        guard !String(firstLine).trimmingSpaces().isEmpty else { throw .emptyFile(path) }
        delimiter = Self.delimiter(of: firstLine)
        let reader: CSVReader
        do {
            reader = try CSVReader(string: text, hasHeaderRow: false, delimiter: delimiter.unicodeScalars.first!)
        } catch {
            throw .unreadableFile(path, reason: "not CSV text (\(error))")
        }
        guard let head = reader.next() else { throw .emptyFile(path) }
        header = head.map { $0.trimmingSpaces() }
        var line = 2
        var out: [CSVRecord] = []
        while let fields = reader.next() {
            // A blank physical line reads as one empty field: not a record.
            if fields.count == 1, fields[0].isEmpty { line += 1; continue }
            out.append(CSVRecord(fields: fields, line: line))
            line += 1
            for f in fields where f.utf8.contains(10) || f.utf8.contains(13) { line += Self.lineBreaks(in: f) }
        }
        if let error = reader.error { throw .malformedRow(line: line, reason: "the CSV text is broken (\(error))") }
        records = out
    }

    /// `;` when the header has more semicolons than commas (Strong's current layout), else `,`.
    static func delimiter(of header: Substring) -> Character {
        var commas = 0, semicolons = 0
        for c in header.utf8 {
            if c == 44 { commas += 1 } else if c == 59 { semicolons += 1 }
        }
        return semicolons > commas ? ";" : ","
    }

    static func lineBreaks(in field: String) -> Int {
        var n = 0
        var previous: UInt8 = 0
        for c in field.utf8 {
            if c == 10, previous != 13 { n += 1 } else if c == 13 { n += 1 }
            previous = c
        }
        return n
    }
}
