import Foundation
import LedgerTestSupport
import Testing

/// What the real files of `real-exports-more` showed beyond their counts:
/// repeated blocks of an exercise in every view, a spreadsheet's re-save met
/// with the app's own export, and a file of which nothing can be imported.
@Suite(
    "real exports: repeated blocks in every view, re-saved files, nothing imported", .serialized,
    .needsSharedData(.realExports, .realExportsMore))
struct RealExportEdgesCLITests {
    static func url(_ name: String) -> URL { RealExports.moreFolder.appendingPathComponent(name) }

    static func workouts(_ cli: LedgerProcess, month: String) throws -> [[String: Any]] {
        try #require(try cli.run(["history", "--json", "--month", month]).json?["workouts"] as? [[String: Any]])
    }

    /// Each exercise row of a workout in `history --json`: its name, number of sets and note.
    static func rows(_ workout: [String: Any]) -> [(String, Int, String?)] {
        (workout["exercises"] as? [[String: Any]] ?? []).map {
            ($0["exercise"] as? String ?? "", ($0["sets"] as? [Any])?.count ?? 0, $0["note"] as? String)
        }
    }

    @Test("history --json, exercise history and export csv show each block of an exercise as recorded, with its own sets and note")
    func repeatedBlocksInEveryView() throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let pedro = try cli.run(["import", "hevy", Self.url("hevy_PedroTorrado_Hevy-Load.csv").path, "--timezone", "UTC"])
        #expect(pedro.status == 0, "\(pedro.stderr)")
        // Lines 934–942: Bench Press three times in one workout, warm-ups, then two blocks with a note each.
        let chest = try #require(try Self.workouts(cli, month: "2025-03").first { $0["name"] as? String == "Chest pl" })
        let bench = Self.rows(chest).filter { $0.0 == "Bench Press (Barbell)" }
        #expect(bench.map(\.1) == [2, 4, 3])
        #expect(bench.map(\.2) == [nil, "~ @75% rpe", "paused reps ~@65% rpe"])

        // exercise history too: one entry per block, each with its own note.
        let exerciseHistory = try #require(
            try cli.run(["exercise", "history", "Bench Press (Barbell)", "--json"]).json?["workouts"] as? [[String: Any]])
        let thatDay = exerciseHistory.filter { $0["name"] as? String == "Chest pl" && ($0["startedAt"] as? String ?? "").hasPrefix("2025-03-05") }
        #expect(thatDay.map { ($0["sets"] as? [Any])?.count } == [2, 4, 3])
        #expect(thatDay.map { $0["note"] as? String } == [nil, "~ @75% rpe", "paused reps ~@65% rpe"])

        let file = cli.folder.appendingPathComponent("history.csv").path
        #expect(try cli.run(["export", "csv", file]).status == 0)
        let exported = RealExports.records(try String(contentsOfFile: file, encoding: .utf8), delimiter: ",")
        // Columns: Date, Workout Name, Duration, Exercise #, Exercise Name, Set Order, …, Notes (12).
        let benchRows = exported.filter { $0.count > 12 && $0[0] == "2025-03-05 15:42:00" && $0[4] == "Bench Press (Barbell)" }
        #expect(benchRows.map { $0[5] } == ["W", "W", "1", "2", "3", "4", "1", "2", "3"])
        #expect(
            benchRows.map { $0[12] } == ["", ""] + Array(repeating: "~ @75% rpe", count: 4) + Array(repeating: "paused reps ~@65% rpe", count: 3))
        #expect(Set(benchRows.map { $0[3] }).count == 3, "each block is its own entry of the workout")

        // Every workout of the file, read here without the importer: a block ends where the exercise
        // changes or set_index starts again; history shows the same blocks with the same set counts.
        var blocks: [String: [Int]] = [:], last: [String: (String, Int)] = [:]
        var rows = RealExports.records(try String(contentsOf: Self.url("hevy_PedroTorrado_Hevy-Load.csv"), encoding: .utf8), delimiter: ",")
        rows.removeFirst()
        var order: [String] = [], byWorkout: [String: [[String]]] = [:]
        for r in rows {
            let key = r[1] + "|" + r[0]
            if byWorkout[key] == nil { order.append(key) }
            byWorkout[key, default: []].append(r)
        }
        for key in order {
            for r in byWorkout[key] ?? [] {
                let index = Int(r[7]) ?? 0
                if let (exercise, previous) = last[key], exercise == r[4], index > previous {
                    blocks[key]![blocks[key]!.count - 1] += 1
                } else {
                    blocks[key, default: []].append(1)
                }
                last[key] = (r[4], index)
            }
        }
        let history = try #require(try cli.run(["history", "--json"]).json?["workouts"] as? [[String: Any]])
        #expect(history.count == order.count)
        let shown = history.map { Self.rows($0).map(\.1) }.sorted { $0.description < $1.description }
        let read = order.map { blocks[$0] ?? [] }.sorted { $0.description < $1.description }
        #expect(shown == read)
    }

    @Test("a German export's two Lat Pulldown blocks keep their own grip notes")
    func germanBlocksKeepTheirNotes() throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let out = try cli.run([
            "import", "strong", Self.url("strong_ShutCoffee_Health-Dashboard.csv").path, "--unit", "kg", "--timezone", "UTC",
        ])
        #expect(out.status == 0, "\(out.stderr)")
        let evening = try #require(
            try Self.workouts(cli, month: "2021-11").first { ($0["startedAt"] as? String ?? "").hasPrefix("2021-11-04") })
        let pulldowns = Self.rows(evening).filter { $0.0 == "Lat Pulldown (Cable)" }
        #expect(pulldowns.map(\.1) == [4, 3])
        #expect(pulldowns.map(\.2) == ["Weiter Griff", "Enger Griff"])
    }

    /// The app's export as a spreadsheet saves it again: quotes gone, seconds dropped, hours unpadded.
    static func resaved(_ text: String) -> String {
        var rows = RealExports.records(text, delimiter: ",")
        let header = rows.removeFirst()
        let lines = rows.map { r -> String in
            var r = r
            // 2022-12-05 06:47:12 → 2022-12-05 6:47
            let parts = r[0].split(separator: " ")
            if parts.count == 2 {
                let hms = parts[1].split(separator: ":")
                r[0] = "\(parts[0]) \(Int(hms[0]) ?? 0):\(hms[1])"
            }
            return r.map {
                $0.contains(",") || $0.contains("\"") || $0.contains("\n") ? "\"" + $0.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : $0
            }
            .joined(separator: ",")
        }
        return ([header.joined(separator: ",")] + lines).joined(separator: "\r\n") + "\r\n"
    }

    @Test("a re-saved copy and the app's export of the same history recognise each other in either order, and say so")
    func resavedAndOriginal() throws {
        let original = Self.url("strong_colebaril_Gym-Progress-Shiny-App.csv")
        let text = try String(contentsOf: original, encoding: .utf8)
        let copyText = Self.resaved(text)
        // Workouts (date, name) whose start has seconds to lose: the others keep their identity whole.
        let workouts = Set(RealExports.records(text, delimiter: ",").dropFirst().map { $0[0] + "|" + $0[1] })
        let notOnTheMinute = workouts.filter { !$0.split(separator: "|")[0].hasSuffix(":00") }.count
        #expect(notOnTheMinute > 0)
        for copyFirst in [false, true] {
            let cli = try LedgerProcess()
            defer { cli.cleanUp() }
            let copy = cli.folder.appendingPathComponent("strong-resaved.csv")
            try copyText.write(to: copy, atomically: true, encoding: .utf8)
            let files = copyFirst ? [copy.path, original.path] : [original.path, copy.path]
            let first = try cli.run(["import", "strong", files[0], "--unit", "lb", "--timezone", "UTC", "--json"])
            #expect(first.json?["workouts"] as? Int == 83, "\(first.stderr)")
            let events = try cli.eventCount()
            let second = try #require(try cli.run(["import", "strong", files[1], "--unit", "lb", "--timezone", "UTC", "--json"]).json)
            #expect(second["workouts"] as? Int == 0)
            #expect(second["workoutsAlreadyPresent"] as? Int == 83)
            #expect(second["workoutsRecognisedWithoutSeconds"] as? Int == notOnTheMinute)
            #expect(try cli.eventCount() == events)
            #expect((try cli.run(["history", "--json"]).json?["workouts"] as? [Any])?.count == 83)
        }
        // In words, the summary says how the workouts were recognised.
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let copy = cli.folder.appendingPathComponent("strong-resaved.csv")
        try copyText.write(to: copy, atomically: true, encoding: .utf8)
        _ = try cli.run(["import", "strong", original.path, "--unit", "lb", "--timezone", "UTC"])
        let said = try cli.run(["import", "strong", copy.path, "--unit", "lb", "--timezone", "UTC"])
        #expect(said.stdout.contains("\(notOnTheMinute) of them recognised by name and minute"), "\(said.stdout)")
    }

    @Test("a file of which no row can be imported exits 1 with one line of its commonest reasons, and appends nothing")
    func nothingImportedIsARefusal() throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        // Maxence's real export with its month names in a language no phone writes: every date unreadable.
        let text = try String(contentsOf: Self.url("hevy_Maxence-create_sport-recap.csv"), encoding: .utf8)
        let unreadable = text.replacingOccurrences(of: "\"Apr ", with: "\"Xyz ").replacingOccurrences(of: "\"Mar ", with: "\"Xyz ")
            .replacingOccurrences(of: "\"Feb ", with: "\"Xyz ").replacingOccurrences(of: "\"Jan ", with: "\"Xyz ")
            .replacingOccurrences(of: "\"Dec ", with: "\"Xyz ").replacingOccurrences(of: "\"Nov ", with: "\"Xyz ")
            .replacingOccurrences(of: "\"Oct ", with: "\"Xyz ").replacingOccurrences(of: "\"Sep ", with: "\"Xyz ")
        let file = cli.folder.appendingPathComponent("workouts.csv")
        try unreadable.write(to: file, atomically: true, encoding: .utf8)
        for json in [false, true] {
            let out = try cli.run(["import", "hevy", file.path, "--timezone", "UTC"] + (json ? ["--json"] : []))
            #expect(out.status == 1)
            let lines = out.stderr.split(separator: "\n")
            #expect(lines.count == 1, "\(out.stderr)")
            #expect(lines.first?.contains("none of the file's 2274 rows could be imported (2274 × start_time is not a date and time") == true)
            #expect(try cli.eventCount() == 0)
        }
        // The real file, as written, imports whole: the US dates are read.
        let real = try cli.run(["import", "hevy", Self.url("hevy_Maxence-create_sport-recap.csv").path, "--timezone", "UTC", "--json"])
        #expect(real.json?["workouts"] as? Int == 103)
        #expect((real.json?["skippedReasons"] as? [String: Any])?.isEmpty == true)
    }
}
