import Foundation
import RepLedgerCore

/// Hevy's CSV export: one header, with the units in the column names.
enum HevyExport {
    static let columns = [
        "title", "start_time", "end_time", "description", "exercise_title", "superset_id", "exercise_notes",
        "set_index", "set_type", "weight", "reps", "distance", "duration_seconds", "rpe",
    ]
    static let example =
        "title,start_time,end_time,description,exercise_title,superset_id,exercise_notes,set_index,set_type,weight_kg|weight_lbs,reps,distance_km|distance_miles,duration_seconds,rpe"

    static func layout(of header: [String]) -> (unit: WeightUnit, distanceUnit: String)? {
        guard header.count == columns.count else { return nil }
        var unit: WeightUnit?
        var distance: String?
        for (name, expected) in zip(header.map { $0.lowercased() }, columns) {
            switch (expected, name) {
            case ("weight", "weight_kg"): unit = .kg
            case ("weight", "weight_lbs"), ("weight", "weight_lb"): unit = .lb
            case ("distance", "distance_km"): distance = "km"
            case ("distance", "distance_miles"), ("distance", "distance_mi"): distance = "mi"
            case ("distance", "distance_meters"), ("distance", "distance_m"): distance = "m"
            default: guard name == expected else { return nil }
            }
        }
        guard let unit, let distance else { return nil }
        return (unit, distance)
    }

    static func parse(_ csv: CSVText) throws(ImportError) -> ParsedExport {
        guard let (unit, distanceUnit) = layout(of: csv.header) else {
            throw .unknownHeader(source: "Hevy", found: csv.header, expected: [example])
        }
        var out = ParsedExport(layout: "Hevy (\(unit.rawValue))", unit: unit, unitSource: .header, unitEvidence: csv.header[9], rows: [])
        out.rows.reserveCapacity(csv.records.count)
        for r in csv.records {
            do throws(ImportError) {
                out.rows.append(try row(r, unit: unit, distanceUnit: distanceUnit))
            } catch .malformedRow(let line, let reason) {
                out.skipped.add(reason, line: line, refused: true)
            }
        }
        return out
    }

    private static func row(_ r: CSVRecord, unit: WeightUnit, distanceUnit: String) throws(ImportError) -> ImportedRow {
        let line = r.line
        guard r.fields.count == columns.count else {
            throw .malformedRow(line: line, reason: "expected \(columns.count) fields, found \(r.fields.count)")
        }
        let f = r.fields
        let start = try ImportValues.wallClock(f[1], line: line, column: "start_time")
        let end = f[2].trimmingSpaces().isEmpty ? nil : try ImportValues.wallClock(f[2], line: line, column: "end_time")
        let exercise = ImportValues.name(f[4])
        guard !exercise.isEmpty else { throw .malformedRow(line: line, reason: "the exercise title is empty") }
        let type: SetType
        switch f[8].lowercased() {
        case "normal", "": type = .normal
        case "warmup": type = .warmup
        case "dropset": type = .drop
        case "failure": type = .failure
        default: throw .malformedRow(line: line, reason: "set_type '\(f[8])' is not normal, warmup, dropset or failure")
        }
        guard let index = Int(f[7].trimmingSpaces()), index >= 0 else {
            throw .malformedRow(line: line, reason: "set_index '\(f[7])' is not a number")
        }
        var metrics = SetMetrics()
        if let w = ImportValues.positive(try ImportValues.number(f[9], line: line, column: "weight")) {
            metrics.weight = ImportValues.weight(w, unit)
        }
        metrics.reps = try ImportValues.reps(f[10], line: line)
        metrics.distanceMeters = try ImportValues.distance(f[11], unit: distanceUnit, line: line)
        metrics.durationSeconds = ImportValues.positive(try ImportValues.number(f[12], line: line, column: "duration_seconds"))
        metrics.rpe = try ImportValues.rpe(f[13], line: line)
        let title = ImportValues.name(f[0])
        let superset = f[5].trimmingSpaces()
        return ImportedRow(
            line: line, workoutKey: start.text + "|" + title, workoutName: title, start: start, end: end,
            durationSeconds: nil, exercise: exercise, category: nil, kind: .set(type), setNumber: index + 1, metrics: metrics,
            signature: f.joined(separator: "\u{1F}"),
            exerciseNotes: ImportValues.note(f[6]), workoutNotes: ImportValues.note(f[3]),
            supersetKey: superset.isEmpty ? nil : superset)
    }
}
