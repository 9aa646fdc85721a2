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

    public typealias Failure = HeaderedLog.Failure

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
        let (header, body) = try HeaderedLog.read(text, .bundle, format: format, supported: version)
        guard let head = header["head"] as? [String: Any], let position = (head["position"] as? NSNumber)?.int64Value,
            let hash = head["hash"] as? String
        else { throw Failure.badHeader(.bundle, "it names no head") }
        let rules = try HeaderedLog.rules(header, .bundle)
        try HeaderedLog.restore(body, into: store, .bundle)
        let stored = try store.head()
        guard stored.position == position, stored.hash.hex == hash else { throw Failure.headMismatch(expected: position, found: stored.position) }
        return rules
    }
}
