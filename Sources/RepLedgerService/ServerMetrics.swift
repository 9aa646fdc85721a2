import Foundation
import Metrics
import RepLedgerQueries

import class Prometheus.PrometheusCollectorRegistry
import struct Prometheus.PrometheusMetricsFactory

/// The server's metrics, recorded through swift-metrics into a Prometheus
/// registry of this server's own (a process may run several servers, as the
/// tests do, and the global metrics system is bootstrapped once at most),
/// served as text by `GET /metrics`.
public final class ServerMetrics: Sendable {
    package let registry = PrometheusCollectorRegistry()
    let factory: PrometheusMetricsFactory
    let eventsAppended: Counter
    let warmAccounts: Gauge
    package let warmEvents: Gauge
    let foldCatchUpEvents: Counter
    let foldLoads: Counter
    package let snapshotHits: Counter
    let foldLoadEvents: Counter
    let snapshotsTaken: Counter
    /// Range reads since the start that a hot standby served, and that the primary served instead.
    let replicaServed: Gauge
    let replicaFallbacks: Gauge
    let readsOfReplicas: @Sendable () -> (replica: Int, primary: Int)?
    /// Appends by other server processes that the database announced here since the start.
    let notified: Gauge
    let notifications: @Sendable () -> Int?

    /// Request durations, from 0.5 ms to 10 s: a warm read takes about a
    /// millisecond, a push of 500 events some tens.
    static let buckets: [Duration] = [
        .microseconds(500), .milliseconds(1), .milliseconds(2), .milliseconds(5), .milliseconds(10), .milliseconds(25),
        .milliseconds(50), .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2.5), .seconds(10),
    ]

    /// `replicaReads`: the storage's reads of hot standbys so far (nil without any); `notifications`: the
    /// appends by other processes it was told of (nil for a storage one process owns).
    public init(
        replicaReads: @escaping @Sendable () -> (replica: Int, primary: Int)? = { nil }, notifications: @escaping @Sendable () -> Int? = { nil }
    ) {
        readsOfReplicas = replicaReads
        self.notifications = notifications
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.defaultDurationHistogramBuckets = Self.buckets
        self.factory = factory
        eventsAppended = Counter(label: "repledger_events_appended_total", factory: factory)
        warmAccounts = Gauge(label: "repledger_warm_accounts", factory: factory)
        warmEvents = Gauge(label: "repledger_warm_events", factory: factory)
        foldCatchUpEvents = Counter(label: "repledger_fold_catch_up_events_total", factory: factory)
        foldLoads = Counter(label: "repledger_fold_loads_total", factory: factory)
        snapshotHits = Counter(label: "repledger_snapshot_hits_total", factory: factory)
        foldLoadEvents = Counter(label: "repledger_fold_load_events_total", factory: factory)
        snapshotsTaken = Counter(label: "repledger_snapshots_taken_total", factory: factory)
        replicaServed = Gauge(label: "repledger_replica_reads", dimensions: [("served_by", "replica")], factory: factory)
        replicaFallbacks = Gauge(label: "repledger_replica_reads", dimensions: [("served_by", "primary")], factory: factory)
        notified = Gauge(label: "repledger_append_notifications", factory: factory)
    }

    /// One request's duration under its route (a pattern such as
    /// `/v1/accounts/{account}/prs`, never an id), method and status.
    package func request(route: String, method: String, status: Int, duration: Duration) {
        Timer(
            label: "repledger_request_duration_seconds",
            dimensions: [("route", route), ("method", method), ("status", String(status))], factory: factory
        )
        .recordNanoseconds(duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000)
    }

    /// What a warm fold's upkeep did.
    package func record(_ upkeep: WarmFold.Upkeep) {
        if upkeep.caughtUpEvents > 0 { foldCatchUpEvents.increment(by: upkeep.caughtUpEvents) }
        if upkeep.loads > 0 { foldLoads.increment(by: upkeep.loads) }
        if upkeep.snapshotHits > 0 { snapshotHits.increment(by: upkeep.snapshotHits) }
        if upkeep.loadedEvents > 0 { foldLoadEvents.increment(by: upkeep.loadedEvents) }
    }

    /// The Prometheus text exposition format (version 0.0.4).
    public func text() -> [UInt8] {
        if let reads = readsOfReplicas() {
            replicaServed.record(reads.replica)
            replicaFallbacks.record(reads.primary)
        }
        if let count = notifications() { notified.record(count) }
        return registry.emitToBuffer()
    }

    /// A dashboard page's route, its client id left out (a label per client would grow without bound).
    static func coachPage(_ rest: [Substring]) -> String {
        switch rest.count {
        case 0: return "/coach"
        case 1 where ["sign-in", "sign-out", "invites", "style.css"].contains(rest[0]): return "/coach/\(rest[0])"
        case 2 where rest[0] == "clients": return "/coach/clients/{account}"
        case 3 where rest[0] == "clients" && ["notes", "assignments"].contains(rest[2]): return "/coach/clients/{account}/\(rest[2])"
        default: return "other"
        }
    }

    /// The label of a request no API route takes (the API's labels are its routes' own, `APIRoute`): the coach's and
    /// the account's pages, else `other`. Ids become placeholders, so the series stay few whatever the callers send.
    package static func pageRoute(_ segments: [Substring]) -> String {
        if segments.first == "coach" { return coachPage(Array(segments.dropFirst())) }
        if segments.first == "account" { return segments.count == 1 ? "/account" : "/account/…" }
        return "other"
    }
}
