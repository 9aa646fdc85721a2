import Foundation
import RepLedgerCore
import RepLedgerProjections

/// A file of one header line, then events as `ledger log --json` prints them, hash and all: the
/// audit bundle and the session fixture. Reading one checks the header's format and version, then
/// restores the events into an empty store, which re-links every hash.
public enum HeaderedLog {
    /// Why such a file is refused, worded for the kind it claims to be.
    public enum Failure: Error, Equatable, CustomStringConvertible {
        public enum Kind: String, Sendable { case bundle, fixture }
        case notOne(Kind)
        case newerVersion(Kind, found: Int, supported: Int)
        case badHeader(Kind, String)
        case brokenChain(Kind, position: Int64)
        case malformed(Kind, line: Int, reason: String)
        case headMismatch(expected: Int64, found: Int64)

        public var description: String {
            func noun(_ k: Kind) -> String { k == .bundle ? "bundle" : "fixture" }
            switch self {
            case .notOne(.bundle): return "this file is not a RepLedger audit bundle (make one with `ledger export --bundle FILE`)"
            case .notOne(.fixture): return "this file is not a RepLedger session fixture (the inspector's session page saves one)"
            case .newerVersion(let k, let found, let supported):
                return "this \(noun(k)) is version \(found), from a newer RepLedger; this one reads versions up to \(supported)"
            case .badHeader(let k, let why): return "this \(noun(k))'s first line is refused: \(why)"
            case .brokenChain(let k, let position):
                return "this \(noun(k)) was changed after it was made: the hash of event \(position) does not match its content"
            case .malformed(let k, let line, let reason): return "this \(noun(k))'s line \(line) is refused: \(reason)"
            case .headMismatch(let expected, let found):
                return "this bundle was changed after it was made: its first line names head \(expected), its events end at \(found)"
            }
        }
    }

    /// The header's object and the event lines after it; `notOne` when the first line is not this format's.
    static func read(_ text: String, _ kind: Failure.Kind, format: String, supported: Int) throws(Failure) -> (header: [String: Any], body: String) {
        let firstLine = text.prefix { $0 != "\n" }
        guard let header = try? JSONSerialization.jsonObject(with: Data(firstLine.utf8)) as? [String: Any], header["format"] as? String == format
        else { throw .notOne(kind) }
        guard let found = header["version"] as? Int else { throw .badHeader(kind, "it has no version") }
        guard found <= supported else { throw .newerVersion(kind, found: found, supported: supported) }
        return (header, String(text.dropFirst(firstLine.count + 1)))
    }

    /// The rule set the header names under `rules`.
    static func rules(_ header: [String: Any], _ kind: Failure.Kind) throws(Failure) -> RuleSet {
        guard let object = header["rules"] as? [String: Any], let data = try? JSONSerialization.data(withJSONObject: object) else {
            throw .badHeader(kind, "it names no rule set")
        }
        do { return try RuleSet.load(data, name: "in the \(kind.rawValue)") } catch { throw .badHeader(kind, "\(error)") }
    }

    /// A rule set as the header carries it.
    static func json(_ rules: RuleSet) throws -> JSONValue {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return .raw(String(decoding: try encoder.encode(rules), as: UTF8.self))
    }

    /// The events into `store`; a line numbered as in the file (the header is line 1).
    static func restore(_ body: String, into store: any EventStore, _ kind: Failure.Kind) throws {
        do {
            _ = try JSONLBackup.restore(body, into: store)
        } catch ImportError.chainMismatch(_, let position) {
            throw Failure.brokenChain(kind, position: position)
        } catch ImportError.malformedLine(let line, let reason) {
            throw Failure.malformed(kind, line: line + 1, reason: reason)
        }
    }
}
