import Foundation
import LedgerTestSupport
import Testing

/// Issue 49, row 1: warm-up ramps as a rule. `warmup` prints the ramp up to
/// a working weight, each weight one the lifter's bar and plates load;
/// `workout warmup` plans it before the working sets, and the warm-ups stay
/// out of volume and records. On Andrew50's real Strong history (lb), at
/// the heaviest bench of his last bench workout.
@Suite("ledger warmup: ramps from the working weight", .needsSharedData(.realExports))
struct WarmupCLITests {
    @Test("every step loads exactly on the lifter's bar, climbs, stays under the working weight; schemes are rules")
    func rampsLoad() throws {
        let (cli, benchLb) = try AndrewsStrongHistory.imported()
        defer { cli.cleanUp() }
        let working = "\(benchLb.formatted)lb"
        for scheme in ["standard", "light", "heavy"] {
            let ramp = try #require(try cli.run(["warmup", working, "--scheme", scheme, "--json"]).json)
            #expect(ramp["scheme"] as? String == scheme)
            let sets = try #require(ramp["sets"] as? [[String: Any]])
            let weights = sets.compactMap { $0["weight"] as? Double }
            #expect(!weights.isEmpty && weights.count == sets.count, "\(scheme): \(sets)")
            #expect(weights.first == 45 && sets.first?["bar"] as? Bool == true, "the lb bar opens the ramp")
            #expect(zip(weights, weights.dropFirst()).allSatisfy { $0 < $1 } && weights.last! < benchLb, "\(weights)")
            for w in weights {
                let plates = try #require(try cli.run(["plates", "\(w.formatted)lb", "--json"]).json)
                #expect(plates["exact"] as? Bool == true, "\(w) lb loads exactly: \(plates)")
            }
            // Each step is the loadable weight nearest its percent: no other load is nearer.
            for s in sets.dropFirst() {
                let percent = try #require(s["percent"] as? Int), w = try #require(s["weight"] as? Double)
                let wanted = benchLb * Double(percent) / 100
                #expect(abs(w - wanted) <= 5 + 1e-9, "\(percent) % of \(benchLb) is \(wanted); got \(w)")
            }
        }
        let text = try cli.run(["warmup", working])
        #expect(
            text.stdout.contains("Warm-up to \(benchLb.formatted) lb (standard):") && text.stdout.contains("45 lb × 10  (the bar)"), "\(text.stdout)")

        // A rules file names a scheme or writes its own; the default scheme follows it.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("warmup-rules-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        func rules(_ name: String, _ json: String) throws -> String {
            let path = folder.appendingPathComponent(name).path
            try json.write(toFile: path, atomically: true, encoding: .utf8)
            return path
        }
        let named = try rules("light.json", #"{"id":"light-warmups","version":1,"warmupScheme":"light"}"#)
        #expect(try cli.run(["warmup", working, "--rules", named, "--json"]).json?["scheme"] as? String == "light")
        // rebuild --diff shows what the scheme changes: the ramp up to each next target, as `warmup` prints it.
        let diff = try #require(try cli.run(["rebuild", "--rules", named, "--diff", "--json"]).json?["diff"] as? [[String: Any]])
        let bench = try #require(diff.first { $0["change"] as? String == "warmupChanged" && $0["exercise"] as? String == "Bench Press (Barbell)" })
        // The diff compares the rules' targets; `next` is asked on the history's last day, before any break begins.
        let lastWorkout = try #require((try cli.run(["history", "--limit", "1", "--json"]).json?["workouts"] as? [[String: Any]])?.first)
        let lastDay = String(try #require(lastWorkout["startedAt"] as? String).prefix(10))
        let target = try #require(
            try cli.run(["next", "Bench Press (Barbell)", "--json", "--until", lastDay]).json?["weightKg"] as? Double)
        let to = try #require(bench["working"] as? Double)
        #expect(abs(to - target / 0.45359237) < 1e-3 && bench["unit"] as? String == "lb", "\(bench)")
        func ramp(_ scheme: String) throws -> [Double] {
            try #require(try cli.run(["warmup", "\(to.formatted)lb", "--scheme", scheme, "--json"]).json?["sets"] as? [[String: Any]])
                .compactMap { $0["weight"] as? Double }
        }
        #expect((bench["from"] as? [[String: Any]])?.compactMap { $0["weight"] as? Double } == (try ramp("standard")))
        #expect((bench["to"] as? [[String: Any]])?.compactMap { $0["weight"] as? Double } == (try ramp("light")))
        #expect(try cli.run(["rebuild", "--rules", named, "--diff"]).stdout.contains("Warm-ups before the next targets:"))
        let own = try rules(
            "own.json", #"{"id":"mine","version":1,"warmupScheme":{"name":"mine","steps":[{"percent":50,"reps":8},{"percent":85,"reps":2}]}}"#)
        let mine = try #require(try cli.run(["warmup", working, "--rules", own, "--json"]).json)
        #expect(mine["scheme"] as? String == "mine")
        #expect((mine["sets"] as? [[String: Any]])?.compactMap { $0["reps"] as? Int } == [8, 2], "no bar step in this scheme")

        let refusals: [([String], String)] = [
            (["warmup", working, "--scheme", "fast"], "no warm-up scheme 'fast'; schemes: standard, light, heavy"),
            (["warmup", "0lb"], "a working weight of 0 takes no warm-up"),
            (["warmup", working, "--exercise", "plank"], "Plank takes no warm-up ramp"),
            (
                ["warmup", working, "--rules", try rules("bad.json", #"{"warmupScheme":{"name":"x","steps":[{"percent":120,"reps":3}]}}"#)],
                "a warm-up step of 120 % is refused: give 1 to 99 % of the working weight"
            ),
            (["warmup", working, "--rules", try rules("unknown.json", #"{"warmupScheme":"fast"}"#)], "no warm-up scheme 'fast'"),
        ]
        for (args, words) in refusals {
            let out = try cli.run(args)
            #expect(out.status != 0 && out.stderr.contains(words) && out.stderr.split(separator: "\n").count == 1, "\(args): \(out.stderr)")
        }
    }

    @Test("workout warmup plans the ramp before the working sets; done, the warm-ups move neither volume nor records")
    func plannedIntoAWorkout() throws {
        let (cli, benchLb) = try AndrewsStrongHistory.withBenchTemplate()
        defer { cli.cleanUp() }
        #expect(try cli.run(["workout", "start", "--template", "Bench 8-12"]).status == 0)
        let before = try cli.eventCount()
        let noWeight = try cli.run(["workout", "warmup", "last", "bench press (barbell)"])
        #expect(noWeight.status == 1 && noWeight.stderr.contains("give the working weight with --weight"), "\(noWeight.stderr)")
        #expect(try cli.eventCount() == before)

        let planned = try #require(
            try cli.run(["workout", "warmup", "last", "bench press (barbell)", "--weight", "\(benchLb.formatted)lb", "--json"]).json)
        let setIds = try #require(planned["setIds"] as? [String])
        let ramp = try #require(try cli.run(["warmup", "\(benchLb.formatted)lb", "--json"]).json?["sets"] as? [[String: Any]])
        let appended = try cli.eventCount() - before
        #expect(setIds.count == ramp.count && appended == ramp.count, "one planned set per step, in one append")
        let shown = try #require((try cli.run(["workout", "show", "last", "--json"]).json?["exercises"] as? [[String: Any]])?.first)
        let sets = try #require(shown["sets"] as? [[String: Any]])
        #expect(sets.prefix(ramp.count).compactMap { $0["setId"] as? String } == setIds, "the ramp comes before the working sets")
        #expect(sets.prefix(ramp.count).allSatisfy { $0["type"] as? String == "warmup" && $0["state"] as? String == "planned" })
        #expect(sets.dropFirst(ramp.count).allSatisfy { $0["type"] as? String == "normal" } && sets.count == ramp.count + 3)
        let again = try cli.run(["workout", "warmup", "last", "bench press (barbell)", "--weight", "100lb"])
        #expect(again.status == 1 && again.stderr.contains("has warm-up sets planned already"), "\(again.stderr)")

        let volume = try cli.run(["volume", "--by", "week", "--json"]).stdout
        let records = try cli.run(["prs", "--json"]).stdout
        for id in setIds { #expect(try cli.run(["workout", "complete", "last", String(id.prefix(8))]).status == 0) }
        #expect(try cli.run(["volume", "--by", "week", "--json"]).stdout == volume, "warm-ups add no volume")
        #expect(try cli.run(["prs", "--json"]).stdout == records, "nor records")
        let late = try cli.run(["workout", "log", "last", "bench press (barbell)", "--weight", "\(benchLb.formatted)lb", "--reps", "8"])
        #expect(late.status == 0)
        #expect(try cli.run(["workout", "discard", "last"]).status == 0)
        #expect(try cli.run(["workout", "start", "--template", "Bench 8-12"]).status == 0)
        #expect(try cli.run(["workout", "log", "last", "bench press (barbell)", "--weight", "\(benchLb.formatted)lb", "--reps", "8"]).status == 0)
        let done = try cli.run(["workout", "warmup", "last", "bench press (barbell)", "--weight", "\(benchLb.formatted)lb"])
        #expect(done.status == 1 && done.stderr.contains("has working sets done: warm-ups come before them"), "\(done.stderr)")
    }
}
