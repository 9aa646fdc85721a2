import Foundation
import LedgerTestSupport
import Testing

/// A run, a plank, a bench session and a weigh-in, typed as people type
/// them, and where each comes out; the watch's samples and batches.
@Suite("every exercise kind, watch sessions, bodyweight and auto-fill through the CLI")
struct WatchAndKindsCLITests {
    /// A morning: a 5 km run in 25:00 with heart rate and energy, a 1:30 plank, a bench set, a 10-minute pause.
    func morning(_ cli: LedgerProcess) throws -> String {
        let w = try #require(try cli.json(["workout", "start", "--name", "Morning", "--at", "2026-11-20T07:00:00Z"])["workoutId"] as? String)
        for args in [
            ["workout", "log", w, "running", "--distance", "5km", "--duration", "25:00", "--at", "2026-11-20T07:25:00Z"],
            ["workout", "health", w, "--heart-rate", "140", "--at", "2026-11-20T07:10:00Z"],
            ["workout", "health", w, "--heart-rate", "166", "--at", "2026-11-20T07:20:00Z"],
            ["workout", "health", w, "--energy", "310.5", "--at", "2026-11-20T07:25:00Z"],
            ["workout", "pause", w, "--at", "2026-11-20T07:30:00Z"],
            ["workout", "resume", w, "--at", "2026-11-20T07:40:00Z"],
            ["workout", "log", w, "Plank", "--duration", "1m30s", "--at", "2026-11-20T07:45:00Z"],
            ["workout", "log", w, "Bench Press (Barbell)", "--reps", "8", "--weight", "80kg", "--at", "2026-11-20T07:50:00Z"],
            ["workout", "finish", w, "--at", "2026-11-20T08:00:00Z"],
        ] {
            let out = try cli.run(args)
            #expect(out.status == 0, "\(args): \(out.stderr)")
        }
        return w
    }

    @Test("a run, a plank and a bench set come out in history, exercise history, summary, records, CSV and the report")
    func everyView() throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let w = try morning(cli)

        // Refused with the kind's own message, nothing appended.
        let before = try cli.eventCount()
        for (args, message) in [
            (["workout", "log", w, "running", "--reps", "5", "--history-edit"], "needs a duration or a distance; give --duration or --distance"),
            (["workout", "log", w, "plank", "--reps", "3", "--history-edit"], "a hold needs a duration; give --duration"),
            (["workout", "log", w, "plank", "--duration", "1m30x", "--history-edit"], "duration '1m30x'"),
            (["workout", "log", w, "running", "--distance", "5 parsecs", "--history-edit"], "distance '5 parsecs'"),
            (["workout", "health", w, "--heart-rate", "300", "--history-edit"], "give 20 to 250 bpm"),
            (["workout", "health", w, "--energy", "-5", "--history-edit"], "give 0 to 10000 kcal"),
        ] {
            let out = try cli.run(args)
            #expect(out.status == 1 && out.stderr.contains(message), "\(args): \(out.stderr)")
        }
        #expect(try cli.eventCount() == before)

        let summary = try cli.json(["workout", "summary", w])
        #expect(summary["durationSeconds"] as? Int == 50 * 60)  // 60 minutes less the 10-minute pause
        let heart = try #require(summary["heartRate"] as? [String: Any])
        #expect(heart["average"] as? Double == 153 && heart["max"] as? Double == 166)
        #expect(summary["activeEnergyKcal"] as? Double == 310.5)
        let workout = try #require(summary["workout"] as? [String: Any])
        let sets = try #require((workout["exercises"] as? [[String: Any]])?.flatMap { ($0["sets"] as? [[String: Any]]) ?? [] })
        #expect(sets.count == 3)
        #expect(sets[0]["distanceMeters"] as? Double == 5000 && sets[0]["durationSeconds"] as? Double == 1500 && sets[0]["reps"] is NSNull)
        #expect(sets[1]["durationSeconds"] as? Double == 90 && sets[1]["distanceMeters"] is NSNull)
        #expect(sets[2]["weightKg"] as? Double == 80 && sets[2]["durationSeconds"] is NSNull)

        let text = try cli.run(["history"]).stdout
        #expect(text.contains("Running: 5 km in 25:00 (5:00 /km)") && text.contains("Plank: 1:30") && text.contains("80 kg × 8"))
        let runs = try cli.json(["exercise", "history", "running"])["workouts"] as? [[String: Any]]
        #expect(((runs?.first?["sets"] as? [[String: Any]])?.first?["distanceMeters"] as? Double) == 5000)
        #expect(try cli.run(["workout", "summary", w]).stdout.contains("♥ heart rate 153 avg, 166 max · 311 kcal"))

        let prs = try #require(try cli.json(["prs", "--timeline"])["exercises"] as? [[String: Any]])
        let run = try #require(prs.first { $0["exerciseId"] as? String == "running" })
        #expect(run["longestDistanceMeters"] as? Double == 5000 && run["longestDurationSeconds"] as? Double == 1500)
        #expect(run["bestPaceSecondsPerKm"] as? Double == 300 && run["heaviestKg"] is NSNull)
        let pace = try #require((run["timeline"] as? [[String: Any]])?.first { $0["kind"] as? String == "bestPace" })
        #expect(pace["unit"] as? String == "s/km" && pace["value"] as? Double == 300 && pace["valueKg"] is NSNull)
        #expect(prs.first { $0["exerciseId"] as? String == "plank" }?["longestHoldSeconds"] as? Double == 90)
        #expect(try cli.run(["prs"]).stdout.contains("5:00 /km"))

        let csv = cli.folder.appendingPathComponent("out.csv").path
        #expect(try cli.run(["export", "csv", csv]).status == 0)
        let rows = try String(contentsOfFile: csv, encoding: .utf8).split(separator: "\n")
        // Weight, Weight Unit, Reps, Distance, Distance Unit, Seconds: 5 km in 1500 s; a 90 s hold.
        #expect(rows.contains { $0.contains("\"Running\"") && $0.contains(",,,,5000,m,1500,") }, "\(rows)")
        #expect(rows.contains { $0.contains("\"Plank\"") && $0.contains(",,,,,,90,") }, "\(rows)")
        let report = cli.folder.appendingPathComponent("r.html").path
        #expect(try cli.run(["report", "--html", report]).status == 0)
        #expect(try String(contentsOfFile: report, encoding: .utf8).contains("5 km in 25:00"))
    }

    @Test("a weigh-in in stone and pounds, kg and lb; shown in the bodyweight unit; the tonnage rule moves pull-up volume")
    func bodyweight() throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        #expect(try cli.json(["body", "log", "--weight", "13st 2lb", "--at", "2026-11-01T07:00:00Z"])["measurementId"] is String)
        #expect(try cli.run(["body", "log", "--weight", "82kg", "--at", "2026-11-10T07:00:00Z"]).status == 0)
        #expect(try cli.run(["body", "log", "--weight", "5kg"]).status == 1)
        let history = try #require(try cli.json(["body", "history"])["measurements"] as? [[String: Any]])
        #expect(history.count == 2)
        #expect(abs((history[1]["weightKg"] as? Double ?? 0) - 83.461) < 0.001)
        #expect((history[0]["date"] as? String)?.hasPrefix("2026-11-10") == true)
        #expect(try cli.run(["settings", "unit", "st"]).status == 0)
        #expect(try cli.run(["body", "history"]).stdout.contains("13 st 2 lb"))
        #expect(try cli.run(["settings", "bodyweight", "lb"]).status == 0)
        #expect(try cli.run(["body", "history"]).stdout.contains("184 lb"))

        let w = try #require(try cli.json(["workout", "start", "--at", "2026-11-12T18:00:00Z"])["workoutId"] as? String)
        #expect(try cli.run(["workout", "log", w, "pull-up", "--reps", "10", "--at", "2026-11-12T18:05:00Z"]).status == 0)
        #expect(try cli.run(["workout", "finish", w, "--at", "2026-11-12T18:30:00Z"]).status == 0)
        let rules = cli.folder.appendingPathComponent("bw.json").path
        try Data(#"{"id": "bodyweight", "version": 1, "bodyweightTonnage": true}"#.utf8).write(to: URL(fileURLWithPath: rules))
        let plain = try cli.json(["volume", "--by", "workout", "--until", "2026-11-12"])["rows"] as? [[String: Any]]
        let counted = try cli.json(["volume", "--by", "workout", "--until", "2026-11-12", "--rules", rules])["rows"] as? [[String: Any]]
        #expect(plain?.first?["tonnageKg"] as? Double == 0)
        #expect(counted?.first?["tonnageKg"] as? Double == 820)
        let diff = try #require(try cli.json(["rebuild", "--rules", rules, "--diff"])["diff"] as? [[String: Any]])
        #expect(diff.contains { $0["change"] as? String == "volumeChanged" && $0["toKg"] as? Double == 820 })
    }

    @Test("auto-fill from the last workout, from a template, or nothing")
    func autofill() throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        _ = try morning(cli)
        #expect(try cli.run(["template", "create", "Legs", "--exercise", "front-squat"]).status == 0)
        let w = try #require(try cli.json(["workout", "start", "--template", "Legs", "--at", "2026-11-22T07:00:00Z"])["workoutId"] as? String)
        let run = try cli.json(["workout", "autofill", w, "running"])
        #expect(run["source"] as? String == "lastWorkout" && run["distanceMeters"] as? Double == 5000 && run["durationSeconds"] as? Double == 1500)
        let bench = try cli.json(["workout", "autofill", w, "Bench Press (Barbell)"])
        #expect(bench["source"] as? String == "lastWorkout" && bench["weightKg"] as? Double == 80 && bench["reps"] as? Int == 8)
        #expect(try cli.json(["workout", "autofill", w, "front-squat"])["source"] as? String == "template")
        let none = try cli.json(["workout", "autofill", w, "deadlift"])
        #expect(none["source"] is NSNull && none["weightKg"] is NSNull && none["reps"] is NSNull)
    }

    @Test("a watch's workout arrives as a JSONL batch and is stored exactly once, however often it is re-sent")
    func watchBatch() throws {
        let watch = try LedgerProcess(), phone = try LedgerProcess()
        defer { watch.cleanUp(); phone.cleanUp() }
        #expect(try phone.run(["demo"]).status == 0)
        _ = try morning(watch)
        let batch = watch.folder.appendingPathComponent("watch.jsonl").path
        #expect(try watch.run(["export", "jsonl", batch]).status == 0)
        let before = try phone.eventCount()
        let first = try phone.json(["import", "jsonl", batch])
        let appended = try #require(first["appended"] as? Int)
        #expect(appended > 0 && appended + (first["alreadyStored"] as? Int ?? 0) == first["events"] as? Int)
        for _ in 0..<3 {
            let again = try phone.json(["import", "jsonl", batch])
            #expect(again["appended"] as? Int == 0)
        }
        #expect(try phone.eventCount() == before + appended)
        #expect(try phone.run(["verify"]).status == 0)
        let mornings = (try phone.json(["history"])["workouts"] as? [[String: Any]])?.filter { $0["name"] as? String == "Morning" }
        #expect(mornings?.count == 1)

        // A batch changed on the way is refused whole.
        var lines = try String(contentsOfFile: batch, encoding: .utf8).components(separatedBy: "\n")
        let i = try #require(lines.firstIndex { $0.contains("\"SetLogged\"") && $0.contains("\"exerciseId\":\"plank\"") })
        let changed = lines[i].replacingOccurrences(of: "\"durationSeconds\":90", with: "\"durationSeconds\":95")
        #expect(changed != lines[i])
        lines[i] = changed
        let tampered = watch.folder.appendingPathComponent("tampered.jsonl").path
        try lines.joined(separator: "\n").write(toFile: tampered, atomically: true, encoding: .utf8)
        let refused = try phone.run(["import", "jsonl", tampered])
        #expect(refused.status == 1 && refused.stderr.contains("does not match its content"), "\(refused.stderr)")
        #expect(try phone.eventCount() == before + appended)
    }

    @Test("a Strong export's distance and seconds land in the set's fields")
    func importedTimedWork() throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let file = cli.folder.appendingPathComponent("strong.csv").path
        try Data(
            """
            Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,Notes,Workout Notes,RPE
            2026-05-01 07:00:00,Cardio,40m,Running,1,0,0,5.2,1560,,,
            2026-05-01 07:00:00,Cardio,40m,Plank,1,0,0,0,75,,,

            """.utf8
        ).write(to: URL(fileURLWithPath: file))
        #expect(try cli.run(["import", "strong", file, "--unit", "kg", "--timezone", "UTC"]).status == 0)
        let workout = try #require((try cli.json(["history"])["workouts"] as? [[String: Any]])?.first)
        let sets = ((workout["exercises"] as? [[String: Any]]) ?? []).flatMap { ($0["sets"] as? [[String: Any]]) ?? [] }
        #expect(sets.contains { $0["distanceMeters"] as? Double == 5200 && $0["durationSeconds"] as? Double == 1560 })
        #expect(sets.contains { $0["durationSeconds"] as? Double == 75 && $0["distanceMeters"] is NSNull })
    }
}
