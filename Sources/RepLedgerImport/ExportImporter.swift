import Crypto
import Foundation
import RepLedgerCore

/// What an import did, for the CLI's summary and JSON answer.
public struct ImportSummary: Sendable {
    public var source: ImportSource
    public var layout = ""
    /// The unit most of the file's weights are in; each set keeps its own.
    public var unit: WeightUnit = .kg
    public var unitSource: ImportUnitSource = .flag
    /// The header cell that states the unit (`weight_kg`, `Weight (lbs)`), when one does.
    public var unitEvidence: String?
    /// `--unit` was given but the file states its unit, which was used instead.
    public var unitFlagIgnored: WeightUnit?
    /// Header cells no vocabulary knows; their values were not imported.
    public var ignoredColumns: [String] = []
    /// Rows of workouts an earlier import already brought in.
    public var rowsAlreadyPresent = 0
    /// Notes cut to the ledger's 10,000 characters (their sets were kept).
    public var shortenedNotes: [SkippedRow] = []
    /// Workouts whose duration could not be read: their sets were kept, their end is unknown.
    public var unreadDurations: [SkippedRow] = []
    public var timeZone = ""
    public var rows = 0
    public var workouts = 0
    /// Workouts of the file that an earlier import already brought in.
    public var workoutsAlreadyPresent = 0
    /// Of those, the ones recognised by name and minute only: one side had lost its
    /// seconds, as a spreadsheet's re-save of an export drops them.
    public var workoutsRecognisedWithoutSeconds = 0
    public var sets = 0
    public var restFacts = 0
    /// Rows that are an exercise's note, not a set (Strong's `Note` set-order rows).
    public var noteRows = 0
    public var exercisesCreated: [String] = []
    /// Exercise names the library has under another name, each with the library's name, in the file's order.
    public var exercisesMatched: [(file: String, library: String)] = []
    public var skipped = SkippedRows()
    public var alreadyImported = false
    /// The lifting-unit setting was still the default and now follows the file's unit.
    public var unitSettingChanged = false
    public var batchId = UUID.zero
    public var firstWorkout: Timestamp?
    public var lastWorkout: Timestamp?
}

/// What the importer needs to know besides the file.
public struct ImportRequest: Sendable {
    public var source: ImportSource
    public var text: String
    public var fileName: String
    public var unit: WeightUnit?
    public var timeZone: ImportTimeZone
    /// Import the rest when some rows cannot be read or hold a value the ledger
    /// refuses, leaving each of those out with its line and reason. By default
    /// such a row refuses the whole file (`ImportError.unreadableRows`): an
    /// import that succeeds has left out only rows of the harmless kinds
    /// (blank rows, a second copy of a workout, a rest timer with no set).
    public var skipUnreadable: Bool

    public init(
        source: ImportSource, text: String, fileName: String, unit: WeightUnit? = nil, timeZone: ImportTimeZone = .current,
        skipUnreadable: Bool = false
    ) {
        self.source = source
        self.text = text
        self.fileName = fileName
        self.unit = unit
        self.timeZone = timeZone
        self.skipUnreadable = skipUnreadable
    }
}

extension Ledger {
    /// Imports a Strong, Hevy or FitNotes export in one transaction: all of
    /// it or, on any refusal, nothing. Workouts get ids derived from their
    /// identity in the app, so a re-import, or a newer export that contains
    /// an older one, adds only the workouts the ledger lacks.
    public func importExport(_ request: ImportRequest, progress: ((Int, Int) -> Void)? = nil) throws -> ImportSummary {
        let csv = try CSVText(text: request.text, path: request.fileName)
        let parsed = try Self.parse(csv, source: request.source, unit: request.unit, zone: request.timeZone)
        let digest = SHA256.hash(data: Array(request.text.utf8)).map { String(format: "%02x", $0) }.joined()
        var summary = ImportSummary(source: request.source)
        summary.layout = parsed.layout
        summary.unit = parsed.unit
        summary.unitSource = parsed.unitSource
        summary.unitEvidence = parsed.unitEvidence
        if let flag = request.unit, parsed.unitSource != .flag { summary.unitFlagIgnored = flag }
        summary.ignoredColumns = parsed.ignoredColumns
        summary.timeZone = request.timeZone.name
        summary.rows = csv.records.count
        summary.skipped = parsed.skipped
        summary.batchId = UUID.derived(from: "import/v1/\(request.source.rawValue)/\(digest)")
        guard try store.version(of: .importBatch(summary.batchId)) == 0 else {
            summary.alreadyImported = true
            return summary
        }
        // Decided and appended under one write lock; a refused import appends nothing, the library seed included.
        let (done, appended) = try store.writeTransaction {
            try importDecided(request, parsed: parsed, digest: digest, summary: summary, progress: progress)
        }
        if appended { try afterAppend?(store) }
        return done
    }

    private func importDecided(
        _ request: ImportRequest, parsed: ParsedExport, digest: String, summary: ImportSummary,
        progress: ((Int, Int) -> Void)?
    ) throws -> (ImportSummary, appended: Bool) {
        var summary = summary
        let (library, seed) = try libraryWithSeed()
        let groups = ImportPlan.workouts(parsed.rows, in: request.timeZone)
        var plan = ImportPlan(
            request: request, parsed: parsed, workouts: groups, batchId: summary.batchId,
            session: CommandSession(
                library: library, account: try account(),
                context: CommandContext(occurredAt: .now(), device: "import", commandId: summary.batchId),
                ids: .random))
        // A lifter who never chose a unit and brings a history in pounds wants to see pounds.
        if parsed.unit != plan.session.account.liftingUnit, !plan.session.account.liftingUnitChosen {
            try plan.session.setLiftingUnit(parsed.unit)
            summary.unitSettingChanged = true
        }
        var secondless = try ImportedWorkouts(store)
        var done = 0
        for group in groups {
            var probe = ImportPlan.ids(for: group.key, source: request.source, start: group.rows[0].start)
            if try store.version(of: .workout(probe.next())) > 0 {
                summary.workoutsAlreadyPresent += 1
                summary.rowsAlreadyPresent += group.rows.count
            } else if secondless.claim(name: group.rows[0].workoutName, start: group.rows[0].start) {
                summary.workoutsAlreadyPresent += 1
                summary.workoutsRecognisedWithoutSeconds += 1
                summary.rowsAlreadyPresent += group.rows.count
            } else {
                try plan.add(group)
            }
            done += group.rows.count
            progress?(done, parsed.rows.count)
        }
        summary.workouts = plan.workouts
        summary.sets = plan.sets
        summary.restFacts = plan.restFacts
        summary.noteRows = plan.noteRows
        summary.exercisesCreated = plan.exercisesCreated
        summary.exercisesMatched = plan.exercisesMatched
        summary.skipped = plan.skipped
        summary.skipped.sortByLine()
        summary.shortenedNotes = plan.shortenedNotes
        summary.unreadDurations = plan.unreadDurations
        summary.firstWorkout = plan.first
        summary.lastWorkout = plan.last
        guard plan.workouts > 0 else {
            // A file whose every row was left out is refused, not reported as a success that appended nothing.
            guard summary.workoutsAlreadyPresent > 0 || summary.rows == 0 else {
                throw ImportError.nothingImported(
                    rows: summary.rows, reasons: summary.skipped.commonest.map { ImportError.ReasonCount(reason: $0.reason, count: $0.count) })
            }
            summary.alreadyImported = summary.workoutsAlreadyPresent > 0
            return (summary, false)
        }
        // Only the harmless kinds of skipped row let an import succeed unasked.
        if !request.skipUnreadable, let first = summary.skipped.refused.first {
            throw ImportError.unreadableRows(line: first.line, reason: first.reason, count: summary.skipped.refused.count)
        }

        var started = ImportBatchStarted()
        started.batchId = summary.batchId
        started.source = request.source
        started.fileName = (request.fileName as NSString).lastPathComponent
        started.fileDigest = digest
        started.rows = summary.rows
        var finished = ImportBatchFinished()
        finished.batchId = summary.batchId
        finished.workouts = summary.workouts
        finished.sets = summary.sets
        finished.exercisesCreated = summary.exercisesCreated.count
        finished.skipped = summary.skipped.total
        let now = Timestamp.now()
        func batchEvent(_ e: LedgerEvent, _ n: String) -> ProposedEvent {
            ProposedEvent(
                eventId: .derived(from: "import/v1/\(summary.batchId.lowercased)/\(n)"), event: e, occurredAt: now,
                device: "import", causationId: summary.batchId, correlationId: summary.batchId)
        }
        let events =
            seed + [batchEvent(.importBatchStarted(started), "started")] + plan.session.pending
            + [batchEvent(.importBatchFinished(finished), "finished")]
        var expectations = plan.session.expectations
        expectations[.importBatch(summary.batchId)] = .exactly(0)
        if !seed.isEmpty { expectations[.library] = .exactly(0) }
        let appended = try store.append(events, expecting: expectations)
        return (summary, !appended.appended.isEmpty)
    }

    /// Reads the file, then checks every set's values as the deciders will:
    /// a refused row is set aside with its reason (the import refuses the
    /// file for it unless asked to skip such rows).
    static func parse(
        _ csv: CSVText, source: ImportSource, unit: WeightUnit?, zone: ImportTimeZone
    ) throws(ImportError) -> ParsedExport {
        var parsed = try read(csv, source: source, unit: unit, zone: zone)
        // Every app writes 0 reps on a timed or cardio row for "not counted".
        for i in parsed.rows.indices where parsed.rows[i].metrics.reps == 0 {
            let m = parsed.rows[i].metrics
            if m.durationSeconds != nil || m.distanceMeters != nil { parsed.rows[i].metrics.reps = nil }
        }
        parsed.rows.removeAll { row in
            var problem: (reason: String, kind: String)?
            switch row.kind {
            case .set:
                do throws(Refusal) { try SetValidation.validate(row.metrics) } catch { problem = (error.description, kind(of: error)) }
            case .rest(let seconds):
                if !(0...Invariants.restTakenLimitSeconds).contains(seconds) {
                    problem = ("rest timer of \(seconds) s is longer than a day", "a rest timer longer than a day")
                }
            case .note: break
            }
            if let problem { parsed.skipped.add(problem.reason, line: row.line, refused: true, kind: problem.kind) }
            return problem != nil
        }
        return parsed
    }

    /// A refused value's kind of reason, without the value: what the summary counts.
    static func kind(of refusal: Refusal) -> String {
        switch refusal {
        case .repsOutOfRange: return "reps out of range (0 to 1000)"
        case .invalidRPE: return "RPE not from 1 to 10 in steps of 0.5"
        case .invalidMeasure(let what, let reason): return "\(what.split(separator: " ").first ?? "value") refused: \(reason)"
        default: return refusal.description
        }
    }

    static func read(_ csv: CSVText, source: ImportSource, unit: WeightUnit?, zone: ImportTimeZone) throws(ImportError) -> ParsedExport {
        func recognised(_ s: ImportSource) -> Bool {
            switch s {
            case .strong: return StrongExport.header(of: csv.header) != nil
            case .hevy: return HevyExport.layout(of: csv.header) != nil
            case .fitnotes: return FitNotesExport.header(of: csv.header) != nil || FitNotesIOSExport.columns(of: csv.header) != nil
            default: return false
            }
        }
        if !recognised(source), let other = [ImportSource.strong, .hevy, .fitnotes].first(where: recognised) {
            throw .wrongSource(named: source.displayName, looksLike: other.rawValue)
        }
        switch source {
        case .strong: return try StrongExport.parse(csv, unit: unit)
        case .hevy: return try HevyExport.parse(csv)
        case .fitnotes:
            if FitNotesIOSExport.columns(of: csv.header) != nil || FitNotesIOSExport.looksLikeIOS(csv.header) {
                return try FitNotesIOSExport.parse(csv, unit: unit, zone: zone)
            }
            return try FitNotesExport.parse(csv, unit: unit)
        default: throw .unknownHeader(source: source.rawValue, found: csv.header, expected: [])
        }
    }
}

extension ImportSource {
    public var displayName: String {
        switch self {
        case .strong: return "Strong"
        case .hevy: return "Hevy"
        case .fitnotes: return "FitNotes"
        case .jsonl: return "JSONL"
        case .demo: return "demo"
        }
    }
}
