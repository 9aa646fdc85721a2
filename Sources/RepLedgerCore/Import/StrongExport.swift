import Foundation

/// Strong's CSV exports: five layouts seen in the wild, and a localised header.
enum StrongExport {
    /// Column names as Strong writes them, English and French, to one vocabulary.
    static let vocabulary: [String: String] = [
        "date": "date",
        "workout #": "workout#",
        "workout name": "workout", "nom de l'entraînement": "workout",
        "duration": "duration", "durée": "duration", "duration (sec)": "durationSec",
        "exercise name": "exercise", "nom de l'exercice": "exercise",
        "set order": "set", "ordre de la série": "set",
        "weight": "weight", "poids": "weight", "kg": "weight:kg", "weight (kg)": "weight:kg",
        "weight (lb)": "weight:lb", "weight (lbs)": "weight:lb",
        "reps": "reps", "réps": "reps",
        "distance": "distance", "km": "distance:km", "distance (meters)": "distance:m",
        "distance (km)": "distance:km", "distance (miles)": "distance:mi",
        "seconds": "seconds", "secondes": "seconds",
        "notes": "notes", "workout notes": "workoutNotes", "rpe": "rpe",
    ]

    static let french: Set<String> = ["nom de l'entraînement", "durée", "nom de l'exercice", "ordre de la série", "poids", "réps", "secondes"]

    /// The layouts, as column sequences in that vocabulary (units stripped).
    static let layouts: [(name: String, columns: [String], example: String)] = [
        ("Strong 2016 (kg and km columns)", ["date", "workout", "exercise", "set", "weight", "reps", "distance", "seconds", "notes"],
         "Date,Workout Name,Exercise Name,Set Order,kg,Reps,km,Seconds,Notes"),
        ("Strong 2017–19 (no duration, no RPE)", ["date", "workout", "exercise", "set", "weight", "reps", "distance", "seconds", "notes", "workoutNotes"],
         "Date,Workout Name,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,Notes,Workout Notes"),
        ("Strong 12-column", ["date", "workout", "duration", "exercise", "set", "weight", "reps", "distance", "seconds", "notes", "workoutNotes", "rpe"],
         "Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,Notes,Workout Notes,RPE"),
        ("Strong 10-column (no notes)", ["date", "workout", "duration", "exercise", "set", "weight", "reps", "distance", "seconds", "rpe"],
         "Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,RPE"),
        ("Strong current (quoted, ;)", ["workout#", "date", "workout", "durationSec", "exercise", "set", "weight", "reps", "rpe", "distance", "seconds", "notes", "workoutNotes"],
         "\"Workout #\";\"Date\";\"Workout Name\";\"Duration (sec)\";\"Exercise Name\";\"Set Order\";\"Weight (kg)\";\"Reps\";\"RPE\";\"Distance (meters)\";\"Seconds\";\"Notes\";\"Workout Notes\""),
    ]

    struct Layout {
        var name: String
        var column: [String: Int]
        var weightUnit: WeightUnit?
        var distanceUnit: String?
    }

    static func layout(of header: [String]) -> Layout? {
        var names: [String] = []
        var units: [String: String] = [:]
        var localised = false
        for raw in header {
            let key = raw.lowercased()
            guard let word = vocabulary[key] else { return nil }
            if french.contains(key) { localised = true }
            let parts = word.split(separator: ":").map(String.init)
            names.append(parts[0])
            if parts.count == 2 { units[parts[0]] = parts[1] }
        }
        guard let match = layouts.first(where: { $0.columns == names }) else { return nil }
        var column: [String: Int] = [:]
        for (i, n) in names.enumerated() { column[n] = i }
        return Layout(name: match.name + (localised ? ", French header" : ""), column: column,
                      weightUnit: units["weight"].flatMap(WeightUnit.init(rawValue:)), distanceUnit: units["distance"])
    }

    static func parse(_ csv: CSVText, unit given: WeightUnit?) throws(ImportError) -> ParsedExport {
        guard let layout = layout(of: csv.header) else {
            throw .unknownHeader(source: "Strong", found: csv.header, expected: layouts.map(\.example))
        }
        guard let unit = layout.weightUnit ?? given else { throw .unitRequired(source: "Strong") }
        let distanceUnit = layout.distanceUnit ?? (unit == .kg ? "km" : "mi")
        let c = layout.column
        // Strong's oldest exports number sets from 0; every later one from 1.
        let zeroBased = csv.records.contains { r in c["set"].map { $0 < r.fields.count && r.fields[$0] == "0" } ?? false }
        var out = ParsedExport(layout: layout.name, unit: unit, rows: [])
        out.rows.reserveCapacity(csv.records.count)

        for r in csv.records {
            let line = r.line
            guard r.fields.count == csv.header.count else {
                throw .malformedRow(line: line, reason: "expected \(csv.header.count) fields, found \(r.fields.count)")
            }
            func f(_ name: String) -> String { c[name].map { r.fields[$0] } ?? "" }
            guard let start = WallClock.parseISO(f("date").trimmingSpaces()) else {
                throw .malformedRow(line: line, reason: "date '\(f("date"))' is not YYYY-MM-DD HH:MM:SS")
            }
            let workoutName = ImportValues.name(f("workout"))
            let exercise = ImportValues.name(f("exercise"))
            guard !exercise.isEmpty else { throw .malformedRow(line: line, reason: "the exercise name is empty") }
            let order = f("set").trimmingSpaces()
            let seconds = try ImportValues.number(f("seconds"), line: line, column: "seconds")
            var setNumber: Int? = nil
            let kind: ImportedRow.Kind
            switch order.uppercased() {
            case "W", "WARM_UP", "WARMUP", "É": kind = .set(.warmup)
            case "D", "DROP", "DROP_SET": kind = .set(.drop)
            case "F", "FAILURE": kind = .set(.failure)
            case "REST TIMER", "REST_TIMER":
                kind = .rest(seconds: Int((seconds ?? 0).rounded()))
            default:
                guard let n = Int(order), n >= 0 else { throw .malformedRow(line: line, reason: "set order '\(order)' is not a set number, W, D, F or Rest Timer") }
                kind = .set(.normal)
                setNumber = zeroBased ? n + 1 : n
            }
            var metrics = SetMetrics()
            if case .set = kind {
                if let w = ImportValues.positive(try ImportValues.number(f("weight"), line: line, column: "weight")) {
                    metrics.weight = ImportValues.weight(w, unit)
                }
                let reps = try ImportValues.reps(f("reps"), line: line)
                metrics.durationSeconds = ImportValues.positive(seconds)
                metrics.distanceMeters = ImportValues.metres(try ImportValues.number(f("distance"), line: line, column: "distance"), unit: distanceUnit)
                // A timed or cardio row writes 0 reps for "not counted".
                metrics.reps = (reps == 0 && (metrics.durationSeconds != nil || metrics.distanceMeters != nil)) ? nil : reps
                metrics.rpe = try ImportValues.rpe(f("rpe"), line: line)
            }
            let duration: Double?
            if c["durationSec"] != nil {
                duration = try ImportValues.number(f("durationSec"), line: line, column: "duration")
            } else {
                duration = try ImportValues.duration(f("duration"), line: line)
            }
            out.rows.append(ImportedRow(
                line: line, workoutKey: start.text + "|" + workoutName, workoutName: workoutName, start: start, end: nil,
                durationSeconds: duration, exercise: exercise, category: nil, kind: kind, setNumber: setNumber, metrics: metrics,
                signature: r.fields.joined(separator: "\u{1F}"),
                exerciseNotes: ImportValues.note(f("notes")), workoutNotes: ImportValues.note(f("workoutNotes")), supersetKey: nil))
        }
        return out
    }
}
