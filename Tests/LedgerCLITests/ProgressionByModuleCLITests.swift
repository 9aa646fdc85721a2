import Foundation
import LedgerTestSupport
import Testing

/// Issue 45, row 5: progression by workout and module. `progression show`
/// lists each program day's exercises by module; `progression set` changes
/// several at once (`--all`, `--module M`, `--smart`); cardio modules come
/// long and speed apart. On a real Strong history (Andrew50's) with a
/// program generated for a full gym.
@Suite("ledger progression: by workout and module", .needsSharedData(.realExports))
struct ProgressionByModuleCLITests {
    static func setUp() throws -> LedgerProcess {
        let (cli, _) = try AndrewsStrongHistory.withQuestionnaire()
        #expect(try cli.run(["program", "generate", "--seed", "11"]).status == 0)
        return cli
    }

    /// `progression show --json`: module of each exercise, and the grouping.
    static func shown(_ cli: LedgerProcess) throws -> (flat: [String: [String: Any]], workouts: [[String: Any]]) {
        let json = try #require(try cli.run(["progression", "show", "--json"]).json)
        let flat = try #require(json["exercises"] as? [[String: Any]])
        let workouts = try #require(json["workouts"] as? [[String: Any]])
        return (Dictionary(flat.map { ($0["exerciseId"] as! String, $0) }, uniquingKeysWith: { a, _ in a }), workouts)
    }

    @Test("show groups each program day's exercises by module, in the day's order; a module change moves the exercise")
    func groupedByWorkoutAndModule() throws {
        let cli = try Self.setUp()
        defer { cli.cleanUp() }
        let days = try #require(try cli.run(["program", "show", "--json"]).json?["sessions"] as? [[String: Any]])
        var (flat, workouts) = try Self.shown(cli)
        #expect(workouts.compactMap { $0["workout"] as? String } == days.compactMap { $0["name"] as? String })
        for (day, workout) in zip(days, workouts) {
            let ids = try #require(day["exercises"] as? [[String: Any]]).compactMap { $0["exerciseId"] as? String }
            let modules = try #require(workout["modules"] as? [[String: Any]])
            let grouped = modules.flatMap { m in
                (m["exercises"] as? [[String: Any]] ?? []).map { ($0["exerciseId"] as! String, m["module"] as! String) }
            }
            #expect(Set(grouped.map(\.0)) == Set(ids), "every exercise of the day, once")
            for (id, module) in grouped { #expect(flat[id]?["module"] as? String == module) }
            // Modules in the order the day first reaches them.
            let order = ids.compactMap { flat[$0]?["module"] as? String }.reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
            #expect(modules.compactMap { $0["module"] as? String } == order)
        }
        let first = try #require((days.first?["exercises"] as? [[String: Any]])?.first?["exerciseId"] as? String)
        #expect(try cli.run(["progression", "set", first, "--module", "warmup"]).status == 0)
        (flat, workouts) = try Self.shown(cli)
        let day1 = try #require(workouts.first?["modules"] as? [[String: Any]])
        let warmup = try #require(day1.first { $0["module"] as? String == "warmup" }?["exercises"] as? [[String: Any]])
        #expect(warmup.compactMap { $0["exerciseId"] as? String } == [first])
        #expect(flat[first]?["enabled"] as? Bool == false, "a warm-up does not progress by default")
        #expect(try cli.run(["progression", "show"]).stdout.contains("warmup"))
    }

    @Test("set --module changes that module's exercises only; --smart turns progression back to the smart default; --all reaches every one")
    func batches() throws {
        let cli = try Self.setUp()
        defer { cli.cleanUp() }
        var (flat, _) = try Self.shown(cli)
        let strength = flat.filter { $0.value["module"] as? String == "strength" }.map(\.key).sorted()
        #expect(strength.count >= 3)
        // One exercise becomes a warm-up; the strength batch then leaves it alone.
        let warm = strength[0]
        #expect(try cli.run(["progression", "set", warm, "--module", "warmup"]).status == 0)
        let before = try cli.eventCount()
        let batch = try #require(try cli.run(["progression", "set", "--module", "strength", "--rule", "linear", "--json"]).json)
        #expect((batch["exercises"] as? [String])?.sorted() == Array(strength.dropFirst()))
        #expect(try cli.eventCount() == before + strength.count - 1, "one override per exercise, in one append")
        (flat, _) = try Self.shown(cli)
        #expect(strength.dropFirst().allSatisfy { flat[$0]?["rule"] as? String == "linear" })
        #expect(flat[warm]?["rule"] as? String == "double")

        // Two strength exercises turned off by hand; --smart turns them back on and leaves the warm-up off.
        for id in strength[1...2] { #expect(try cli.run(["progression", "set", id, "--off"]).status == 0) }
        let smart = try #require(try cli.run(["progression", "set", "--smart", "--json"]).json)
        #expect((smart["exercises"] as? [String])?.sorted() == Array(strength[1...2]).sorted())
        (flat, _) = try Self.shown(cli)
        #expect(strength[1...2].allSatisfy { flat[$0]?["enabled"] as? Bool == true } && flat[warm]?["enabled"] as? Bool == false)
        let again = try cli.run(["progression", "set", "--smart"])
        #expect(again.status == 1 && again.stderr.contains("nothing to change"), "\(again.stderr)")

        let all = try #require(try cli.run(["progression", "set", "--all", "--increment", "5lb", "--json"]).json?["exercises"] as? [String])
        #expect(Set(all) == Set(flat.keys))
    }

    @Test("cardio comes long and speed apart; bad batches are refused in one line and append nothing")
    func cardioAndRefusals() throws {
        let cli = try Self.setUp()
        defer { cli.cleanUp() }
        #expect(try cli.run(["progression", "set", "running", "--module", "speed-cardio"]).status == 0)
        #expect(try cli.run(["progression", "set", "rowing", "--module", "long-cardio"]).status == 0)
        let before = try cli.eventCount()
        let cases: [([String], Int32, String)] = [
            (["progression", "set"], 2, "name an exercise, or change several with --all, --module M or --smart"),
            (["progression", "set", "--module", "jogging", "--rule", "linear"], 1, "long-cardio, speed-cardio"),
            (["progression", "set", "--module", "speed-cardio", "--rule", "linear"], 1, "no exercise is in the speed-cardio module"),
            (["progression", "set", "bench", "--all", "--rule", "linear"], 2, "not both"),
            (["progression", "set", "--smart", "--on"], 2, "--smart chooses on or off itself"),
        ]
        for (args, status, words) in cases {
            let out = try cli.run(args)
            #expect(out.status == status && out.stderr.contains(words), "\(args): \(out.stderr)")
        }
        #expect(try cli.eventCount() == before)
    }

    @Test("a module is defined once and makes templates: its exercises and targets first, grouped and typed; a redefinition leaves them be")
    func reusableModules() throws {
        let cli = try Self.setUp()
        defer { cli.cleanUp() }
        #expect(
            try cli.run([
                "module", "define", "Shoulder warm-up", "--type", "warmup", "--exercise", "Face Pull", "--sets", "2", "--reps", "15",
                "--exercise", "band pull apart", "--sets", "2", "--reps", "20",
            ]).status == 0)
        #expect(
            try cli.run(["module", "define", "Sprints", "--type", "speed-cardio", "--exercise", "running", "--sets", "6", "--duration", "30s"]).status
                == 0)
        let modules = try #require(try cli.run(["module", "list", "--json"]).json?["modules"] as? [[String: Any]])
        #expect(modules.compactMap { $0["name"] as? String } == ["Shoulder warm-up", "Sprints"])
        #expect(modules.compactMap { $0["type"] as? String } == ["warmup", "speed-cardio"])
        let warmLines = try #require(modules.first?["lines"] as? [[String: Any]])

        for name in ["Upper B", "Upper C"] {
            #expect(
                try cli.run([
                    "template", "create", name, "--module", "Shoulder warm-up", "--exercise", "Overhead Press (Barbell)", "--sets", "5", "--reps",
                    "5",
                ]).status == 0)
        }
        let templates = try #require(try cli.run(["template", "list", "--json"]).json?["templates"] as? [[String: Any]])
        let upperB = try #require(templates.first { $0["name"] as? String == "Upper B" }?["lines"] as? [[String: Any]])
        #expect(upperB.count == 3)
        #expect(Array(upperB.prefix(2)).map { NSDictionary(dictionary: $0) } == warmLines.map { NSDictionary(dictionary: $0) }, "\(upperB)")

        let shown = try #require(try cli.run(["progression", "show", "--template", "Upper B", "--json"]).json)
        let groups = try #require((shown["workouts"] as? [[String: Any]])?.first?["modules"] as? [[String: Any]])
        #expect(groups.map { $0["name"] as? String } == ["Shoulder warm-up", nil])
        #expect(groups.compactMap { $0["module"] as? String } == ["warmup", "strength"])
        let warm = try #require(groups.first?["exercises"] as? [[String: Any]])
        #expect(warm.allSatisfy { $0["enabled"] as? Bool == false }, "a warm-up module's exercises do not progress by default")
        #expect(try cli.run(["progression", "show", "--template", "Upper B"]).stdout.contains("Shoulder warm-up (warmup)"))

        // Redefined: later templates take the new exercises; Upper B keeps its copy. A duplicate keeps the modules.
        #expect(
            try cli.run(["module", "define", "shoulder warm-up", "--type", "warmup", "--exercise", "Face Pull", "--sets", "3", "--reps", "12"]).status
                == 0)
        #expect(try #require(try cli.run(["module", "list", "--json"]).json?["modules"] as? [[String: Any]]).count == 2)
        #expect(try cli.run(["template", "duplicate", "Upper B", "--name", "Upper D"]).status == 0)
        let copied = try #require(
            (try cli.run(["progression", "show", "--template", "Upper D", "--json"]).json?["workouts"] as? [[String: Any]])?.first?["modules"]
                as? [[String: Any]])
        #expect((copied.first?["exercises"] as? [[String: Any]])?.count == 2 && copied.first?["name"] as? String == "Shoulder warm-up")
        let after = try #require(try cli.run(["template", "list", "--json"]).json?["templates"] as? [[String: Any]])
        #expect((after.first { $0["name"] as? String == "Upper B" }?["lines"] as? [[String: Any]])?.count == 3)

        let before = try cli.eventCount()
        let refusals: [([String], String)] = [
            (["template", "create", "X", "--module", "Leg day"], "no module 'Leg day'; modules: shoulder warm-up, Sprints"),
            (["module", "define", "Y", "--type", "fast", "--exercise", "plank"], "unknown module type 'fast'"),
            (["module", "define", "Y", "--type", "warmup"], "a module needs at least one --exercise"),
            (["module", "define", " ", "--type", "warmup", "--exercise", "plank"], "a module needs a name"),
        ]
        for (args, words) in refusals {
            let out = try cli.run(args)
            #expect(out.status == 1 && out.stderr.contains(words) && out.stderr.split(separator: "\n").count == 1, "\(args): \(out.stderr)")
        }
        #expect(try cli.eventCount() == before)
    }
}
