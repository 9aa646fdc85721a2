import Foundation
import LedgerTestSupport
import Testing

/// The twelve real exports in `../shared/data/real-exports/` (or
/// `$REPLEDGER_REAL_EXPORTS`), imported through the CLI. The expected counts
/// and heaviest lifts come from the test's own reading of each file, with a
/// parser of its own, not from the importer's code.
enum RealExports {
    static let folder: URL = {
        if let explicit = ProcessInfo.processInfo.environment["REPLEDGER_REAL_EXPORTS"] { return URL(fileURLWithPath: explicit) }
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/data/real-exports")
    }()

    static var available: Bool { FileManager.default.fileExists(atPath: folder.appendingPathComponent("SOURCES.md").path) }

    /// File, source, `--unit` for files that do not say, and the unit their weights are in.
    static let files: [(name: String, source: String, unitFlag: String?, unit: String)] = [
        ("strong_mlahoz_strong.csv", "strong", nil, "kg"),
        ("strong_MiroslavCsonka_strong-workout-analysis.csv", "strong", "kg", "kg"),
        ("strong_hipml_strong-unwrapped.csv", "strong", "lb", "lb"),
        ("strong_Andrew50_Lifting.csv", "strong", "lb", "lb"),
        ("strong_Andrew50_Lifting_aj.csv", "strong", "lb", "lb"),
        ("strong_SimonGomezUniv_strong_Simon.csv", "strong", "kg", "kg"),
        ("strong_cmccorkle21_fitness-pipeline.csv", "strong", nil, "kg"),
        ("hevy_StvrvDimitris_hevy-analyzer.csv", "hevy", nil, "kg"),
        ("hevy_NathanN-275_Lifting-stats.csv", "hevy", nil, "lb"),
        ("hevy_FelipeRuizM_hevy-visualizer.csv", "hevy", nil, "kg"),
        ("fitnotes_bilallb_Data-analysis.csv", "fitnotes", nil, "kg"),
        ("fitnotes_wmgriffi3_barbell-beasts-og.csv", "fitnotes", nil, "lb"),
    ]

    /// RFC 4180 records: quotes, doubled quotes, delimiters and newlines inside quotes, CRLF.
    static func records(_ text: String, delimiter: Character) -> [[String]] {
        var rows: [[String]] = [], row: [String] = [], field = "", quoted = false, pendingQuote = false
        for c in text {
            if quoted {
                if pendingQuote {
                    pendingQuote = false
                    if c == "\"" { field.append(c); continue }
                    quoted = false
                } else if c == "\"" {
                    pendingQuote = true; continue
                } else {
                    field.append(c); continue
                }
            }
            switch c {
            case "\"" where field.isEmpty: quoted = true
            case delimiter: row.append(field); field = ""
            case "\n", "\r\n", "\r": row.append(field); rows.append(row); row = []; field = ""
            default: field.append(c)
            }
        }
        if pendingQuote { quoted = false }
        if !field.isEmpty || !row.isEmpty { row.append(field); rows.append(row) }
        return rows
    }

    struct Expected {
        var workouts = 0
        var sets = 0
        var rows = 0
        var heaviestKg: [String: Double] = [:]
    }

    /// Workouts with at least one measured set; sets measured (reps, time or
    /// distance), leaving out the second and later copies of a workout whose
    /// rows are one run written several times (an export artefact; a repeated
    /// block of an exercise is real sets, FitNotes' identical rows too); the
    /// heaviest non-warm-up weight with at least one rep, per exercise name.
    static func expected(_ text: String, source: String, unit: String) -> Expected {
        let delimiter: Character = text.hasPrefix("\"Workout #\";") ? ";" : ","
        var rows = records(text, delimiter: delimiter)
        let header = rows.removeFirst().map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        func col(_ names: String...) -> Int? { names.lazy.compactMap { header.firstIndex(of: $0) }.first }
        let perKg = unit == "kg" ? 1.0 : 0.45359237
        var out = Expected()
        out.rows = rows.count
        var order: [String] = [], byWorkout: [String: [[String]]] = [:]
        for var r in rows {
            if source == "fitnotes", r.count > header.count {  // unquoted commas in the name
                let extra = r.count - header.count
                r = [r[0], r[1...(1 + extra)].joined(separator: ",")] + Array(r[(2 + extra)...])
            }
            func f(_ i: Int?) -> String { i.map { r[$0].trimmingCharacters(in: .whitespaces) } ?? "" }
            let workout: String
            switch source {
            case "strong": workout = f(col("date")) + "|" + f(col("workout name", "nom de l'entraînement"))
            case "hevy": workout = f(col("start_time")) + "|" + f(col("title"))
            default: workout = f(col("date"))
            }
            if let n = col("workout #") { r[n] = "" }  // bookkeeping, not part of the set
            if byWorkout[workout] == nil { order.append(workout) }
            byWorkout[workout, default: []].append(r)
        }
        var workoutsWithSets = Set<String>()
        for workout in order {
            var group = byWorkout[workout] ?? []
            if source != "fitnotes",
                let period = (1...max(1, group.count / 2)).first(where: { p in
                    group.count >= 2 && group.count % p == 0 && (p..<group.count).allSatisfy { group[$0] == group[$0 % p] }
                })
            {
                group = Array(group[..<period])
            }
            for r in group {
                func f(_ i: Int?) -> String { i.map { r[$0].trimmingCharacters(in: .whitespaces) } ?? "" }
                func num(_ i: Int?) -> Double { Double(f(i)) ?? 0 }
                let exercise = f(col("exercise name", "nom de l'exercice", "exercise_title", "exercise")).lowercased()
                let warmup: Bool
                var seconds = 0.0, distance = 0.0
                switch source {
                case "strong":
                    let order = f(col("set order", "ordre de la série"))
                    if order == "Rest Timer" { continue }
                    warmup = ["W", "WARM_UP", "É"].contains(order)
                    seconds = num(col("seconds", "secondes"))
                    distance = num(col("distance", "km", "distance (meters)"))
                case "hevy":
                    warmup = f(col("set_type")) == "warmup"
                    seconds = num(col("duration_seconds"))
                    distance = num(col("distance_km", "distance_miles"))
                default:
                    warmup = false
                    let time = f(col("time")).split(separator: ":").compactMap { Double($0) }
                    seconds = time.reduce(0) { $0 * 60 + $1 }
                    if ["mi", "km", "m"].contains(f(col("distance unit"))) { distance = num(col("distance")) }
                }
                let repsText = f(col("reps", "réps"))
                guard !repsText.isEmpty || seconds > 0 || distance > 0 else { continue }
                workoutsWithSets.insert(workout)
                out.sets += 1
                let weight = num(col("weight", "kg", "poids", "weight (kg)", "weight_kg", "weight_lbs", "weight (lbs)"))
                if !warmup, weight > 0, (Double(repsText) ?? 0) >= 1 {
                    out.heaviestKg[exercise] = max(out.heaviestKg[exercise] ?? 0, weight * perKg)
                }
            }
        }
        out.workouts = workoutsWithSets.count
        return out
    }
}

@Suite("real exports through the CLI", .serialized, .enabled(if: RealExports.available, "the real exports folder is absent"))
struct RealExportsCLITests {
    @Test(
        "every real export imports with the workouts, sets and heaviest lifts read independently; re-import appends nothing",
        arguments: RealExports.files.map(\.name))
    func realExport(_ name: String) throws {
        let file = try #require(RealExports.files.first { $0.name == name })
        let path = RealExports.folder.appendingPathComponent(name).path
        let expected = RealExports.expected(try String(contentsOfFile: path, encoding: .utf8), source: file.source, unit: file.unit)
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let args = ["import", file.source, path, "--timezone", "UTC", "--json"] + (file.unitFlag.map { ["--unit", $0] } ?? [])
        let first = try cli.run(args)
        #expect(first.status == 0, "\(first.stderr)")
        let summary = try #require(first.json)
        #expect(summary["workouts"] as? Int == expected.workouts)
        #expect(summary["sets"] as? Int == expected.sets)
        #expect(summary["alreadyImported"] as? Bool == false)
        // Every row is accounted for: a set, a rest period, or a skipped row with its line and reason.
        let skippedRows = try #require(summary["skippedRows"] as? [[String: Any]])
        #expect(summary["rows"] as? Int == expected.rows)
        #expect((summary["sets"] as? Int ?? 0) + (summary["restPeriods"] as? Int ?? 0) + skippedRows.count == expected.rows)
        #expect(skippedRows.allSatisfy { ($0["line"] as? Int ?? 0) >= 2 && !($0["reason"] as? String ?? "").isEmpty })
        #expect(skippedRows.filter { $0["refused"] as? Bool == true }.isEmpty, "a real export has no value the ledger refuses")
        let events = try #require(try cli.run(["verify", "--json"]).json?["events"] as? Int)

        let again = try cli.run(args)
        #expect(again.json?["alreadyImported"] as? Bool == true)
        #expect(again.json?["workouts"] as? Int == 0)
        let verify = try #require(try cli.run(["verify", "--json"]).json)
        #expect(verify["events"] as? Int == events)
        #expect(verify["ok"] as? Bool == true)

        // The file's names resolve as CLI.md says any name does: by name, any case, else by id.
        let library = try #require(try cli.run(["exercise", "list", "--json"]).json?["exercises"] as? [[String: Any]])
        var byName: [String: String] = [:], byId: [String: String] = [:]
        for x in library {
            if let name = x["name"] as? String, let id = x["exerciseId"] as? String { byName[name.lowercased()] = name; byId[id] = name }
        }
        var expectedKg: [String: Double] = [:]
        for (exercise, kg) in expected.heaviestKg {
            let name = try #require(byName[exercise] ?? byId[exercise], "\(exercise) is not in the library")
            expectedKg[name] = max(expectedKg[name] ?? 0, kg)
        }
        let prs = try #require(try cli.run(["prs", "--json"]).json?["exercises"] as? [[String: Any]])
        var heaviest: [String: Double] = [:]
        for p in prs { if let name = p["exercise"] as? String, let kg = p["heaviestKg"] as? Double { heaviest[name] = kg } }
        #expect(heaviest.count == expectedKg.count)
        for (exercise, kg) in expectedKg {
            let got = try #require(heaviest[exercise], "no record for \(exercise)")
            #expect(abs(got - kg) < 0.01, "\(exercise): \(got) kg, expected \(kg) kg")
        }
    }
}
