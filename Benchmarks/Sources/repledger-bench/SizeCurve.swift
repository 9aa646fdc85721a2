import Foundation
import RepLedgerCore
import RepLedgerProjections
import RepLedgerQueries
import RepLedgerSQLite
import RepLedgerSnapshots

/// The size curve (`--only curve`): what a device feels as its one file grows,
/// measured on the generated log of `--events` events.
struct SizeCurve {
    var events: Int64
    var fileBytes: Int64
    var snapshottedBytes: Int64
    var snapshotSpacing: Int64
    var appendP50: Double
    var appendP99: Double
    var replayPerSecond: Double
    var asOfP50: Double
    var asOfP95: Double
    var asOfPoints: Int
}

extension Workloads {
    /// File size, durable appends, a full replay and views as of points spread over the log.
    func sizeCurve(_ generated: String, events: Int64) throws -> SizeCurve {
        let bytes = { (path: String) in ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int64) ?? 0 }
        // Fold snapshots as the automatic policy keeps them (the newest three), but at least a
        // twentieth of the log apart: at 10M events the policy's every 50k would write 200
        // snapshots of a fold hundreds of MB large before the first measurement.
        let spacing = max(TrainingLogSnapshots.automaticEvery, events / 20)
        let snapshotted = fresh("curve-\(events).sqlite")
        try FileManager.default.copyItem(atPath: generated, toPath: snapshotted)
        let store = try SQLiteEventStore(path: snapshotted)
        _ = try Self.snapshot(store, every: spacing, events: events)
        try store.database.execute("PRAGMA wal_checkpoint(TRUNCATE)")

        // A full replay into the fold, from the first event.
        let replay = try Measure.median(options.runs) {
            var fold = TrainingLogProjection()
            try store.replay { fold.apply($0) }
            precondition(fold.position == events)
        }

        // Views as of the middles of twenty equal stretches of the log, from its first
        // twentieth to its last: a point older than the kept snapshots folds from the start.
        let points = 20
        var asOf: [Double] = []
        for step in 1...points {
            let position = max(1, Int64((Double(step) - 0.5) / Double(points) * Double(events)))
            asOf.append(try Measure.time { _ = try AsOfQuery.answer(store, position: position) })
        }

        // One set logged as one durable command, into the grown file (sessions of 24 sets).
        let ledger = Ledger(store: store, device: "watch")
        ledger.afterAppend = { try SnapshotPolicy.apply($0) }
        var workout = try ledger.execute { try $0.startWorkout(name: "Curve") }
        var appends: [Double] = []
        for i in 0..<300 {
            if i % 24 == 23 {
                let finished = workout
                workout = try ledger.execute { s in
                    try s.finishWorkout(finished)
                    return try s.startWorkout(name: "Curve")
                }
            }
            appends.append(
                try Measure.time {
                    _ = try ledger.execute {
                        try $0.logSet(workout, exercise: "Bench Press (Barbell)", metrics: SetMetrics(weight: Weight(80, .kg), reps: 8))
                    }
                })
        }
        let curve = SizeCurve(
            events: events, fileBytes: bytes(generated), snapshottedBytes: bytes(snapshotted), snapshotSpacing: spacing,
            appendP50: Measure.median(appends), appendP99: Measure.percentile(appends, 0.99),
            replayPerSecond: Double(events) / replay, asOfP50: Measure.median(asOf),
            asOfP95: Measure.percentile(asOf, 0.95), asOfPoints: points)
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: snapshotted + suffix) }
        return curve
    }
}
