import Foundation
import LedgerTestSupport
import Testing

/// Issue 49, row 4 (its reactive half): `next` suggests a deload for an
/// exercise that stalled or whose e1RM fell, saying why, by rules that a
/// rules file changes. Sessions logged through the CLI as a lifter would.
@Suite("ledger next: reactive deloads")
struct DeloadCLITests {
    /// One finished bench session on `day` (October 2026): `sets` sets of `reps` at `kg`.
    static func session(_ cli: LedgerProcess, day: Int, kg: Double, reps: Int, sets: Int = 3, deload: Bool = false) throws {
        let at = String(format: "2026-10-%02dT18:", day)
        let start = ["workout", "start", "--name", "Bench", "--at", at + "00:00Z", "--json"] + (deload ? ["--deload"] : [])
        let w = try #require(try cli.run(start).json?["workoutId"] as? String)
        for i in 0..<sets {
            let out = try cli.run([
                "workout", "log", w, "Bench Press (Barbell)", "--weight", "\(kg.formatted)kg", "--reps", "\(reps)", "--at",
                at + String(format: "%02d:00Z", 5 + i * 5),
            ])
            #expect(out.status == 0, "\(out.stderr)")
        }
        #expect(try cli.run(["workout", "finish", w, "--at", at + "40:00Z"]).status == 0)
    }

    static func deload(_ cli: LedgerProcess, _ extra: [String] = []) throws -> [String: Any]? {
        try #require(try cli.run(["next", "Bench Press (Barbell)", "--json"] + extra).json)["deload"] as? [String: Any]
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
        #expect(try cli.run(["next", "Bench Press (Barbell)"]).stdout.contains("  deload suggested: no progress in 3 sessions"))

        // The lifter deloads: marked, the session is neither a stall nor the one to progress from.
        let target = try #require(try cli.run(["next", "Bench Press (Barbell)", "--json"]).json)
        try Self.session(cli, day: 13, kg: 90, reps: 5, sets: 2, deload: true)
        let after = try #require(try cli.run(["next", "Bench Press (Barbell)", "--json"]).json)
        #expect(after["weightKg"] as? Double == target["weightKg"] as? Double && after["reason"] as? String == target["reason"] as? String)
        #expect((after["deload"] as? [String: Any])?["reason"] as? String == reason, "the deload counts as no stall")
        let history = try #require(try cli.run(["history", "--json"]).json?["workouts"] as? [[String: Any]])
        #expect(history.first?["deload"] as? Bool == true && history.dropFirst().allSatisfy { $0["deload"] as? Bool == false })
        #expect(try cli.run(["history", "--limit", "1"]).stdout.contains("deload"))
        #expect(try cli.run(["workout", "deload", "last", "off"]).status == 0)
        let unmarked = try #require(try cli.run(["next", "Bench Press (Barbell)", "--json"]).json)
        #expect(unmarked["weightKg"] as? Double == 90, "unmarked, the light session is the last one: \(unmarked)")
        let twice = try cli.run(["workout", "deload", "last", "off"])
        #expect(twice.status == 1 && twice.stderr.split(separator: "\n").count == 1, "\(twice.stderr)")
        #expect(try cli.run(["workout", "deload", "last", "on"]).status == 0)

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
            let out = try cli.run(["next", "bench", "--rules", try rules("bad.json", json)])
            #expect(out.status == 1 && out.stderr.contains(words), "\(json): \(out.stderr)")
        }
    }
}
