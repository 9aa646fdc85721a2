import Foundation
import RepLedgerCore

/// The FitNotes iOS app's CSV export, unlike the Android app's: a named
/// workout with its start and end in UTC (US dates, 12-hour clock), every
/// field quoted, decimal commas, and a status on each planned set
/// (`Done`, `Failed`, `NotStarted`).
/// `Name,Start Date (UTC),Start Time (UTC),End Date (UTC),End Time (UTC),BodyWeight,Exercise,Equipment,Reps,Weight,Time,Distance,Status,Categories`
enum FitNotesIOSExport {
    enum Column: String, CaseIterable {
        case name = "name"
        case startDate = "start date (utc)"
        case startTime = "start time (utc)"
        case endDate = "end date (utc)"
        case endTime = "end time (utc)"
        case exercise = "exercise"
        case reps = "reps"
        case weight = "weight"
        case time = "time"
        case distance = "distance"
        case status = "status"
        case categories = "categories"
    }

    static let example =
        "Name,Start Date (UTC),Start Time (UTC),End Date (UTC),End Time (UTC),BodyWeight,Exercise,Equipment,Reps,Weight,Time,Distance,Status,Categories"

    /// Each column's place, when the header has every column the reader needs (in any order, any case).
    static func columns(of header: [String]) -> [Column: Int]? {
        let names = header.map { $0.trimmingSpaces().lowercased() }
        var out: [Column: Int] = [:]
        for c in Column.allCases {
            guard let i = names.firstIndex(of: c.rawValue) else { return nil }
            out[c] = i
        }
        return out
    }

    static func parse(_ csv: CSVText, unit given: WeightUnit?, zone: ImportTimeZone) throws(ImportError) -> ParsedExport {
        guard let c = columns(of: csv.header) else {
            throw .unknownHeader(source: "FitNotes", found: csv.header, expected: [example])
        }
        // The file does not say its unit: the weights are in the app's unit, which only the lifter knows.
        guard let unit = given else { throw .unitRequired(source: "FitNotes") }
        let known = Set(c.values)
        var out = ParsedExport(
            layout: "FitNotes iOS (times in UTC)", unit: unit, unitSource: .flag, rows: [],
            ignoredColumns: csv.header.indices.filter { !known.contains($0) }.map { csv.header[$0] })
        out.rows.reserveCapacity(csv.records.count)
        for r in csv.records {
            do throws(ImportError) {
                guard r.fields.count == csv.header.count else {
                    throw .malformedRow(line: r.line, reason: "expected \(csv.header.count) fields, found \(r.fields.count)")
                }
                func f(_ column: Column) -> String { r.fields[c[column]!].trimmingSpaces() }
                // A set the plan held and the lifter never did is no set.
                let status = f(.status).lowercased()
                if status == "notstarted" {
                    out.skipped.add("a planned set never done (status NotStarted)", line: r.line)
                    continue
                }
                guard status == "done" || status == "failed" || status.isEmpty else {
                    throw .malformedRow(line: r.line, reason: "status '\(f(.status))' is not Done, Failed or NotStarted")
                }
                let start = try local(f(.startDate), f(.startTime), line: r.line, column: "start", zone: zone)
                let endText = f(.endDate) + f(.endTime)
                let end = endText.isEmpty ? nil : try local(f(.endDate), f(.endTime), line: r.line, column: "end", zone: zone)
                let exercise = ImportValues.name(f(.exercise))
                guard !exercise.isEmpty else { throw .malformedRow(line: r.line, reason: "the exercise name is empty") }
                var metrics = SetMetrics()
                if let w = ImportValues.positive(try ImportValues.number(f(.weight), line: r.line, column: "weight")) {
                    metrics.weight = ImportValues.weight(w, unit)
                }
                metrics.reps = try ImportValues.reps(f(.reps), line: r.line)
                metrics.durationSeconds = ImportValues.positive(try ImportValues.duration(f(.time), line: r.line))
                let distance = try ImportValues.number(f(.distance), line: r.line, column: "distance")
                metrics.distanceMeters = ImportValues.metres(distance, unit: unit == .kg ? "km" : "mi")
                let name = ImportValues.name(f(.name))
                let category = f(.categories).split(separator: ",").first.map { ImportValues.name(String($0)) }
                out.rows.append(
                    ImportedRow(
                        line: r.line, workoutKey: f(.startDate) + " " + f(.startTime) + "|" + name,
                        workoutName: name.isEmpty ? "FitNotes workout" : name, start: start, end: end, durationSeconds: nil,
                        exercise: exercise, category: category, kind: .set(status == "failed" ? .failure : .normal),
                        setNumber: nil, metrics: metrics, signature: "",  // no set numbers: identical rows are real sets
                        exerciseNotes: nil, workoutNotes: nil, supersetKey: nil))
            } catch .malformedRow(let line, let reason) {
                out.skipped.add(reason, line: line, refused: true)
            }
        }
        return out
    }

    /// A UTC date (`1/27/2018`, month first) and 12-hour time (`5:45:45 AM`) as the wall clock in the lifter's zone.
    static func local(_ date: String, _ time: String, line: Int, column: String, zone: ImportTimeZone) throws(ImportError) -> WallClock {
        let parts = date.split(separator: "/")
        var tokens = WrittenDate.tokens(time)
        guard parts.count == 3, let month = Int(parts[0]), let day = Int(parts[1]), let year = Int(parts[2]), parts[2].count == 4,
            let (hour, minute, second) = WrittenDate.clock(taking: &tokens), tokens.isEmpty,
            case let clock = WallClock(year: year, month: month, day: day, hour: hour, minute: minute, second: second), clock.isValid
        else {
            throw .malformedRow(line: line, reason: "\(column) '\(date) \(time)' is not a date and time such as 1/27/2018 5:45:45 AM")
        }
        let offset = zone.offsetMinutes(atInstant: clock.naiveSeconds)
        return WallClock(naiveSeconds: clock.naiveSeconds + Int64(offset) * 60)
    }
}
