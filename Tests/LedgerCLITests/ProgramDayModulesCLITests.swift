import Foundation
import LedgerTestSupport
import Testing

/// Issue 45, row 5, its last piece: modules inside program days. A day takes
/// a copy of a module (`program add-module`); a workout of the day plans its
/// sets, warm-ups before the day's exercises and cardio after, and keeps the
/// modules it was started with, as a workout from a template made of modules
/// does. On Andrew50's real Strong history with a program for a full gym.
@Suite("ledger program: modules in program days", .needsSharedData(.realExports))
struct ProgramDayModulesCLITests {
    static func setUp() throws -> LedgerProcess {
        let cli = try ProgressionByModuleCLITests.setUp()
        let modules: [[String]] = [
            ["Shoulder warm-up", "--type", "warmup", "--exercise", "Face Pull", "--sets", "2", "--reps", "15", "--rest", "45s"],
            ["Sprints", "--type", "speed-cardio", "--exercise", "running", "--sets", "6", "--duration", "30s"],
        ]
        for m in modules { #expect(try cli.run(["module", "define"] + m).status == 0) }
        return cli
    }

    static func workoutShown(_ cli: LedgerProcess) throws -> [String: Any] { try #require(try cli.run(["workout", "show", "last", "--json"]).json) }

    static func exerciseIds(_ list: Any?) -> [String] { (list as? [[String: Any]] ?? []).compactMap { $0["exerciseId"] as? String } }

    @Test("a day takes modules: the program shows them, its workout plans them around the day's exercises and keeps their names")
    func dayTakesModules() throws {
        let cli = try Self.setUp()
        defer { cli.cleanUp() }
        let defined = try #require(try cli.run(["module", "list", "--json"]).json?["modules"] as? [[String: Any]])
        let warmId = try #require(Self.exerciseIds(defined[0]["lines"]).first)
        let sprintId = try #require(Self.exerciseIds(defined[1]["lines"]).first)
        // Added in the order cardio, then warm-up: the warm-up still opens the day.
        let added = try #require(try cli.run(["program", "add-module", "--day", "1", "--module", "sprints", "--json"]).json)
        #expect(added["day"] as? Int == 1 && (added["modules"] as? [[String: Any]])?.count == 1)
        #expect(
            try cli.run(["program", "add-module", "active", "--day", "1", "--module", "Shoulder warm-up"]).stdout.contains("Sprints (speed-cardio)"))

        let days = try #require(try cli.run(["program", "show", "--json"]).json?["sessions"] as? [[String: Any]])
        let day1 = try #require(days.first?["modules"] as? [[String: Any]])
        #expect(day1.compactMap { $0["name"] as? String } == ["Sprints", "Shoulder warm-up"])
        #expect(day1.compactMap { $0["opensDay"] as? Bool } == [false, true])
        #expect(
            (day1[1]["lines"] as? [[String: Any]])?.map { NSDictionary(dictionary: $0) }
                == (defined[0]["lines"] as? [[String: Any]])?.map { NSDictionary(dictionary: $0) }, "the day's copy carries the module's targets")
        #expect(days.dropFirst().allSatisfy { ($0["modules"] as? [Any])?.isEmpty == true })
        let text = try cli.run(["program", "show"]).stdout
        #expect(text.contains("module: Shoulder warm-up (warmup)") && text.contains("module: Sprints (speed-cardio)"), "\(text)")
        let dayOwn = Self.exerciseIds(days[0]["exercises"])

        #expect(try cli.run(["workout", "start", "--program", "active", "--day", "1"]).status == 0)
        let w = try Self.workoutShown(cli)
        let exercises = try #require(w["exercises"] as? [[String: Any]])
        #expect(Self.exerciseIds(exercises) == [warmId] + dayOwn + [sprintId], "warm-up first, the day's own, then the cardio")
        #expect((exercises.first?["sets"] as? [Any])?.count == 2 && (exercises.last?["sets"] as? [Any])?.count == 6)
        #expect(exercises.first?["restSeconds"] as? Int == 45 && exercises.first?["restSource"] as? String == "program")
        #expect((exercises.first?["module"] as? [String: Any])?["name"] as? String == "Shoulder warm-up")
        #expect((exercises.last?["module"] as? [String: Any])?["type"] as? String == "speed-cardio")
        #expect(exercises.dropFirst().dropLast().allSatisfy { $0["module"] is NSNull })
        let modules = try #require(w["modules"] as? [[String: Any]])
        #expect(modules.compactMap { $0["name"] as? String } == ["Shoulder warm-up", "Sprints"])
        #expect(modules.first?["entryIds"] as? [String] == [exercises.first?["entryId"] as? String].compactMap { $0 })
        #expect(try cli.run(["workout", "show", "last"]).stdout.contains("· Shoulder warm-up (warmup)"))

        // Progression: day 1 lists the warm-up, the day's own exercises by type, then the cardio; the warm-up's exercise does not progress.
        let shown = try #require(try cli.run(["progression", "show", "--json"]).json)
        let groups = try #require((shown["workouts"] as? [[String: Any]])?.first?["modules"] as? [[String: Any]])
        #expect(groups.first?["name"] as? String == "Shoulder warm-up" && groups.last?["name"] as? String == "Sprints")
        #expect(groups.dropFirst().dropLast().allSatisfy { $0["name"] is NSNull })
        let warm = try #require((groups.first?["exercises"] as? [[String: Any]])?.first)
        #expect(warm["module"] as? String == "warmup" && warm["enabled"] as? Bool == false && warm["repsMax"] as? Int == 15)
        #expect((groups.last?["exercises"] as? [[String: Any]])?.first?["module"] as? String == "speed-cardio")
    }

    @Test("the next day names its modules' exercises; a day keeps its copy when the module changes; removing leaves started workouts be")
    func copiesAndRemoval() throws {
        let cli = try Self.setUp()
        defer { cli.cleanUp() }
        #expect(try cli.run(["program", "add-module", "--day", "1", "--module", "Shoulder warm-up"]).status == 0)
        let next = try #require(try cli.run(["next", "--json"]).json)
        #expect((next["day"] as? [String: Any])?["number"] as? Int == 1)
        let faceId = try #require(
            Self.exerciseIds((try cli.run(["module", "list", "--json"]).json?["modules"] as? [[String: Any]])?.first?["lines"]).first)
        #expect(Self.exerciseIds(next["targets"]).first == faceId, "the next day's targets start with its warm-up")

        #expect(
            try cli.run(["module", "define", "Shoulder warm-up", "--type", "warmup", "--exercise", "plank", "--sets", "1", "--duration", "40s"])
                .status == 0)
        let day1 = try #require(
            (try cli.run(["program", "show", "--json"]).json?["sessions"] as? [[String: Any]])?.first?["modules"] as? [[String: Any]])
        #expect(Self.exerciseIds(day1.first?["lines"]) == [faceId], "the day keeps the module as it took it")

        #expect(try cli.run(["workout", "start", "--program", "active", "--day", "1"]).status == 0)
        let removed = try #require(try cli.run(["program", "remove-module", "--day", "1", "--module", "shoulder WARM-UP", "--json"]).json)
        #expect((removed["modules"] as? [Any])?.isEmpty == true)
        let days = try #require(try cli.run(["program", "show", "--json"]).json?["sessions"] as? [[String: Any]])
        #expect((days.first?["modules"] as? [Any])?.isEmpty == true)
        let kept = try #require(try Self.workoutShown(cli)["modules"] as? [[String: Any]])
        #expect(kept.compactMap { $0["name"] as? String } == ["Shoulder warm-up"], "a started workout keeps the modules it was started with")
        #expect(try cli.run(["workout", "discard", "last"]).status == 0)
        #expect(try cli.run(["workout", "start", "--program", "active", "--day", "1"]).status == 0)
        let again = try Self.workoutShown(cli)
        #expect((again["modules"] as? [Any])?.isEmpty == true && !Self.exerciseIds(again["exercises"]).contains(faceId))
    }

    @Test("a workout from a template made of modules keeps them; bad module edits are refused in one line and append nothing")
    func templateWorkoutsAndRefusals() throws {
        let cli = try Self.setUp()
        defer { cli.cleanUp() }
        #expect(
            try cli.run(["template", "create", "Upper B", "--module", "Shoulder warm-up", "--exercise", "Overhead Press (Barbell)", "--sets", "3"])
                .status == 0)
        #expect(try cli.run(["workout", "start", "--template", "Upper B"]).status == 0)
        let w = try Self.workoutShown(cli)
        let exercises = try #require(w["exercises"] as? [[String: Any]])
        #expect(exercises.count == 2)
        #expect((exercises.first?["module"] as? [String: Any])?["name"] as? String == "Shoulder warm-up")
        #expect(exercises.last?["module"] is NSNull)
        #expect((w["modules"] as? [[String: Any]])?.first?["type"] as? String == "warmup")

        #expect(try cli.run(["program", "add-module", "--day", "2", "--module", "Sprints"]).status == 0)
        let before = try cli.eventCount()
        let refusals: [([String], String)] = [
            (["program", "add-module", "--day", "2", "--module", "sprints"], "day 2 already has the module 'Sprints'"),
            (["program", "add-module", "--day", "9", "--module", "Sprints"], "day 9 is refused: this program has days 1 to 3"),
            (["program", "add-module", "--day", "1", "--module", "Leg day"], "no module 'Leg day'; modules: Shoulder warm-up, Sprints"),
            (["program", "remove-module", "--day", "1", "--module", "Sprints"], "day 1 has no module 'Sprints'"),
            (["program", "remove-module", "--day", "2", "--module", "warm"], "day 2 has no module 'warm'; its modules: Sprints"),
            (["program", "add-module", "nope", "--day", "1", "--module", "Sprints"], "nope"),
        ]
        for (args, words) in refusals {
            let out = try cli.run(args)
            #expect(out.status == 1 && out.stderr.contains(words) && out.stderr.split(separator: "\n").count == 1, "\(args): \(out.stderr)")
        }
        #expect(try cli.eventCount() == before)
    }
}
