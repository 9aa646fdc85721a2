import Foundation
import RepLedgerCore
import RepLedgerProjections

/// A file of one header line, then events as `ledger log --json` prints them, hash and all: the
/// audit bundle and the session fixture. Reading one checks the header's format and version, then
/// restores the events into an empty store, which re-links every hash.
enum HeaderedLog {
    /// The header's object and the event lines after it; `notOne` when the first line is not this format's.
    static func read(
        _ text: String, format: String, supported: Int, notOne: Error, newer: (Int) -> Error, bad: (String) -> Error
    ) throws
        -> (header: [String: Any], body: String)
    {
        let firstLine = text.prefix { $0 != "\n" }
        guard let header = try? JSONSerialization.jsonObject(with: Data(firstLine.utf8)) as? [String: Any], header["format"] as? String == format
        else { throw notOne }
        guard let found = header["version"] as? Int else { throw bad("it has no version") }
        guard found <= supported else { throw newer(found) }
        return (header, String(text.dropFirst(firstLine.count + 1)))
    }

    /// The rule set the header names under `rules`.
    static func rules(_ header: [String: Any], name: String, bad: (String) -> Error) throws -> RuleSet {
        guard let object = header["rules"] as? [String: Any], let data = try? JSONSerialization.data(withJSONObject: object) else {
            throw bad("it names no rule set")
        }
        do { return try RuleSet.load(data, name: name) } catch { throw bad("\(error)") }
    }

    /// A rule set as the header carries it.
    static func json(_ rules: RuleSet) throws -> JSONValue {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return .raw(String(decoding: try encoder.encode(rules), as: UTF8.self))
    }

    /// The events into `store`; a line numbered as in the file (the header is line 1).
    static func restore(_ body: String, into store: any EventStore, broken: (Int64) -> Error, malformed: (Int, String) -> Error) throws {
        do {
            _ = try JSONLBackup.restore(body, into: store)
        } catch ImportError.chainMismatch(_, let position) {
            throw broken(position)
        } catch ImportError.malformedLine(let line, let reason) {
            throw malformed(line + 1, reason)
        }
    }
}
