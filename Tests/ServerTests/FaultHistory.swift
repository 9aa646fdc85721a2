import Foundation

/// A fault run's recorded history (docs/RELIABILITY.md, "The history's
/// format"): one JSON object a line, one line per finished operation, in the
/// order they finished. Times are seconds since the run began.
///
/// - `{"client","op":"push","attempt","ids":[…],"start","end","outcome":"ok","positions":[…],"head"}`
///   (`outcome` is also `"no answer"` with `"error"`, or `"refused"` with `"status"`);
/// - `{"client","op":"read","after","start","end","outcome":"ok","positions":[…],"ids":[…],"head"}`;
/// - `{"client":"faults","op":"kill"|"start","server","start","end"}`; `{"client":"faults","op":"switchover","start","end"}`;
/// - `{"client","op":"sync","start","end","outcome":"ok"}` (or `"no answer"` with `"error"`): a device's `ledger sync`;
/// - `{"client","op":"recorded","ids":[…],"start","end"}`: every event a device held once the faults stopped;
/// - `{"client","op":"event","position","id","start","end"}`: one event a live stream sent (`start`: when its connection opened);
/// - `{"client","op":"reconnect","after","why","start","end"}`: a live stream's connection ended, and it connects again after `after`;
/// - `{"client":"final","op":"read",…}`: the whole log once the faults stopped, last.
final class FaultHistory: @unchecked Sendable {
    private let lock = NSLock()
    private let began = ContinuousClock.now
    private(set) var lines: [[String: Any]] = []

    var now: Double {
        let d = ContinuousClock.now - began
        return Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
    }

    private var stoppedTime: Double?
    private var finalHeadRead: Int?

    /// The final log's head, once it has been read: what a live stream must reach.
    var finalHead: Int? {
        get { lock.withLock { finalHeadRead } }
        set { lock.withLock { finalHeadRead = newValue } }
    }

    func record(_ line: [String: Any]) { lock.withLock { lines.append(line) } }

    /// The lines of one operation (`kill`, `push`…) so far.
    func count(_ op: String) -> Int { lock.withLock { lines.filter { $0["op"] as? String == op }.count } }

    /// Pushes answered `ok` so far.
    var acknowledged: Int { lock.withLock { lines.filter { $0["op"] as? String == "push" && $0["outcome"] as? String == "ok" }.count } }

    /// The lines of one operation with one outcome so far.
    func count(_ op: String, outcome: String) -> Int {
        lock.withLock { lines.filter { $0["op"] as? String == op && $0["outcome"] as? String == outcome }.count }
    }

    /// Requests that got no answer so far.
    var unanswered: Int { lock.withLock { lines.filter { $0["outcome"] as? String == "no answer" }.count } }

    /// The faults have stopped: writers finish what they have in hand.
    func stop() { lock.withLock { stoppedTime = stoppedTime ?? now } }
    var stopped: Bool { lock.withLock { stoppedTime != nil } }
    var stoppedAt: Double { lock.withLock { stoppedTime ?? .infinity } }

    /// The history as JSON lines, keys sorted.
    var jsonLines: String {
        lock.withLock {
            lines.map { line in
                let data = (try? JSONSerialization.data(withJSONObject: line, options: [.sortedKeys])) ?? Data()
                return String(decoding: data, as: UTF8.self)
            }.joined(separator: "\n") + "\n"
        }
    }
}

/// Reads a recorded history (JSON lines, as `FaultHistory` writes them) and
/// names every anomaly, as Jepsen's checkers do: an acknowledged append lost
/// or moved, a push half applied, an event twice, a gap, a read that went
/// backwards, a read that missed the client's own acknowledged write, a read
/// that disagrees with the final log, an event a device held that its last
/// sync did not leave on the server.
enum FaultHistoryChecker {
    static func anomalies(jsonLines: String) -> [String] {
        let lines = jsonLines.split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
        }
        guard let final = lines.last(where: { $0["client"] as? String == "final" }),
            let finalIds = final["ids"] as? [String], let finalPositions = final["positions"] as? [Int]
        else { return ["the history has no final read"] }
        var found: [String] = []
        if finalPositions != (finalPositions.isEmpty ? [] : Array(1...finalPositions.count)) {
            found.append("the final log's positions have a gap")
        }
        if Set(finalIds).count != finalIds.count { found.append("an event id appears twice in the final log") }
        let at = Dictionary(zip(finalIds, finalPositions), uniquingKeysWith: { a, _ in a })
        var attempted: Set<String> = []
        for line in lines where line["op"] as? String == "push" {
            let ids = line["ids"] as? [String] ?? []
            attempted.formUnion(ids)
            let present = ids.filter { at[$0] != nil }.count
            if present != 0 && present != ids.count { found.append("a push was half applied: \(present) of \(ids.count) events") }
            guard line["outcome"] as? String == "ok" else { continue }
            if let lost = ids.first(where: { at[$0] == nil }) { found.append("acknowledged \(lost) is not in the final log") }
            // Positions are given when this attempt appended the events (not an earlier, unanswered one).
            for (id, position) in zip(ids, line["positions"] as? [Int] ?? []) where at[id] != nil && at[id] != position {
                found.append("acknowledged \(id) at #\(position), at #\(at[id]!) in the end")
            }
        }
        // What a device held once the faults stopped, its own or pulled, must be on the server after its last sync.
        for line in lines where line["op"] as? String == "recorded" {
            let ids = line["ids"] as? [String] ?? []
            attempted.formUnion(ids)
            if let lost = ids.first(where: { at[$0] == nil }) { found.append("\(line["client"] ?? "a device") held \(lost), not in the final log") }
        }
        found += streamAnomalies(lines, finalIds: finalIds)
        let unknown = Set(finalIds).subtracting(attempted).count
        if unknown > 0 { found.append("\(unknown) events in the final log no client pushed") }
        var clients: [String: (head: Int, written: Int)] = [:]
        for line in lines where line["outcome"] as? String == "ok" && line["client"] as? String != "final" {
            guard let client = line["client"] as? String, let head = line["head"] as? Int else { continue }
            var seen = clients[client] ?? (0, 0)
            if head < seen.head { found.append("\(client) read head #\(head) after #\(seen.head): a read went backwards") }
            if line["op"] as? String == "read" {
                if head < seen.written { found.append("\(client) read head #\(head) after its write at #\(seen.written)") }
                for (id, position) in zip(line["ids"] as? [String] ?? [], line["positions"] as? [Int] ?? []) where at[id] != position {
                    found.append("\(client) read \(id) at #\(position), which the final log does not hold there")
                }
            } else {
                seen.written = max(seen.written, (line["positions"] as? [Int])?.max() ?? 0)
            }
            seen.head = max(seen.head, head)
            clients[client] = seen
        }
        return found
    }

    /// Each live stream sent every position of the final log once, in order, across its reconnects, each
    /// with the event the final log holds there.
    static func streamAnomalies(_ lines: [[String: Any]], finalIds: [String]) -> [String] {
        var found: [String] = [], streams: [String: [(Int, String)]] = [:]
        for line in lines where line["op"] as? String == "event" {
            guard let client = line["client"] as? String, let position = line["position"] as? Int else { continue }
            streams[client, default: []].append((position, line["id"] as? String ?? ""))
        }
        for (client, events) in streams.sorted(by: { $0.key < $1.key }) {
            let positions = events.map(\.0)
            if let i = positions.indices.dropFirst().first(where: { positions[$0] <= positions[$0 - 1] }) {
                found.append("\(client) sent #\(positions[i]) after #\(positions[i - 1]) (repeated or out of order)")
            } else if positions != Array(0..<finalIds.count).map({ $0 + 1 }) {
                found.append("\(client) sent \(positions.count) of the final log's \(finalIds.count) positions")
            }
            if let wrong = events.first(where: { $0.0 < 1 || $0.0 > finalIds.count || finalIds[$0.0 - 1] != $0.1 }) {
                found.append("\(client) sent \(wrong.1) at #\(wrong.0), which the final log does not hold there")
            }
        }
        return found
    }
}
