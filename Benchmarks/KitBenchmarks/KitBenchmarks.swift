import Benchmark
import Foundation
import LogGenerator
import RepLedgerCore
import RepLedgerProjections
import RepLedgerQueries
import RepLedgerSQLite
import RepLedgerSnapshots

// Names are file names too (the thresholds' files are read by name): no spaces.
//
// What an app embedding the ledger feels, guarded by thresholds kept in
// Benchmarks/Thresholds (`swift package benchmark thresholds check` fails on a
// regression beyond the tolerance below). Only allocations are guarded: a run
// cannot miss them by being slow, while a durable write's wall clock on a
// loaded 2-core machine doubled with no change to the code. Times are
// measured and printed beside them (`.ci/benchmarks` prints every metric).
let benchmarks: @Sendable () -> Void = {
    let counts: BenchmarkThresholds = .init(relative: [.p50: 5, .p90: 5, .p99: 5])

    // One set logged as one durable command, as a watch does between sets: sessions of 24
    // sets, so a set's cost does not grow with the number of iterations. Iteration counts
    // are fixed (not cut by the time limit), so allocation counts repeat run after run.
    Benchmark(
        "append-one-set-durably",
        configuration: .init(
            metrics: [.wallClock, .mallocCountTotal], maxDuration: .seconds(60), maxIterations: 480,
            thresholds: [.mallocCountTotal: counts])
    ) { benchmark in
        let session = try OpenSession.shared()
        for _ in benchmark.scaledIterations { blackHole(try session.logSet()) }
    }

    // The views at a point of the log (records, volume, history, entitlements, programs), as the
    // inspector's As-of page and the kit's `asOf` reads answer them: the newest snapshot at or
    // before the point, plus the events after it.
    Benchmark(
        "views-as-of-a-point-\(GeneratedLog.events / 1000)k-events",
        configuration: .init(
            metrics: [.wallClock, .mallocCountTotal], maxDuration: .seconds(60), maxIterations: 40,
            thresholds: [.mallocCountTotal: counts])
    ) { benchmark in
        let log = try GeneratedLog.shared()
        for _ in benchmark.scaledIterations {
            blackHole(try AsOfQuery.answer(log.store, position: log.nextPoint()))
        }
    }

    // Every workout, record and view folded again from the first event: a rule change's rebuild.
    Benchmark(
        "rebuild-the-fold-\(GeneratedLog.events / 1000)k-events",
        configuration: .init(
            metrics: [.wallClock, .mallocCountTotal, .custom("ns per event")],
            maxDuration: .seconds(60), maxIterations: 20,
            thresholds: [.mallocCountTotal: counts])
    ) { benchmark in
        let log = try GeneratedLog.shared()
        for _ in benchmark.scaledIterations {
            let start = ContinuousClock.now
            var fold = TrainingLogProjection()
            try log.store.replay { fold.apply($0) }
            blackHole(fold)
            let elapsed = ContinuousClock.now - start
            let nanos = Int(elapsed.components.seconds) * 1_000_000_000 + Int(elapsed.components.attoseconds / 1_000_000_000)
            benchmark.measurement(.custom("ns per event"), nanos / Int(log.head))
        }
    }
}
