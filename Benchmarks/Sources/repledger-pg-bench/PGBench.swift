import Foundation
import LogGenerator
import RepLedgerCore
import RepLedgerPostgres
import RepLedgerSQLite

/// repledger-pg-bench: the event store on PostgreSQL next to SQLite and the
/// peer (Python `eventsourcing` 9.5.6 with its PostgreSQL recorder) on the
/// same database, in one run. Usage:
///   repledger-pg-bench --postgres URL [--events 100k] [--work DIR] [--python PATH]
/// (Benchmarks/postgres.sh starts a throwaway cluster and runs it.)
struct Options {
    var events = 100_000
    var postgres = ""
    var work = FileManager.default.temporaryDirectory.appendingPathComponent("repledger-pg-bench").path
    var python: String?

    static func parse(_ args: [String]) -> Options {
        var o = Options()
        var i = 0
        while i + 1 < args.count {
            let value = args[i + 1]
            switch args[i] {
            case "--events":
                let lower = value.lowercased()
                o.events =
                    lower.hasSuffix("m")
                    ? Int(Double(lower.dropLast())! * 1_000_000)
                    : lower.hasSuffix("k") ? Int(Double(lower.dropLast())! * 1_000) : Int(lower)!
            case "--postgres": o.postgres = value
            case "--work": o.work = value
            case "--python": o.python = value
            default: break
            }
            i += 2
        }
        return o
    }
}

func say(_ s: String) { FileHandle.standardError.write(Data((s + "\n").utf8)) }
func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }
func time(_ body: () throws -> Void) rethrows -> Double {
    let t = now()
    try body()
    return now() - t
}
func rate(_ n: Int, _ seconds: Double) -> String { String(format: "%.0f ev/s", Double(n) / seconds) }
func ratio(_ a: Double, _ b: Double) -> String { String(format: "%.2f×", a / b) }

/// Batches that failed, counted across writer threads.
final class Failures: @unchecked Sendable {
    private let lock = NSLock()
    private var n = 0
    var count: Int { lock.withLock { n } }
    func add() { lock.withLock { n += 1 } }
}

@main
struct PGBench {
    static func main() throws {
        let options = Options.parse(Array(CommandLine.arguments.dropFirst()))
        guard !options.postgres.isEmpty else { say("give --postgres URL"); exit(2) }
        try FileManager.default.createDirectory(atPath: options.work, withIntermediateDirectories: true)

        // The generated log, kept in memory: the same events for every store.
        var library = LibraryState()
        for e in ExerciseSeed.all { library.evolve(.exerciseDefined(e)) }
        var generated: [ProposedEvent] = []
        generated.reserveCapacity(options.events + 1000)
        try LogGenerator(lifters: LogGenerator.lifters(forEvents: options.events)).generate(events: options.events, library: library) {
            generated += $0
        }
        let events = Array(generated.prefix(options.events))
        generated = []
        say("generated \(events.count) events")

        let pool = try PostgresPool(url: options.postgres, maximumConnections: 10)
        try PostgresSchema.prepare(pool)

        func sqliteStore(_ name: String) throws -> SQLiteEventStore {
            let path = options.work + "/" + name
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
            return try SQLiteEventStore(path: path, durability: .full)
        }
        func postgresStore() -> PostgresEventStore { PostgresEventStore(accountId: UUID(), pool: pool) }

        func batched(_ store: any EventStore, _ size: Int) throws -> Double {
            try time {
                for start in stride(from: 0, to: events.count, by: size) { try store.append(Array(events[start..<min(start + size, events.count)])) }
            }
        }

        var rows: [(String, String, String, String)] = []
        func row(_ name: String, _ pg: String, _ sqlite: String, _ vsSQLite: String) {
            rows.append((name, pg, sqlite, vsSQLite))
            say("\(name): PostgreSQL \(pg), SQLite \(sqlite) (\(vsSQLite))")
        }

        // 1. Batched appends, 100 and 1,000 events per transaction.
        var replayStore: PostgresEventStore?
        var appendRates: [Int: Double] = [:]
        for size in [100, 1000] {
            let pg = postgresStore()
            let pgSeconds = try batched(pg, size)
            let liteSeconds = try batched(try sqliteStore("batched-\(size).sqlite"), size)
            appendRates[size] = Double(events.count) / pgSeconds
            row("append, \(size) per transaction", rate(events.count, pgSeconds), rate(events.count, liteSeconds), ratio(liteSeconds, pgSeconds))
            if size == 1000 { replayStore = pg }
        }

        // 2. Durable single appends (one event per transaction, committed and synced).
        let singles = Array(events.prefix(2000))
        let pgSingle = postgresStore()
        let pgSingleSeconds = try time { for e in singles { try pgSingle.append([e]) } }
        let liteSingle = try sqliteStore("single.sqlite")
        let liteSingleSeconds = try time { for e in singles { try liteSingle.append([e]) } }
        row(
            "single durable append (mean)", String(format: "%.0f µs", pgSingleSeconds / Double(singles.count) * 1e6),
            String(format: "%.0f µs", liteSingleSeconds / Double(singles.count) * 1e6), ratio(liteSingleSeconds, pgSingleSeconds))

        // The floor under every append: one round trip (`SELECT 1`), and one
        // committed, synced one-row write (a head row of an account of its own).
        let trips = 2000
        let tripSeconds = try time { try pool.withConnection { c in for _ in 0..<trips { try pool.run(c, "SELECT 1") } } }
        let floorAccount = UUID()
        try pool.withConnection { c in
            try pool.run(c, "INSERT INTO heads (account_id, position, hash, recorded_at, recorded_offset) VALUES (\(floorAccount), 0, '\\x00', 0, 0)")
        }
        let commitSeconds = try time {
            try pool.withConnection { c in
                for i in 0..<trips { try pool.run(c, "UPDATE heads SET recorded_at = \(Int64(i)) WHERE account_id = \(floorAccount)") }
            }
        }
        row("floor: one round trip (`SELECT 1`)", String(format: "%.0f µs", tripSeconds / Double(trips) * 1e6), "—", "")
        row("floor: one committed one-row write", String(format: "%.0f µs", commitSeconds / Double(trips) * 1e6), "—", "")

        // 3. Replay of the whole account, decoding every event.
        var replayed = 0
        let pgReplay = try time { try replayStore!.replay { _ in replayed += 1 } }
        let liteReplayStore = try sqliteStore("replay.sqlite")
        _ = try batched(liteReplayStore, 1000)
        var liteReplayed = 0
        let liteReplay = try time { try liteReplayStore.replay { _ in liteReplayed += 1 } }
        row("replay of a \(events.count)-event account", rate(replayed, pgReplay), rate(liteReplayed, liteReplay), ratio(liteReplay, pgReplay))

        // 3b. The same, sealed as the server keeps every account (AES-256-GCM under
        // the account's key), against the unsealed figures above.
        let cipher = try PayloadCipher(key: PayloadCipher.newKey())
        let sealedPG = PostgresEventStore(accountId: UUID(), pool: pool, cipher: cipher)
        let sealedPGAppend = try batched(sealedPG, 1000)
        let sealedLite = try SQLiteEventStore(path: options.work + "/sealed-\(UUID().uuidString).sqlite", durability: .full, cipher: cipher)
        let sealedLiteAppend = try batched(sealedLite, 1000)
        let unsealedPGAppend = Double(events.count) / appendRates[1000]!
        var sealedReplayed = 0
        let sealedPGReplay = try time { try sealedPG.replay { _ in sealedReplayed += 1 } }
        let sealedLiteReplay = try time { try sealedLite.replay { _ in } }
        row(
            "sealed append, 1000 per transaction (÷ unsealed time)",
            "\(rate(events.count, sealedPGAppend)) (\(ratio(sealedPGAppend, unsealedPGAppend)))",
            rate(events.count, sealedLiteAppend), ratio(sealedLiteAppend, sealedPGAppend))
        row(
            "sealed replay of a \(events.count)-event account (÷ unsealed time)",
            "\(rate(sealedReplayed, sealedPGReplay)) (\(ratio(sealedPGReplay, pgReplay)))",
            "\(rate(sealedReplayed, sealedLiteReplay)) (\(ratio(sealedLiteReplay, liteReplay)))", ratio(sealedLiteReplay, sealedPGReplay))

        // 4. Eight concurrent writers (threads), batches of 100: on one account, then on eight.
        func concurrent(accounts: Int) -> Double {
            let ids = (0..<accounts).map { _ in UUID() }
            let slice = events.count / 8
            let group = DispatchGroup()
            let failures = Failures()
            let t = now()
            for w in 0..<8 {
                group.enter()
                Thread.detachNewThread {
                    let store = PostgresEventStore(accountId: ids[w % accounts], pool: pool)
                    // Fresh ids: the same events may not go to one account twice.
                    let mine = events[(w * slice)..<((w + 1) * slice)].map { e -> ProposedEvent in
                        var c = e; c.eventId = UUID(); return c
                    }
                    for start in stride(from: 0, to: mine.count, by: 100) {
                        do { try store.append(Array(mine[start..<min(start + 100, mine.count)])) } catch { failures.add() }
                    }
                    group.leave()
                }
            }
            group.wait()
            let seconds = now() - t
            if failures.count > 0 { say("  \(failures.count) batches failed") }
            return Double(slice * 8) / seconds
        }
        let oneAccount = concurrent(accounts: 1)
        let eightAccounts = concurrent(accounts: 8)
        row("8 writers, one account", String(format: "%.0f ev/s", oneAccount), "—", "")
        row("8 writers, 8 accounts", String(format: "%.0f ev/s", eightAccounts), "—", ratio(eightAccounts, oneAccount) + " one account's")

        // 5. The peer on the same database: the same workouts and sets.
        var peerRows: [(String, String, String, String)] = []
        if let python = options.python {
            let input = options.work + "/peer-workouts.jsonl"
            try PeerWorkouts.write(events, to: input)
            let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("peer/eventsourcing_pg_peer.py").path
            for size in [100, 1000] {
                let p = Process()
                p.executableURL = URL(fileURLWithPath: python)
                p.arguments = [script, input, options.postgres, String(size)]
                let out = Pipe()
                p.standardOutput = out
                try p.run()
                let data = out.fileHandleForReading.readDataToEndOfFile()
                p.waitUntilExit()
                guard let peer = try JSONSerialization.jsonObject(with: data) as? [String: Any],
                    let n = peer["appendEvents"] as? Int, let s = peer["appendSeconds"] as? Double,
                    let rn = peer["replayEvents"] as? Int, let rs = peer["replaySeconds"] as? Double
                else {
                    say("the peer failed: \(String(decoding: data, as: UTF8.self))")
                    exit(1)
                }
                let peerAppend = Double(n) / s, peerReplay = Double(rn) / rs
                peerRows.append(
                    (
                        "append, about \(size) events per save", String(format: "%.0f ev/s", appendRates[size]!),
                        String(format: "%.0f ev/s", peerAppend), String(format: "%.2f× (goal ≥ 3×)", appendRates[size]! / peerAppend)
                    ))
                if size == 1000 {
                    let ours = Double(replayed) / pgReplay
                    peerRows.append(
                        (
                            "replay, whole log", String(format: "%.0f ev/s", ours), String(format: "%.0f ev/s", peerReplay),
                            String(format: "%.2f× (goal ≥ 3×)", ours / peerReplay)
                        ))
                }
            }
        }

        print("RepLedger on PostgreSQL, \(events.count) events (release build, one run, same machine as the database)\n")
        print("| workload | PostgreSQL | SQLite | SQLite ÷ PostgreSQL time |")
        print("| --- | --- | --- | --- |")
        for r in rows { print("| \(r.0) | \(r.1) | \(r.2) | \(r.3) |") }
        if !peerRows.isEmpty {
            print("\n| on the same PostgreSQL | RepLedger | eventsourcing 9.5.6 | ratio |")
            print("| --- | --- | --- | --- |")
            for r in peerRows { print("| \(r.0) | \(r.1) | \(r.2) | \(r.3) |") }
        }
        pool.shutdown()
    }
}
