import Foundation
import LedgerTestSupport
import Testing

/// Issue 49, row 4 (its reactive half), and issue 77's one answer per lift:
/// `next` answers a deload for an exercise that stalled or whose e1RM fell,
/// and a comeback after a long break, as the target itself and saying why,
/// by rules that a rules file changes. Sessions logged through the CLI as a
/// lifter would; `next` is asked as of a training date (`--until`), so the
/// answers do not move with the day the tests run.
@Suite("ledger next: reactive deloads and comebacks")
struct DeloadCLITests {
    /// One finished bench session on `day` of October 2026 (or `month`): `sets` sets of `reps` at `kg`.
    static func session(
        _ cli: LedgerProcess, day: Int, kg: Double, reps: Int, sets: Int = 3, deload: Bool = false, month: String = "2026-10",
        exercise: String = "Bench Press (Barbell)"
    ) throws {
        let at = month + String(format: "-%02dT18:", day)
        let start = ["workout", "start", "--name", "Bench", "--at", at + "00:00Z", "--json"] + (deload ? ["--deload"] : [])
        let w = try #require(try cli.run(start).json?["workoutId"] as? String)
        for i in 0..<sets {
            let out = try cli.run([
                "workout", "log", w, exercise, "--weight", "\(kg.formatted)kg", "--reps", "\(reps)", "--at",
                at + String(format: "%02d:00Z", 5 + i * 5),
            ])
            #expect(out.status == 0, "\(out.stderr)")
        }
        #expect(try cli.run(["workout", "finish", w, "--at", at + "40:00Z"]).status == 0)
    }

    /// The end of October 2026, a few days after the last session of the first test.
    static let asked = ["--until", "2026-10-22"]

    static func next(_ cli: LedgerProcess, _ extra: [String] = [], exercise: String = "Bench Press (Barbell)") throws -> [String: Any] {
        try #require(try cli.run(["next", exercise, "--json"] + (extra.contains("--until") ? extra : extra + asked)).json)
    }

    static func deload(_ cli: LedgerProcess, _ extra: [String] = []) throws -> [String: Any]? {
        try next(cli, extra)["deload"] as? [String: Any]
    }

    @Test("three sessions without a better e1RM suggest a deload at 90 % for fewer sets; a fall of the e1RM does too; rules change both")
    func stallsAndFalls() throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        #expect(try cli.run(["settings", "unit", "kg"]).status == 0)
        try Self.session(cli, day: 1, kg: 100, reps: 5)
        try Self.session(cli, day: 5, kg: 100, reps: 5)
        try Self.session(cli, day: 8, kg: 100, reps: 4)
        #expect(try Self.deload(cli) == nil, "two sessions without progress are not yet a stall")
        try Self.session(cli, day: 12, kg: 100, reps: 5)
        let stalled = try #require(try Self.deload(cli))
        // 100 × 5 by Epley is 116.67 kg; 90 % of the 100 kg top loads as 90 kg; 3 sets × 0.6 is 2.
        #expect(stalled["weightKg"] as? Double == 90 && stalled["sets"] as? Int == 2, "\(stalled)")
        let reason = try #require(stalled["reason"] as? String)
        #expect(reason.contains("no progress in 3 sessions: the best e1RM is still 116.67 kg of 2026-10-01"), "\(reason)")
        // One answer: the deload is the target, its weight, sets and reason, not a line beside a progression.
        let target = try Self.next(cli)
        #expect(target["weightKg"] as? Double == 90 && target["sets"] as? Int == 2 && target["reason"] as? String == reason, "\(target)")
        #expect(stalled["kind"] as? String == "deload")
        let words = try cli.run(["next", "Bench Press (Barbell)"] + Self.asked).stdout
        #expect(words == "Bench Press (Barbell): 90 kg, 2 × 8–12 (\(reason))\n", "\(words)")

        // The lifter deloads: marked, the session is neither a stall nor the one to progress from.
        try Self.session(cli, day: 13, kg: 90, reps: 5, sets: 2, deload: true)
        let after = try Self.next(cli)
        #expect(after["weightKg"] as? Double == target["weightKg"] as? Double && after["reason"] as? String == target["reason"] as? String)
        #expect((after["deload"] as? [String: Any])?["reason"] as? String == reason, "the deload counts as no stall")
        let history = try #require(try cli.run(["history", "--json"]).json?["workouts"] as? [[String: Any]])
        #expect(history.first?["deload"] as? Bool == true && history.dropFirst().allSatisfy { $0["deload"] as? Bool == false })
        #expect(try cli.run(["history", "--limit", "1"]).stdout.contains("deload"))
        // Unmarked the next morning (at a training time, so `--until` reads it), the light session is the last one and a
        // fourth without progress: the deload is from its 90 kg.
        #expect(try cli.run(["workout", "deload", "last", "off", "--at", "2026-10-14T08:00:00Z"]).status == 0)
        let unmarked = try #require(try Self.deload(cli))
        #expect(unmarked["weightKg"] as? Double == 80, "90 % of 90 kg is 81 kg, loaded as 80 kg: \(unmarked)")
        #expect((unmarked["reason"] as? String)?.hasPrefix("no progress in 4 sessions") == true, "\(unmarked)")
        let twice = try cli.run(["workout", "deload", "last", "off"])
        #expect(twice.status == 1 && twice.stderr.split(separator: "\n").count == 1, "\(twice.stderr)")
        #expect(try cli.run(["workout", "deload", "last", "on", "--at", "2026-10-14T08:05:00Z"]).status == 0)

        let folder = cli.folder
        func rules(_ name: String, _ json: String) throws -> String {
            let path = folder.appendingPathComponent(name).path
            try json.write(toFile: path, atomically: true, encoding: .utf8)
            return path
        }
        let patient = try rules("patient.json", #"{"id":"patient","version":1,"deloadAfterStalls":4,"deloadIntensity":0.8,"deloadVolume":0.5}"#)
        #expect(try Self.deload(cli, ["--rules", patient]) == nil)

        // A bad day: the e1RM falls 15 % against the best of the two weeks before.
        try Self.session(cli, day: 14, kg: 85, reps: 5)
        let fell = try #require(try Self.deload(cli, ["--rules", try rules("falls.json", #"{"deloadAfterStalls":0,"deloadIntensity":0.8}"#)]))
        #expect((fell["reason"] as? String)?.contains("the e1RM fell 15 % in two weeks, from 116.67 kg on 2026-10-12 to 99.17 kg") == true, "\(fell)")
        #expect(fell["weightKg"] as? Double == 67.5, "80 % of the 85 kg top is 68 kg, loaded as 67.5 kg")
        // A new best ends the stall.
        try Self.session(cli, day: 20, kg: 105, reps: 5)
        #expect(try Self.deload(cli) == nil)

        for (json, words) in [
            (#"{"deloadIntensity":1.5}"#, "deloadIntensity 1.5 is refused: a deload factor is above 0 and at most 1"),
            (#"{"deloadVolume":0}"#, "deloadVolume 0 is refused"), (#"{"deloadAfterStalls":40}"#, "deloadAfterStalls must be 0…20"),
        ] {
            let out = try cli.run(["next", "bench", "--rules", try rules("bad.json", json)] + Self.asked)
            #expect(out.status == 1 && out.stderr.contains(words), "\(json): \(out.stderr)")
        }
    }

    @Test("after a break of three weeks or more, one answer: come back lighter (90 %, 80 % after three months), and the stall count starts again")
    func comebackAfterABreak() throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        #expect(try cli.run(["settings", "unit", "kg"]).status == 0)
        for day in [1, 5, 8, 12] { try Self.session(cli, day: day, kg: 100, reps: day == 8 ? 4 : 5) }
        #expect(try Self.deload(cli) != nil, "four sessions without progress: a deload is due in October")

        // Three weeks and more after 2026-10-12: a comeback, not the stall's deload.
        let back = try Self.next(cli, ["--until", "2026-11-04"])
        let reason = try #require(back["reason"] as? String)
        #expect(
            reason == "your last session of it was 3 weeks ago (2026-10-12): come back lighter, 90 % of 100 kg, 90 kg, and build up again from there",
            "\(reason)")
        #expect(back["weightKg"] as? Double == 90 && back["sets"] is NSNull, "a comeback lightens the load, not the volume: \(back)")
        let lighter = try #require(back["deload"] as? [String: Any])
        #expect(lighter["kind"] as? String == "comeback" && lighter["reason"] as? String == reason, "\(lighter)")
        #expect(
            try cli.run(["next", "Bench Press (Barbell)", "--until", "2026-11-04"]).stdout == "Bench Press (Barbell): 90 kg × 8–12 (\(reason))\n")
        let months = try Self.next(cli, ["--until", "2027-08-20"])
        #expect(months["weightKg"] as? Double == 80, "\(months)")
        #expect(
            (months["reason"] as? String)?.hasPrefix("your last session of it was 10 months ago (2026-10-12): come back lighter, 80 % of 100 kg")
                == true, "\(months)")
        // The day before three weeks, no break yet: the stall's deload.
        #expect((try Self.next(cli, ["--until", "2026-11-01"])["reason"] as? String)?.hasPrefix("no progress in 3 sessions") == true)

        // Back after the break at 90 kg, below the best before it: rebuilding is no stall. Counted from the break,
        // three sessions at 90 kg are two without progress; counted across it, they would be seven.
        for day in [3, 6, 10] { try Self.session(cli, day: day, kg: 90, reps: 5, month: "2026-12") }
        let rebuilding = try Self.next(cli, ["--until", "2026-12-11"])
        #expect(rebuilding["deload"] is NSNull, "\(rebuilding)")
        #expect(rebuilding["reason"] as? String == "the lowest set was 5 reps at 90 kg: stay, aim for 6", "\(rebuilding)")
    }

    @Test("sets above the e1RM's rep cap give no e1RM: no deload for them, the progression's one answer")
    func noE1rmNoDeload() throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        #expect(try cli.run(["settings", "unit", "kg"]).status == 0)
        let raise = "Lateral Raise (Dumbbell)"
        for day in [1, 5, 8, 12, 15] { try Self.session(cli, day: day, kg: 10, reps: 15, exercise: raise) }
        let next = try Self.next(cli, ["--until", "2026-10-16"], exercise: raise)
        #expect(next["deload"] is NSNull, "\(next)")
        #expect((next["reason"] as? String)?.hasPrefix("every set reached 12 reps at 10 kg: add") == true, "\(next)")
        let words = try cli.run(["next", raise, "--until", "2026-10-16"]).stdout
        #expect(words.split(separator: "\n").count == 1 && !words.contains("deload") && !words.contains("e1RM"), "\(words)")
    }
}
