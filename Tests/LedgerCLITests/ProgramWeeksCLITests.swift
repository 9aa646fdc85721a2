import Foundation
import LedgerTestSupport
import Testing

/// Issue 49, rows 4 and 5: a program's planned weeks. A mesocycle (RIR
/// stepping down, sets per muscle growing, then a deload) and a deload every
/// N weeks, on a real Strong history (Andrew50's), through `program show`,
/// `next`, the calendar, `workout start --program` and `rebuild --diff`.
/// `next` reads today's week, so each block starts a number of days before
/// today that puts today well inside the week the test means.
@Suite("ledger program: mesocycles and planned deloads", .needsSharedData(.realExports))
struct ProgramWeeksCLITests {
    static func setUp() throws -> (LedgerProcess, benchLb: Double) { try AndrewsStrongHistory.withQuestionnaire() }

    /// `YYYY-MM-DD` of `days` days before today (UTC, as the imported history).
    static func daysAgo(_ days: Int) -> String {
        let f = DateFormatter()
        f.dateFormat = "yyyy-MM-dd"
        f.timeZone = TimeZone(identifier: "UTC")
        f.locale = Locale(identifier: "en_US_POSIX")
        return f.string(from: Date().addingTimeInterval(-Double(days) * 86_400))
    }

    /// Each day's sets, by line, in each week of the block `program show --json` gives.
    static func plan(_ cli: LedgerProcess) throws -> (block: [String: Any], weeks: [[String: Any]], sets: [[[Int]]]) {
        let block = try #require(try cli.run(["program", "show", "--json"]).json?["block"] as? [String: Any])
        let weeks = try #require(block["plan"] as? [[String: Any]])
        return (block, weeks, weeks.map { ($0["sets"] as? [[Int]]) ?? [] })
    }

    @Test("generate --weeks 5: RIR 3, 2, 1, 0, then a deload; each week adds sets where the day has time; next gives this week's sets and effort")
    func mesocycle() throws {
        let (cli, _) = try Self.setUp()
        defer { cli.cleanUp() }
        #expect(try cli.run(["program", "generate", "--seed", "11", "--weeks", "5"]).status == 0)
        let days = try #require(try cli.run(["program", "show", "--json"]).json?["sessions"] as? [[String: Any]])
        let written = days.map { ($0["exercises"] as? [[String: Any]] ?? []).map { $0["sets"] as? Int ?? 0 } }
        let (block, weeks, sets) = try Self.plan(cli)
        #expect(block["kind"] as? String == "mesocycle" && block["weeks"] as? Int == 5 && block["startsOn"] as? String == Self.daysAgo(0))
        #expect(weeks.map { $0["rir"] as? Int } == [3, 2, 1, 0, nil])
        #expect(weeks.map { $0["deload"] as? Bool } == [false, false, false, false, true])
        #expect(sets[0] == written, "week 1 is the program as written")
        let totals = sets.map { $0.joined().reduce(0, +) }
        #expect(totals[1] > totals[0] && totals[2] >= totals[1] && totals[3] >= totals[2], "\(totals)")
        // Sets come where the day has time: each week's day, at its rests and 40 s a set and a minute an exercise, fits
        // the questionnaire's 60 minutes (docs/PROGRAMS.md, "Session length").
        let rests = days.map { ($0["exercises"] as? [[String: Any]] ?? []).map { $0["restSeconds"] as? Int ?? 0 } }
        for w in 0..<4 {
            for (d, daySets) in sets[w].enumerated() {
                let seconds = zip(daySets, rests[d]).map { $0 * ($1 + 40) + 60 }.reduce(0, +)
                #expect(seconds <= 60 * 60, "week \(w + 1) day \(d + 1): \(seconds) s")
            }
        }
        // A deload week: 60 % of each line's sets, at least one.
        #expect(sets[4] == written.map { $0.map { max(1, Int((Double($0) * 0.6).rounded())) } })
        // No line ever loses a set while accumulating.
        for w in 1..<4 { #expect(zip(sets[w].joined(), sets[w - 1].joined()).allSatisfy { $0 >= $1 }) }

        // Today in week 2.
        #expect(try cli.run(["program", "mesocycle", "active", "--weeks", "5", "--starts", Self.daysAgo(10)]).status == 0)
        let next = try #require(try cli.run(["next", "--json"]).json)
        let week = try #require(next["week"] as? [String: Any])
        #expect(week["week"] as? Int == 2 && week["rir"] as? Int == 2 && week["deload"] as? Bool == false, "\(week)")
        let day = try #require((next["day"] as? [String: Any])?["number"] as? Int) - 1
        let targets = try #require(next["targets"] as? [[String: Any]])
        let lines = try #require(days[day]["exercises"] as? [[String: Any]]).compactMap { $0["exerciseId"] as? String }
        for t in targets {
            guard let id = t["exerciseId"] as? String, let line = lines.firstIndex(of: id) else { continue }
            #expect(t["sets"] as? Int == sets[1][day][line] && t["rir"] as? Int == 2, "\(t)")
        }
        #expect(try cli.run(["next"]).stdout.contains("This is week 2 of 5 (accumulation, RIR 2, +1 set per muscle)"))
        #expect(try cli.run(["program", "show"]).stdout.contains("Mesocycle of 5 weeks, from \(Self.daysAgo(10)); now: week 2 of 5"))
    }

    @Test("in the deload week next gives 90 % of the last top weight for fewer sets, a day started then is a deload; the calendar marks it")
    func deloadWeek() throws {
        let (cli, benchLb) = try Self.setUp()
        defer { cli.cleanUp() }
        #expect(try cli.run(["program", "generate", "--seed", "11"]).status == 0)
        let before = try #require(try cli.run(["next", "Bench Press (Barbell)", "--json"]).json)
        #expect(before["sets"] is NSNull, "without planned weeks, no week's sets")
        // Today in week 5 of 5, the deload.
        let starts = Self.daysAgo(31)
        #expect(try cli.run(["program", "mesocycle", "--weeks", "5", "--starts", starts]).status == 0)
        let target = try #require(try cli.run(["next", "Bench Press (Barbell)", "--json"]).json)
        let lb = try #require(target["weightKg"] as? Double) / 0.45359237
        // 90 % of the last session's top (from the file), loaded with 5 lb steps on a 45 lb bar.
        #expect(abs(lb - benchLb * 0.9) <= 2.5 + 1e-6 && abs(lb / 5 - (lb / 5).rounded()) < 1e-6, "\(lb) lb for a top of \(benchLb) lb")
        #expect((target["reason"] as? String)?.hasPrefix("planned deload, week 5 of 5 (deload: 90 % load, 60 % sets)") == true, "\(target)")
        #expect(target["deload"] is NSNull, "the planned deload replaces a reactive suggestion")

        let (_, _, sets) = try Self.plan(cli)
        let w = try #require(try cli.run(["workout", "start", "--program", "active", "--day", "1", "--json"]).json?["workoutId"] as? String)
        let shown = try #require(try cli.run(["workout", "show", w, "--json"]).json)
        let exercises = try #require(shown["exercises"] as? [[String: Any]])
        #expect(exercises.map { ($0["sets"] as? [Any])?.count ?? -1 } == sets[4][0], "day 1 planned at the deload's sets")
        #expect(try cli.run(["workout", "discard", w]).status == 0)
        let w2 = try #require(try cli.run(["workout", "start", "--program", "active", "--day", "1", "--json"]).json?["workoutId"] as? String)
        #expect(try cli.run(["workout", "finish", w2]).status == 0)
        let history = try #require(try cli.run(["history", "--limit", "1", "--json"]).json?["workouts"] as? [[String: Any]])
        #expect(history.first?["deload"] as? Bool == true, "a day started in the deload week is a deload")

        let calendar = try #require(try cli.run(["calendar", "--json"]).json?["weeks"] as? [[[String: Any]]])
        let today = try #require(calendar.joined().first { $0["date"] as? String == Self.daysAgo(0) })
        #expect(today["blockWeek"] as? Int == 5 && today["deload"] as? Bool == true, "\(today)")
        #expect(try cli.run(["calendar"]).stdout.contains("week 5 deload"))
    }

    @Test("a deload every 4 weeks leaves the other weeks as written; rules files change the weeks and rebuild --diff lists them")
    func deloadCycleAndRules() throws {
        let (cli, _) = try Self.setUp()
        defer { cli.cleanUp() }
        #expect(try cli.run(["program", "generate", "--seed", "11"]).status == 0)
        #expect(try cli.run(["program", "deload", "active", "--every", "4", "--starts", Self.daysAgo(3)]).status == 0)
        let (block, weeks, sets) = try Self.plan(cli)
        #expect(block["kind"] as? String == "deload-cycle")
        #expect(weeks.map { $0["deload"] as? Bool } == [false, false, false, true] && weeks.allSatisfy { $0["rir"] is NSNull })
        #expect(sets[0] == sets[1] && sets[1] == sets[2] && sets[3] != sets[0])

        #expect(try cli.run(["program", "mesocycle", "active", "--weeks", "5"]).status == 0)
        let path = cli.folder.appendingPathComponent("block.json").path
        try #"{"id":"harder","version":1,"mesocycleStartRIR":4,"mesocycleEndRIR":1,"mesocycleSetsPerMuscle":2}"#.write(
            toFile: path, atomically: true, encoding: .utf8)
        let diff = try #require(try cli.run(["rebuild", "--rules", path, "--diff", "--json"]).json?["diff"] as? [[String: Any]])
        let changed = diff.filter { $0["change"] as? String == "programWeekChanged" }
        #expect(changed.map { $0["week"] as? Int } == [1, 2, 3, 4], "the deload week is unchanged: \(changed)")
        #expect(changed.map { ($0["to"] as? [String: Any])?["rir"] as? Int } == [4, 3, 2, 1])
        #expect(
            try cli.run(["rebuild", "--rules", path, "--diff"]).stdout.contains(
                "week 2 of 5 (accumulation, RIR 2, +1 set per muscle) → (accumulation, RIR 3, +2 sets per muscle)"))

        #expect(try cli.run(["program", "mesocycle", "active", "--off"]).status == 0)
        #expect(try cli.run(["program", "show", "--json"]).json?["block"] is NSNull)
    }

    @Test("weeks outside 2–16, a start that is no date, --weeks with --off, and bad mesocycle rules are refused in one line, appending nothing")
    func refusals() throws {
        let (cli, _) = try Self.setUp()
        defer { cli.cleanUp() }
        let count = try cli.eventCount()
        for args in [
            ["program", "generate", "--weeks", "1"], ["program", "generate", "--weeks", "17"],
        ] {
            let out = try cli.run(args)
            #expect(out.status == 1 && out.stderr.split(separator: "\n").count == 1, "\(args): \(out.stderr)")
            #expect(out.stderr.contains("a block has 2 to 16 weeks"))
        }
        #expect(try cli.eventCount() == count, "a refused generate records no program")
        #expect(try cli.run(["program", "generate", "--seed", "11"]).status == 0)
        let generated = try cli.eventCount()
        for (args, words) in [
            (["program", "mesocycle", "--weeks", "0"], "a block has 2 to 16 weeks"),
            (["program", "deload", "--every", "20"], "a block has 2 to 16 weeks"),
            (["program", "mesocycle", "--weeks", "5", "--starts", "2026-02-30"], "give a date as YYYY-MM-DD"),
            (["program", "mesocycle", "--weeks", "5", "--off"], "not both"),
            (["program", "deload", "--off"], "nothing to change"),
        ] {
            let out = try cli.run(args)
            #expect(out.status != 0 && out.stderr.contains(words), "\(args): \(out.stderr)")
        }
        #expect(try cli.eventCount() == generated)
        #expect(try cli.run(["program", "mesocycle", "--weeks", "4", "--starts", "2026-11-30"]).status == 0)
        let again = try cli.run(["program", "mesocycle", "--weeks", "4", "--starts", "2026-11-30"])
        #expect(again.status == 1 && again.stderr.contains("nothing to change"), "the same plan twice records nothing")
        for rules in [#"{"mesocycleStartRIR":6}"#, #"{"mesocycleStartRIR":2,"mesocycleEndRIR":3}"#, #"{"mesocycleSetsPerMuscle":9}"#] {
            let path = cli.folder.appendingPathComponent("bad.json").path
            try rules.write(toFile: path, atomically: true, encoding: .utf8)
            let out = try cli.run(["next", "--rules", path])
            #expect(out.status == 1 && out.stderr.split(separator: "\n").count == 1 && out.stderr.contains("mesocycle"), "\(rules): \(out.stderr)")
        }
    }
}

/// Issue 49, row 2's last part: a program's targets as a percentage of a max.
@Suite("ledger program percent: targets as a percentage of a max", .needsSharedData(.realExports))
struct ProgramPercentCLITests {
    @Test("next loads 75 % of the tested max for the day's reps, a deload week takes 90 % of that; bad targets are refused")
    func percentOfTheMax() throws {
        let (cli, _) = try ProgramWeeksCLITests.setUp()
        defer { cli.cleanUp() }
        #expect(try cli.run(["program", "generate", "--seed", "11"]).status == 0)
        let days = try #require(try cli.run(["program", "show", "--json"]).json?["sessions"] as? [[String: Any]])
        let lines = try #require(days.first?["exercises"] as? [[String: Any]])
        // The day's first barbell exercise (its name says so in the library).
        let line = try #require(lines.first { ($0["name"] as? String)?.contains("(Barbell)") == true })
        let name = try #require(line["name"] as? String)
        #expect(try cli.run(["settings", "one-rep-max", name, "100kg"]).status == 0)
        let set = try cli.run(["program", "percent", "active", "--day", "1", name, "75", "--json"])
        #expect(set.status == 0 && set.json?["percent"] as? Int == 75, "\(set.stderr)")
        #expect(try cli.run(["program", "show"]).stdout.contains("at 75 %"))
        let shown = try #require(try cli.run(["program", "show", "--json"]).json?["sessions"] as? [[String: Any]])
        #expect((shown[0]["exercises"] as? [[String: Any]])?.first { $0["name"] as? String == name }?["percentOfMax"] as? Int == 75)

        func target() throws -> [String: Any] { try #require(try cli.run(["next", name, "--json"]).json) }
        let t = try target()
        let lb = try #require(t["weightKg"] as? Double) / 0.45359237
        // The history is in pounds: 75 % of 100 kg is 165.35 lb, loaded as 165 lb on a 45 lb bar.
        #expect(abs(lb - 165) < 1e-6, "\(t)")
        #expect(t["repsMin"] as? Int == line["repsMin"] as? Int && t["repsMax"] as? Int == line["repsMax"] as? Int)
        let basis = try #require(t["percentOf"] as? [String: Any])
        #expect(basis["percent"] as? Int == 75 && basis["source"] as? String == "tested" && basis["maxKg"] as? Double == 100)
        #expect((t["reason"] as? String)?.hasPrefix("75 % of your tested max 220.46 lb of ") == true, "\(t)")
        #expect(try cli.run(["next", name]).stdout.contains("\(name): 165 lb × "))

        // In a deload week: 90 % of the 165.35 lb target is 148.8 lb, loaded as 150 lb.
        #expect(try cli.run(["program", "deload", "--every", "4", "--starts", ProgramWeeksCLITests.daysAgo(24)]).status == 0)
        let deload = try #require(try target()["weightKg"] as? Double) / 0.45359237
        #expect(abs(deload - 150) < 1e-6, "\(deload) lb")
        #expect((try target()["reason"] as? String)?.contains("90 % of the 75 % target") == true)

        // Shared: a friend's copy keeps the percentage and the deload cycle, which starts the day it is imported.
        let file = cli.folder.appendingPathComponent("program.json").path
        #expect(try cli.run(["program", "export", "active", file]).status == 0)
        let friend = try LedgerProcess()
        defer { friend.cleanUp() }
        #expect(try friend.run(["program", "import", file]).status == 0)
        let copy = try #require(try friend.run(["program", "show", "--json"]).json)
        let block = try #require(copy["block"] as? [String: Any])
        #expect(
            block["kind"] as? String == "deload-cycle" && block["weeks"] as? Int == 4
                && block["startsOn"] as? String == ProgramWeeksCLITests.daysAgo(0))
        #expect(
            ((copy["sessions"] as? [[String: Any]])?[0]["exercises"] as? [[String: Any]])?.first { $0["name"] as? String == name }?["percentOfMax"]
                as? Int == 75)

        let count = try cli.eventCount()
        let other = try #require(
            (days.count > 1 ? days[1]["exercises"] as? [[String: Any]] : nil)?.first { row in
                !lines.contains { $0["exerciseId"] as? String == row["exerciseId"] as? String }
            }?["name"] as? String)
        for (args, words) in [
            (["program", "percent", "active", "--day", "1", name, "120"], "from 1 to 100"),
            (["program", "percent", "active", "--day", "1", name, "0"], "from 1 to 100"),
            (["program", "percent", "active", "--day", "1", other, "70"], "day 1 has no \(other)"),
            (["program", "percent", "active", "--day", "9", name, "70"], "this program has days 1 to"),
            (["program", "percent", "active", "--day", "1", name, "75"], "nothing to change"),
            (["program", "percent", "active", "--day", "1", name, "70", "--of", "guess"], "tested"),
            (["settings", "one-rep-max", name, "0kg"], "above 0"),
        ] {
            let out = try cli.run(args)
            #expect(out.status != 0 && out.stderr.split(separator: "\n").count == 1 && out.stderr.contains(words), "\(args): \(out.stderr)")
        }
        #expect(try cli.eventCount() == count, "nothing appended")
        #expect(try cli.run(["program", "percent", "active", "--day", "1", name, "--off"]).status == 0)
        #expect(try target()["percentOf"] is NSNull)
    }
}
