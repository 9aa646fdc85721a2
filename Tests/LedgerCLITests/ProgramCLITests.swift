import Foundation
import LedgerTestSupport
import Testing

/// From a questionnaire to a generated program, a week of program-day
/// workouts and next-session targets, entirely through the CLI.
@Suite("programs and progression through the CLI")
struct ProgramCLITests {
    @Test("questionnaire → program → a week of program days → hints, prompts, summaries and next targets")
    func lifterJourney() throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let q = try cli.json([
            "program", "questionnaire", "--days", "3", "--minutes", "60", "--experience", "intermediate",
            "--goal", "strength", "--goal", "muscle", "--equipment", "barbell", "--equipment", "dumbbell",
            "--equipment", "bench", "--equipment", "pull-up-bar", "--equipment", "cable", "--equipment", "machine",
            "--priority", "quads", "--priority", "glutes", "--injury", "left knee", "--at", "2026-10-01T08:00:00Z",
        ])
        #expect(q["recommended"] as? [String] == ["1 Upper 2 Lower"])
        let options = try #require(q["options"] as? [[String: Any]])
        #expect(options.map { $0["split"] as? String } == ["1 Upper 2 Lower", "Push Pull Legs", "Full Body x3", "2 Upper 1 Lower"])
        #expect(options.first?["recommended"] as? Bool == true && (options.first?["message"] as? String)?.isEmpty == false)
        #expect((q["warnings"] as? [[String: Any]])?.contains { $0["code"] as? String == "injuries" } == true)

        let program = try cli.json(["program", "generate", "--seed", "11", "--at", "2026-10-01T08:01:00Z"])
        #expect(program["split"] as? String == "1 Upper 2 Lower")
        let sessions = try #require(program["sessions"] as? [[String: Any]])
        #expect(sessions.map { $0["day"] as? Int } == [1, 2, 3])
        let day1 = try #require(sessions[0]["exercises"] as? [[String: Any]])
        #expect(day1.allSatisfy { $0["sets"] as? Int == 3 && ($0["restSeconds"] as? Int ?? 0) >= 60 })
        #expect(day1.contains { $0["injuryWarning"] as? Bool == true })  // a knee flags leg work, never removes it
        // The same questionnaire and seed give the same program.
        let again = try cli.json(["program", "generate", "--seed", "11", "--at", "2026-10-01T08:02:00Z"])
        func plan(_ sessions: [[String: Any]]) -> [[String]] {
            sessions.map {
                ($0["exercises"] as? [[String: Any]] ?? []).map { x in
                    "\(x["exerciseId"] ?? "") \(x["repsMin"] ?? "")-\(x["repsMax"] ?? "") \(x["restSeconds"] ?? "") \(x["injuryWarning"] ?? "")"
                }
            }
        }
        #expect(plan(try #require(again["sessions"] as? [[String: Any]])) == plan(sessions))
        #expect(try cli.run(["program", "show"]).stdout.contains("Sets × reps"))

        // Two weeks of day 1: the planned sets completed at the plan's top reps, then one short.
        let first = try #require(day1.first)
        let exerciseId = try #require(first["exerciseId"] as? String)
        let top = try #require(first["repsMax"] as? Int), bottom = try #require(first["repsMin"] as? Int)
        var workouts: [String] = []
        for (week, reps) in [("2026-10-05", top), ("2026-10-12", top - 1)] {
            let w = try #require(
                try cli.json(["workout", "start", "--program", "active", "--day", "1", "--at", "\(week)T18:00:00Z"])["workoutId"] as? String)
            workouts.append(w)
            for i in 0..<3 {
                let out = try cli.run([
                    "workout", "log", w, exerciseId, "--reps", "\(i == 2 ? reps : top)", "--weight", "60kg",
                    "--at", "\(week)T18:\(10 + i * 5):00Z", "--json",
                ])
                #expect(out.status == 0, "\(out.stderr)")
            }
            #expect(try cli.run(["workout", "finish", w, "--at", "\(week)T19:00:00Z"]).status == 0)
        }
        // The planned sets were completed in place: 3 sets of the exercise, not 6.
        let summary = try cli.json(["workout", "summary", workouts[1]])
        let done = ((summary["workout"] as? [String: Any])?["exercises"] as? [[String: Any]])?.first { $0["exerciseId"] as? String == exerciseId }
        #expect((done?["sets"] as? [Any])?.count == 3)
        // The summary compares with the last time this program day was done.
        #expect((summary["comparison"] as? [String: Any])?["workoutId"] as? String == workouts[0])

        let hint = try cli.json(["hint", exerciseId, "--workout", workouts[1], "--scope", "programDay"])
        #expect(hint["lastWorkoutId"] as? String == workouts[0])
        // The prompt's range defaults to the planned one.
        let prompt = try cli.json(["prompt", workouts[1], exerciseId])
        let explicit = try cli.json(["prompt", workouts[1], exerciseId, "--range", "\(bottom)-\(top)"])
        #expect(prompt["prompt"] as? String == explicit["prompt"] as? String && prompt["title"] as? String == explicit["title"] as? String)

        // Double progression: last session's lowest was top - 1 at 60 kg. Asked the day after, so no break has begun.
        let asked = ["--until", "2026-10-13"]
        let next = try cli.json(["next", exerciseId] + asked)
        #expect(next["weightKg"] as? Double == 60 && next["repsMin"] as? Int == top && next["rule"] as? String == "double")
        #expect((next["reason"] as? String)?.contains("aim for \(top)") == true)
        // `next` names the day after the last one trained, with its exercises; --all lists the whole program's.
        let trainedDays = Set(workouts.compactMap { try? cli.json(["workout", "show", $0])["programDay"] as? Int })
        let lines = try cli.run(["next"] + asked).stdout.split(separator: "\n")
        let nextDay = (trainedDays.max() ?? 0) % sessions.count + 1
        let nextExercises = Set((sessions[nextDay - 1]["exercises"] as? [[String: Any]] ?? []).compactMap { $0["exerciseId"] as? String })
        #expect(lines.first?.hasPrefix("Next: day \(nextDay), \(sessions[nextDay - 1]["name"] as? String ?? "?")") == true, "\(lines.first ?? "")")
        #expect(lines.count == 1 + nextExercises.count)
        let all = try cli.run(["next", "--all"] + asked).stdout.split(separator: "\n")
        #expect(
            all.count == 1 + Set(sessions.flatMap { ($0["exercises"] as? [[String: Any]] ?? []).compactMap { $0["exerciseId"] as? String } }).count)

        // The injury flags follow the exercises into the day's workout: workout show and the summary say so.
        let flagged = Set(day1.filter { $0["injuryWarning"] as? Bool == true }.compactMap { $0["exerciseId"] as? String })
        let today = try #require(try cli.json(["workout", "start", "--program", "active", "--day", "1"])["workoutId"] as? String)
        let planned = try #require(try cli.json(["workout", "show", today])["exercises"] as? [[String: Any]])
        #expect(Set(planned.filter { $0["injuryWarning"] as? Bool == true }.compactMap { $0["exerciseId"] as? String }) == flagged)
        #expect(try cli.run(["workout", "show", today]).stdout.contains("⚠ check: injury"))
        let open = try #require(try cli.json(["workout", "summary", today])["exercises"] as? [[String: Any]])
        #expect(Set(open.filter { $0["injuryWarning"] as? Bool == true }.compactMap { $0["exerciseId"] as? String }) == flagged)
        #expect(try cli.run(["workout", "summary", today]).stdout.contains("⚠ check: injury"))
        #expect(try cli.run(["workout", "discard", today]).status == 0)

        // A per-exercise override, then back to the defaults.
        let settings = try #require(try cli.json(["progression", "show"])["exercises"] as? [[String: Any]])
        let step = try #require(settings.first { $0["exerciseId"] as? String == exerciseId }?["incrementKg"] as? Double)
        #expect(try cli.run(["progression", "set", exerciseId, "--rule", "linear", "--reps", "\(bottom)-\(bottom)"]).status == 0)
        let linear = try cli.json(["next", exerciseId] + asked)
        #expect(linear["rule"] as? String == "linear" && linear["weightKg"] as? Double == 60 + step)
        #expect(try cli.run(["progression", "set", exerciseId, "--clear"]).status == 0)
        #expect(try cli.json(["next", exerciseId] + asked)["rule"] as? String == "double")
        let shown = try #require(try cli.json(["progression", "show"])["exercises"] as? [[String: Any]])
        #expect(shown.contains { $0["exerciseId"] as? String == exerciseId && $0["overridden"] as? Bool == false })

        // Lifecycle: a third program removes the oldest; list says which is active.
        _ = try cli.json(["program", "generate", "--seed", "12", "--split", "Push Pull Legs"])
        let programs = try #require(try cli.json(["program", "list"])["programs"] as? [[String: Any]])
        #expect(programs.count == 2 && programs.filter { $0["active"] as? Bool == true }.count == 1)
        #expect(programs.last?["split"] as? String == "Push Pull Legs")
        #expect(!programs.contains { $0["programId"] as? String == program["programId"] as? String })
    }

    @Test("a third program names the one it removed, in words and in JSON; the first two remove nothing")
    func thirdProgramNamesTheRemoved() throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        #expect(
            try cli.run(["program", "questionnaire", "--days", "3", "--minutes", "60", "--experience", "beginner", "--equipment", "dumbbell"])
                .status == 0)
        let first = try cli.json(["program", "generate", "--seed", "1", "--json"])
        #expect(first["removedProgramId"] is NSNull)
        let second = try cli.run(["program", "generate", "--seed", "2"])
        #expect(!second.stdout.contains("Removed"), "\(second.stdout)")
        let third = try cli.run(["program", "generate", "--seed", "3"])
        let firstId = try #require(first["programId"] as? String)
        #expect(third.stdout.contains("Removed your oldest program, Full Body x3 \(firstId.prefix(8))"), "\(third.stdout)")
        let fourth = try cli.json(["program", "generate", "--seed", "4", "--json"])
        let listed = try cli.json(["program", "list", "--json"])
        let live = (listed["programs"] as? [[String: Any]] ?? []).compactMap { $0["programId"] as? String }
        let removed = try #require(fourth["removedProgramId"] as? String)
        #expect(live.count == 2 && !live.contains(removed))
    }

    @Test("invalid answers are refused with the allowed values, and nothing is appended")
    func invalidAnswers() throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let base = ["program", "questionnaire", "--minutes", "60", "--experience", "beginner"]
        for (args, needle) in [
            (base + ["--days", "0"], "give 1, 2, 3, 4, 5 or 6"),
            (base + ["--days", "7"], "give 1, 2, 3, 4, 5 or 6"),
            (base + ["--days", "3", "--goal", "bulk"], "strength, muscle, fat-loss"),
            (base + ["--days", "3", "--equipment", "rowing-boat"], "pull-up-bar"),
            (base + ["--days", "3", "--priority", "wings"], "quads"),
            (["program", "questionnaire", "--days", "3", "--minutes", "60", "--experience", "pro"], "complete-beginner"),
        ] {
            let out = try cli.run(args)
            #expect(out.status == 1 && out.stderr.contains(needle), "\(args): \(out.stderr)")
        }
        #expect(try cli.eventCount() == 0)
        // Bodyweight only, for a complete beginner: the program may repeat names, or is refused with the seed's message.
        #expect(try cli.run(base + ["--days", "6", "--experience", "complete-beginner"]).status == 0)
        let out = try cli.run(["program", "generate"])
        #expect(out.status == 0 || out.stderr.contains("not enough exercises for your equipment and experience"), "\(out.stderr)")
    }
}
