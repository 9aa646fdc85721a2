import Foundation
import LedgerTestSupport
import Testing

/// A new lifter's path on the 888-exercise library: the help's example as
/// printed, today's plan on screen, names as people type them, and "last
/// time" inside a program workout.
@Suite("program days, exercise search and names through the CLI")
struct ProgramDayCLITests {
    /// The examples of a command's help, each joined across its continuation lines.
    func examples(_ cli: LedgerProcess, _ command: [String]) throws -> [[String]] {
        let help = try cli.run(command + ["--help"]).stdout
        var joined: [String] = []
        var current: String?
        for line in help.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            let text = line.trimmingCharacters(in: .whitespaces)
            if text.hasPrefix("ledger ") {
                if let c = current { joined.append(c) }; current = text
            } else if let c = current, line.hasPrefix(" ") || (!text.isEmpty && !text.hasSuffix(":") && c.hasSuffix("\\")) {
                current = c + " " + text
            } else if current != nil {
                joined.append(current!); current = nil
            }
        }
        if let c = current { joined.append(c) }
        return joined.map { example in
            // Words as a shell splits them: quotes kept together, continuation backslashes dropped.
            var words: [String] = [], word = "", quoted = false
            for ch in example.replacingOccurrences(of: "\\ ", with: " ") {
                if ch == "\"" { quoted.toggle(); continue }
                if ch == " " && !quoted { if !word.isEmpty { words.append(word); word = "" } } else { word.append(ch) }
            }
            if !word.isEmpty { words.append(word) }
            return Array(words.dropFirst())
        }
    }

    @Test("program --help's examples run as printed; the day is on screen with targets, rests, set ids and what to beat; next follows")
    func newLifter() throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let steps = try examples(cli, ["program"])
        #expect(steps.count == 4 && steps[0].starts(with: ["program", "questionnaire"]), "\(steps)")
        for step in steps {
            let out = try cli.run(step)
            #expect(out.status == 0, "ledger \(step.joined(separator: " ")): \(out.stderr)")
        }
        let program = try cli.json(["program", "show", "active"])
        let day1 = try #require((program["sessions"] as? [[String: Any]])?.first?["exercises"] as? [[String: Any]])
        let shown = try cli.json(["workout", "show", "last"])
        let exercises = try #require(shown["exercises"] as? [[String: Any]])
        #expect(exercises.map { $0["exerciseId"] as? String } == day1.map { $0["exerciseId"] as? String })
        #expect(exercises.map { $0["restSeconds"] as? Int } == day1.map { $0["restSeconds"] as? Int })
        #expect(exercises.allSatisfy { $0["restSource"] as? String == "program" && ($0["sets"] as? [Any])?.count == 3 })
        #expect(shown["plannedSets"] as? Int == 3 * day1.count && shown["doneSets"] as? Int == 0)

        let text = try cli.run(["workout", "show", "last"])
        #expect(text.stdout.contains("0 of \(3 * day1.count) sets done"))
        let first = try #require(exercises.first), firstName = try #require(first["exercise"] as? String)
        #expect(text.stdout.contains("1. \(firstName)  3 × \(day1[0]["repsMin"]!)–\(day1[0]["repsMax"]!), rest \(day1[0]["restSeconds"]!) s"))
        let setIds = try #require((first["sets"] as? [[String: Any]])?.compactMap { $0["setId"] as? String })
        #expect(text.stdout.contains("#1 \(setIds[0].prefix(8))  planned"))

        // In progress, the summary says what is planned rather than "0 sets".
        let summary = try cli.run(["workout", "summary", "last"])
        #expect(summary.stdout.contains("\(firstName): 3 sets planned, none done yet"), "\(summary.stdout)")

        // Complete the day's first exercise by typing its name in any case, then finish. (Its start alone may be
        // a question: a bodyweight push day holds Push Up and Push-Ups - Close Triceps Position.)
        let typed = firstName.lowercased()
        for _ in 0..<3 {
            let logged = try cli.run(["workout", "log", "last", typed, "--weight", "60kg", "--reps", "8"])
            #expect(logged.status == 0, "\(typed): \(logged.stderr)")
        }
        let after = try cli.json(["workout", "show", "last"])
        #expect(after["doneSets"] as? Int == 3)
        #expect(try cli.run(["workout", "finish", "last"]).status == 0)
        let next = try cli.json(["next", "--program", "active"])
        #expect((next["targets"] as? [Any] ?? next["exercises"] as? [Any] ?? []).isEmpty == false, "\(next)")
    }

    @Test("inside a program workout, last time is the program day's last session; elsewhere the exercise's last workout")
    func lastTimeByProgramDay() throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        #expect(
            try cli.run([
                "program", "questionnaire", "--days", "3", "--minutes", "45", "--experience", "intermediate", "--equipment", "barbell",
                "--equipment", "dumbbell", "--equipment", "bench", "--at", "2026-10-01T08:00:00Z",
            ]).status == 0)
        #expect(try cli.run(["program", "generate", "--seed", "3", "--at", "2026-10-01T08:01:00Z"]).status == 0)
        func workout(_ args: [String], at time: String, weight: String) throws -> String {
            let started = try cli.json(["workout", "start"] + args + ["--at", time])
            let id = try #require(started["workoutId"] as? String)
            #expect(try cli.run(["workout", "log", id, "bench", "--weight", weight, "--reps", "5", "--at", time]).status == 0)
            #expect(try cli.run(["workout", "finish", id, "--at", time.replacingOccurrences(of: "T18", with: "T19")]).status == 0)
            return id
        }
        // Day 1 is the push day: the bench is its first lift.
        let programDay = try workout(["--program", "active", "--day", "1"], at: "2026-10-05T18:00:00Z", weight: "100kg")
        let elsewhere = try workout(["--name", "Extra"], at: "2026-10-07T18:00:00Z", weight: "50kg")
        let today = try cli.json(["workout", "start", "--program", "active", "--day", "1", "--at", "2026-10-09T18:00:00Z"])
        let todayId = try #require(today["workoutId"] as? String)
        #expect(try cli.json(["hint", "bench", "--workout", todayId])["lastWorkoutId"] as? String == programDay)
        #expect(try cli.json(["hint", "bench", "--workout", todayId, "--scope", "exercise"])["lastWorkoutId"] as? String == elsewhere)
        #expect(try cli.json(["hint", "bench", "--at", "2026-10-09T18:00:00Z"])["lastWorkoutId"] as? String == elsewhere)
        #expect(try cli.run(["workout", "log", todayId, "bench", "--weight", "100kg", "--reps", "5", "--at", "2026-10-09T18:05:00Z"]).status == 0)
        let shown = try cli.json(["workout", "show", todayId])
        let bench = try #require((shown["exercises"] as? [[String: Any]])?.first { $0["exerciseId"] as? String == "barbell-bench-press" })
        #expect((bench["lastTime"] as? [String: Any])?["workoutId"] as? String == programDay)
    }

    @Test(
        "exercise search ranks names, aliases and what you do; show prints the instructions; an ambiguous name lists candidates and appends nothing")
    func searchAndShow() throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        #expect(try cli.run(["workout", "start"]).status == 0)
        // In an empty workout, a name several library exercises start with is listed, never picked.
        let before = try cli.eventCount()
        let ambiguous = try cli.run(["workout", "log", "last", "incline", "--reps", "5"])
        #expect(ambiguous.status == 1)
        #expect(ambiguous.stderr.contains("'incline' matches several exercises (Incline Bench Press (Barbell) [incline-bench-press]"))
        #expect(ambiguous.stderr.split(separator: "\n").count == 1)
        #expect(try cli.eventCount() == before)
        let rdl = try cli.json(["exercise", "search", "rdl"])
        let top = try #require((rdl["exercises"] as? [[String: Any]])?.first)
        #expect(top["exerciseId"] as? String == "romanian-deadlift" && top["match"] as? String == "alias")
        let incline = try #require(try cli.json(["exercise", "search", "incline press"])["exercises"] as? [[String: Any]])
        #expect(incline.count > 5 && incline.allSatisfy { ($0["name"] as? String ?? "").lowercased().contains("incline") })
        // What the lifter does rises to the top among equal matches.
        let done = try #require(incline.last?["exerciseId"] as? String)
        #expect(try cli.run(["workout", "log", "last", done, "--weight", "20kg", "--reps", "10"]).status == 0)
        let again = try #require(try cli.json(["exercise", "search", "incline press"])["exercises"] as? [[String: Any]])
        let doneRank = again.firstIndex { $0["exerciseId"] as? String == done }
        #expect(doneRank != nil && doneRank! < incline.count - 1, "\(again.map { $0["exerciseId"] ?? "" })")

        let show = try cli.run(["exercise", "show", "squat"])
        #expect(show.status == 0 && show.stdout.hasPrefix("Squat (Barbell) (id back-squat)"))
        #expect(show.stdout.contains("How to do it:\n  1. ") && show.stdout.contains("Free Exercise DB"))
        #expect(show.stdout.contains("also known as: squat, back squat, barbell squat"))

        // Once the workout holds one incline exercise, "incline" inside it means that one.
        #expect(try cli.run(["workout", "log", "last", "incline", "--weight", "20kg", "--reps", "8"]).status == 0)
        #expect(try cli.run(["workout", "log", "last", "ohp", "--weight", "40kg", "--reps", "5"]).status == 0)
        #expect(try cli.eventCount() > before)
    }
}
