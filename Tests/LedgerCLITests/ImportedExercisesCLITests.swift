import Foundation
import LedgerTestSupport
import Testing

/// Issue 52, point 7: an import joins the library where the library has the
/// exercise under another name, and `exercise merge` joins the rest by hand.
/// On a real Strong export (55 custom exercises before this), against the
/// test's own reading of the file.
@Suite("ledger import and exercise merge: imports join the library", .needsSharedData(.realExports))
struct ImportedExercisesCLITests {
    static let path = RealExports.folder.appendingPathComponent("strong_hipml_strong-unwrapped.csv").path

    /// The file's set rows of one exercise: (workout start, weight in lb).
    static func rows(of exercise: String) throws -> [(start: String, lb: Double)] {
        let records = RealExports.records(try String(contentsOfFile: path, encoding: .utf8), delimiter: ",")
        let header = try #require(records.first)
        let date = try #require(header.firstIndex(of: "Date")), name = try #require(header.firstIndex(of: "Exercise Name"))
        let weight = try #require(header.firstIndex(of: "Weight"))
        return records.dropFirst().filter { $0.count > weight && $0[name] == exercise }.map { ($0[date], Double($0[weight]) ?? 0) }
    }

    static let equipmentWords = ["barbell", "dumbbell", "machine", "cable", "band", "kettlebell", "smith machine", "ez bar"]

    @Test("Strong's names the library has otherwise join it, each with the equipment it names; the rest stay custom")
    func importMatchesByAliasAndEquipment() throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let summary = try #require(try cli.run(["import", "strong", Self.path, "--unit", "lb", "--timezone", "UTC", "--json"]).json)
        let matched = try #require(summary["matchedExercises"] as? [[String: String]])
        let pairs = Dictionary(uniqueKeysWithValues: matched.compactMap { m in m["name"].flatMap { n in m["exercise"].map { (n, $0) } } })
        #expect(pairs["Shrug (Dumbbell)"] == "Dumbbell Shrug")
        #expect(pairs["Sumo Deadlift (Barbell)"] == "Sumo Deadlift")
        let created = try #require(summary["newExercises"] as? [String])
        // "Assisted" is no equipment, and the library has no machine reverse fly: both stay the lifter's own.
        #expect(created.contains("Pull Up (Assisted)") && created.contains("Reverse Fly (Machine)"))
        #expect(created.count + matched.count == 55)
        #expect(Set(created).isDisjoint(with: pairs.keys))

        // Each match written "Name (Equipment)" is an exercise that uses that equipment.
        let library = try #require(try cli.run(["exercise", "list", "--all", "--json"]).json?["exercises"] as? [[String: Any]])
        var equipment: [String: [String]] = [:]
        for x in library { if let n = x["name"] as? String { equipment[n] = x["equipment"] as? [String] ?? [] } }
        for (name, exercise) in pairs {
            guard let open = name.lastIndex(of: "("), name.hasSuffix(")") else { continue }
            let written = name[name.index(after: open)..<name.index(before: name.endIndex)].lowercased()
            guard Self.equipmentWords.contains(written) else { continue }
            let uses = (equipment[exercise] ?? []).map { $0.lowercased() }
            #expect(uses.contains(written.replacingOccurrences(of: " ", with: "")), "\(name) → \(exercise) uses \(uses)")
        }

        // The file's name still finds it, and its sets are the library exercise's records.
        let history = try #require(try cli.run(["exercise", "history", "Shrug (Dumbbell)", "--json"]).json)
        #expect(history["exercise"] as? String == "Dumbbell Shrug")
        let shrugs = try Self.rows(of: "Shrug (Dumbbell)")
        let prs = try #require(try cli.run(["prs", "--json"]).json?["exercises"] as? [[String: Any]])
        let shrug = try #require(prs.first { $0["exercise"] as? String == "Dumbbell Shrug" })
        #expect(abs((shrug["heaviestKg"] as? Double ?? 0) - shrugs.map(\.lb).max()! * 0.45359237) < 0.01)
        #expect(!prs.contains { $0["exercise"] as? String == "Shrug (Dumbbell)" })
    }

    @Test(
        "exercise merge joins a custom exercise's history and records to the library's; before the merge they stay apart; bad merges append nothing")
    func mergeJoinsHistoryAndRecords() throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        #expect(try cli.run(["import", "strong", Self.path, "--unit", "lb", "--timezone", "UTC"]).status == 0)
        let flyes = try Self.rows(of: "Chest Fly")
        let before = try #require(try cli.run(["verify", "--json"]).json?["events"] as? Int)

        // Refused, one line each, nothing appended.
        for (args, words) in [
            (["Chest Fly", "chest fly"], "is that exercise already"),
            (["Chest Fly", "Plank"], "measured differently"),
            (["Chest Fly", "No Such Lift"], "no exercise named"),
        ] {
            let refused = try cli.run(["exercise", "merge"] + args)
            #expect(refused.status != 0 && refused.stderr.contains(words), "\(args): \(refused.stderr)")
            #expect(refused.stderr.split(separator: "\n").count == 1)
        }
        #expect(try cli.run(["verify", "--json"]).json?["events"] as? Int == before)

        let merged = try #require(try cli.run(["exercise", "merge", "Chest Fly", "Chest Fly (Dumbbell)", "--json"]).json)
        #expect(merged["setsJoined"] as? Int == flyes.count)
        #expect(merged["workoutsJoined"] as? Int == Set(flyes.map(\.start)).count)
        #expect(try cli.run(["exercise", "merge", "Chest Fly", "Chest Fly (Dumbbell)"]).stderr.contains("nothing to change"))

        // History and records are the joined ones: every workout of the file with a chest fly, its heaviest.
        let history = try #require(try cli.run(["exercise", "history", "Chest Fly (Dumbbell)", "--json"]).json)
        let entries = try #require(history["workouts"] as? [[String: Any]])
        #expect(entries.count == Set(flyes.map(\.start)).count)
        let prs = try #require(try cli.run(["prs", "--json"]).json?["exercises"] as? [[String: Any]])
        let fly = try #require(prs.first { $0["exercise"] as? String == "Chest Fly (Dumbbell)" })
        #expect(abs((fly["heaviestKg"] as? Double ?? 0) - flyes.map(\.lb).max()! * 0.45359237) < 0.01)
        #expect(!prs.contains { $0["exercise"] as? String == "Chest Fly" })
        // The old name finds the exercise it joined.
        let show = try #require(try cli.run(["exercise", "show", "Chest Fly", "--json"]).json)
        #expect(show["name"] as? String == "Chest Fly (Dumbbell)")

        // The log as of the position before the merge shows them apart: the sets' events are untouched.
        let asOf = try #require(try cli.run(["prs", "--as-of", "\(before)", "--json"]).json?["exercises"] as? [[String: Any]])
        #expect(asOf.contains { $0["exercise"] as? String == "Chest Fly" })
        #expect(!asOf.contains { $0["exercise"] as? String == "Chest Fly (Dumbbell)" })
        #expect(try cli.run(["verify", "--json"]).json?["ok"] as? Bool == true)
    }
}
