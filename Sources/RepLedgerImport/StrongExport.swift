import Foundation
import RepLedgerCore

/// Strong's CSV exports. Their headers come in several layouts and in the
/// app's languages, so columns are found by meaning (`ExportHeader`), in any
/// order; the layouts seen in the wild keep their names in the summary.
enum StrongExport {
    static let required: [ExportColumn] = [.date, .workout, .exercise, .setOrder, .weight, .reps]

    /// The layouts seen in real files, as column meanings in order, with a header to show in a refusal.
    static let layouts: [(name: String, columns: [ExportColumn], example: String)] = [
        (
            "Strong 2016 (kg and km columns)", [.date, .workout, .exercise, .setOrder, .weight, .reps, .distance, .seconds, .notes],
            "Date,Workout Name,Exercise Name,Set Order,kg,Reps,km,Seconds,Notes"
        ),
        (
            "Strong 2017–19 (no duration, no RPE)",
            [.date, .workout, .exercise, .setOrder, .weight, .reps, .distance, .seconds, .notes, .workoutNotes],
            "Date,Workout Name,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,Notes,Workout Notes"
        ),
        (
            "Strong 12-column",
            [.date, .workout, .duration, .exercise, .setOrder, .weight, .reps, .distance, .seconds, .notes, .workoutNotes, .rpe],
            "Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,Notes,Workout Notes,RPE"
        ),
        (
            "Strong 10-column (no notes)", [.date, .workout, .duration, .exercise, .setOrder, .weight, .reps, .distance, .seconds, .rpe],
            "Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,RPE"
        ),
        (
            "Strong current (quoted, ;)",
            [.workoutNumber, .date, .workout, .duration, .exercise, .setOrder, .weight, .reps, .rpe, .distance, .seconds, .notes, .workoutNotes],
            "\"Workout #\";\"Date\";\"Workout Name\";\"Duration (sec)\";\"Exercise Name\";\"Set Order\";\"Weight (kg)\";\"Reps\";\"RPE\";\"Distance (meters)\";\"Seconds\";\"Notes\";\"Workout Notes\""
        ),
        (
            "Strong with unit columns",
            [.date, .workout, .exercise, .setOrder, .weight, .weightUnit, .reps, .rpe, .distance, .distanceUnit, .seconds, .notes, .workoutNotes],
            "Date;Workout Name;Exercise Name;Set Order;Weight;Weight Unit;Reps;RPE;Distance;Distance Unit;Seconds;Notes;Workout Notes"
        ),
        (
            "RepLedger's CSV (Strong's columns with units, set notes, the end, entries and supersets)",
            [
                .date, .workout, .duration, .entry, .exercise, .setOrder, .weight, .weightUnit, .reps, .distance, .distanceUnit,
                .seconds, .notes, .comment, .workoutNotes, .rpe, .workoutEnd, .superset,
            ],
            "Date,Workout Name,Duration,Exercise #,Exercise Name,Set Order,Weight (kg),Weight Unit,Reps,Distance,Distance Unit,Seconds,Notes,Set Notes,Workout Notes,RPE,Workout End,Superset"
        ),
        (
            // Every real file of this layout writes its duration last, `;`- or `,`-separated.
            "Strong with unit columns and duration",
            [
                .date, .workout, .exercise, .setOrder, .weight, .weightUnit, .reps, .rpe, .distance, .distanceUnit, .seconds,
                .notes, .workoutNotes, .duration,
            ],
            "Date;Workout Name;Exercise Name;Set Order;Weight;Weight Unit;Reps;RPE;Distance;Distance Unit;Seconds;Notes;Workout Notes;Workout Duration"
        ),
    ]

    /// What a refusal lists: every layout above, and the languages a header may be in.
    static var examples: [String] {
        layouts.map(\.example) + [
            "the same columns in any order, named in "
                + ExportLanguage.all.map(\.name).joined(separator: ", ")
                + " (e.g. Datum,Workout-Name,Dauer,Name der Übung,Reihenfolge festlegen,Gewicht,Wiederh.,Entfernung,Sekunden,Notizen,Workout-Notizen,RPE)"
        ]
    }

    static func header(of names: [String]) -> ExportHeader? {
        if case .success(let h) = ExportHeader.read(names, required: required) { return h }
        return nil
    }

    static func layoutName(_ h: ExportHeader) -> String {
        let order = h.column.sorted { $0.value < $1.value }.map(\.key)
        var name = layouts.first { $0.columns == order }?.name ?? "Strong (\(order.count) known columns)"
        // 2016's columns are named by their unit, kg and km or lb and mi, with or without Notes.
        if let weight = h.units[.weight], h.weightUnitCell?.lowercased() == weight || h.weightUnitCell?.lowercased() == weight + "s",
            order.starts(with: [.date, .workout, .exercise, .setOrder, .weight, .reps])
        {
            let distance = h.units[.distance].map { " and \($0)" } ?? ""
            name = "Strong 2016 (\(weight)\(distance) columns\(h.column[.notes] == nil ? ", no notes" : ""))"
        }
        if h.language.name != "English" { name += ", \(h.language.name) header" }
        return name
    }

    static func parse(_ csv: CSVText, unit given: WeightUnit?) throws(ImportError) -> ParsedExport {
        let h: ExportHeader
        switch ExportHeader.read(csv.header, required: required) {
        case .success(let read): h = read
        case .failure(let problem):
            throw .unknownHeader(source: "Strong", found: csv.header, expected: examples, problem: problem.description)
        }
        let units = try UnitChoice(header: h, records: csv.records, given: given, source: "Strong")
        let c = h.column
        // Strong's oldest exports number sets from 0; every later one from 1.
        let zeroBased = csv.records.contains { r in c[.setOrder].map { $0 < r.fields.count && r.fields[$0].trimmingSpaces() == "0" } ?? false }
        var out = ParsedExport(
            layout: layoutName(h), unit: units.fileUnit, unitSource: units.source,
            unitEvidence: units.evidence, rows: [], ignoredColumns: h.ignored)
        out.rows.reserveCapacity(csv.records.count)
        let number = c[.workoutNumber]
        for r in csv.records {
            do throws(ImportError) {
                guard r.fields.count == csv.header.count else {
                    throw .malformedRow(line: r.line, reason: "expected \(csv.header.count) fields, found \(r.fields.count)")
                }
                out.rows.append(try row(r, header: h, units: units, zeroBased: zeroBased, workoutNumber: number))
            } catch .malformedRow(let line, let reason) {
                out.skipped.add(reason, line: line, refused: true)
            }
        }
        return out
    }

    private static func row(
        _ r: CSVRecord, header h: ExportHeader, units: UnitChoice, zeroBased: Bool,
        workoutNumber: Int?
    ) throws(ImportError) -> ImportedRow {
        let line = r.line
        func f(_ column: ExportColumn) -> String { h.column[column].map { r.fields[$0] } ?? "" }
        let start = try ImportValues.wallClock(f(.date), line: line, column: "date")
        let workoutName = ImportValues.name(f(.workout))
        let exercise = ImportValues.name(f(.exercise))
        guard !exercise.isEmpty else { throw .malformedRow(line: line, reason: "the exercise name is empty") }
        let order = f(.setOrder).trimmingSpaces()
        let seconds = try ImportValues.duration(f(.seconds), line: line)
        var setNumber: Int? = nil
        let kind: ImportedRow.Kind
        switch h.setOrder(order) {
        case .type(let type): kind = .set(type)
        case .rest: kind = .rest(seconds: Int((seconds ?? 0).rounded()))
        case .note:
            guard let text = ImportValues.note(f(.notes)) else {
                throw .malformedRow(line: line, reason: "a note row with an empty Notes column")
            }
            kind = .note(text)
        case .number(let n):
            kind = .set(.normal)
            setNumber = zeroBased ? n + 1 : n
        case nil:
            throw .malformedRow(
                line: line, reason: "set order '\(order)' is not a set number, a warm-up, drop or failure marker, a rest timer or a note")
        }
        var metrics = SetMetrics()
        if case .set = kind {
            if let w = ImportValues.positive(try ImportValues.number(f(.weight), line: line, column: "weight")) {
                metrics.weight = ImportValues.weight(w, try units.weightUnit(f(.weightUnit), line: line))
            }
            let reps = try ImportValues.reps(f(.reps), line: line)
            metrics.durationSeconds = ImportValues.positive(seconds)
            metrics.distanceMeters = try ImportValues.distance(f(.distance), unit: units.distanceUnit(f(.distanceUnit)), line: line)
            metrics.reps = reps
            metrics.rpe = try ImportValues.rpe(f(.rpe), line: line)
        }
        // The workout number and the duration are the workout's bookkeeping, not part of the set: a
        // workout written twice under two numbers, or with the timer stopped later in one copy, is
        // still the same workout.
        var fields = r.fields
        if let n = workoutNumber { fields[n] = "" }
        if let d = h.column[.duration] { fields[d] = "" }
        // A duration in words the importer does not know costs the workout its end, not its sets.
        var duration: Double?, durationUnread: String?
        do throws(ImportError) {
            duration = try ImportValues.duration(f(.duration), line: line)
        } catch .malformedRow(_, let reason) {
            durationUnread = reason
        }
        let endText = f(.workoutEnd).trimmingSpaces()
        let end = endText.isEmpty ? nil : try ImportValues.wallClock(endText, line: line, column: "workout end")
        let superset = f(.superset).trimmingSpaces()
        var row = ImportedRow(
            line: line, workoutKey: start.text + "|" + workoutName, workoutName: workoutName, start: start, end: end,
            durationSeconds: duration, exercise: exercise, category: nil, kind: kind,
            setNumber: setNumber, metrics: metrics, signature: fields.joined(separator: "\u{1F}"),
            exerciseNotes: kind.isNote ? nil : ImportValues.note(f(.notes)), workoutNotes: ImportValues.note(f(.workoutNotes)),
            supersetKey: superset.isEmpty ? nil : superset)
        row.durationUnread = durationUnread
        row.setNotes = ImportValues.note(f(.comment))
        let entry = f(.entry).trimmingSpaces()
        row.entryKey = entry.isEmpty ? nil : entry
        return row
    }
}

extension ExportHeader.HeaderProblem: CustomStringConvertible {
    var description: String {
        switch self {
        case .missing(let columns): return "no column for " + columns.map(\.englishName).joined(separator: ", ")
        case .repeated(let cell): return "'\(cell)' repeats a column already there"
        }
    }
}
