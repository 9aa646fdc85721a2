import Foundation
import LedgerTestSupport
import Testing

/// Issue 52, point 3: logged sets fill the planned sets of their own type,
/// views list sets in the order they were done, and auto-fill follows one
/// stated rule (docs/RULES.md, "Auto-fill") and names its source. On a real
/// Strong history with warm-ups (Andrew50's, in lb); the last workout's
/// sets come from the test's own reading of the file.
@Suite("ledger workout: plans that mean what they say", .needsSharedData(.realExports))
struct PlansMeanWhatTheySayCLITests {
    static let file = RealExports.folder.appendingPathComponent("strong_Andrew50_Lifting.csv").path
    static let poundsInKg = 0.45359237

    typealias Row = (date: String, workout: String, exercise: String, order: String, weight: Double, reps: Double)

    /// The file's set rows, in file order.
    static func rows() throws -> [Row] {
        let records = RealExports.records(try String(contentsOfFile: file, encoding: .utf8), delimiter: ",")
        let header = try #require(records.first)
        let col = { (name: String) in try #require(header.firstIndex(of: name)) }
        let (date, workout, name, order) = (try col("Date"), try col("Workout Name"), try col("Exercise Name"), try col("Set Order"))
        let (weight, reps) = (try col("Weight"), try col("Reps"))
        return records.dropFirst().filter { $0.count > reps && $0[order] != "Rest Timer" }.map {
            ($0[date], $0[workout], $0[name], $0[order], Double($0[weight]) ?? 0, Double($0[reps]) ?? 0)
        }
    }

    /// The rows of the file's last workout with `exercise`, in file order.
    static func lastWorkoutRows(_ exercise: String) throws -> [Row] {
        let rows = try rows().filter { $0.exercise == exercise }
        let last = try #require(rows.map(\.date).max())
        return rows.filter { $0.date == last }
    }

    @Test("a warm-up logged first is set #1 and leaves the planned working sets to the working sets; history lists it first")
    func warmupLoggedFirst() throws {
        let (cli, _) = try AndrewsStrongHistory.imported()
        defer { cli.cleanUp() }
        #expect(
            try cli.run(["template", "create", "Bench day", "--exercise", "Bench Press (Barbell)", "--sets", "3", "--reps", "5", "--weight", "135lb"])
                .status == 0)
        let w = try #require(try cli.run(["workout", "start", "--template", "Bench day", "--at", "now", "--json"]).json?["workoutId"] as? String)
        #expect(try cli.run(["workout", "log", w, "bench", "--type", "warmup", "--reps", "5", "--weight", "95lb"]).status == 0)
        #expect(try cli.run(["workout", "log", w, "bench", "--reps", "5", "--weight", "135lb"]).status == 0)

        let show = try #require(try cli.run(["workout", "show", w, "--json"]).json)
        let sets = try #require((show["exercises"] as? [[String: Any]])?.first?["sets"] as? [[String: Any]])
        #expect(sets.map { "\($0["state"] ?? "")/\($0["type"] ?? "")" } == ["done/warmup", "done/normal", "planned/normal", "planned/normal"])
        #expect(sets.map { $0["number"] as? Int } == [1, 2, 3, 4])
        let text = try cli.run(["workout", "show", w]).stdout
        let warmLine = try #require(text.components(separatedBy: "\n").first { $0.contains("(warmup)") })
        #expect(warmLine.contains("#1 "), "\(text)")

        #expect(try cli.run(["workout", "finish", w, "--at", "now"]).status == 0)
        let history = try #require(try cli.run(["history", "--json", "--limit", "1"]).json?["workouts"] as? [[String: Any]])
        let rows = try #require((history.first?["exercises"] as? [[String: Any]])?.first?["sets"] as? [[String: Any]])
        #expect(rows.map { $0["type"] as? String } == ["warmup", "normal"])
    }

    @Test("a routine repeated with its warm-ups: a working set logged first fills a planned working set, a warm-up the planned warm-up")
    func ownTypeFillsOwnType() throws {
        let (cli, _) = try AndrewsStrongHistory.imported()
        defer { cli.cleanUp() }
        // A routine whose last workout began with warm-ups (the routine repeats its last workout).
        let all = try Self.rows()
        var lastOf: [String: String] = [:]
        for r in all { lastOf[r.workout] = max(lastOf[r.workout] ?? "", r.date) }
        let firstWarmup = try #require(all.last { $0.order == "W" && lastOf[$0.workout] == $0.date }, "a routine's last workout has warm-ups")
        let (name, exercise) = (firstWarmup.workout, firstWarmup.exercise)
        let warmups = all.filter { $0.date == firstWarmup.date && $0.exercise == exercise && $0.order == "W" }.count
        let w = try #require(try cli.run(["workout", "start", "--template", name, "--at", "now", "--json"]).json?["workoutId"] as? String)
        func rowSets() throws -> [[String: Any]] {
            let show = try #require(try cli.run(["workout", "show", w, "--json"]).json)
            let x = try #require((show["exercises"] as? [[String: Any]])?.first { $0["exercise"] as? String == exercise })
            return try #require(x["sets"] as? [[String: Any]])
        }
        let plannedBefore = try rowSets()
        #expect(warmups > 0 && plannedBefore.prefix(warmups).allSatisfy { $0["type"] as? String == "warmup" }, "\(exercise) in \(name)")

        let working = try #require(
            try cli.run(["workout", "log", w, exercise, "--reps", "8", "--weight", "135lb", "--json"]).json?["setId"] as? String)
        let warm = try #require(
            try cli.run(["workout", "log", w, exercise, "--type", "warmup", "--reps", "10", "--weight", "45lb", "--json"]).json?["setId"] as? String)
        let after = try rowSets()
        #expect(after.count == plannedBefore.count, "no set beyond the plan")
        // Each filled a planned set of its own type: the first working one and the first warm-up.
        #expect(working == plannedBefore[warmups]["setId"] as? String)
        #expect(warm == plannedBefore[0]["setId"] as? String)
        // Listed as done: the working set first, as it was.
        #expect(after.prefix(2).map { $0["setId"] as? String } == [working, warm])
        #expect(after.dropFirst(2).allSatisfy { $0["state"] as? String == "planned" })
    }

    @Test("auto-fill in the seed's order: the last workout's matching set over the template's target; past it, the plan; each named")
    func autofillHasOneRule() throws {
        let (cli, _) = try AndrewsStrongHistory.imported()
        defer { cli.cleanUp() }
        let bench = try Self.lastWorkoutRows("Bench Press (Barbell)")
        let first = try #require(bench.first)
        #expect(first.weight != 135, "the plan and the last workout must differ for the test to mean anything")
        let beyond = bench.count + 1
        #expect(
            try cli.run([
                "template", "create", "Plan", "--exercise", "Bench Press (Barbell)", "--sets", "\(beyond)", "--reps", "5", "--weight", "135lb",
            ]).status == 0)
        let w = try #require(try cli.run(["workout", "start", "--template", "Plan", "--at", "now", "--json"]).json?["workoutId"] as? String)

        // Seed 002: last session > target values > empty. The first set is the last workout's first, not the plan's 135 × 5.
        let fill = try #require(try cli.run(["workout", "autofill", w, "Bench Press (Barbell)", "--json"]).json)
        #expect((fill["weightKg"] as? Double).map { abs($0 - first.weight * Self.poundsInKg) < 0.01 } == true, "\(fill) vs \(first)")
        #expect(fill["reps"] as? Int == Int(first.reps) && fill["source"] as? String == "lastWorkout" && fill["weightSource"] is NSNull)
        let words = try cli.run(["workout", "autofill", w, "Bench Press (Barbell)"]).stdout
        #expect(words.contains("\(first.weight.formatted) lb × \(Int(first.reps))") && words.contains("(from the last workout)"), "\(words)")

        // `workout complete` with no values records the plan, the target `workout show` lists.
        let show = try #require(try cli.run(["workout", "show", w, "--json"]).json)
        let planned = try #require((show["exercises"] as? [[String: Any]])?.first?["sets"] as? [[String: Any]])
        #expect(planned.count == beyond && planned.allSatisfy { ($0["weightKg"] as? Double).map { abs($0 - 135 * Self.poundsInKg) < 0.01 } == true })
        for set in planned.prefix(bench.count) {
            let id = try #require(set["setId"] as? String)
            #expect(try cli.run(["workout", "complete", w, String(id.prefix(8))]).status == 0)
        }
        // Past the sets done last time, the plan's target, named as the template's.
        let past = try #require(try cli.run(["workout", "autofill", w, "Bench Press (Barbell)", "--json"]).json)
        #expect((past["weightKg"] as? Double).map { abs($0 - 135 * Self.poundsInKg) < 0.01 } == true, "\(past)")
        #expect(past["reps"] as? Int == 5 && past["source"] as? String == "template", "\(past)")
        #expect(try cli.run(["workout", "autofill", w, "Bench Press (Barbell)"]).stdout.contains("135 lb × 5 (from the template's plan)"))
    }
}
