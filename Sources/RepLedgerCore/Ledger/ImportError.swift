import Foundation

/// Why an import was refused. Nothing is appended in any of these cases.
public enum ImportError: Error, Equatable, CustomStringConvertible {
    case unreadableFile(String, reason: String)
    case emptyFile(String)
    case unknownHeader(source: String, found: [String], expected: [String], problem: String? = nil)
    case wrongSource(named: String, looksLike: String)
    case unitRequired(source: String)
    case malformedRow(line: Int, reason: String)
    case invalidTimeZone(String)
    case notEmpty(events: Int64)
    case malformedLine(line: Int, reason: String)
    case chainMismatch(line: Int, position: Int64)
    /// Every row of a non-empty export was left out: the commonest reasons, with how many rows each.
    case nothingImported(rows: Int, reasons: [ReasonCount])
    /// Rows holding something the ledger cannot read or refuses (a date, a word, a
    /// number): the first in the file, and how many there are. Nothing was imported.
    case unreadableRows(line: Int, reason: String, count: Int)

    /// A kind of reason a row was left out for, and how many rows it covers.
    public struct ReasonCount: Sendable, Equatable {
        public var reason: String
        public var count: Int
        public init(reason: String, count: Int) {
            self.reason = reason
            self.count = count
        }
    }

    public var description: String {
        switch self {
        case .unreadableFile(let path, let reason):
            return "cannot read '\(path)': \(reason)"
        case .emptyFile(let path):
            return "'\(path)' has no header line; export the file again from the app"
        case .unknownHeader(let source, let found, let expected, let problem):
            // A header cell may hold a newline (a quote left open swallows lines): the message stays one line.
            let text =
                "unknown \(source) header (\(found.joined(separator: ",")))\(problem.map { ": \($0)" } ?? ""). "
                + "Expected one of these layouts: " + expected.joined(separator: " | ")
            return text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).joined(separator: "\\n")
        case .wrongSource(let named, let looksLike):
            return "this is not a \(named) export; it looks like a \(looksLike) export"
        case .unitRequired(let source):
            return "this \(source) export does not say whether its weights are kg or lb"
        case .malformedRow(let line, let reason):
            return "line \(line): \(reason); nothing was imported"
        case .invalidTimeZone(let tz):
            return "unknown time zone '\(tz)'; give an IANA name such as Europe/Paris, or UTC, or an offset such as +02:00"
        case .notEmpty(let events):
            return "a JSONL backup restores into an empty ledger only, and this one holds \(events) events; restore into a new file"
        case .malformedLine(let line, let reason):
            return "line \(line): \(reason); nothing was restored"
        case .nothingImported(let rows, let reasons):
            let shown = reasons.prefix(3).map { "\($0.count) × \($0.reason)" }.joined(separator: "; ")
            let more = reasons.count > 3 ? "; and \(reasons.count - 3) other reasons" : ""
            return "none of the file's \(rows) rows could be imported (\(shown)\(more)); nothing was imported"
        case .unreadableRows(let line, let reason, let count):
            let others = count > 1 ? " (and \(count - 1) more \(count == 2 ? "row" : "rows") that could not be read)" : ""
            return "line \(line): \(reason)\(others); nothing was imported"
        case .chainMismatch(let line, let position):
            return "line \(line): the hash of event \(position) does not match its content; the file was changed or damaged, nothing was imported"
        }
    }
}
