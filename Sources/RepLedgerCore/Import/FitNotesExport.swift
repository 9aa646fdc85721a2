import Foundation

/// FitNotes' CSV export: one row per set, one workout per day, no set
/// numbers, and exercise names that may hold unquoted commas.
enum FitNotesExport {
    static let newer = ["date", "exercise", "category", "weight", "weight unit", "reps", "distance", "distance unit", "time"]
    static let older = ["date", "exercise", "category", "weight (unit)", "reps", "distance", "distance unit", "time"]
    static let examples = ["Date,Exercise,Category,Weight,Weight Unit,Reps,Distance,Distance Unit,Time",
                           "Date,Exercise,Category,Weight (lbs)|Weight (kgs),Reps,Distance,Distance Unit,Time"]

    /// The unit in the header (`Weight (lbs)`), `nil` for a per-row unit column, or no layout at all.
    static func layout(of header: [String]) -> (headerUnit: WeightUnit?, hasUnitColumn: Bool)? {
        let h = header.map { $0.lowercased() }
        if h == newer { return (nil, true) }
        guard h.count == older.count else { return nil }
        var unit: WeightUnit?
        for (name, expected) in zip(h, older) {
            if expected == "weight (unit)" {
                switch name {
                case "weight (lbs)", "weight (lb)": unit = .lb
                case "weight (kgs)", "weight (kg)": unit = .kg
                default: return nil
                }
            } else if name != expected { return nil }
        }
        return (unit, false)
    }

    static func unit(_ text: String) -> WeightUnit? {
        switch text.trimmingSpaces().lowercased() {
        case "kg", "kgs": return .kg
        case "lb", "lbs": return .lb
        default: return nil
        }
    }

    /// Maps a row's fields onto the header. A row with too many fields is an
    /// exercise name with unquoted commas: the columns right of the name are
    /// known, so they are taken from the right end and the rest is the name.
    static func repaired(_ fields: [String], columns: Int) -> [String]? {
        if fields.count == columns { return fields }
        guard fields.count > columns, columns >= 3 else { return nil }
        let extra = fields.count - columns
        let name = fields[1...(1 + extra)].joined(separator: ",")
        return [fields[0], name] + fields[(2 + extra)...]
    }

    static func parse(_ csv: CSVText, unit given: WeightUnit?) throws(ImportError) -> ParsedExport {
        guard let layout = layout(of: csv.header) else {
            throw .unknownHeader(source: "FitNotes", found: csv.header, expected: examples)
        }
        let columns = csv.header.count
        var out = ParsedExport(layout: layout.hasUnitColumn ? "FitNotes (Weight Unit column)" : "FitNotes (unit in header)",
                               unit: layout.headerUnit ?? given ?? .kg, rows: [])
        if !layout.hasUnitColumn, layout.headerUnit == nil, given == nil { throw .unitRequired(source: "FitNotes") }
        out.rows.reserveCapacity(csv.records.count)
        var firstCategory: [String: [String]] = [:]
        for r in csv.records {
            let line = r.line
            guard let f = repaired(r.fields, columns: columns) else {
                throw .malformedRow(line: line, reason: "expected \(columns) fields, found \(r.fields.count)")
            }
            guard let day = WallClock.parseISO(f[0].trimmingSpaces()), f[0].count == 10 else {
                throw .malformedRow(line: line, reason: "date '\(f[0])' is not YYYY-MM-DD")
            }
            let exercise = ImportValues.name(f[1])
            guard !exercise.isEmpty else { throw .malformedRow(line: line, reason: "the exercise name is empty") }
            let category = ImportValues.name(f[2])
            let o = layout.hasUnitColumn ? 1 : 0 // the fields after Weight shift by the unit column
            var rowUnit = layout.headerUnit ?? given
            if layout.hasUnitColumn {
                guard let u = unit(f[4]) ?? (f[4].trimmingSpaces().isEmpty ? given ?? out.unit : nil) else {
                    throw .malformedRow(line: line, reason: "weight unit '\(f[4])' is not kgs or lbs")
                }
                rowUnit = u
            }
            var metrics = SetMetrics()
            if let w = ImportValues.positive(try ImportValues.number(f[3], line: line, column: "weight")) {
                metrics.weight = ImportValues.weight(w, rowUnit ?? .kg)
            }
            metrics.reps = try ImportValues.reps(f[4 + o], line: line)
            let distanceUnit = f[6 + o].trimmingSpaces().lowercased()
            // FitNotes sometimes writes a weight unit (`kg`) as a plank's distance unit: not a distance.
            metrics.distanceMeters = ImportValues.metres(try ImportValues.number(f[5 + o], line: line, column: "distance"), unit: distanceUnit)
            metrics.durationSeconds = ImportValues.positive(try ImportValues.duration(f[7 + o], line: line))
            // A day gets its name from what was trained: "Chest & Triceps".
            let key = String(day.text.prefix(10))
            if !category.isEmpty, !(firstCategory[key]?.contains(category) ?? false) { firstCategory[key, default: []].append(category) }
            var start = day
            start.hour = 12 // no time in the file: noon keeps the day whatever the zone
            out.rows.append(ImportedRow(
                line: line, workoutKey: key, workoutName: "", start: start, end: nil,
                durationSeconds: nil, exercise: exercise, category: category.isEmpty ? nil : category, kind: .set(.normal),
                setNumber: nil, metrics: metrics, signature: "", // no set numbers: duplicates are real sets here
                exerciseNotes: nil, workoutNotes: nil, supersetKey: nil))
        }
        for i in out.rows.indices {
            let cats = firstCategory[out.rows[i].workoutKey] ?? []
            out.rows[i].workoutName = cats.isEmpty ? "FitNotes workout" : cats.prefix(3).joined(separator: " & ")
        }
        return out
    }
}
