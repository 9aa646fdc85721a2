import Foundation
import RepLedgerCore
import RepLedgerQueries
import RepLedgerSQLite

/// What a simulated run recorded, and the final logs and views it left.
struct SyncHistory {
    struct Confirmed: Equatable {
        var device: String
        var position: Int64
        var hash: String
    }

    /// Every step and every request's fate, in order: equal for two runs of one seed.
    var trace: [String] = []
    /// How many of each fault and step the run had.
    var counts: [String: Int] = [:]

    mutating func note(_ kind: String, _ line: String?) {
        counts[kind, default: 0] += 1
        if let line { trace.append(line) }
    }
    /// Event ids a device was told the server stored (a 200 to its push).
    var acknowledged: Set<UUID> = []
    /// Event ids each device's commands appended to its own log (what a lifter saw recorded).
    var local: [String: Set<UUID>] = [:]
    /// A device's confirmed head after each sync: that prefix of the log is the server's and never changes.
    var confirmed: [Confirmed] = []
    /// A device whose confirmed position went down.
    var backwards: [String] = []
    /// Syncs that failed once the network had healed.
    var failedFinalSyncs: [String] = []
    /// The server's rows as stored (ids, positions, hashes) and its events decoded from the first step on.
    var serverLog: [StoredEvent] = []
    var serverEvents: [EventEnvelope] = []
    var serverVerified = false
    var deviceLogs: [String: [StoredEvent]] = [:]
    var rejected: [String: Set<UUID>] = [:]
    /// What each live-stream subscriber received, in order: positions and canonical lines.
    var streams: [String: [(position: Int64, json: String)]] = [:]
    /// Each device's views (and the server's, under "server"), rendered.
    var views: [String: String] = [:]

    /// The views a lifter reads, rendered: history and records.
    static func views(_ store: any EventStore) throws -> String {
        let history = HistoryQuery.document(try HistoryQuery.answer(store, QueryScope())).rendered
        let records = RecordsQuery.document(try RecordsQuery.records(store, QueryScope()), timeline: false).rendered
        return history + "\n" + records
    }

    /// The head hash of the server's log: equal for two runs of one seed.
    var serverHead: String { serverLog.last?.hash.hex ?? "" }
}

/// Reads a simulated run's history and names every anomaly: an acknowledged
/// append lost, an event stored twice under two ids, a gap, a chain that does
/// not verify, a device whose log or views differ from the server's once the
/// network healed, a confirmed prefix that changed, a tap lost, a live stream
/// that missed, repeated or reordered an event.
enum SyncHistoryChecker {
    static func anomalies(_ h: SyncHistory) -> [String] {
        var found: [String] = []
        let serverIds = h.serverLog.map(\.eventId)
        let onServer = Set(serverIds)
        if serverIds.count != onServer.count { found.append("an event id appears twice on the server") }
        if h.serverLog.map(\.position) != Array(stride(from: Int64(1), through: Int64(h.serverLog.count), by: 1)) {
            found.append("the server's positions have a gap")
        }
        if !h.serverVerified { found.append("the server's chain does not verify") }
        let lost = h.acknowledged.subtracting(onServer)
        if !lost.isEmpty { found.append("\(lost.count) acknowledged events are not on the server") }
        // One device's event under a second id (a retry that made new ids). Two devices giving one command
        // at one moment (both set the rest to 120 s, their clocks skewed to the same second) are two events.
        struct Content: Hashable {
            var device: String, stream: String, millis: Int64, type: String, payload: [UInt8]
        }
        var seen: [Content: EventEnvelope] = [:]
        for e in h.serverEvents {
            let key = Content(
                device: e.device, stream: e.stream.raw, millis: e.occurredAt.millis, type: e.event.eventType.name, payload: e.event.encodedPayload)
            if let first = seen[key] {
                found.append(
                    "the same event is stored twice: #\(first.position) (\(first.eventId), \(first.device)) and #\(e.position) (\(e.eventId), \(e.device)), "
                        + "\(e.event.eventType.name) at \(e.occurredAt.iso8601)")
                break
            }
            seen[key] = e
        }
        for (device, ids) in h.local.sorted(by: { $0.key < $1.key }) {
            let missing = ids.subtracting(onServer).subtracting(h.rejected[device] ?? [])
            if !missing.isEmpty { found.append("\(device): \(missing.count) recorded events neither on the server nor refused") }
        }
        for (device, log) in h.deviceLogs.sorted(by: { $0.key < $1.key }) {
            if log.map(\.eventId) != serverIds {
                found.append("\(device): its log is not the server's (\(log.count) events, the server \(serverIds.count))")
            }
            if log.last?.hash != h.serverLog.last?.hash { found.append("\(device): its head is not the server's") }
            if h.views[device] != h.views["server"] { found.append("\(device): its views differ from the server's") }
        }
        let hashes = Dictionary(h.serverLog.map { ($0.position, $0.hash.hex) }, uniquingKeysWith: { a, _ in a })
        if let changed = h.confirmed.first(where: { hashes[$0.position] != $0.hash }) {
            found.append("\(changed.device): its confirmed event #\(changed.position) is not the server's in the end")
        }
        found += streamAnomalies(h)
        found += h.backwards.map { "went backwards: \($0)" }
        found += h.failedFinalSyncs.map { "a sync failed after the network healed: \($0)" }
        return found
    }

    /// Each live stream delivered every event after the run's start once, in order, as the server holds it.
    static func streamAnomalies(_ h: SyncHistory) -> [String] {
        var found: [String] = []
        let lines = Dictionary(h.serverEvents.map { ($0.position, $0.canonicalJSON) }, uniquingKeysWith: { a, _ in a })
        let expected = h.serverEvents.map(\.position)
        for (name, received) in h.streams.sorted(by: { $0.key < $1.key }) {
            let positions = received.map(\.position)
            if let i = positions.indices.dropFirst().first(where: { positions[$0] <= positions[$0 - 1] }) {
                found.append("\(name)'s stream sent #\(positions[i]) after #\(positions[i - 1]) (repeated or out of order)")
            } else if positions != expected {
                let missing = Set(expected).subtracting(positions).sorted()
                found.append("\(name)'s stream missed \(missing.count) events (first #\(missing.first ?? 0))")
            }
            if let wrong = received.first(where: { lines[$0.position] != $0.json }) {
                found.append("\(name)'s stream sent #\(wrong.position) not as the server holds it")
            }
        }
        return found
    }
}
