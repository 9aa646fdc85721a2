import Foundation
import LogGenerator
import RepLedgerCore
import RepLedgerProjections
import RepLedgerSQLite
import RepLedgerSnapshots

/// repledger-bench: every workload next to its raw floor (and the peer), in one run.
/// Usage: repledger-bench [--events 100k] [--runs 5] [--work DIR] [--ledger PATH] [--python PATH] [--json FILE]
struct Options {
    var events = 100_000
    var runs = 5
    var coldRuns = 7
    var work = FileManager.default.temporaryDirectory.appendingPathComponent("repledger-bench").path
    var ledger: String?
    var python: String?
    var json: String?
    var peakRebuild: String?
    /// Only these workloads (append, single, rebuild, sealed, verify, memory, queries, cold, peer); all when empty.
    /// `curve` (the size curve) runs only when named, or with `--curve` beside all the others (the smoke).
    var curve = false
    var only: Set<String> = []
    func runs(_ workload: String) -> Bool { only.isEmpty || only.contains(workload) }

    static func parse(_ args: [String]) -> Options {
        var o = Options()
        var i = 0
        func value() -> String {
            i += 1
            guard i < args.count else { FileHandle.standardError.write(Data("missing value for \(args[i - 1])\n".utf8)); exit(2) }
            return args[i]
        }
        while i < args.count {
            switch args[i] {
            case "--events": o.events = count(value())
            case "--runs": o.runs = Int(value()) ?? o.runs
            case "--cold-runs": o.coldRuns = Int(value()) ?? o.coldRuns
            case "--work": o.work = value()
            case "--ledger": o.ledger = value()
            case "--python": o.python = value()
            case "--json": o.json = value()
            case "--peak-rebuild": o.peakRebuild = value()
            case "--only": o.only = Set(value().split(separator: ",").map(String.init))
            case "--curve": o.curve = true
            default: FileHandle.standardError.write(Data("unknown option \(args[i])\n".utf8)); exit(2)
            }
            i += 1
        }
        return o
    }

    static func count(_ s: String) -> Int {
        let l = s.lowercased()
        if l.hasSuffix("m") { return Int(Double(l.dropLast())! * 1_000_000) }
        if l.hasSuffix("k") { return Int(Double(l.dropLast())! * 1_000) }
        return Int(l)!
    }
}

func say(_ s: String) { FileHandle.standardError.write(Data((s + "\n").utf8)) }

let options = Options.parse(Array(CommandLine.arguments.dropFirst()))

// A child run: fold and derive every view of one log, then report peak memory.
if let path = options.peakRebuild {
    let log = try TrainingLogProjection.build(from: try SQLiteEventStore(path: path))
    _ = Workloads.allViews(log)
    print(Measure.peakRSS())
    exit(0)
}

let work = URL(fileURLWithPath: options.work)
try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
let w = Workloads(options: options, work: work)
nonisolated(unsafe) var rows: [Row] = []
func row(_ workload: String, _ ours: String, _ reference: String, _ ratio: Double?, goal: String = "", met: Bool? = nil) {
    rows.append(
        Row(
            workload: workload, ours: ours, reference: reference, ratio: ratio.map(Format.ratio) ?? "",
            goal: goal, met: met.map { $0 ? "yes" : "**no**" } ?? ""))
    say("  \(workload): \(ours)  [\(reference)] \(ratio.map(Format.ratio) ?? "")")
}

let sqliteVersion = (try? SQLiteDatabase(path: ":memory:").with("SELECT sqlite_version()") { s in try s.step() ? s.text(0) : "" }) ?? ""
let machine = "\(ProcessInfo.processInfo.activeProcessorCount) cores, SQLite \(sqliteVersion)"
say("repledger-bench: \(options.events) events, \(options.runs) runs, \(machine)")

// The generated log.
let generated = try w.generatedLog()
say(
    generated.seconds > 0
        ? String(format: "generated %lld events in %.1f s", generated.events, generated.seconds)
        : "reusing \(generated.path) (\(generated.events) events)")
let events = generated.events

// Appends.
let sampleSize = min(options.events, 100_000)
let sample = options.runs("append") || options.runs("peer") || options.runs("sealed") ? try w.sample(sampleSize) : []
if options.runs("append") {
    let batched = try w.batchedAppend(sample)
    row(
        "batched append, 1,000 events per transaction, FULL (\(sample.count) events)", Format.perSecond(batched.ours),
        "raw inserts " + Format.perSecond(batched.floor), batched.ours / batched.floor, goal: "≥ 0.5× floor", met: batched.ours / batched.floor >= 0.5
    )
}
if options.runs("single") {
    let single = try w.singleAppend(commands: max(50, min(300, options.runs * 60)))
    row(
        "one durable append per command (`Ledger.execute`), FULL", Format.micros(single.ours), "raw commit " + Format.micros(single.floor),
        single.floor / single.ours, goal: "≥ 0.8× floor", met: single.floor / single.ours >= 0.8)
}

// Rebuild.
if options.runs("rebuild") {
    let rebuild = try w.rebuild(generated.path)
    let perEvent = rebuild.ours / Double(events)
    row(
        "full rebuild of all projections, one pass (\(events) events)", "\(Format.secs(rebuild.ours)) (\(Format.micros(perEvent))/event)",
        "scan+decode+1 fold " + Format.secs(rebuild.floor), rebuild.ours / rebuild.floor, goal: "≤ 3.5× floor, ≤ 1 µs/event",
        met: rebuild.ours / rebuild.floor <= 3.5 && perEvent <= 1e-6)
    say(String(format: "  (the fold alone: %.2f s, %.2f µs/event)", rebuild.fold, rebuild.fold / Double(events) * 1e6))
}

// verify.
if options.runs("verify") {
    let verifyStore = try SQLiteEventStore(path: generated.path)
    let verify = try Measure.median(options.runs) {
        let ok = try verifyStore.verify().ok
        precondition(ok)
    }
    row("`verify`, every SHA-256 recomputed", "\(Format.secs(verify)) (\(Format.perSecond(Double(events) / verify)))", "", nil)
    // The chain check every read makes (`checkChain`): the first read after the log was written walks
    // it whole, as `verify` does; a read after no appends reads the kept mark and the head.
    try verifyStore.checkChain()
    let quiet = try (0..<200).map { _ in try Measure.time { try verifyStore.checkChain() } }
    row(
        "the chain check of a read after no appends (p95 of 200)", Format.micros(Measure.percentile(quiet, 0.95)), "", nil,
        goal: "≤ 1 ms", met: Measure.percentile(quiet, 0.95) <= 1e-3)
}

// Encryption at rest (the server's sealed account files) against the same files unsealed.
if options.runs("sealed") {
    let sealedSample = sample
    for size in [1_000, 100] {
        let a = try w.sealedAppend(sealedSample, batch: size)
        row(
            "sealed append, \(size) events per transaction, FULL (\(sealedSample.count) events)", Format.perSecond(a.sealed),
            "unsealed " + Format.perSecond(a.plain), a.plain / a.sealed, goal: "≤ 1.3× unsealed time", met: a.plain / a.sealed <= 1.3)
    }
    let sealedPath = try w.sealedLog(generated.path)
    let r = try w.sealedReplay(plain: generated.path, sealed: sealedPath)
    row(
        "sealed full replay into the training-log fold (\(events) events)",
        "\(Format.secs(r.sealed)) (\(Format.micros(r.sealed / Double(events)))/event)",
        "unsealed " + Format.secs(r.plain), r.sealed / r.plain, goal: "≤ 1.3× unsealed", met: r.sealed / r.plain <= 1.3)
    row(
        "sealed replay, scan and decode only (\(events) events)",
        "\(Format.secs(r.sealedScan)) (\(Format.micros(r.sealedScan / Double(events)))/event)",
        "unsealed " + Format.secs(r.plainScan), r.sealedScan / r.plainScan)
}

// Peak memory, in a child process so this process's own allocations do not count.
let me =
    CommandLine.arguments[0].hasPrefix("/") ? CommandLine.arguments[0] : FileManager.default.currentDirectoryPath + "/" + CommandLine.arguments[0]
if options.runs("memory"),
    let peak = Int(try Measure.run(me, ["--peak-rebuild", generated.path]).output.trimmingCharacters(in: .whitespacesAndNewlines))
{
    row(
        "peak memory of a rebuild (\(events) events)", Format.mb(peak), "", nil, goal: events >= 1_000_000 ? "≤ 150 MB" : "",
        met: events >= 1_000_000 ? peak <= 150_000_000 : nil)
}

// The size curve: the file, a durable append, a replay and views as of a point, at this size.
if options.only.contains("curve") || options.curve {
    let c = try w.sizeCurve(generated.path, events: events)
    row(
        "size: the log's file (\(events) events) · with snapshots every \(c.snapshotSpacing) (newest 3 kept) and milestones",
        "\(Format.mb(Int(c.fileBytes))) · \(Format.mb(Int(c.snapshottedBytes)))", "", nil)
    row(
        "size: one set logged as one durable command into it, p50 · p99 (300)", "\(Format.millis3(c.appendP50)) · \(Format.millis3(c.appendP99))", "",
        nil)
    row("size: full replay into the fold", Format.perSecond(c.replayPerSecond), "", nil)
    row(
        "size: views as of a point, p50 · p95 (\(c.asOfPoints) points evenly spread over the log)",
        "\(Format.millis(c.asOfP50)) · \(Format.millis(c.asOfP95))", "", nil)
}

// Snapshots, as the automatic policy would have left them (for the query workloads).
let needsSnapshots = options.runs("queries") || (options.ledger != nil && options.runs("cold"))
let snap = needsSnapshots ? try w.snapshotted(generated.path, events: events) : (path: "", seconds: 0)
if snap.seconds > 0 { say(String(format: "snapshots every %lld events taken in %.1f s", TrainingLogSnapshots.automaticEvery, snap.seconds)) }

// Head queries, warm in-process: from the fold in memory, and from stored results.
if options.runs("queries") {
    let store = try SQLiteEventStore(path: snap.path)
    let log = try TrainingLogProjection.build(from: store)
    let now = log.countedWorkouts.last?.startedAt ?? .now()
    let fromFold = Measure.median(options.runs) { _ = PersonalRecordsProjection.compute(log) }
    let hintFold = Measure.median(options.runs) {
        _ = LastTimeHintProjection.hint(log, exerciseId: "deadlift", context: .init(time: now.adding(seconds: 86_400)))
    }
    let entitlementsFold = Measure.median(options.runs) { _ = EntitlementsProjection.state(log, at: now) }
    var ignored: [String] = []
    let head = try store.headPosition()
    let fromSnapshot = try Measure.median(options.runs) {
        let found = try ViewSnapshots.records(store, rules: .default, at: head, ignored: &ignored)
        precondition(found != nil)
    }
    let hintSnapshot = try Measure.median(options.runs) {
        let found = try ViewSnapshots.hintIndex(store, at: head, ignored: &ignored)
        precondition(found != nil)
    }
    row("warm in-process `prs`: stored result / from the fold in memory", Format.millis(fromSnapshot), "fold " + Format.millis(fromFold), nil)
    row(
        "warm in-process `hint deadlift`: stored index / from the fold in memory", Format.millis(hintSnapshot), "fold " + Format.millis(hintFold), nil
    )
    row("warm in-process `entitlements` from the fold in memory", Format.millis(entitlementsFold), "", nil)
}

// Cold `ledger` processes, with and without snapshots, and --as-of at random positions.
if let ledger = options.ledger, options.runs("cold") {
    let bare = w.fresh("cold-nosnap.sqlite")
    try FileManager.default.copyItem(atPath: generated.path, toPath: bare)
    func cold(_ args: [String], db: String, clear: Bool) throws -> Double {
        var times: [Double] = []
        for _ in 0..<options.coldRuns {
            // A head query stores its result for the next one; "without snapshots" must not benefit from that.
            if clear { try SQLiteEventStore(path: db).database.execute("DELETE FROM snapshots") }
            times.append(try Measure.run(ledger, args + ["--json", "--db", db]).seconds)
        }
        return Measure.median(times)
    }
    let noop = Measure.median(try (0..<options.coldRuns).map { _ in try Measure.run(ledger, ["--version"]).seconds })
    say(String(format: "  (a bare `ledger --version` process: %.0f ms)", noop * 1e3))
    let tomorrow = "2100-01-01T00:00:00Z"
    for (name, args) in [("prs", ["prs"]), ("hint deadlift", ["hint", "deadlift", "--at", tomorrow]), ("entitlements", ["entitlements"])] {
        let with = try cold(args, db: snap.path, clear: false)
        let without = try cold(args, db: bare, clear: true)
        row(
            "cold `ledger \(name)` with snapshots (\(events) events)", Format.millis(with), "without " + Format.millis(without), nil,
            goal: "≤ 50 ms", met: with <= 0.050)
    }
    var rng = SplitMix(seed: 42)
    let positions = (0..<5).map { _ in Int64(rng.next() % UInt64(events * 9 / 10)) + events / 10 }
    var asOf: [Double] = [], asOfBare: [Double] = []
    for p in positions {
        asOf.append(try cold(["prs", "--as-of", "\(p)"], db: snap.path, clear: false))
        asOfBare.append(try cold(["prs", "--as-of", "\(p)"], db: bare, clear: true))
    }
    row(
        "cold `ledger prs --as-of P`, 5 random positions (median)", Format.millis(Measure.median(asOf)),
        "without " + Format.millis(Measure.median(asOfBare)), nil, goal: "≤ 200 ms", met: Measure.median(asOf) <= 0.200)
}

// The peer, on the same workouts and sets.
if let python = options.python, options.runs("peer") {
    let peerInput = work.appendingPathComponent("peer-workouts.jsonl").path
    let workouts = try PeerWorkouts.write(sample, to: peerInput)
    let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("peer/eventsourcing_peer.py").path
    let peerOut = try Measure.run(python, [script, peerInput, w.fresh("peer.sqlite")]).output
    let peer = try JSONSerialization.jsonObject(with: Data(peerOut.utf8)) as! [String: Any]
    let peerAppend = Double(peer["appendEvents"] as! Int) / (peer["appendSeconds"] as! Double)
    let peerReplay = Double(peer["replayEvents"] as! Int) / (peer["replaySeconds"] as! Double)

    // Ours on exactly that workload: the same events, whole workouts about 1,000
    // events per transaction (as the peer saves them), then the same fold.
    var ours: [[ProposedEvent]] = [[]]
    var ids = IdentifierSource.seeded(77, orderedAt: Timestamp.now().millis)
    for (id, sets) in workouts {
        var started = WorkoutStarted(); started.workoutId = id; started.name = id.lowercased
        var batch = [ProposedEvent(eventId: ids.nextEventId(), event: .workoutStarted(started), occurredAt: .now(), device: "bench")]
        for s in sets {
            var e = SetLogged(); e.workoutId = id; e.setId = ids.next(); e.exerciseId = s.0; e.type = s.3 ? .warmup : .normal
            e.metrics = SetMetrics(weight: Weight(s.1, .kg), reps: s.2)
            batch.append(ProposedEvent(eventId: ids.nextEventId(), event: .setLogged(e), occurredAt: .now(), device: "bench"))
        }
        ours[ours.count - 1] += batch
        if ours[ours.count - 1].count >= 1_000 { ours.append([]) }
    }
    let total = ours.reduce(0) { $0 + $1.count }
    let store = try SQLiteEventStore(path: w.fresh("peer-ours.sqlite"))
    let appendTime = try Measure.time { for b in ours { try store.append(b) } }
    var best: [String: Double] = [:]
    let replayTime = try Measure.median(options.runs) {
        best = [:]
        try store.replay { r in
            if case .setLogged(let e) = r.event, e.type != .warmup, let kg = e.metrics.weight?.kilograms, kg > 0 {
                best[e.exerciseId] = max(best[e.exerciseId] ?? 0, kg)
            }
        }
    }
    let peerBest = peer["bestKg"] as? [String: Double] ?? [:]
    precondition(
        peerBest.count == best.count && peerBest.allSatisfy { abs((best[$0.key] ?? -1) - $0.value) < 1e-9 },
        "the peer's fold disagrees with ours")
    let oursAppend = Double(total) / appendTime, oursReplay = Double(total) / replayTime
    let library = peer["library"] as? String ?? "eventsourcing"
    row(
        "append, whole workouts ~1,000 events per transaction (\(total) events)", Format.perSecond(oursAppend),
        "\(library) " + Format.perSecond(peerAppend),
        oursAppend / peerAppend, goal: "≥ 10× peer", met: oursAppend / peerAppend >= 10)
    row(
        "replay into the records fold (\(total) events)", Format.perSecond(oursReplay), "\(library) " + Format.perSecond(peerReplay),
        oursReplay / peerReplay, goal: "≥ 30× peer", met: oursReplay / peerReplay >= 30)
}

let date = ISO8601DateFormatter().string(from: Date())
print("\nRepLedger benchmarks, \(date), \(machine), \(events) events\n")
print(Format.table(rows))
if let json = options.json {
    let data = try JSONEncoder().encode(Results(machine: machine, date: date, events: Int(events), rows: rows))
    try data.write(to: URL(fileURLWithPath: json))
}
