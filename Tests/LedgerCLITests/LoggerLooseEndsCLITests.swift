import Foundation
import LedgerTestSupport
import Testing

/// Issue 45, row 4: the logger's loose ends. A duplicated template keeps
/// every target; the rest timer pauses and resumes, and the held time is not
/// rest taken; a session ends with how it felt and a closing note; a
/// workout says what kind of session it is. On a real Strong history
/// (Andrew50's, in lb), at its last bench weight.
@Suite("ledger workout: the logger's loose ends", .needsSharedData(.realExports))
struct LoggerLooseEndsCLITests {
    static let day = "2026-11-20T"

    static func imported() throws -> (cli: LedgerProcess, weight: String) {
        let (cli, weight) = try AndrewsStrongHistory.imported()
        return (cli, "\(weight)lb")
    }

    @Test("template duplicate keeps every target: sets, reps, weight, rest and a hold's duration")
    func duplicateKeepsTargets() throws {
        let (cli, weight) = try Self.imported()
        defer { cli.cleanUp() }
        #expect(
            try cli.run([
                "template", "create", "Push", "--exercise", "Bench Press (Barbell)", "--sets", "4", "--reps", "6-8", "--weight", weight,
                "--rest", "150s", "--exercise", "Plank", "--sets", "2", "--duration", "45",
            ]).status == 0)
        #expect(try cli.run(["template", "duplicate", "Push", "--name", "Push copy"]).status == 0)
        let templates = try #require(try cli.run(["template", "list", "--json"]).json?["templates"] as? [[String: Any]])
        let lines = { (name: String) in templates.first { $0["name"] as? String == name }?["lines"] as? [[String: Any]] }
        let original = try #require(lines("Push"))
        let copy = try #require(lines("Push copy"))
        #expect(original.count == 2)
        #expect(original.map { NSDictionary(dictionary: $0) } == copy.map { NSDictionary(dictionary: $0) }, "\(copy)")
        #expect(copy.first?["restSeconds"] as? Int == 150 && copy.last?["durationSeconds"] as? Int == 45)
    }

    @Test("a paused rest keeps its time left, resumes where it stopped, and the pause is not rest taken")
    func restPauseAndResume() throws {
        let (cli, weight) = try Self.imported()
        defer { cli.cleanUp() }
        let w = try #require(try cli.run(["workout", "start", "--at", Self.day + "10:00:00Z", "--json"]).json?["workoutId"] as? String)
        #expect(try cli.run(["workout", "log", w, "bench", "--reps", "8", "--weight", weight, "--at", Self.day + "10:01:00Z"]).status == 0)
        #expect(try cli.run(["workout", "rest", w, "start", "2m", "--at", Self.day + "10:01:00Z"]).status == 0)
        let paused = try #require(
            try cli.run(["workout", "rest", w, "pause", "--at", Self.day + "10:01:30Z", "--json"]).json?["rest"] as? [String: Any])
        #expect(paused["paused"] as? Bool == true)
        let before = try cli.eventCount()
        let twice = try cli.run(["workout", "rest", w, "pause", "--at", Self.day + "10:02:00Z"])
        #expect(twice.status == 1 && twice.stderr.contains("already paused") && twice.stderr.split(separator: "\n").count == 1, "\(twice.stderr)")
        #expect(try cli.eventCount() == before)
        let resumed = try #require(
            try cli.run(["workout", "rest", w, "resume", "--at", Self.day + "10:04:30Z", "--json"]).json?["rest"] as? [String: Any])
        #expect(resumed["paused"] as? Bool == false && resumed["pausedSeconds"] as? Int == 180)
        // Held three minutes: it now ends at 10:06:00, not 10:03:00.
        #expect(resumed["endsAt"] as? String == Self.day + "10:06:00Z", "\(resumed)")
        let again = try cli.run(["workout", "rest", w, "resume", "--at", Self.day + "10:04:40Z"])
        #expect(again.status == 1 && again.stderr.contains("is not paused"), "\(again.stderr)")
        #expect(try cli.run(["workout", "log", w, "bench", "--reps", "8", "--weight", weight, "--at", Self.day + "10:06:00Z"]).status == 0)
        #expect(try cli.run(["workout", "finish", w, "--at", Self.day + "10:30:00Z"]).status == 0)
        let rests = try #require(try cli.run(["workout", "summary", w, "--json"]).json?["rests"] as? [[String: Any]])
        // Five minutes between the sets, three of them held: two minutes of rest taken.
        #expect(rests.first?["takenSeconds"] as? Int == 120 && rests.first?["plannedSeconds"] as? Int == 120, "\(rests)")
        #expect(try cli.run(["replay", w]).stdout.contains("rest timer resumed after 180 s"))
    }

    @Test("finish --feeling and --note show in history and summary, text and JSON; a later rating replaces it; 0 or 6 is refused")
    func feeling() throws {
        let (cli, weight) = try Self.imported()
        defer { cli.cleanUp() }
        let w = try #require(try cli.run(["workout", "start", "--at", Self.day + "10:00:00Z", "--json"]).json?["workoutId"] as? String)
        #expect(try cli.run(["workout", "log", w, "bench", "--reps", "8", "--weight", weight, "--at", Self.day + "10:01:00Z"]).status == 0)
        for bad in ["0", "6"] {
            let before = try cli.eventCount()
            let out = try cli.run(["workout", "finish", w, "--feeling", bad, "--at", Self.day + "10:40:00Z"])
            #expect(out.status == 1 && out.stderr.contains("give 1 (awful) to 5 (great)"), "\(out.stderr)")
            #expect(try cli.eventCount() == before, "a refused rating finishes nothing either")
        }
        #expect(
            try cli.run(["workout", "finish", w, "--feeling", "4", "--note", "Shoulder fine, bench moved fast", "--at", Self.day + "10:40:00Z"])
                .status
                == 0)
        let row = try #require((try cli.run(["history", "--json", "--limit", "1"]).json?["workouts"] as? [[String: Any]])?.first)
        #expect(
            row["feeling"] as? Int == 4 && row["closingNote"] as? String == "Shoulder fine, bench moved fast"
                && row["activity"] as? String == "strength")
        #expect(try cli.run(["history", "--limit", "1"]).stdout.contains("felt 4/5 — Shoulder fine, bench moved fast"))
        let summary = try #require(try cli.run(["workout", "summary", w, "--json"]).json?["workout"] as? [String: Any])
        #expect(summary["feeling"] as? Int == 4)
        #expect(try cli.run(["workout", "summary", w]).stdout.contains("felt 4/5"))
        #expect(try cli.run(["workout", "feeling", w, "5", "--at", Self.day + "12:00:00Z"]).status == 0)
        let later = try #require((try cli.run(["history", "--json", "--limit", "1"]).json?["workouts"] as? [[String: Any]])?.first)
        #expect(later["feeling"] as? Int == 5 && later["closingNote"] is NSNull)
    }

    @Test("a watch's run is a running session in history and summary; an unknown kind is refused with the kinds listed")
    func activity() throws {
        let (cli, _) = try Self.imported()
        defer { cli.cleanUp() }
        let before = try cli.eventCount()
        let bad = try cli.run(["workout", "start", "--activity", "jogging", "--at", Self.day + "07:00:00Z"])
        #expect(bad.status == 1 && bad.stderr.contains("unknown activity 'jogging'") && bad.stderr.contains("running, walking"), "\(bad.stderr)")
        #expect(try cli.eventCount() == before)
        let w = try #require(
            try cli.run(["workout", "start", "--name", "Watch run", "--activity", "running", "--at", Self.day + "07:00:00Z", "--json"]).json?[
                "workoutId"] as? String)
        #expect(
            try cli.run(["workout", "log", w, "running", "--distance", "5km", "--duration", "26:10", "--at", Self.day + "07:27:00Z"]).status == 0)
        #expect(try cli.run(["workout", "health", w, "--heart-rate", "151", "--at", Self.day + "07:20:00Z"]).status == 0)
        #expect(try cli.run(["workout", "finish", w, "--at", Self.day + "07:28:00Z"]).status == 0)
        let rows = try #require(try cli.run(["history", "--json", "--limit", "2"]).json?["workouts"] as? [[String: Any]])
        #expect(rows.first?["activity"] as? String == "running", "\(rows.first ?? [:])")
        #expect(try cli.run(["history", "--limit", "1"]).stdout.contains("running"))
        #expect((try cli.run(["workout", "summary", w, "--json"]).json?["workout"] as? [String: Any])?["activity"] as? String == "running")
        #expect(try cli.run(["workout", "show", w]).stdout.contains("activity: running"))
        // The imported history is strength work.
        let imported = try #require(try cli.run(["history", "--json", "--limit", "5", "--offset", "1"]).json?["workouts"] as? [[String: Any]])
        #expect(!imported.isEmpty && imported.allSatisfy { $0["activity"] as? String == "strength" })
    }

    /// The first set of each exercise's latest workout in a Hevy export, with its RPE, read from the file.
    static func hevyLatestFirstSets(_ path: String) throws -> [String: (weight: Double, reps: Int, rpe: Double?)] {
        let records = RealExports.records(try String(contentsOfFile: path, encoding: .utf8), delimiter: ",")
        let header = try #require(records.first)
        let col = { (name: String) in try #require(header.firstIndex(of: name)) }
        let (start, title, index, weight, reps, rpe) = (
            try col("start_time"), try col("exercise_title"), try col("set_index"), try col("weight_kg"), try col("reps"), try col("rpe")
        )
        let dates = DateFormatter()
        dates.locale = Locale(identifier: "en_US_POSIX")
        dates.timeZone = TimeZone(identifier: "UTC")
        dates.dateFormat = "d MMM yyyy, HH:mm"
        var latest: [String: (date: Date, index: Int, set: (weight: Double, reps: Int, rpe: Double?))] = [:]
        for r in records.dropFirst() where r.count > rpe {
            guard let date = dates.date(from: r[start]), let i = Int(r[index]), let w = Double(r[weight]), let n = Int(r[reps]) else { continue }
            let candidate = (date, i, (w, n, Double(r[rpe])))
            if let known = latest[r[title]], (known.date, -known.index) >= (date, -i) { continue }
            latest[r[title]] = candidate
        }
        return latest.mapValues(\.set)
    }

    @Test("sets record a band's colour and an implement's value; autofill gives the last time's RPE or RIR and equipment")
    func effortAndEquipmentFromLastTime() throws {
        let file = RealExports.folder.appendingPathComponent("hevy_StvrvDimitris_hevy-analyzer.csv").path
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        #expect(try cli.run(["import", "hevy", file, "--timezone", "UTC"]).status == 0)
        let firstSets = try Self.hevyLatestFirstSets(file)
        let (exercise, expected) = try #require(firstSets.filter { $0.value.rpe != nil }.sorted { $0.key < $1.key }.first)
        let w = try #require(try cli.run(["workout", "start", "--at", Self.day + "10:00:00Z", "--json"]).json?["workoutId"] as? String)
        let fill = try #require(try cli.run(["workout", "autofill", w, exercise, "--json"]).json)
        #expect(fill["source"] as? String == "lastWorkout")
        #expect(fill["weightKg"] as? Double == expected.weight && fill["reps"] as? Int == expected.reps, "\(exercise): \(fill)")
        #expect(fill["rpe"] as? Double == expected.rpe && fill["effortEntered"] as? String == "rpe", "\(exercise): \(fill)")
        #expect(fill["band"] is NSNull && fill["implement"] is NSNull)

        // This session: the exercise with reps in reserve and an implement, and band work.
        #expect(
            try cli.run([
                "workout", "log", w, exercise, "--reps", "\(expected.reps)", "--weight", "\(expected.weight)kg", "--rir", "2",
                "--implement", "seat 4", "--at", Self.day + "10:05:00Z",
            ]).status == 0)
        #expect(try cli.run(["workout", "log", w, "band pull apart", "--reps", "15", "--band", "red", "--at", Self.day + "10:10:00Z"]).status == 0)
        let before = try cli.eventCount()
        let blank = try cli.run(["workout", "log", w, "band pull apart", "--reps", "15", "--band", "  ", "--at", Self.day + "10:11:00Z"])
        #expect(blank.status == 1 && blank.stderr.contains("band '  ' is refused"), "\(blank.stderr)")
        #expect(try cli.eventCount() == before)
        #expect(try cli.run(["workout", "finish", w, "--at", Self.day + "10:30:00Z"]).status == 0)
        let row = try #require((try cli.run(["history", "--json", "--limit", "1"]).json?["workouts"] as? [[String: Any]])?.first)
        let sets = try #require((row["exercises"] as? [[String: Any]])?.flatMap { ($0["sets"] as? [[String: Any]]) ?? [] })
        #expect(sets.map { $0["implement"] as? String } == ["seat 4", nil] && sets.map { $0["band"] as? String } == [nil, "red"], "\(sets)")
        #expect(try cli.run(["history", "--limit", "1"]).stdout.contains("with red band"))

        let next = try #require(try cli.run(["workout", "start", "--at", "2026-11-22T10:00:00Z", "--json"]).json?["workoutId"] as? String)
        let again = try #require(try cli.run(["workout", "autofill", next, exercise, "--json"]).json)
        #expect(again["rir"] as? Double == 2 && again["effortEntered"] as? String == "rir" && again["implement"] as? String == "seat 4", "\(again)")
        let band = try #require(try cli.run(["workout", "autofill", next, "band pull apart", "--json"]).json)
        #expect(band["band"] as? String == "red" && band["reps"] as? Int == 15)
        #expect(try cli.run(["workout", "autofill", next, "band pull apart"]).stdout.contains("with red band"))
    }
}
