import Foundation
import RepLedgerCore

/// The FitNotes iOS app's CSV export, unlike the Android app's: a named
/// workout with its start and end in UTC, decimal commas, and a status on
/// each planned set (`Done`, `Failed`, `NotStarted`). Two layouts are known:
/// the older writes US dates and a 12-hour clock in four columns,
/// `Name,Start Date (UTC),Start Time (UTC),End Date (UTC),End Time (UTC),BodyWeight,Exercise,Equipment,Reps,Weight,Time,Distance,Status,Categories`;
/// the newer ISO 8601 times and a set's warm-up flag, RPE, RIR and note,
/// `Name,StartTime,EndTime,BodyWeight,Exercise,Equipment,Reps,Weight,Time,Distance,Status,IsWarmup,RPE,RIR,Categories,Note`.
enum FitNotesIOSExport {
    enum Column: String, CaseIterable {
        case name = "name"
        case startDate = "start date (utc)"
        case startTime = "start time (utc)"
        case endDate = "end date (utc)"
        case endTime = "end time (utc)"
        /// The newer layout's ISO 8601 instants (`2025-02-23T10:13:53Z`).
        case start = "starttime"
        case end = "endtime"
        case exercise = "exercise"
        case reps = "reps"
        case weight = "weight"
        case time = "time"
        case distance = "distance"
        case status = "status"
        case categories = "categories"
        case isWarmup = "iswarmup"
        case rpe = "rpe"
        case rir = "rir"
        case note = "note"

        /// What every file of either layout has.
        static let common: [Column] = [.name, .exercise, .reps, .weight, .time, .distance, .status, .categories]
        static let older: [Column] = [.startDate, .startTime, .endDate, .endTime]
        static let newer: [Column] = [.start, .end]
    }

    static let examples = [
        "Name,Start Date (UTC),Start Time (UTC),End Date (UTC),End Time (UTC),BodyWeight,Exercise,Equipment,Reps,Weight,Time,Distance,Status,Categories",
        "Name,StartTime,EndTime,BodyWeight,Exercise,Equipment,Reps,Weight,Time,Distance,Status,IsWarmup,RPE,RIR,Categories,Note",
    ]

    /// Each column's place, when the header has every column one of the layouts needs (in any order, any case);
    /// the optional columns (warm-up, RPE, RIR, note) where the file has them.
    static func columns(of header: [String]) -> [Column: Int]? {
        let names = header.map { $0.trimmingSpaces().lowercased() }
        var out: [Column: Int] = [:]
        for c in Column.allCases { if let i = names.firstIndex(of: c.rawValue) { out[c] = i } }
        let hasTimes = Column.older.allSatisfy { out[$0] != nil } || Column.newer.allSatisfy { out[$0] != nil }
        return hasTimes && Column.common.allSatisfy({ out[$0] != nil }) ? out : nil
    }

    /// A header that names the iOS app's columns but lacks some, to say so rather than ask for the Android columns.
    static func looksLikeIOS(_ header: [String]) -> Bool {
        let names = Set(header.map { $0.trimmingSpaces().lowercased() })
        return names.contains("status") && (names.contains("starttime") || names.contains("start date (utc)"))
    }

    static func parse(_ csv: CSVText, unit given: WeightUnit?, zone: ImportTimeZone) throws(ImportError) -> ParsedExport {
        guard let c = columns(of: csv.header) else {
            let names = Set(csv.header.map { $0.trimmingSpaces().lowercased() })
            let newer = names.contains("starttime")
            let missing = (Column.common + (newer ? Column.newer : Column.older)).filter { !names.contains($0.rawValue) }
            throw .unknownHeader(
                source: "FitNotes iOS", found: csv.header, expected: examples,
                problem: "no column for " + missing.map(\.rawValue).joined(separator: ", "))
        }
        // The file does not say its unit: the weights are in the app's unit, which only the lifter knows.
        guard let unit = given else { throw .unitRequired(source: "FitNotes") }
        let known = Set(c.values)
        let newer = c[.start] != nil
        var out = ParsedExport(
            layout: newer ? "FitNotes iOS (ISO times in UTC, warm-up, RPE and notes)" : "FitNotes iOS (times in UTC)", unit: unit,
            unitSource: .flag, rows: [], ignoredColumns: csv.header.indices.filter { !known.contains($0) }.map { csv.header[$0] })
        out.rows.reserveCapacity(csv.records.count)
        for r in csv.records {
            do throws(ImportError) {
                guard r.fields.count == csv.header.count else {
                    throw .malformedRow(line: r.line, reason: "expected \(csv.header.count) fields, found \(r.fields.count)")
                }
                func f(_ column: Column) -> String { c[column].map { r.fields[$0].trimmingSpaces() } ?? "" }
                // A set the plan held and the lifter never did is no set.
                let status = f(.status).lowercased()
                if status == "notstarted" {
                    out.skipped.add("a planned set never done (status NotStarted)", line: r.line)
                    continue
                }
                guard status == "done" || status == "failed" || status.isEmpty else {
                    throw .malformedRow(line: r.line, reason: "status '\(f(.status))' is not Done, Failed or NotStarted")
                }
                let start: WallClock, end: WallClock?, startText: String
                if newer {
                    start = try instant(f(.start), line: r.line, column: "StartTime", zone: zone)
                    end = f(.end).isEmpty ? nil : try instant(f(.end), line: r.line, column: "EndTime", zone: zone)
                    startText = f(.start)
                } else {
                    start = try local(f(.startDate), f(.startTime), line: r.line, column: "start", zone: zone)
                    let endText = f(.endDate) + f(.endTime)
                    end = endText.isEmpty ? nil : try local(f(.endDate), f(.endTime), line: r.line, column: "end", zone: zone)
                    startText = f(.startDate) + " " + f(.startTime)
                }
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
                // RIR is the other way of saying RPE: 2 in reserve is RPE 8.
                let rir = try ImportValues.number(f(.rir), line: r.line, column: "RIR")
                metrics.rpe = try ImportValues.rpe(f(.rpe), line: r.line) ?? rir.map { 10 - $0 }
                let warmup = try flag(f(.isWarmup), line: r.line)
                let name = ImportValues.name(f(.name))
                let category = f(.categories).split(separator: ",").first.map { ImportValues.name(String($0)) }
                var row = ImportedRow(
                    line: r.line, workoutKey: startText + "|" + name,
                    workoutName: name.isEmpty ? "FitNotes workout" : name, start: start, end: end, durationSeconds: nil,
                    exercise: exercise, category: category, kind: .set(warmup ? .warmup : status == "failed" ? .failure : .normal),
                    setNumber: nil, metrics: metrics, signature: "",  // no set numbers: identical rows are real sets
                    exerciseNotes: nil, workoutNotes: nil, supersetKey: nil)
                row.setNotes = ImportValues.note(f(.note))
                out.rows.append(row)
            } catch .malformedRow(let line, let reason) {
                out.skipped.add(reason, line: line, refused: true)
            }
        }
        return out
    }

    /// `true` or `false` (any case), or nothing.
    static func flag(_ text: String, line: Int) throws(ImportError) -> Bool {
        switch text.lowercased() {
        case "", "false", "0", "no": return false
        case "true", "1", "yes": return true
        default: throw .malformedRow(line: line, reason: "IsWarmup '\(text)' is not true or false")
        }
    }

    /// An ISO 8601 instant in UTC (`2025-02-23T10:13:53Z`) as the wall clock in the lifter's zone.
    static func instant(_ text: String, line: Int, column: String, zone: ImportTimeZone) throws(ImportError) -> WallClock {
        var t = text
        if t.hasSuffix("Z") || t.hasSuffix("z") { t.removeLast() } else if t.hasSuffix("+00:00") { t.removeLast(6) }
        guard t.count < text.count, let clock = WallClock.parseISO(t), clock.isValid else {
            throw .malformedRow(line: line, reason: "\(column) '\(text)' is not a UTC time such as 2025-02-23T10:13:53Z")
        }
        let offset = zone.offsetMinutes(atInstant: clock.naiveSeconds)
        return WallClock(naiveSeconds: clock.naiveSeconds + Int64(offset) * 60)
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
