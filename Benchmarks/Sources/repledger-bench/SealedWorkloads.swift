import Foundation
import LogGenerator
import RepLedgerCore
import RepLedgerProjections
import RepLedgerSQLite

/// What encryption at rest costs the server (an account's file sealed under
/// its key, as `ledger serve` keeps it) against the same file unsealed, in
/// the same run: appends, and a full replay of the generated log.
extension Workloads {
    /// A fixed key: the figures are about the work, not about secrecy.
    static let benchCipher: PayloadCipher = {
        do { return try PayloadCipher(key: [UInt8](repeating: 42, count: PayloadCipher.keyBytes)) } catch { fatalError("the bench key: \(error)") }
    }()

    /// The generated log's events written again into a sealed file (once per size), same positions and hashes.
    func sealedLog(_ plain: String) throws -> String {
        let path = file("log-\(options.events)-v2-sealed.sqlite")
        if FileManager.default.fileExists(atPath: path),
            let n = try? SQLiteEventStore(path: path, cipher: Self.benchCipher).count(), n == (try SQLiteEventStore(path: plain).count())
        {
            return path
        }
        let temporary = fresh("log-\(options.events)-v2-sealed.partial.sqlite")
        do {
            let source = try SQLiteEventStore(path: plain)
            let sealed = try SQLiteEventStore(path: temporary, durability: .normal, cipher: Self.benchCipher)
            var batch: [ProposedEvent] = []
            func flush() throws {
                try sealed.append(batch)
                batch.removeAll(keepingCapacity: true)
            }
            try source.read { e in
                batch.append(
                    ProposedEvent(
                        eventId: e.eventId, event: e.event, occurredAt: e.occurredAt, device: e.device,
                        causationId: e.causationId, correlationId: e.correlationId))
                if batch.count == 5_000 { try flush() }
            }
            try flush()
            try sealed.database.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        }
        try FileManager.default.moveItem(atPath: temporary, toPath: path)
        return path
    }

    /// Batched appends (1,000 and 100 events per durable transaction), sealed and not, alternating runs.
    func sealedAppend(_ events: [ProposedEvent], batch: Int) throws -> (plain: Double, sealed: Double) {
        let batches = stride(from: 0, to: events.count, by: batch).map { Array(events[$0..<min($0 + batch, events.count)]) }
        var plain: [Double] = [], sealed: [Double] = []
        for _ in 0..<options.runs {
            let p = try SQLiteEventStore(path: fresh("append-plain.sqlite"))
            plain.append(try Measure.time { for b in batches { try p.append(b) } })
            let s = try SQLiteEventStore(path: fresh("append-sealed.sqlite"), cipher: Self.benchCipher)
            sealed.append(try Measure.time { for b in batches { try s.append(b) } })
        }
        return (Double(events.count) / Measure.median(plain), Double(events.count) / Measure.median(sealed))
    }

    /// A full replay of the account into the training-log fold, sealed and not, alternating runs.
    func sealedReplay(plain: String, sealed: String) throws -> (plain: Double, sealed: Double, plainScan: Double, sealedScan: Double) {
        let p = try SQLiteEventStore(path: plain), s = try SQLiteEventStore(path: sealed, cipher: Self.benchCipher)
        var fold: [[Double]] = [[], []], scan: [[Double]] = [[], []]
        for _ in 0..<options.runs {
            for (i, store) in [p, s].enumerated() {
                fold[i].append(
                    try Measure.time {
                        var log = TrainingLogProjection()
                        try store.replay { log.apply($0) }
                        precondition(!log.countedWorkouts.isEmpty)
                    })
                var n = 0
                scan[i].append(try Measure.time { try store.replay { _ in n += 1 } })
            }
        }
        return (Measure.median(fold[0]), Measure.median(fold[1]), Measure.median(scan[0]), Measure.median(scan[1]))
    }
}
