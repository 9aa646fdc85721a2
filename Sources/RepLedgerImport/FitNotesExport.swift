import Foundation
import RepLedgerCore

/// FitNotes' CSV export: one row per set, one workout per day, no set
/// numbers, and exercise names (or comments) that may hold unquoted commas.
/// Columns are found by meaning, so the layouts with a unit column, with the
/// unit in the header and with a trailing `Comment` are one reader.
enum FitNotesExport {
    static let required: [ExportColumn] = [.date, .exercise, .category, .weight, .reps]
    static let examples = [
        "Date,Exercise,Category,Weight,Weight Unit,Reps,Distance,Distance Unit,Time",
        "Date,Exercise,Category,Weight,Weight Unit,Reps,Distance,Distance Unit,Time,Comment",
        "Date,Exercise,Category,Weight (lbs)|Weight (kgs),Reps,Distance,Distance Unit,Time",
        FitNotesIOSExport.examples[0] + " (the iOS app)",
        FitNotesIOSExport.examples[1] + " (the iOS app, newer)",
    ]

    /// A FitNotes header: its columns, and none of Strong's (a set order or a workout name).
    static func header(of names: [String]) -> ExportHeader? {
        guard case .success(let h) = ExportHeader.read(names, required: required),
            h.column[.setOrder] == nil, h.column[.workout] == nil
        else { return nil }
        return h
    }

    static func layoutName(_ h: ExportHeader) -> String {
        var parts = [h.column[.weightUnit] != nil ? "Weight Unit column" : "unit in header"]
        if h.column[.comment] != nil { parts.append("Comment column") }
        return "FitNotes (" + parts.joined(separator: ", ") + ")"
    }

    /// Maps a row's fields onto the header. A row with too many fields has
    /// unquoted commas in its exercise name or in its trailing comment: the
    /// extra fields are joined back where the row then reads as a FitNotes
    /// row (a date first, a number or nothing as the weight).
    static func repaired(_ fields: [String], header h: ExportHeader, columns: Int) -> [String]? {
        if fields.count == columns { return fields }
        guard fields.count > columns else { return nil }
        let extra = fields.count - columns
        var places = [h.column[.exercise]].compactMap { $0 }
        if let comment = h.column[.comment], comment == columns - 1 { places.append(comment) }
        for at in places {
            let joined = Array(fields[..<at]) + [fields[at...(at + extra)].joined(separator: ",")] + Array(fields[(at + extra + 1)...])
            let weight = h.column[.weight].map { joined[$0].trimmingSpaces() } ?? ""
            if weight.isEmpty || Double(weight) != nil { return joined }
        }
        return nil
    }

    static func parse(_ csv: CSVText, unit given: WeightUnit?) throws(ImportError) -> ParsedExport {
        guard let h = header(of: csv.header) else {
            let problem: String?
            if case .failure(let p) = ExportHeader.read(csv.header, required: required) { problem = p.description } else { problem = nil }
            throw .unknownHeader(source: "FitNotes", found: csv.header, expected: examples, problem: problem)
        }
        let units = try UnitChoice(header: h, records: csv.records, given: given, source: "FitNotes")
        var out = ParsedExport(
            layout: layoutName(h), unit: units.fileUnit, unitSource: units.source,
            unitEvidence: units.evidence, rows: [], ignoredColumns: h.ignored)
        out.rows.reserveCapacity(csv.records.count)
        var firstCategory: [String: [String]] = [:]
        for r in csv.records {
            do throws(ImportError) {
                guard let fields = repaired(r.fields, header: h, columns: csv.header.count) else {
                    throw .malformedRow(line: r.line, reason: "expected \(csv.header.count) fields, found \(r.fields.count)")
                }
                let row = try row(fields, line: r.line, header: h, units: units)
                if let category = row.category, !(firstCategory[row.workoutKey]?.contains(category) ?? false) {
                    firstCategory[row.workoutKey, default: []].append(category)
                }
                out.rows.append(row)
            } catch .malformedRow(let line, let reason) {
                out.skipped.add(reason, line: line, refused: true)
            }
        }
        // A day gets its name from what was trained: "Chest & Triceps".
        for i in out.rows.indices {
            let cats = firstCategory[out.rows[i].workoutKey] ?? []
            out.rows[i].workoutName = cats.isEmpty ? "FitNotes workout" : cats.prefix(3).joined(separator: " & ")
        }
        return out
    }

    private static func row(_ fields: [String], line: Int, header h: ExportHeader, units: UnitChoice) throws(ImportError) -> ImportedRow {
        func f(_ column: ExportColumn) -> String { h.column[column].map { fields[$0] } ?? "" }
        // A day; a re-saved file may carry a time as well, which FitNotes never had.
        let day = try ImportValues.wallClock(f(.date), line: line, column: "date")
        let exercise = ImportValues.name(f(.exercise))
        guard !exercise.isEmpty else { throw .malformedRow(line: line, reason: "the exercise name is empty") }
        let category = ImportValues.name(f(.category))
        var metrics = SetMetrics()
        if let w = ImportValues.positive(try ImportValues.number(f(.weight), line: line, column: "weight")) {
            metrics.weight = ImportValues.weight(w, try units.weightUnit(f(.weightUnit), line: line))
        }
        metrics.reps = try ImportValues.reps(f(.reps), line: line)
        metrics.distanceMeters = try ImportValues.distance(f(.distance), unit: units.distanceUnit(f(.distanceUnit)), line: line)
        metrics.durationSeconds = ImportValues.positive(try ImportValues.duration(f(.seconds), line: line))
        let key = String(day.text.prefix(10))
        var start = WallClock(year: day.year, month: day.month, day: day.day)
        start.hour = 12  // no time in the file: noon keeps the day whatever the zone
        return ImportedRow(
            line: line, workoutKey: key, workoutName: "", start: start, end: nil,
            durationSeconds: nil, exercise: exercise, category: category.isEmpty ? nil : category, kind: .set(.normal),
            setNumber: nil, metrics: metrics, signature: "",  // no set numbers: duplicates are real sets here
            exerciseNotes: nil, workoutNotes: nil, supersetKey: nil, setNotes: ImportValues.note(f(.comment)))
    }
}
