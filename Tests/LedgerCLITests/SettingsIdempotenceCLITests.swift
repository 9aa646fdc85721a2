import Foundation
import LedgerTestSupport
import Testing

/// A set-up script run twice: a setting given the value it already has
/// exits 0, says so, and appends nothing; a real change still appends.
@Suite("settings are idempotent")
struct SettingsIdempotenceCLITests {
    @Test(
        "the same value again: exit 0, said so, nothing appended",
        arguments: [
            ([["settings", "unit", "lb"]], ["settings", "unit", "lb"], "Lifting unit is already lb"),
            ([["settings", "unit", "st"]], ["settings", "unit", "st"], "Bodyweight shows in stone and pounds; nothing to change"),
            ([["settings", "bodyweight", "lb"]], ["settings", "bodyweight", "lb"], "Bodyweight already shows in lb"),
            ([], ["settings", "distance", "km"], "Distances already show in km"),
            ([["settings", "distance", "mi"]], ["settings", "distance", "mi"], "Distances already show in miles"),
            ([], ["settings", "effort", "rpe"], "Effort already shows as RPE"),
            ([["settings", "effort", "rir"]], ["settings", "effort", "rir"], "Effort already shows as reps in reserve"),
            ([], ["settings", "rest", "90s"], "Already so: Rest 1:30"),
            ([["settings", "rest", "--auto", "on"]], ["settings", "rest", "--auto", "on"], "Already so: Rest 1:30 between sets; auto-start on"),
            ([["settings", "rest", "2m", "--auto", "on"]], ["settings", "rest", "2m", "--auto", "on"], "Already so: Rest 2:00"),
            ([["settings", "rest", "3m", "--exercise", "squat"]], ["settings", "rest", "3m", "--exercise", "squat"], "Already so: Rest"),
            ([], ["settings", "plates", "--default"], "Already so: Default: a 20 kg bar"),
            (
                [["settings", "plates", "--bar", "15kg", "--plates", "20,10,5"]], ["settings", "plates", "--bar", "15kg", "--plates", "5,10,20"],
                "Already so: a 15 kg bar; plates 20, 10, 5 kg"
            ),
        ])
    func sameAgain(setup: [[String]], args: [String], words: String) throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        #expect(try cli.run(["workout", "start"]).status == 0)
        for step in setup { #expect(try cli.run(step).status == 0, "\(step)") }
        let before = try cli.eventCount()
        let again = try cli.run(args)
        #expect(again.status == 0 && again.stderr.isEmpty, "\(again.stderr)")
        #expect(again.stdout.contains(words), "\(again.stdout)")
        let json = try cli.run(args + ["--json"])
        #expect(json.status == 0 && json.json?["changed"] as? Bool == false, "\(json.stdout)")
        #expect(try cli.eventCount() == before, "appended on the same value again")
    }

    @Test("a first choice of the unit already shown is recorded, so a later import in pounds keeps kilograms")
    func firstChoiceCounts() throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        #expect(try cli.run(["workout", "start"]).status == 0)
        let before = try cli.eventCount()
        let chosen = try cli.run(["settings", "unit", "kg", "--json"])
        #expect(chosen.status == 0 && chosen.json?["changed"] as? Bool == true, "\(chosen.stdout)")
        #expect(try cli.eventCount() == before + 1)
        let file = cli.folder.appendingPathComponent("pounds.csv")
        try "Date,Workout Name,Exercise Name,Set Order,Weight,Reps\n2024-01-02 10:00:00,A,Bench,1,225,5\n"
            .write(to: file, atomically: true, encoding: .utf8)
        let imported = try cli.run(["import", "strong", file.path, "--unit", "lb", "--json"])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(try cli.run(["settings", "unit", "kg"]).stdout.contains("already kg"))
    }

    @Test("a real change in part: the rest's length changes, the switch already on is kept, one event")
    func partChange() throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        #expect(try cli.run(["settings", "rest", "--auto", "on"]).status == 0)
        let before = try cli.eventCount()
        let changed = try cli.run(["settings", "rest", "2m", "--auto", "on", "--json"])
        #expect(changed.status == 0 && changed.json?["changed"] as? Bool == true && changed.json?["restSeconds"] as? Int == 120, "\(changed.stdout)")
        #expect(try cli.eventCount() == before + 1)
    }
}
