import Foundation
import LedgerTestSupport
import RepLedgerCore
import Testing

@Suite("ledger queries", .serialized)
struct ProjectionCLITests {
    @Test("records, hints, e1RM, volume and summaries on the demo, in the contract's keys")
    func demoQueries() throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        #expect(try cli.run(["demo"]).status == 0)

        let prs = try #require(try cli.json(["prs", "deadlift"])["exercises"] as? [[String: Any]])
        #expect(prs.count == 1)
        for key in ["exercise", "heaviestKg", "bestE1rmKg", "bestSetVolumeKg", "bestSessionVolumeKg", "repMaxesKg"] {
            #expect(prs[0][key] != nil, "prs lacks \(key)")
        }
        #expect(prs[0]["heaviestKg"] as? Double == 155)
        #expect(prs[0]["bestSessionVolumeKg"] as? Double == 2325)
        let repMaxes = try #require(prs[0]["repMaxesKg"] as? [String: Any])
        #expect(Set(repMaxes.keys) == Set((1...12).map(String.init)))
        #expect(repMaxes["5"] as? Double == 155)
        #expect(repMaxes["6"] is NSNull)

        let hint = try cli.json(["hint", "Deadlift (Barbell)", "--at", "2026-11-20T18:00:00+01:00"])
        #expect(hint["ago"] as? String == "7 days ago")
        #expect(hint["date"] as? String == "2026-11-13T17:45:00+01:00")
        #expect((hint["bestSet"] as? [String: Any])?["weightKg"] as? Double == 155)
        #expect((hint["sets"] as? [Any])?.count == 3)
        let none = try cli.json(["hint", "deadlift", "--at", "2026-08-01T00:00:00Z"])
        #expect(none["lastWorkoutId"] is NSNull)

        // Free sees the last 30 days of charts (DOMAIN.md §10): up to 15 Nov, that is 17 Oct to 15 Nov.
        let free = try cli.json(["e1rm", "back-squat", "--formula", "brzycki", "--until", "2026-11-15"])
        let window = try #require(free["chartWindow"] as? [String: Any])
        #expect((window["from"] as? String)?.hasPrefix("2026-10-17T00:00:00") == true)
        #expect((window["through"] as? String)?.hasPrefix("2026-11-15T23:59:59") == true)
        #expect((free["upsell"] as? String)?.contains("repledger_pro_annual") == true)
        let freePoints = try #require(free["points"] as? [[String: Any]])
        #expect(freePoints.count == 4)
        #expect(freePoints.allSatisfy { ($0["date"] as? String ?? "") >= "2026-10-17" })
        let freeVolume = try cli.json(["volume", "--by", "week", "--until", "2026-11-15"])
        // The weeks of the workouts started in the window, read from history.
        let all = try #require(try cli.json(["history"])["workouts"] as? [[String: Any]])
        var iso = Calendar(identifier: .iso8601)
        iso.timeZone = TimeZone(secondsFromGMT: 3600)!
        let weeks = Set(
            all.compactMap { w -> String? in
                guard let s = w["startedAt"] as? String, s >= "2026-10-17", s < "2026-11-16",
                    let d = ISO8601DateFormatter().date(from: s)
                else { return nil }
                return String(format: "%04d-W%02d", iso.component(.yearForWeekOfYear, from: d), iso.component(.weekOfYear, from: d))
            })
        #expect(Set(((freeVolume["rows"] as? [[String: Any]]) ?? []).compactMap { $0["key"] as? String }) == weeks)
        #expect(freeVolume["chartWindow"] is [String: Any])
        // With Pro, all time.
        #expect(
            try cli.run([
                "purchase", "repledger_pro_annual", "--transaction", "t-1", "--purchased", "2026-01-01T00:00:00Z",
                "--expires", "2100-01-01T00:00:00Z",
            ]).status == 0)
        let e1rm = try cli.json(["e1rm", "back-squat", "--formula", "brzycki"])
        #expect(e1rm["chartWindow"] is NSNull)
        #expect(e1rm["formula"] as? String == "brzycki")
        let points = try #require(e1rm["points"] as? [[String: Any]])
        #expect(points.count == 11)
        #expect(points.first?["e1rmKg"] as? Double == 112.5)  // 100 kg × 5: 100 × 36 / 32

        let squatHistory = try cli.json(["exercise", "history", "Squat (Barbell)"])
        let squatWorkouts = try #require(squatHistory["workouts"] as? [[String: Any]])
        #expect(squatWorkouts.count == 11)
        #expect(squatWorkouts.first?["startedAt"] as? String == "2026-11-10T18:30:00+01:00")  // newest first
        let squatSets = try #require(squatWorkouts.first?["sets"] as? [[String: Any]])
        #expect(squatSets.map { $0["type"] as? String } == ["warmup", "warmup", "normal", "normal", "normal"])
        #expect(squatSets.last?["weightKg"] as? Double == 150)

        let volume = try cli.json(["volume", "--by", "week"])
        #expect(volume["by"] as? String == "week")
        #expect((volume["rows"] as? [Any])?.count == 11)

        let last = try #require((try cli.json(["history", "--limit", "1"])["workouts"] as? [[String: Any]])?.first)
        let w = try #require(last["workoutId"] as? String)
        #expect(try cli.json(["repcount", w, "deadlift"])["excessReps"] as? Int == 1)
        let prompt = try cli.json(["prompt", w, "front-squat", "--range", "5-6"])
        #expect(prompt["prompt"] as? String == "progression")
        #expect(prompt["variant"] as? String == "default")
        #expect(try cli.run(["prompt", w, "front-squat", "--range", "6-5"]).status == 1)
        let summary = try cli.json(["workout", "summary", w])
        #expect((summary["exercises"] as? [Any])?.count == 4)

        // As of an earlier position, the last deadlift session is not there yet.
        let starts = try cli.run(["log", "--json", "--type", "WorkoutStarted"]).stdout.split(separator: "\n")
        let lastStart = try #require(starts.last)
        let object = try JSONSerialization.jsonObject(with: Data(lastStart.utf8)) as? [String: Any]
        let position = try #require(object?["position"] as? Int)
        let earlier = try #require(try cli.json(["prs", "deadlift", "--as-of", "\(position - 1)"])["exercises"] as? [[String: Any]])
        #expect(earlier[0]["heaviestKg"] as? Double == 152.5)

        // What made that workout: its command's events, found from the one position, and by its correlation.
        let command = try cli.run(["log", "--json", "--caused-by", "\(position)"]).stdout.split(separator: "\n")
        #expect(command.count >= 1 && command.contains(lastStart), "\(command.count)")
        let correlation = try #require(object?["correlationId"] as? String)
        let correlated = try cli.run(["log", "--json", "--correlation", String(correlation.prefix(8))]).stdout.split(separator: "\n")
        #expect(Set(command).isSubset(of: Set(correlated)) && correlated.allSatisfy { $0.contains(correlation) })
        let refused = try cli.run(["log", "--caused-by", "999999"])
        #expect(refused.status != 0 && refused.stderr == "error: position 999999 is not in the log\n", "\(refused.stderr)")
    }

    @Test("two processes give byte-identical answers")
    func deterministicAcrossProcesses() throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        #expect(try cli.run(["demo"]).status == 0)
        for args in [
            ["prs"], ["volume", "--by", "muscle"], ["history"], ["e1rm", "deadlift"], ["template", "list"],
            ["hint", "back-squat", "--at", "2026-11-20T00:00:00Z"],
        ] {
            let a = try cli.run(args + ["--json"]).stdout, b = try cli.run(args + ["--json"]).stdout
            #expect(!a.isEmpty)
            #expect(a == b, "\(args) differs between runs")
        }
    }

    @Test("Free allows 3 templates: the 4th exits 1 naming Pro and appends nothing; a purchase lifts it")
    func templatePaywall() throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        for name in ["Push", "Pull", "Legs"] {
            #expect(try cli.run(["template", "create", name, "--exercise", "deadlift", "--at", "2026-11-01T10:00:00Z"]).status == 0)
        }
        let before = try cli.eventCount()
        let refused = try cli.run(["template", "create", "Arms", "--at", "2026-11-01T11:00:00Z"])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("repledger_pro_monthly") && refused.stderr.contains("repledger_pro_annual"))
        #expect(try cli.eventCount() == before)

        #expect(
            try cli.run([
                "purchase", "repledger_pro_annual", "--transaction", "1000", "--purchased", "2026-11-02T00:00:00Z",
                "--expires", "2027-11-02T00:00:00Z",
            ]).status == 0)
        #expect(try cli.run(["template", "create", "Arms", "--at", "2026-11-03T00:00:00Z"]).status == 0)
        let pro = try cli.json(["entitlements", "--at", "2026-12-01T00:00:00Z"])
        #expect(pro["isPro"] as? Bool == true)
        #expect(pro["templateLimit"] is NSNull)
        #expect(pro["activeProducts"] as? [String] == ["repledger_pro_annual"])
        // A restore records nothing; a refund ends Pro from its time on.
        let count = try cli.eventCount()
        #expect(
            try cli.run([
                "purchase", "repledger_pro_annual", "--transaction", "1000", "--purchased", "2026-11-02T00:00:00Z",
                "--expires", "2027-11-02T00:00:00Z",
            ]).status == 0)
        #expect(try cli.eventCount() == count)
        #expect(try cli.run(["refund", "1000", "--at", "2026-12-10T00:00:00Z"]).status == 0)
        #expect(try cli.json(["entitlements", "--at", "2026-12-09T00:00:00Z"])["isPro"] as? Bool == true)
        let lapsed = try cli.json(["entitlements", "--at", "2026-12-10T00:00:00Z"])
        #expect(lapsed["isPro"] as? Bool == false)
        #expect(lapsed["templateLimit"] as? Int == 3)
        #expect(lapsed["softUpsell"] as? Bool == false)
        let templates = try #require(try cli.json(["template", "list"])["templates"] as? [[String: Any]])
        #expect(templates.map { $0["name"] as? String } == ["Push", "Pull", "Legs", "Arms"])
    }

    @Test("rebuild --diff reports what Brzycki changes; a bad rules file exits 1")
    func rebuildDiff() throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        #expect(try cli.run(["demo"]).status == 0)
        let rules = cli.folder.appendingPathComponent("brzycki.json")
        try #"{"id":"brzycki","version":2,"e1rmFormula":"brzycki"}"#.write(to: rules, atomically: true, encoding: .utf8)
        let rebuilt = try cli.json(["rebuild", "--rules", rules.path, "--diff"])
        #expect((rebuilt["projections"] as? [Any])?.count == 12)
        #expect(rebuilt["events"] as? Int == (try cli.eventCount()))
        let diff = try #require(rebuilt["diff"] as? [[String: Any]])
        let moved = diff.filter { $0["change"] as? String == "e1rmMoved" }
        #expect(!moved.isEmpty)
        // Brzycki rates 5 reps lower than Epley (and 12 higher): every 5-rep squat point went down.
        let squat = moved.filter { $0["exerciseId"] as? String == "back-squat" }
        #expect(squat.count == 11)
        #expect(squat.allSatisfy { ($0["deltaKg"] as? Double ?? 0) < 0 })
        let curls = moved.filter { $0["exerciseId"] as? String == "barbell-curl" }
        #expect(!curls.isEmpty && curls.allSatisfy { ($0["deltaKg"] as? Double ?? 0) > 0 })
        #expect(diff.allSatisfy { $0["change"] as? String != "volumeChanged" })
        let same = try cli.json(["rebuild", "--diff"])
        #expect((same["diff"] as? [Any])?.isEmpty == true)

        try #"{"id":"x","formula":"brzycki"}"#.write(to: rules, atomically: true, encoding: .utf8)
        let bad = try cli.run(["rebuild", "--rules", rules.path])
        #expect(bad.status == 1)
        #expect(bad.stderr.contains("unknown key 'formula'"))
    }
}
