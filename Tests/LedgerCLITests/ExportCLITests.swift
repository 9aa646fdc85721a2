import Foundation
import LedgerTestSupport
import Testing

@Suite("ledger export, restore and report", .serialized)
struct ExportCLITests {
    @Test("export jsonl → import jsonl into an empty file: identical log, verify ok; importing it again appends nothing")
    func jsonlRoundTrip() throws {
        let source = try LedgerProcess(), target = try LedgerProcess()
        defer { source.cleanUp(); target.cleanUp() }
        #expect(try source.run(["demo"]).status == 0)
        let file = source.folder.appendingPathComponent("backup.jsonl").path
        let exported = try source.run(["export", "jsonl", file, "--json"])
        #expect(exported.status == 0, "\(exported.stderr)")
        let rows = try #require(exported.json?["rows"] as? Int)
        // The export itself is then recorded (for account erasure): one event after the exported ones.
        #expect(rows == (try source.eventCount()) - 1)
        let recorded = try source.run(["log", "--json", "--type", "ExportWritten"]).stdout
        #expect(recorded.contains("\"path\":\"\(URL(fileURLWithPath: file).standardizedFileURL.path)\""))
        let restored = try target.run(["import", "jsonl", file, "--json"])
        #expect(restored.status == 0, "\(restored.stderr)")
        #expect(try target.run(["log", "--json"]).stdout == (try source.run(["log", "--json", "--as-of", "\(rows)"]).stdout))
        #expect(try target.run(["verify", "--json"]).json?["ok"] as? Bool == true)
        #expect(try target.run(["prs", "--json"]).stdout == (try source.run(["prs", "--json"]).stdout))
        let again = try target.run(["import", "jsonl", file, "--json"])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.json?["appended"] as? Int == 0)
        #expect(again.json?["alreadyStored"] as? Int == rows)
        #expect(try target.eventCount() == rows)
    }

    @Test("CSV export is free: a Free ledger writes Strong's columns with the units, which import back with no option and the same records")
    func csvExport() throws {
        let cli = try LedgerProcess(), copy = try LedgerProcess()
        defer { cli.cleanUp(); copy.cleanUp() }
        #expect(try cli.run(["demo"]).status == 0)
        let file = cli.folder.appendingPathComponent("history.csv").path
        let before = try cli.eventCount()
        #expect(try cli.run(["entitlements", "--json"]).json?["isPro"] as? Bool == false)
        let written = try cli.run(["export", "csv", file, "--json"])
        #expect(written.status == 0, "\(written.stderr)")
        let text = try String(contentsOfFile: file, encoding: .utf8)
        #expect(
            text.hasPrefix(
                "Date,Workout Name,Duration,Exercise #,Exercise Name,Set Order,Weight (kg),Weight Unit,Reps,Distance,Distance Unit,Seconds,Notes,Set Notes,Workout Notes,RPE,Workout End,Superset\n"
            ))
        #expect(written.json?["rows"] as? Int == text.split(separator: "\n").count - 1)
        #expect(try cli.eventCount() == before + 1)  // the export, recorded for account erasure

        // The CSV carries the history: imported into a new ledger with no option, the records are the same.
        let back = try copy.run(["import", "strong", file, "--json"])
        #expect(back.status == 0, "\(back.stderr)")
        let history = try #require(try cli.run(["history", "--json"]).json?["workouts"] as? [[String: Any]])
        #expect(back.json?["workouts"] as? Int == history.count)
        func heaviest(_ p: LedgerProcess) throws -> [String: Double] {
            let rows = try #require(try p.run(["prs", "--json"]).json?["exercises"] as? [[String: Any]])
            return Dictionary(
                uniqueKeysWithValues: rows.compactMap { r in
                    (r["exercise"] as? String).flatMap { name in (r["heaviestKg"] as? Double).map { (name, $0) } }
                })
        }
        let original = try heaviest(cli), imported = try heaviest(copy)
        #expect(original.keys.sorted() == imported.keys.sorted())
        for (name, kg) in original { #expect(abs((imported[name] ?? 0) - kg) < 0.001, "\(name)") }
    }

    @Test("health-connect writes a Health Connect exercise session per workout, a segment per set; --since chooses")
    func healthConnect() throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        #expect(try cli.run(["demo"]).status == 0)
        let file = cli.folder.appendingPathComponent("sessions.json").path
        let wrote = try cli.run(["export", "health-connect", file, "--json"])
        #expect(wrote.status == 0, "\(wrote.stderr)")
        let sessions = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: file))) as? [[String: Any]])
        let history = try #require(try cli.run(["history", "--json", "--limit", "500"]).json?["workouts"] as? [[String: Any]])
        #expect(sessions.count == history.count && wrote.json?["workouts"] as? Int == history.count)
        // Oldest first; each set a segment with its reps and weight, in history's order.
        let newest = try #require(history.first), last = try #require(sessions.last)
        #expect(last["title"] as? String == newest["name"] as? String)
        let sets = (newest["exercises"] as? [[String: Any]] ?? []).flatMap { $0["sets"] as? [[String: Any]] ?? [] }
        let segments = last["segments"] as? [[String: Any]] ?? []
        #expect(segments.map { $0["repetitions"] as? Int } == sets.map { $0["reps"] as? Int })
        #expect(segments.map { ($0["weight"] as? [String: Any])?["inKilograms"] as? Double } == sets.map { $0["weightKg"] as? Double })
        let since = try cli.run(["export", "health-connect", file, "--since", "2026-11-01", "--json"])
        #expect(since.status == 0, "\(since.stderr)")
        #expect((since.json?["workouts"] as? Int ?? 0) < history.count)
    }

    @Test("the HTML report is one offline page with the four charts and the demo's lifts")
    func report() throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        #expect(try cli.run(["demo"]).status == 0)
        let file = cli.folder.appendingPathComponent("report.html").path
        let out = try cli.run(["report", "--html", file, "--json"])
        #expect(out.status == 0, "\(out.stderr)")
        let html = try String(contentsOfFile: file, encoding: .utf8)
        #expect(html.hasPrefix("<!DOCTYPE html>"))
        #expect(html.components(separatedBy: "<svg").count - 1 == 4)
        for title in ["Estimated 1RM, main lifts", "Weekly volume by muscle group", "Personal records", "Training calendar", "Last workouts"] {
            #expect(html.contains(title), "missing \(title)")
        }
        for lift in ["Squat (Barbell)", "Bench Press (Barbell)", "Deadlift (Barbell)"] { #expect(html.contains(lift)) }
        // Offline: no scripts, and the only URL is the SVG namespace.
        #expect(!html.contains("<script"))
        #expect(html.components(separatedBy: "http").count - 1 == html.components(separatedBy: "http://www.w3.org/2000/svg").count - 1)
        #expect(out.json?["workouts"] as? Int == (try cli.run(["history", "--json"]).json?["workouts"] as? [Any])?.count)

        // An empty ledger gets a page that says so, not empty charts.
        let empty = try LedgerProcess()
        defer { empty.cleanUp() }
        let blank = empty.folder.appendingPathComponent("blank.html").path
        #expect(try empty.run(["settings", "unit", "kg"]).status == 0)
        #expect(try empty.run(["report", "--html", blank]).status == 0)
        let text = try String(contentsOfFile: blank, encoding: .utf8)
        #expect(text.contains("Nothing to chart yet") && !text.contains("<svg"))
    }
}
