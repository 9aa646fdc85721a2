import Foundation
import LogGenerator
import RepLedgerCore
import RepLedgerSQLite
import RepLedgerSnapshots

/// A ledger file with an open workout, for the append benchmark: each call logs one more set,
/// and the 24th finishes the session and starts the next.
final class OpenSession: @unchecked Sendable {
    // Unchecked: the benchmark runs its iterations on one thread.
    nonisolated(unsafe) private static var made: OpenSession?
    static let setsPerSession = 24
    let ledger: Ledger
    private var workout: UUID
    private var sets = 0

    static func shared() throws -> OpenSession {
        if let made { return made }
        let session = try OpenSession()
        made = session
        return session
    }

    private init() throws {
        let path = Scratch.file("append.sqlite")
        let store = try SQLiteEventStore(path: path, access: .create)
        ledger = Ledger(store: store, device: "watch")
        ledger.afterAppend = { try SnapshotPolicy.apply($0) }
        workout = try ledger.execute { try $0.startWorkout(name: "Bench") }
    }

    func logSet() throws -> UUID {
        let set = try ledger.execute {
            try $0.logSet(workout, exercise: "Bench Press (Barbell)", metrics: SetMetrics(weight: Weight(80, .kg), reps: 8))
        }
        sets += 1
        if sets == Self.setsPerSession {
            let finished = workout
            workout = try ledger.execute { session in
                try session.finishWorkout(finished)
                return try session.startWorkout(name: "Bench")
            }
            sets = 0
        }
        return set
    }
}

/// The generated log the read benchmarks share, made once a run with the append policy's snapshots.
final class GeneratedLog: @unchecked Sendable {
    /// 10k by default, what CI checks; `KIT_BENCH_EVENTS=1000000` for the figures in docs/PERFORMANCE.md.
    static let events = ProcessInfo.processInfo.environment["KIT_BENCH_EVENTS"].flatMap { Int($0) } ?? 10_000
    nonisolated(unsafe) private static var made: GeneratedLog?
    let store: SQLiteEventStore
    let head: Int64
    private var step = 0

    static func shared() throws -> GeneratedLog {
        if let made { return made }
        let log = try GeneratedLog()
        made = log
        return log
    }

    private init() throws {
        let path = Scratch.file("log-\(Self.events).sqlite")
        let store = try SQLiteEventStore(path: path, durability: .normal)
        let ledger = Ledger(store: store)
        try ledger.seedLibraryIfNeeded()
        let generator = LogGenerator(lifters: LogGenerator.lifters(forEvents: Self.events))
        try generator.generate(events: Self.events, library: try ledger.library()) { week in
            try store.append(week)
            try SnapshotPolicy.apply(store)
        }
        self.store = store
        head = try store.headPosition()
    }

    /// The next point to read at: positions spread over the whole log, the same sequence every run.
    func nextPoint() -> Int64 {
        step += 1
        return 1 + Int64((step &* 7_919) % Int(head))
    }
}

/// A folder of this process's own under the temporary directory, removed at exit.
enum Scratch {
    static let folder: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("kit-bench-\(ProcessInfo.processInfo.processIdentifier)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(at: Scratch.folder) }
        return url
    }()

    static func file(_ name: String) -> String { folder.appendingPathComponent(name).path }
}
