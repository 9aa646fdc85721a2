import Foundation
import LogGenerator
import RepLedgerCore
import RepLedgerProjections
import RepLedgerSQLite
import RepLedgerSnapshots

/// The workloads, each measured next to its floor in the same run.
struct Workloads {
    let options: Options
    let work: URL

    func file(_ name: String) -> String { work.appendingPathComponent(name).path }

    func fresh(_ name: String) -> String {
        let path = file(name)
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        return path
    }

    static func seededLibrary() -> LibraryState {
        var library = LibraryState()
        for e in ExerciseSeed.all { library.evolve(.exerciseDefined(e)) }
        return library
    }

    // MARK: The generated log

    /// The log of `events` events, generated once per size and generator version and reused.
    func generatedLog() throws -> (path: String, events: Int64, seconds: Double) {
        let path = file("log-\(options.events)-v2.sqlite")
        if FileManager.default.fileExists(atPath: path), let n = try? SQLiteEventStore(path: path).count(), n > 0 {
            return (path, n, 0)
        }
        let temporary = fresh("log-\(options.events)-v2.partial.sqlite")
        let seconds = try Measure.time {
            // Bulk generation may use NORMAL durability: it is setup, not a measured workload.
            let store = try SQLiteEventStore(path: temporary, durability: .normal)
            let ledger = Ledger(store: store)
            try ledger.seedLibraryIfNeeded()
            let generator = LogGenerator(lifters: LogGenerator.lifters(forEvents: options.events))
            try generator.generate(events: options.events, library: try ledger.library()) { week in
                for chunk in stride(from: 0, to: week.count, by: 5_000) {
                    try store.append(Array(week[chunk..<min(chunk + 5_000, week.count)]))
                }
            }
            try store.database.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        }
        // The store was closed when the closure ended, which checkpoints the WAL into the file.
        try FileManager.default.moveItem(atPath: temporary, toPath: path)
        return (path, try SQLiteEventStore(path: path).count(), seconds)
    }

    /// The first `count` events of the same generator, in memory, for the append workloads.
    func sample(_ count: Int) throws -> [ProposedEvent] {
        var out: [ProposedEvent] = []
        let generator = LogGenerator(lifters: LogGenerator.lifters(forEvents: options.events))
        try generator.generate(events: count, library: Self.seededLibrary()) { out += $0 }
        return Array(out.prefix(count))
    }

    // MARK: Appends

    /// Batched append (the import path: one transaction per 1,000 events) against
    /// prepared inserts of the same encoded payloads, both with synchronous=FULL.
    func batchedAppend(_ events: [ProposedEvent]) throws -> (ours: Double, floor: Double) {
        let batches = stride(from: 0, to: events.count, by: 1_000).map { Array(events[$0..<min($0 + 1_000, events.count)]) }
        var ours: [Double] = [], floor: [Double] = []
        // Pre-encoded rows for the floor: ids, stream names, payload bytes and a 32-byte hash each.
        let rows = events.map { e -> (id: [UInt8], stream: String, type: EventType, occurred: Timestamp, device: String, payload: [UInt8]) in
            (e.eventId.bytes16, e.stream.raw, e.event.eventType, e.occurredAt, e.device, e.event.encodedPayload)
        }
        let hash = [UInt8](repeating: 7, count: 32)
        for _ in 0..<options.runs {
            let store = try SQLiteEventStore(path: fresh("append-ours.sqlite"))
            ours.append(try Measure.time { for b in batches { try store.append(b) } })

            let raw = try SQLiteEventStore(path: fresh("append-floor.sqlite"))
            let db = raw.database
            floor.append(
                try Measure.time {
                    var position: Int64 = 0
                    for b in stride(from: 0, to: rows.count, by: 1_000) {
                        try db.transaction {
                            try db.with(Self.insert) { s in
                                for r in rows[b..<min(b + 1_000, rows.count)] {
                                    position += 1
                                    try Self.bindRow(s, position: position, r.id, r.stream, r.type, r.occurred, r.device, r.payload, hash)
                                    try s.run()
                                    s.reset()
                                }
                            }
                        }
                    }
                })
        }
        return (Double(events.count) / Measure.median(ours), Double(events.count) / Measure.median(floor))
    }

    /// One durable append per command (the logging path: `Ledger.execute`
    /// loads the states, decides, appends and commits) against one prepared
    /// insert per commit, both with synchronous=FULL.
    func singleAppend(commands: Int) throws -> (ours: Double, floor: Double) {
        let store = try SQLiteEventStore(path: fresh("single-ours.sqlite"))
        let ledger = Ledger(store: store, device: "bench", ids: .seeded(9))
        try ledger.seedLibraryIfNeeded()
        var w = try ledger.execute { try $0.startWorkout(name: "Bench day") }
        let raw = try SQLiteEventStore(path: fresh("single-floor.sqlite"))
        let db = raw.database
        let payload = [UInt8](repeating: 1, count: 60), hash = [UInt8](repeating: 7, count: 32)
        var ours: [Double] = [], floor: [Double] = []
        // Alternating, so the disk's good and bad moments fall on both alike.
        for i in 0..<commands {
            // A session has about 25 sets; then the next one starts (not timed).
            if i % 25 == 24 { w = try ledger.execute { try $0.startWorkout(name: "Bench day") } }
            ours.append(
                try Measure.time {
                    _ = try ledger.execute {
                        try $0.logSet(w, exercise: "barbell-bench-press", metrics: SetMetrics(weight: Weight(100 + Double(i % 8), .kg), reps: 5))
                    }
                })
            let id = UUID().bytes16
            floor.append(
                try Measure.time {
                    try db.transaction {
                        try db.with(Self.insert) { s in
                            try Self.bindRow(s, position: Int64(i + 1), id, "workout-bench", SetLogged.eventType, .now(), "bench", payload, hash)
                            try s.run()
                        }
                    }
                })
        }
        return (Measure.median(ours), Measure.median(floor))
    }

    static let insert = """
        INSERT INTO events (position, event_id, stream, stream_version, type, type_code, schema,
            occurred_at, occurred_offset, recorded_at, recorded_offset, device, causation_id, correlation_id, payload, hash)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, NULL, ?, ?)
        """

    static func bindRow(
        _ s: SQLiteStatement, position: Int64, _ id: [UInt8], _ stream: String, _ type: EventType, _ occurred: Timestamp,
        _ device: String, _ payload: [UInt8], _ hash: [UInt8]
    ) throws {
        try s.bind(1, position)
        try s.bind(2, id)
        try s.bind(3, stream)
        try s.bind(4, position)
        try s.bind(5, type.name)
        try s.bind(6, Int64(type.code))
        try s.bind(7, Int64(type.schema))
        try s.bind(8, occurred.millis)
        try s.bind(9, Int64(occurred.offsetMinutes))
        try s.bind(10, occurred.millis)
        try s.bind(11, Int64(occurred.offsetMinutes))
        try s.bind(12, device)
        try s.bind(13, payload)
        try s.bind(14, hash)
    }

    // MARK: Rebuild

    /// Every projection from the log in one pass (the fold, then every view of
    /// it), against a raw scan + decode + one fold (best weight per exercise).
    func rebuild(_ path: String) throws -> (ours: Double, floor: Double, fold: Double) {
        let store = try SQLiteEventStore(path: path)
        var fold: [Double] = []
        let ours = try Measure.median(options.runs) {
            var log = TrainingLogProjection()
            fold.append(try Measure.time { try store.replay { log.apply($0) } })
            _ = Self.allViews(log)
        }
        let floor = try Measure.median(options.runs) {
            var best: [String: Double] = [:]
            try store.replay { r in
                if case .setLogged(let e) = r.event, e.type != .warmup, let w = e.metrics.weight {
                    best[e.exerciseId] = max(best[e.exerciseId] ?? 0, w.kilograms)
                }
            }
            precondition(!best.isEmpty)
        }
        return (ours, floor, Measure.median(fold))
    }

    /// Every view the CLI serves, computed from one fold.
    static func allViews(_ log: TrainingLogProjection) -> Int {
        let now = log.countedWorkouts.last?.startedAt ?? .now()
        var n = PersonalRecordsProjection.compute(log).count
        n += VolumeProjection.rows(log, by: .week).count + VolumeProjection.rows(log, by: .muscle).count
        n += VolumeProjection.rows(log, by: .workout).count
        n += WorkoutHistoryProjection.workouts(log, limit: 50).count
        n += HintIndexProjection.entries(log).count
        for id in ["deadlift", "back-squat", "barbell-bench-press"] {
            n += E1RMTrendProjection.points(log, exerciseId: id).count
            n += LastTimeHintProjection.hint(log, exerciseId: id, context: .init(time: now)).sets.count
        }
        n += EntitlementsProjection.state(log, at: now).activeProducts.count
        return n
    }

    // MARK: Snapshots

    /// Emulates the automatic policy on the generated log: a fold snapshot and a
    /// records milestone every `TrainingLogSnapshots.automaticEvery` events, the
    /// newest three fold snapshots kept, then `ledger snapshot create` at the head.
    func snapshotted(_ base: String, events: Int64) throws -> (path: String, seconds: Double) {
        // Kept between runs, so named by the stored state's versions: a build that folds or stores
        // differently must not be handed snapshots it will (rightly) pass over.
        let versions = "f\(TrainingLogProjection.version)-r\(PersonalRecordsProjection.version)-m\(RecordsMilestone.version)"
        let path = file("log-\(options.events)-v2-snap-\(versions).sqlite")
        if FileManager.default.fileExists(atPath: path) { return (path, 0) }
        let temporary = fresh("log-\(options.events)-v2-snap-\(versions).partial.sqlite")
        try FileManager.default.copyItem(atPath: base, toPath: temporary)
        let seconds = try Measure.time {
            let store = try SQLiteEventStore(path: temporary)
            var log = try Self.snapshot(store, every: TrainingLogSnapshots.automaticEvery, events: events)
            try store.replay(from: log.position + 1) { log.apply($0) }
            try TrainingLogSnapshots.save(store, log)
            try ViewSnapshots.saveAll(store, log, rules: .default)
            try RecordsMilestones.save(store, log, rules: .default)
        }
        try FileManager.default.moveItem(atPath: temporary, toPath: path)
        return (path, seconds)
    }

    /// A fold snapshot and a records milestone every `every` events, the newest
    /// fold snapshots kept as the automatic policy keeps them; the fold at the last one.
    static func snapshot(_ store: SQLiteEventStore, every: Int64, events: Int64) throws -> TrainingLogProjection {
        var log = TrainingLogProjection()
        var next = every
        while next <= events {
            try store.replay(from: log.position + 1, through: next) { log.apply($0) }
            try TrainingLogSnapshots.save(store, log)
            try RecordsMilestones.save(store, log, rules: .default)
            try SnapshotStore(store).prune(keep: SnapshotPolicy.keep, only: TrainingLogSnapshots.key)
            next += every
        }
        return log
    }
}
