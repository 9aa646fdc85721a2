import Foundation
import RepLedgerCore
import RepLedgerProjections

/// `ledger export --bundle FILE` and `ledger inspect --bundle FILE`: one
/// self-contained file to hand an auditor. Its first line says what it is:
/// `{"format":"repledger-audit-bundle","version":1,"head":{"position","hash"},"rules":{…}}`
/// (the head it was cut at and the rule set its views are read with); every
/// line after it is an event as `ledger log --json` prints it, with its hash.
/// Opening one checks every link of the chain and the head, so an edited
/// bundle is refused at its first bad position.
public enum AuditBundle {
    public static let format = "repledger-audit-bundle"
    public static let version = 1

    public enum Failure: Error, Equatable, CustomStringConvertible {
        case notABundle
        case newerVersion(found: Int, supported: Int)
        case badHeader(String)
        case brokenChain(position: Int64)
        case malformed(line: Int, reason: String)
        case headMismatch(expected: Int64, found: Int64)

        public var description: String {
            switch self {
            case .notABundle: return "this file is not a RepLedger audit bundle (make one with `ledger export --bundle FILE`)"
            case .newerVersion(let found, let supported):
                return "this bundle is version \(found), from a newer RepLedger; this one reads versions up to \(supported)"
            case .badHeader(let why): return "this bundle's first line is refused: \(why)"
            case .brokenChain(let position):
                return "this bundle was changed after it was made: the hash of event \(position) does not match its content"
            case .malformed(let line, let reason): return "this bundle's line \(line) is refused: \(reason)"
            case .headMismatch(let expected, let found):
                return "this bundle was changed after it was made: its first line names head \(expected), its events end at \(found)"
            }
        }
    }

    /// Writes the bundle of `store` (header, then every event) through `write`; returns the events written.
    @discardableResult
    public static func write(_ store: any EventStore, rules: RuleSet, write: (String) throws -> Void) throws -> Int {
        let head = try store.head()
        let header = JSONValue.object([
            ("format", .string(format)), ("version", .int(Int64(version))),
            ("head", .object([("position", .int(head.position)), ("hash", .string(head.hash.hex))])), ("rules", try HeaderedLog.json(rules)),
        ])
        try write(header.rendered + "\n")
        return try JSONLBackup.export(store, write: write)
    }

    /// Reads a bundle's text into `store` (empty; an in-memory one for `inspect`) → the rule set it names.
    public static func open(_ text: String, into store: any EventStore) throws -> RuleSet {
        let (header, body) = try HeaderedLog.read(
            text, format: format, supported: version, notOne: Failure.notABundle, newer: { Failure.newerVersion(found: $0, supported: version) },
            bad: Failure.badHeader)
        guard let head = header["head"] as? [String: Any], let position = (head["position"] as? NSNumber)?.int64Value,
            let hash = head["hash"] as? String
        else { throw Failure.badHeader("it names no head") }
        let rules = try HeaderedLog.rules(header, name: "in the bundle", bad: Failure.badHeader)
        try HeaderedLog.restore(body, into: store, broken: { Failure.brokenChain(position: $0) }, malformed: Failure.malformed)
        let stored = try store.head()
        guard stored.position == position, stored.hash.hex == hash else { throw Failure.headMismatch(expected: position, found: stored.position) }
        return rules
    }
}
