import Crypto
import Foundation
import RepLedgerCore

/// Turns an export's rows into ledger commands, workout by workout, through
/// the same `CommandSession` deciders as the CLI: every set is validated
/// like a typed one, and a refusal names the file's line.
struct ImportPlan {
    struct WorkoutRows {
        var key: String
        var start: Timestamp
        var rows: [ImportedRow]
    }

    let request: ImportRequest
    let batchId: UUID
    var session: CommandSession
    var workouts = 0
    var sets = 0
    var restFacts = 0
    var noteRows = 0
    var exercisesCreated: [String] = []
    /// Names the library has under another name: (the file's, the library's).
    var exercisesMatched: [(file: String, library: String)] = []
    var skipped: SkippedRows
    /// Notes cut to the ledger's limit: the set is kept, the rest of the note is not.
    var shortenedNotes: [SkippedRow] = []
    /// Workouts whose duration could not be read: imported whole, with no end.
    var unreadDurations: [SkippedRow] = []
    var first: Timestamp?
    var last: Timestamp?
    /// Lower-cased name in the file → exercise id in the library.
    private var exerciseIds: [String: String] = [:]
    /// Lower-cased names whose every row measured time or distance only.
    private let timedOnly: Set<String>
    /// The file writes some workout of several exercises twice over, so it is
    /// an export that duplicates workouts (see `skippingRepeatedCopies`).
    private let writesWorkoutsTwice: Bool

    /// A workout without a stated end is closed at start + duration, unless the
    /// duration is longer than this (a session never stopped in the app).
    static let longestBelievableWorkout = 12.0 * 3600

    /// `workouts` are the file's rows grouped (`workouts(_:in:)`).
    init(request: ImportRequest, parsed: ParsedExport, workouts: [WorkoutRows], batchId: UUID, session: CommandSession) {
        self.request = request
        self.batchId = batchId
        self.session = session
        self.skipped = parsed.skipped
        var withReps = Set<String>(), timed = Set<String>()
        for r in parsed.rows {
            guard case .set = r.kind else { continue }
            let key = r.exercise.lowercased()
            if r.metrics.reps != nil && r.metrics.reps != 0 {
                withReps.insert(key)
            } else if r.metrics.durationSeconds != nil || r.metrics.distanceMeters != nil {
                timed.insert(key)
            }
        }
        timedOnly = timed.subtracting(withReps)
        writesWorkoutsTwice = workouts.contains { w in
            Self.repeatPeriod(w.rows.map(\.signature)).map { p in Set(w.rows[..<p].map { $0.exercise.lowercased() }).count >= 2 } ?? false
        }
    }

    /// Rows grouped by workout, in training order (Hevy writes newest first).
    static func workouts(_ rows: [ImportedRow], in zone: ImportTimeZone) -> [WorkoutRows] {
        var index: [String: Int] = [:]
        var groups: [WorkoutRows] = []
        for r in rows {
            if let i = index[r.workoutKey] {
                groups[i].rows.append(r)
            } else {
                index[r.workoutKey] = groups.count
                groups.append(WorkoutRows(key: r.workoutKey, start: r.start.timestamp(in: zone), rows: [r]))
            }
        }
        return groups.enumerated().sorted { a, b in
            a.element.start.millis != b.element.start.millis ? a.element.start.millis < b.element.start.millis : a.offset < b.offset
        }.map(\.element)
    }

    /// Ids for one workout's events, derived from the workout's identity in
    /// its app: the first is the workout id, so a re-import finds it. They are
    /// time-ordered at the workout's wall-clock start (not its zoned time, so
    /// importing again under another --timezone still finds the workout).
    static func ids(for key: String, source: ImportSource, start: WallClock) -> IdentifierSource {
        let digest = Array(SHA256.hash(data: Array("import/v1/\(source.rawValue)/\(key)".utf8)))
        let seed = digest.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        return .seeded(seed, orderedAt: start.naiveSeconds * 1000)
    }

    /// Turns one workout's rows into events. Every set row becomes a set or a
    /// skipped row with its reason; nothing is dropped without one.
    mutating func add(_ group: WorkoutRows) throws {
        let rows = skippingRepeatedCopies(group.rows)
        // A workout with nothing but empty rows is not a workout.
        guard rows.contains(where: { if case .set = $0.kind { return Self.measured($0.metrics) } else { return false } }) else {
            // Written as each row is met, so a Note row here is one of a workout with no set either.
            for r in rows { skipped.add("workout without any measured set", line: r.line) }
            return
        }
        session.ids = Self.ids(for: group.key, source: request.source, start: group.rows[0].start)
        at(group.start)
        let first = rows[0]
        let workoutId = try session.startWorkout(name: String(first.workoutName.prefix(200)))
        let reuseEntries = request.source == .fitnotes  // FitNotes interleaves exercises within a day
        // The entry sets go into, and the app's number of its last set: a number
        // that does not go up starts a new block of the same exercise.
        var entry: (exercise: String, id: UUID, lastNumber: Int?)?
        var entryByExercise: [String: UUID] = [:]
        var entryByKey: [String: UUID] = [:]
        var noted = Set<UUID>()
        var supersets: [(key: String, entry: UUID)] = []
        var lastSet: UUID?
        var lastRestAfter: UUID?
        /// Notes from `Note` rows whose exercise has no entry yet (Strong writes them before its sets).
        var pendingNotes: [String: (text: String, line: Int)] = [:]
        func noteEntry(_ entryId: UUID, exerciseId: String, plan: inout ImportPlan) throws {
            guard let pending = pendingNotes.removeValue(forKey: exerciseId), noted.insert(entryId).inserted else { return }
            let text = plan.shortened(pending.text, line: pending.line, what: "exercise note")
            try plan.refusing(line: pending.line) { try $0.setNote(workoutId, entryId: entryId, text: text) }
        }

        for r in rows {
            switch r.kind {
            case .rest(let seconds):
                guard let after = lastSet else { skipped.add("rest timer before any set", line: r.line); continue }
                guard lastRestAfter != after else { skipped.add("duplicate rest timer row", line: r.line); continue }
                try refusing(line: r.line) { try $0.startRestTimer(workoutId, seconds: seconds, afterSetId: after) }
                lastRestAfter = after
                restFacts += 1
            case .note(let text):
                noteRows += 1
                guard let exerciseId = exerciseOrRefusal(for: r) else { continue }
                if let current = entry, current.exercise == exerciseId {
                    pendingNotes[exerciseId] = (text, r.line)
                    try noteEntry(current.id, exerciseId: exerciseId, plan: &self)
                } else {
                    pendingNotes[exerciseId] = (text, r.line)
                }
            case .set(let type):
                guard Self.measured(r.metrics) else { skipped.add("set without weight, reps, time or distance", line: r.line); continue }
                guard let exerciseId = exerciseOrRefusal(for: r) else { continue }
                let entryId: UUID
                if let key = r.entryKey, let id = entryByKey[key] {
                    entryId = id
                } else if r.entryKey == nil, reuseEntries, let id = entryByExercise[exerciseId] {
                    entryId = id
                } else if r.entryKey == nil, !reuseEntries, let current = entry, current.exercise == exerciseId,
                    !Self.restarts(r.setNumber, after: current.lastNumber)
                {
                    entryId = current.id
                } else {
                    entryId = try refusing(line: r.line) { try $0.addExercise(workoutId, exercise: exerciseId) }
                    entryByExercise[exerciseId] = entryId
                    if let key = r.entryKey { entryByKey[key] = entryId }
                    entry = (exerciseId, entryId, nil)
                    if let s = r.supersetKey { supersets.append((s, entryId)) }
                }
                try noteEntry(entryId, exerciseId: exerciseId, plan: &self)
                if let n = r.setNumber { entry?.lastNumber = n }
                // Another app's history is a fact: a set it recorded is kept even if our exercise kind
                // would ask for another measure (a strength lift Strong timed, say).
                let setNote = r.setNotes.map { shortened($0, line: r.line, what: "set note") }
                lastSet = try refusing(line: r.line) {
                    try $0.logSet(
                        workoutId, exercise: exerciseId, type: type, metrics: r.metrics, notes: setNote,
                        entryId: entryId, checkKind: false)
                }
                sets += 1
                if let note = r.exerciseNotes, noted.insert(entryId).inserted {
                    let text = shortened(note, line: r.line, what: "exercise note")
                    try refusing(line: r.line) { try $0.setNote(workoutId, entryId: entryId, text: text) }
                }
            }
        }
        // A note of an exercise with no set in the workout keeps the exercise, as the app showed it.
        for (exerciseId, pending) in pendingNotes.sorted(by: { $0.value.line < $1.value.line }) {
            let entryId = try refusing(line: pending.line) { try $0.addExercise(workoutId, exercise: exerciseId) }
            pendingNotes[exerciseId] = pending
            try noteEntry(entryId, exerciseId: exerciseId, plan: &self)
        }
        if let noted = rows.first(where: { $0.workoutNotes != nil }), let note = noted.workoutNotes {
            let text = shortened(note, line: noted.line, what: "workout note")
            try refusing(line: noted.line) { try $0.setNote(workoutId, text: text) }
        }
        for (_, linked) in Dictionary(grouping: supersets, by: \.key).sorted(by: { $0.key < $1.key }) where linked.count >= 2 {
            try refusing(line: rows[0].line) { try $0.linkSuperset(workoutId, entryIds: linked.map(\.entry)) }
        }
        if let reason = first.durationUnread {
            unreadDurations.append(SkippedRow(line: first.line, reason: reason + "; the workout's end is left unknown", refused: false))
        }
        at(end(of: first, start: group.start))
        try session.finishWorkout(workoutId)
        workouts += 1
        if self.first.map({ group.start < $0 }) ?? true { self.first = group.start }
        if self.last.map({ $0 < group.start }) ?? true { self.last = group.start }
    }

    /// Both apps number a second block of an exercise from the start again: a
    /// set number that does not go up is a new block, not a repeat.
    static func restarts(_ number: Int?, after last: Int?) -> Bool {
        guard let number, let last else { return false }
        return number <= last
    }

    /// A whole workout written twice (or more) in one file is an export
    /// artefact: when a workout's rows are one run of rows repeated, field for
    /// field, only the first copy is kept. Nothing else counts as a duplicate:
    /// a repeated block of an exercise, even with the same numbers, is real.
    /// A run of one exercise repeated is both a one-exercise workout written
    /// twice and two identical blocks of it; it is taken for a duplicate only
    /// in a file seen writing workouts of several exercises twice, since losing
    /// real sets is worse than showing a block twice.
    /// FitNotes has no set numbers, so its identical rows are always real sets.
    /// The copies may disagree on the workout's duration (the timer stopped later in one of them):
    /// the shortest one an app could have recorded is kept.
    mutating func skippingRepeatedCopies(_ rows: [ImportedRow]) -> [ImportedRow] {
        guard let period = Self.repeatPeriod(rows.map(\.signature)),
            writesWorkoutsTwice || Set(rows[..<period].map { $0.exercise.lowercased() }).count >= 2
        else { return rows }
        for r in rows[period...] {
            skipped.add("the workout is written again in the file (an export duplicate)", line: r.line)
        }
        var kept = Array(rows[..<period])
        let durations = stride(from: 0, to: rows.count, by: period).compactMap { rows[$0].durationSeconds }.filter { $0 > 0 }
        if let shortest = durations.min() { kept[0].durationSeconds = shortest }
        return kept
    }

    /// The shortest run that the whole sequence is two or more copies of, if any.
    static func repeatPeriod(_ signatures: [String]) -> Int? {
        let n = signatures.count
        guard n >= 2, !signatures.contains(where: \.isEmpty) else { return nil }
        for p in 1...(n / 2) where n % p == 0 {
            if (p..<n).allSatisfy({ signatures[$0] == signatures[$0 % p] }) { return p }
        }
        return nil
    }

    /// The row's exercise id, or nil with the row set aside as unreadable.
    private mutating func exerciseOrRefusal(for row: ImportedRow) -> String? {
        do {
            return try exercise(for: row)
        } catch ImportError.malformedRow(let line, let reason) {
            skipped.refuse(reason, line: line)
        } catch {
            skipped.refuse("\(error)", line: row.line)
        }
        return nil
    }

    /// A note longer than the ledger keeps (DOMAIN's 10,000 characters) is cut there, and the cut reported.
    fileprivate mutating func shortened(_ text: String, line: Int, what: String) -> String {
        let limit = SetValidation.noteLimit
        guard text.count > limit else { return text }
        shortenedNotes.append(SkippedRow(line: line, reason: "\(what) of \(text.count) characters cut to \(limit)", refused: false))
        return String(text.prefix(limit))
    }

    /// A set with anything measured, a load alone included (a sled pushed, a carry held): a set with a load is a set.
    static func measured(_ m: SetMetrics) -> Bool {
        m.reps != nil || m.durationSeconds != nil || m.distanceMeters != nil || (m.weight?.value ?? 0) > 0
    }

    private func end(of row: ImportedRow, start: Timestamp) -> Timestamp {
        if let end = row.end {
            let t = end.timestamp(in: request.timeZone)
            return t.millis >= start.millis ? t : start
        }
        if let d = row.durationSeconds, d > 0, d <= Self.longestBelievableWorkout {
            return start.adding(seconds: Int64(d.rounded()))
        }
        return start
    }

    private mutating func at(_ t: Timestamp) {
        session.context = CommandContext(
            occurredAt: t, device: request.source.device,
            commandId: batchId, correlationId: batchId)
    }

    /// Runs a decider; a domain refusal becomes an import error on the row's line.
    @discardableResult
    fileprivate mutating func refusing<T>(line: Int, _ body: (inout CommandSession) throws -> T) throws -> T {
        do {
            return try body(&session)
        } catch let refusal as Refusal {
            throw ImportError.malformedRow(line: line, reason: refusal.description)
        }
    }

    /// The library's exercise of that name (any case), or a new custom exercise, made once.
    private mutating func exercise(for row: ImportedRow) throws -> String {
        let key = row.exercise.lowercased()
        if let id = exerciseIds[key] { return id }
        let id: String
        do {
            id = try session.library.resolveExactly(row.exercise, active: true).exerciseId
        } catch .unknownExercise {
            if let known = session.library.importMatch(row.exercise) {
                exercisesMatched.append((row.exercise, known.name))
                exerciseIds[key] = known.exerciseId
                return known.exerciseId
            }
            let g = ExerciseGuess.guess(name: row.exercise, category: row.category, timedOnly: timedOnly.contains(key))
            let name = String(row.exercise.prefix(100))
            id = try refusing(line: row.line) {
                try $0.defineExercise(name: name, primaryMuscles: [g.muscle], equipment: g.equipment, kind: g.kind)
            }
            exercisesCreated.append(name)
        } catch .ambiguousExercise(_, let matches) {
            id = matches[0]
        } catch {
            throw ImportError.malformedRow(line: row.line, reason: error.description)
        }
        exerciseIds[key] = id
        return id
    }
}
