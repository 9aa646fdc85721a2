import Foundation
import LedgerTestSupport
import Testing

/// The real exports in `../shared/data/real-exports/` and `real-exports-more/` beside it
/// (``SharedData``), imported through the CLI. The expected counts and heaviest lifts come from the
/// test's own reading of each file, with a parser of its own, not from the importer's code.
enum RealExports {
    static var folder: URL { SharedData.url(.realExports) }

    /// Sixteen more, in the layouts and languages the first twelve lack.
    static var moreFolder: URL { SharedData.url(.realExportsMore) }

    /// Fourteen more again: Spanish and German Strong, Turkish, Spanish and Portuguese Hevy dates, Note rows, the newer FitNotes iOS layout.
    static var fifthFolder: URL { SharedData.url(.realExports5) }

    struct File: Sendable {
        var name: String
        var source: String
        /// `--unit`, for exports that do not say.
        var unitFlag: String?
        /// The unit the weights are in where no row says.
        var unit: String
        var more = false
        var fifth = false

        var url: URL {
            (fifth ? RealExports.fifthFolder : more ? RealExports.moreFolder : RealExports.folder).appendingPathComponent(name)
        }
    }

    static let files: [File] = [
        File(name: "strong_mlahoz_strong.csv", source: "strong", unitFlag: nil, unit: "kg"),
        File(name: "strong_MiroslavCsonka_strong-workout-analysis.csv", source: "strong", unitFlag: "kg", unit: "kg"),
        File(name: "strong_hipml_strong-unwrapped.csv", source: "strong", unitFlag: "lb", unit: "lb"),
        File(name: "strong_Andrew50_Lifting.csv", source: "strong", unitFlag: "lb", unit: "lb"),
        File(name: "strong_Andrew50_Lifting_aj.csv", source: "strong", unitFlag: "lb", unit: "lb"),
        File(name: "strong_SimonGomezUniv_strong_Simon.csv", source: "strong", unitFlag: "kg", unit: "kg"),
        File(name: "strong_cmccorkle21_fitness-pipeline.csv", source: "strong", unitFlag: nil, unit: "kg"),
        File(name: "hevy_StvrvDimitris_hevy-analyzer.csv", source: "hevy", unitFlag: nil, unit: "kg"),
        File(name: "hevy_NathanN-275_Lifting-stats.csv", source: "hevy", unitFlag: nil, unit: "lb"),
        File(name: "hevy_FelipeRuizM_hevy-visualizer.csv", source: "hevy", unitFlag: nil, unit: "kg"),
        File(name: "fitnotes_bilallb_Data-analysis.csv", source: "fitnotes", unitFlag: nil, unit: "kg"),
        File(name: "fitnotes_wmgriffi3_barbell-beasts-og.csv", source: "fitnotes", unitFlag: nil, unit: "lb"),
    ]

    /// The units of the files that do not say are SOURCES.md's reading of their values.
    static let moreFiles: [File] = [
        File(name: "fitnotes_Frefdt_Fitnotes-To-Strong-Converter.csv", source: "fitnotes", unitFlag: nil, unit: "kg", more: true),
        File(name: "fitnotes_shre81_workouts.csv", source: "fitnotes", unitFlag: "kg", unit: "kg", more: true),
        File(name: "hevy_GuTory_workout-analysis.csv", source: "hevy", unitFlag: nil, unit: "kg", more: true),
        File(name: "hevy_Maxence-create_sport-recap.csv", source: "hevy", unitFlag: nil, unit: "kg", more: true),
        File(name: "hevy_PedroTorrado_Hevy-Load.csv", source: "hevy", unitFlag: nil, unit: "kg", more: true),
        File(name: "strong_DericMei_My-WorkOut-Project.csv", source: "strong", unitFlag: "lb", unit: "lb", more: true),
        File(name: "strong_Eliah3_sports-tracking.csv", source: "strong", unitFlag: "kg", unit: "kg", more: true),
        File(name: "strong_SebastienRdgs_stronger.csv", source: "strong", unitFlag: "kg", unit: "kg", more: true),
        File(name: "strong_ShutCoffee_Health-Dashboard.csv", source: "strong", unitFlag: "kg", unit: "kg", more: true),
        File(name: "strong_TEmahiser_Fitness_Data.csv", source: "strong", unitFlag: nil, unit: "lb", more: true),
        File(name: "strong_ValterAndersson_myon.csv", source: "strong", unitFlag: "kg", unit: "kg", more: true),
        File(name: "strong_bladeours_strong-to-excel.csv", source: "strong", unitFlag: nil, unit: "kg", more: true),
        File(name: "strong_colebaril_Gym-Progress-Shiny-App.csv", source: "strong", unitFlag: "lb", unit: "lb", more: true),
        File(name: "strong_dstanek_lifting.csv", source: "strong", unitFlag: nil, unit: "lb", more: true),
        File(name: "strong_jonathanwillemans_Fitness-Progress-.csv", source: "strong", unitFlag: nil, unit: "kg", more: true),
        File(name: "strong_notseraphin_Workout-Analysis.csv", source: "strong", unitFlag: "lb", unit: "lb", more: true),
    ]

    /// Units as SOURCES.md reads them where the file does not say.
    static let fifthFiles: [File] = [
        File(name: "strong_cuyakonwu_cuyakonwu-landing-page.csv", source: "strong", unitFlag: "lb", unit: "lb", fifth: true),
        File(name: "strong_marcpare_body.csv", source: "strong", unitFlag: nil, unit: "lb", fifth: true),
        File(name: "strong_patrickzim_Wellbeing_23.csv", source: "strong", unitFlag: "kg", unit: "kg", fifth: true),
        File(name: "strong_joao-conde_fitness-tracker.csv", source: "strong", unitFlag: nil, unit: "kg", fifth: true),
        File(name: "strong_jannesantana_gymdata.csv", source: "strong", unitFlag: "kg", unit: "kg", fifth: true),
        File(name: "hevy_ghb72_no_important.csv", source: "hevy", unitFlag: nil, unit: "kg", fifth: true),
        File(name: "hevy_biaazv_heavy_etl.csv", source: "hevy", unitFlag: nil, unit: "kg", fifth: true),
        File(name: "hevy_canonat2326_Can-Onat-Yaren-DSA-210-Project.csv", source: "hevy", unitFlag: nil, unit: "kg", fifth: true),
        File(name: "hevy_FerreiraGabrielw_fitness-data-llm.csv", source: "hevy", unitFlag: nil, unit: "kg", fifth: true),
        File(name: "hevy_andyjwest_workouts.csv", source: "hevy", unitFlag: nil, unit: "lb", fifth: true),
        File(name: "hevy_SIERRA711_workout-analysis.csv", source: "hevy", unitFlag: nil, unit: "lb", fifth: true),
        File(name: "fitnotes_melvinrdn_intervals-icu-fitnotes.csv", source: "fitnotes", unitFlag: "kg", unit: "kg", fifth: true),
        File(name: "fitnotes_drobotnik_fitnotes.csv", source: "fitnotes", unitFlag: nil, unit: "kg", fifth: true),
        File(name: "fitnotes_abhishekray07_fitnotes.csv", source: "fitnotes", unitFlag: nil, unit: "kg", fifth: true),
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
        /// Strong's `Note` rows: an exercise's note, not a set.
        var notes = 0
        /// Rows with a value no lifter can have done (reps over 1,000): refused, each named.
        var impossible = 0
        var heaviestKg: [String: Double] = [:]
    }

    /// The column names these files use, in their languages, by meaning.
    static let names: [String: [String]] = [
        "date": ["date", "datum", "日期", "fecha"],
        "workout": ["workout name", "nom de l'entraînement", "workout-name", "锻炼名称", "nombre de entrenamiento"],
        "exercise": ["exercise name", "nom de l'exercice", "name der übung", "运动名称", "exercise_title", "exercise", "nombre del ejercicio"],
        "setOrder": ["set order", "ordre de la série", "reihenfolge festlegen", "设置顺序", "orden de la serie"],
        "reps": ["reps", "réps", "wiederh.", "次", "rep."],
        "seconds": ["seconds", "secondes", "sekunden", "秒", "segundos"],
        "distance": ["distance", "km", "mi", "distance (meters)", "entfernung", "距离", "distance_km", "distance_miles", "distancia"],
        "weight": ["weight", "kg", "lb", "poids", "gewicht", "重量", "weight (kg)", "weight (kgs)", "weight_kg", "weight_lbs", "weight (lbs)", "peso"],
        "duration": ["duration", "duration (sec)", "workout duration", "durée", "dauer", "duración", "时长"],
    ]

    /// Workouts with at least one measured set; sets measured (reps, time or
    /// distance), leaving out the second and later copies of a workout whose
    /// rows are one run of several exercises written several times (an export
    /// artefact; in a file that does that, a one-exercise workout written twice
    /// too); a repeated block of an exercise is real sets, FitNotes' identical
    /// rows too; the heaviest non-warm-up weight with at least one rep, per
    /// exercise name, in each row's own unit where the file gives one.
    static func expected(_ text: String, source: String, unit: String) -> Expected {
        let firstLine = text.prefix { $0 != "\n" && $0 != "\r" }
        let delimiter: Character = firstLine.filter { $0 == ";" }.count > firstLine.filter { $0 == "," }.count ? ";" : ","
        var rows = records(text, delimiter: delimiter)
        let header = rows.removeFirst().map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        func col(_ names: String...) -> Int? { names.lazy.compactMap { header.firstIndex(of: $0) }.first }
        func col(meaning: String) -> Int? { (Self.names[meaning] ?? []).lazy.compactMap { header.firstIndex(of: $0) }.first }
        let iOS = header.contains("start date (utc)") || header.contains("starttime")
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
            case "strong": workout = f(col(meaning: "date")) + "|" + f(col(meaning: "workout"))
            case "hevy": workout = f(col("start_time")) + "|" + f(col("title"))
            default:
                workout = iOS ? f(col("start date (utc)")) + f(col("start time (utc)")) + f(col("starttime")) + "|" + f(col("name")) : f(col("date"))
            }
            // Bookkeeping, not part of the set: a copy of a workout may carry another number or a later stop.
            if let n = col("workout #") { r[n] = "" }
            if source == "strong", let n = col(meaning: "duration") { r[n] = "" }
            if byWorkout[workout] == nil { order.append(workout) }
            byWorkout[workout, default: []].append(r)
        }
        let exerciseColumn = col(meaning: "exercise")
        func period(_ group: [[String]]) -> (length: Int, exercises: Int)? {
            guard source != "fitnotes", group.count >= 2,
                let p = (1...(group.count / 2)).first(where: { p in
                    group.count % p == 0 && (p..<group.count).allSatisfy { group[$0] == group[$0 % p] }
                })
            else { return nil }
            return (p, Set(group[..<p].map { row in exerciseColumn.map { row[$0] } ?? "" }).count)
        }
        let writesTwice = byWorkout.values.contains { (period($0)?.exercises ?? 0) >= 2 }
        // A number with a decimal comma, as the iOS FitNotes file writes them.
        func number(_ s: String) -> Double { Double(s.contains(".") ? s : s.replacingOccurrences(of: ",", with: ".")) ?? 0 }
        var workoutsWithSets = Set<String>()
        for workout in order {
            var group = byWorkout[workout] ?? []
            if let (p, exercises) = period(group), exercises >= 2 || writesTwice { group = Array(group[..<p]) }
            for r in group {
                func f(_ i: Int?) -> String { i.map { r[$0].trimmingCharacters(in: .whitespaces) } ?? "" }
                func num(_ i: Int?) -> Double { number(f(i)) }
                let exercise = f(exerciseColumn).lowercased()
                let warmup: Bool
                var seconds = 0.0, distance = 0.0
                switch source {
                case "strong":
                    let order = f(col(meaning: "setOrder"))
                    if ["Rest Timer", "Ruhezeit", "Temporizador de descanso"].contains(order) { continue }
                    if order == "Note" {
                        out.notes += 1
                        continue
                    }
                    warmup = ["W", "WARM_UP", "É"].contains(order)
                    seconds = num(col(meaning: "seconds"))
                    distance = num(col(meaning: "distance"))
                case "hevy":
                    warmup = f(col("set_type")) == "warmup"
                    seconds = num(col("duration_seconds"))
                    distance = num(col(meaning: "distance"))
                default:
                    warmup = f(col("iswarmup")).lowercased() == "true"
                    if iOS, f(col("status")) == "NotStarted" { continue }  // planned, never done
                    let time = f(col("time")).split(separator: ":").compactMap { Double($0) }
                    seconds = time.reduce(0) { $0 * 60 + $1 }
                    if iOS || ["mi", "km", "m"].contains(f(col("distance unit"))) { distance = num(col("distance")) }
                }
                let repsText = f(col(meaning: "reps"))
                // A set with a load is a set, whatever else it counts.
                guard !repsText.isEmpty || seconds > 0 || distance > 0 || num(col(meaning: "weight")) > 0 else { continue }
                if (Double(repsText) ?? 0) > 1000 {
                    out.impossible += 1
                    continue
                }
                workoutsWithSets.insert(workout)
                out.sets += 1
                let rowUnit = f(col("weight unit")).lowercased()
                let perKg = (rowUnit.isEmpty ? unit : rowUnit).hasPrefix("kg") ? 1.0 : 0.45359237
                let weight = num(col(meaning: "weight"))
                // An assisted exercise's record is its least help, none at all included (RULES.md), the word in any language the exports use.
                let assisted = ["assisted", "assistid", "asistid", "assistit", "assisté", "unterstützt", "assisteer"].contains {
                    exercise.contains($0)
                }
                if !warmup, weight > 0 || assisted, (Double(repsText) ?? 0) >= 1 {
                    out.heaviestKg[exercise] =
                        assisted ? min(out.heaviestKg[exercise] ?? .infinity, weight * perKg) : max(out.heaviestKg[exercise] ?? 0, weight * perKg)
                }
            }
        }
        out.workouts = workoutsWithSets.count
        return out
    }
}

@Suite("real exports through the CLI", .needsSharedData(.realExports))
struct RealExportsCLITests {
    @Test(
        "every real export imports with the workouts, sets and heaviest lifts read independently; re-import appends nothing",
        arguments: RealExports.files.map(\.name))
    func realExport(_ name: String) throws {
        try Self.check(try #require(RealExports.files.first { $0.name == name }))
    }

    @Test(
        "the sixteen more real exports (US dates, Chinese, German, iOS FitNotes, unit columns, rest timers) import whole too",
        .needsSharedData(.realExports, .realExportsMore),
        arguments: RealExports.moreFiles.map(\.name))
    func moreRealExport(_ name: String) throws {
        try Self.check(try #require(RealExports.moreFiles.first { $0.name == name }))
    }

    @Test(
        "the fourteen of round five (Spanish and German Strong, Note rows, Turkish, Spanish and Portuguese Hevy dates, the newer FitNotes iOS layout, weight-only sets) import whole too",
        .needsSharedData(.realExports5),
        arguments: RealExports.fifthFiles.map(\.name))
    func fifthRealExport(_ name: String) throws {
        try Self.check(try #require(RealExports.fifthFiles.first { $0.name == name }))
    }

    /// Export → import → export gives the same file, with no option to add, and the same history.
    static func roundTrip(_ cli: LedgerProcess) throws {
        let copy = try LedgerProcess()
        defer { copy.cleanUp() }
        let first = cli.folder.appendingPathComponent("first.csv").path, second = copy.folder.appendingPathComponent("second.csv").path
        #expect(try cli.run(["export", "csv", first]).status == 0)
        let back = try copy.run(["import", "strong", first])
        #expect(back.status == 0, "\(back.stderr)")
        #expect(try copy.run(["export", "csv", second]).status == 0)
        let a = try String(contentsOfFile: first, encoding: .utf8), b = try String(contentsOfFile: second, encoding: .utf8)
        #expect(a == b, "the second export differs from the first")
        // History as a person reads it, but for the workouts' short ids (each import derives its own).
        func history(_ p: LedgerProcess) throws -> String {
            try p.run(["history", "--limit", "100000"]).stdout.replacingOccurrences(of: #"  \[[0-9a-f]{8}\]"#, with: "", options: .regularExpression)
        }
        #expect(try history(cli) == history(copy))
    }

    static func check(_ file: RealExports.File) throws {
        let path = file.url.path
        let expected = RealExports.expected(try String(contentsOfFile: path, encoding: .utf8), source: file.source, unit: file.unit)
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        var args = ["import", file.source, path, "--timezone", "UTC", "--json"] + (file.unitFlag.map { ["--unit", $0] } ?? [])
        if expected.impossible > 0 {
            // A file with values no lifter can have done is refused in one line that says what to add; nothing lands.
            let refused = try cli.run(args)
            #expect(refused.status == 1)
            #expect(refused.stderr.contains("repeat with --skip-unreadable"), "\(refused.stderr)")
            #expect(refused.stderr.split(separator: "\n").count == 1)
            #expect(try cli.eventCount() == 0)
            args.append("--skip-unreadable")
        }
        let first = try cli.run(args)
        #expect(first.status == 0, "\(first.stderr)")
        let summary = try #require(first.json)
        #expect(summary["workouts"] as? Int == expected.workouts)
        #expect(summary["sets"] as? Int == expected.sets)
        #expect(summary["alreadyImported"] as? Bool == false)
        // Every row is accounted for: a set, a rest period, or a skipped row with its line and reason.
        let skippedRows = try #require(summary["skippedRows"] as? [[String: Any]])
        #expect(summary["rows"] as? Int == expected.rows)
        #expect(summary["noteRows"] as? Int == expected.notes)
        #expect(
            (summary["sets"] as? Int ?? 0) + (summary["restPeriods"] as? Int ?? 0) + expected.notes + skippedRows.count == expected.rows)
        #expect(skippedRows.allSatisfy { ($0["line"] as? Int ?? 0) >= 2 && !($0["reason"] as? String ?? "").isEmpty })
        // The only values refused are the impossible ones, each named with its line.
        let refused = skippedRows.filter { $0["refused"] as? Bool == true }
        #expect(refused.count == expected.impossible, "\(refused.prefix(3))")
        #expect(refused.allSatisfy { ($0["reason"] as? String ?? "").hasPrefix("reps ") })
        let events = try #require(try cli.run(["verify", "--json"]).json?["events"] as? Int)

        let again = try cli.run(args)
        #expect(again.json?["alreadyImported"] as? Bool == true)
        #expect(again.json?["workouts"] as? Int == 0)
        let verify = try #require(try cli.run(["verify", "--json"]).json)
        #expect(verify["events"] as? Int == events)
        #expect(verify["ok"] as? Bool == true)

        // The file's names resolve as USER-GUIDE.md says any name does: by name, any case, else by id; or as the import
        // said it matched them to the library under another name.
        let library = try #require(try cli.run(["exercise", "list", "--json"]).json?["exercises"] as? [[String: Any]])
        var byName: [String: String] = [:], byId: [String: String] = [:]
        for x in library {
            if let name = x["name"] as? String, let id = x["exerciseId"] as? String { byName[name.lowercased()] = name; byId[id] = name }
        }
        for m in summary["matchedExercises"] as? [[String: String]] ?? [] {
            if let name = m["name"], let exercise = m["exercise"] { byName[name.lowercased()] = exercise }
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

        try roundTrip(cli)
        // Garmin's SDK reads every workout of the same ledger: one import of each file serves both checks.
        if GarminFITSDK.available || GarminFITSDK.required { try GarminFITSDK.check(cli, name: file.name) }
    }
}
