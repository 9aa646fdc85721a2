import Foundation
import RepLedgerCore
import RepLedgerProjections

/// A test from a session (issue 44): the log up to a workout's last event and
/// every view's expected JSON at that point, in one file that
/// `ledger check-fixture` replays. Its first line is
/// `{"format":"repledger-session-fixture","version":1,"workoutId","position","rules":{…},"expected":{"asOf":…,"replay":…}}`
/// (the As-of page's document and `replay --json` at that position); every
/// line after it is an event as `log --json` prints it, hash and all, so a
/// fixture edited by hand fails its chain before anything is compared.
public enum SessionFixture {
    public static let format = "repledger-session-fixture"
    public static let version = 1

    public typealias Failure = HeaderedLog.Failure

    /// The fixture of `workout` (an id or a unique prefix): the log up to its last event, and the views there.
    public static func make(_ store: any EventStore, workout: String, rules: RuleSet = .default, write: (String) throws -> Void) throws {
        let id = try Ledger(store: store).resolveWorkout(workout)
        guard let position = try store.read(stream: .workout(id)).last?.position else { throw Refusal.unknownWorkout(workout) }
        let header = JSONValue.object([
            ("format", .string(format)), ("version", .int(Int64(version))), ("workoutId", .string(id.lowercased)),
            ("position", .int(position)), ("rules", try HeaderedLog.json(rules)),
            ("expected", try expected(store, workout: id, position: position, rules: rules)),
        ])
        try write(header.rendered + "\n")
        var buffer = ""
        try store.read(EventQuery(through: position)) { e in
            buffer += e.canonicalJSON + "\n"
            if buffer.utf8.count >= 1 << 16 { try write(buffer); buffer = "" }
        }
        if !buffer.isEmpty { try write(buffer) }
    }

    /// Every view the fixture holds, as this build computes it.
    static func expected(_ store: any EventStore, workout: UUID, position: Int64, rules: RuleSet) throws -> JSONValue {
        let steps = try AuditQuery.steps(store, workout: workout.lowercased, through: position)
        var asOf = try AsOfQuery.answer(store, position: position, rules: rules)
        asOf.headPosition = position  // the fixture's log ends there, whatever followed in the ledger it came from
        return .object([
            ("asOf", AsOfQuery.document(asOf)),
            ("replay", AuditQuery.replayDocument(steps.steps, library: steps.library)),
        ])
    }

    /// Replays a fixture's events into `store` (empty; in memory) and computes its views again →
    /// the first difference from what it expects, as a JSON path with both values; nil when none.
    public static func check(_ text: String, into store: any EventStore) throws -> String? {
        let (header, body) = try HeaderedLog.read(text, .fixture, format: format, supported: version)
        guard let workout = (header["workoutId"] as? String).flatMap(UUID.init(uuidString:)),
            let position = (header["position"] as? NSNumber)?.int64Value, let expected = header["expected"]
        else { throw Failure.badHeader(.fixture, "it needs workoutId, position, rules and expected") }
        let rules = try HeaderedLog.rules(header, .fixture)
        try HeaderedLog.restore(body, into: store, .fixture)
        let now = try JSONSerialization.jsonObject(
            with: Data(try Self.expected(store, workout: workout, position: position, rules: rules).rendered.utf8))
        return difference(expected, now, path: "")
    }

    /// The first path where two parsed JSON values differ, with both values.
    static func difference(_ a: Any, _ b: Any, path: String) -> String? {
        func shown(_ x: Any?) -> String {
            guard let x else { return "nothing" }
            if x is NSNull { return "null" }
            if let s = x as? String { return "\"\(s)\"" }
            if let data = try? JSONSerialization.data(withJSONObject: x, options: [.fragmentsAllowed, .sortedKeys]) {
                return String(decoding: data, as: UTF8.self)
            }
            return "\(x)"
        }
        switch (a, b) {
        case (let x as [String: Any], let y as [String: Any]):
            for key in Set(x.keys).union(y.keys).sorted() {
                let here = path.isEmpty ? key : "\(path).\(key)"
                // A key a later build added, saying nothing here (null), moves no number: a fixture's bytes stay.
                if x[key] == nil, y[key] is NSNull { continue }
                guard let u = x[key], let v = y[key] else { return "\(here): expected \(shown(x[key])), got \(shown(y[key]))" }
                if let d = difference(u, v, path: here) { return d }
            }
            return nil
        case (let x as [Any], let y as [Any]):
            for i in 0..<max(x.count, y.count) {
                let here = "\(path)[\(i)]"
                guard i < x.count, i < y.count else {
                    return "\(here): expected \(shown(i < x.count ? x[i] : nil)), got \(shown(i < y.count ? y[i] : nil))"
                }
                if let d = difference(x[i], y[i], path: here) { return d }
            }
            return nil
        default:
            // Leaves compared as JSON text: a parsed `false` may be a Bool on one side and an NSNumber on the other.
            return shown(a) == shown(b) ? nil : "\(path): expected \(shown(a)), got \(shown(b))"
        }
    }
}
