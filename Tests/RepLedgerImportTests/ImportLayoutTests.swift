import Foundation
import LedgerTestSupport
import RepLedgerProjections
import Testing

@testable import RepLedgerCore
@testable import RepLedgerImport

/// Layouts and rules met in lifters' real files, each on a fixture made in
/// that layout (`Fixtures/`).
@Suite("Import: more layouts, other languages, and never a real set dropped")
struct ImportLayoutTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    static func fixture(_ name: String) throws -> String {
        try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
    }

    /// The sets of one workout, per entry, in the order the entries were added.
    static func entries(_ t: MemoryLedger, _ workoutName: String) throws -> [(exercise: String, note: String?, sets: [WorkoutState.SetRecord])] {
        let log = try t.fold()
        let state = try #require(log.workouts.values.first { $0.name == workoutName })
        return state.entries.map { e in (e.exerciseId, e.note, state.sets.filter { $0.entryId == e.entryId }) }
    }

    @Test("Strong's semicolon layout with a unit on every row: kg and lb rows keep their own unit, no --unit needed")
    func strongUnitColumns() throws {
        let t = try MemoryLedger()
        let s = try t.importCSV(.strong, try Self.fixture("strong-semicolon-units.csv"))
        #expect(s.layout == "Strong with unit columns")
        #expect((s.workouts, s.sets, s.skipped.total) == (2, 9, 0))
        #expect((s.unit, s.unitSource, s.unitFlagIgnored) == (.kg, .rows, nil))
        let upper = try Self.entries(t, "Upper")
        #expect(upper.map(\.exercise) == ["barbell-bench-press", "lateral-raise", "running-treadmill"])
        #expect(upper[0].sets.map { $0.metrics.weight } == [Weight(40, .kg), Weight(80, .kg), Weight(82.5, .kg)])
        #expect(upper[1].sets.map { $0.metrics.weight } == [Weight(25, .lb), Weight(25, .lb)])
        #expect(upper[1].note == "slow negatives")
        #expect(upper[2].sets[0].metrics == SetMetrics(durationSeconds: 1500, distanceMeters: 3 * 1609.344))
        let lower = try Self.entries(t, "Lower")
        #expect(lower[1].sets[0].metrics == SetMetrics(durationSeconds: 480, distanceMeters: 2000))
        #expect(try t.history().first?.notes == "Early session")

        // --unit lb for a file that says its units is not used, and the summary says so.
        let again = try MemoryLedger()
        let withFlag = try again.importCSV(.strong, try Self.fixture("strong-semicolon-units.csv"), unit: .lb)
        #expect((withFlag.unitSource, withFlag.unitFlagIgnored) == (.rows, .lb))
        #expect(try Self.entries(again, "Upper")[0].sets[1].metrics.weight == Weight(80, .kg))
    }

    @Test("the unit-column layout with Workout Duration as well: the duration closes the workout")
    func strongUnitColumnsWithDuration() throws {
        let t = try MemoryLedger()
        let s = try t.importCSV(.strong, try Self.fixture("strong-semicolon-units-duration.csv"))
        #expect(s.layout == "Strong with unit columns and duration")
        #expect((s.workouts, s.sets, s.unit) == (1, 4, .lb))
        let w = try #require(try t.history().first)
        #expect(w.durationSeconds == Int64(52 * 60))
        let pull = try Self.entries(t, "Pull")
        #expect(pull[0].sets.map { $0.metrics.weight } == [Weight(315, .lb), Weight(335, .lb)])
        #expect(pull[0].sets[1].metrics.rpe == 9)
        #expect(pull.first { $0.exercise == "plank" }?.sets[0].metrics == SetMetrics(durationSeconds: 60))
    }

    @Test("FitNotes with unit columns and a trailing Comment: comments are set notes, unquoted commas kept in them")
    func fitnotesComment() throws {
        let t = try MemoryLedger()
        let s = try t.importCSV(.fitnotes, try Self.fixture("fitnotes-comment.csv"))
        #expect(s.layout == "FitNotes (Weight Unit column, Comment column)")
        #expect((s.workouts, s.sets, s.skipped.total, s.unitSource) == (2, 5, 0, .rows))
        let day = try Self.entries(t, "Chest & Cardio")
        let bench = try #require(day.first { $0.sets.count == 2 })
        #expect(bench.sets.map(\.notes) == [nil, "paused, felt strong"])
        let fly = try #require(day.first { $0.sets.first?.metrics.weight == Weight(35, .lb) })
        #expect(fly.sets[0].notes == "left shoulder clicked, go lighter")
        let run = try #require(day.first { $0.sets.first?.metrics.distanceMeters != nil })
        #expect(run.sets[0].metrics == SetMetrics(durationSeconds: 850, distanceMeters: 2500))
    }

    /// Each language's fixture: the layout's name, its sets, and its rest-timer marker read as a rest.
    static let languages: [(file: String, language: String, sets: Int, durationSeconds: Int64)] = [
        ("strong-english.csv", "English", 2, 25 * 60), ("strong-french.csv", "French", 3, 47 * 60),
        ("strong-german.csv", "German", 3, 31 * 60), ("strong-spanish.csv", "Spanish", 2, 65 * 60),
        ("strong-italian.csv", "Italian", 2, 50 * 60), ("strong-portuguese.csv", "Portuguese", 2, 44 * 60),
        ("strong-dutch.csv", "Dutch", 2, 38 * 60), ("strong-polish.csv", "Polish", 2, 41 * 60),
    ]

    @Test("localised Strong headers are read by meaning, with each language's rest-timer marker", arguments: languages.map(\.file))
    func localised(_ file: String) throws {
        let expected = try #require(Self.languages.first { $0.file == file })
        let t = try MemoryLedger()
        let s = try t.importCSV(.strong, try Self.fixture(file), unit: .kg)
        #expect(s.layout == "Strong 12-column" + (expected.language == "English" ? "" : ", \(expected.language) header"))
        #expect((s.workouts, s.sets, s.restFacts, s.skipped.total) == (1, expected.sets, 1, 0))
        let w = try #require(try t.history().first)
        #expect(w.durationSeconds == expected.durationSeconds)
        let state = try #require(try t.fold().workouts.values.first)
        #expect(state.rests.last?.plannedSeconds != nil)
        #expect(state.sets.allSatisfy { $0.metrics.reps != nil && $0.metrics.weight != nil })
    }

    @Test("German: Ruhezeit rows are rests, 31min a duration, a decimal comma a decimal")
    func german() throws {
        let t = try MemoryLedger()
        let s = try t.importCSV(.strong, try Self.fixture("strong-german.csv"), unit: .kg)
        #expect((s.sets, s.restFacts) == (3, 1))
        let w = try #require(try t.history().first)
        #expect(w.name == "Beintag")
        #expect(w.notes == "Knie gut")
        #expect(w.exercises[0].sets.map { $0.metrics.weight } == [Weight(92.5, .kg), Weight(92.5, .kg)])
        #expect(try t.fold().workouts.values.first?.rests.last?.plannedSeconds == 150)
    }

    @Test("an exercise in a second block is a second entry with every set and its own note; a workout written twice is skipped")
    func repeatedBlocksStrong() throws {
        let t = try MemoryLedger()
        let s = try t.importCSV(.strong, try Self.fixture("strong-repeated-blocks.csv"), unit: .kg)
        #expect((s.workouts, s.sets) == (2, 13))
        #expect(s.skipped.rows.map(\.line) == [15, 16, 17])
        #expect(Set(s.skipped.rows.map(\.reason)) == ["the workout is written again in the file (an export duplicate)"])
        let legs = try Self.entries(t, "Legs")
        #expect(legs.map(\.sets.count) == [4, 2, 1, 3])  // Hack Squat, Leg Curl, Leg Curl again (numbered from 1), Hack Squat again
        #expect(legs[0].exercise == legs[3].exercise)
        #expect(legs[1].exercise == legs[2].exercise)
        #expect(legs[3].note == "finisher")
        #expect(legs[3].sets.map { $0.metrics.reps } == [8, 8, 12])
        #expect(try Self.entries(t, "Push").map(\.sets.count) == [2, 1])
    }

    @Test("Hevy: 9 squat sets in two blocks stay 9, the second block's note kept; a block repeated verbatim is real")
    func repeatedBlocksHevy() throws {
        let t = try MemoryLedger()
        let s = try t.importCSV(.hevy, try Self.fixture("hevy-repeated-blocks.csv"))
        #expect((s.workouts, s.sets, s.skipped.total) == (1, 13, 0))
        let day = try Self.entries(t, "Leg day")
        let squat = day.filter { $0.exercise == "back-squat" }
        #expect(squat.map(\.sets.count) == [5, 4])
        #expect(squat.map(\.note) == ["top sets", "back-off, pause at the bottom"])
        let legExtension = day.filter { $0.exercise == day[2].exercise }
        #expect(legExtension.map(\.sets.count) == [2, 1])
    }

    @Test(
        "an impossible value refuses the file, naming its line and counting the rest, and appends nothing; --skip-unreadable leaves each such row out, reported with line and reason"
    )
    func impossibleValue() throws {
        let t = try MemoryLedger()
        let text = try Self.fixture("strong-impossible-value.csv")
        let before = try t.count()
        #expect {
            try t.importCSV(.strong, text, unit: .kg)
        } throws: { error in
            guard case ImportError.unreadableRows(3, let reason, 2) = error else { return false }
            return reason.contains("877777")
        }
        #expect(try t.count() == before)

        let s = try t.importCSV(.strong, text, unit: .kg, skipUnreadable: true)
        #expect((s.workouts, s.sets, s.rows) == (3, 4, 6))
        #expect(s.sets + s.skipped.total == s.rows)
        #expect(s.skipped.rows.map(\.line) == [3, 6])
        #expect(s.skipped.rows.allSatisfy { $0.refused })
        #expect(s.skipped.rows[0].reason.contains("reps 877777"))
        #expect(s.skipped.rows[1].reason.contains("date '2023-13-45 18:00:00'"))
        #expect(try t.history().map(\.sets) == [2, 1, 1])
    }

    @Test("times without seconds, as a spreadsheet re-saves them, read the same in every layout")
    func minutesOnly() throws {
        let t = try MemoryLedger()
        #expect(try t.importCSV(.strong, try Self.fixture("strong-minutes-only.csv"), unit: .kg).workouts == 2)
        #expect(try t.history().map(\.startedAt) == [.at("2022-10-04T23:17:00Z"), .at("2022-10-05T07:05:00Z")])
        let hevy = try MemoryLedger()
        #expect(try hevy.importCSV(.hevy, try Self.fixture("hevy-minutes-only.csv")).workouts == 1)
        #expect(try hevy.history().first?.durationSeconds == Int64(32 * 60))
        let fitnotes = try MemoryLedger()
        #expect(try fitnotes.importCSV(.fitnotes, try Self.fixture("fitnotes-minutes-only.csv")).workouts == 1)
        #expect(try fitnotes.history().first?.startedAt.isoDate == "2022-10-04")
        for text in [
            "2022-10-04 23:17", "2022-10-04T23:17", "2022-10-04 23:17:05", "2022-10-04 9:17", "2022/10/04 23:17",
            "2022-10-04 23:17:05.250", "4 Oct 2022, 23:17",
        ] {
            #expect(throws: Never.self) { try ImportValues.wallClock(text, line: 2, column: "date") }
        }
        for text in ["10/04/2022 23:17", "2022-10-04 23", "2022-10-04 23:17:5", "2022-02-30"] {
            #expect(throws: ImportError.self) { try ImportValues.wallClock(text, line: 2, column: "date") }
        }
    }

    @Test("an unknown header says what it lacks and lists every layout and language known")
    func refusalListsLayouts() throws {
        let t = try MemoryLedger()
        let header = "Datum,Workout-Name,Name der Übung,Gewicht,Wiederh."
        do {
            try t.importCSV(.strong, header + "\n2025-01-01 10:00:00,A,Squat,100,5\n", unit: .kg)
            Issue.record("the header lacks a set order column and was accepted")
        } catch let error as ImportError {
            let text = error.description
            #expect(text.contains("no column for Set Order"))
            #expect(text.contains("Date;Workout Name;Exercise Name;Set Order;Weight;Weight Unit;Reps"))
            for language in ExportLanguage.all { #expect(text.contains(language.name)) }
        }
    }

    @Test("headers are normalised: case, accents, punctuation and units in brackets")
    func headerWords() {
        #expect(ExportHeader.parts(of: "Weight (kg)") == ("weight", "kg"))
        #expect(ExportHeader.parts(of: " Wiederh. ") == ("wiederh", nil))
        #expect(ExportHeader.parts(of: "Nom de l'entraînement").word == "nom de l entrainement")
        #expect(ExportHeader.parts(of: "Kolejność serii").word == "kolejnosc serii")
        #expect(ExportHeader.parts(of: "Odległość").word == "odleglosc")
        #expect(ImportPlan.repeatPeriod(["a", "b", "a", "b"]) == 2)
        #expect(ImportPlan.repeatPeriod(["a", "b", "a"]) == nil)
        #expect(ImportPlan.repeatPeriod(["a", "a", "a"]) == 1)
        #expect(ImportPlan.repeatPeriod(["a", "b", "c", "a", "b"]) == nil)
        #expect(ImportPlan.repeatPeriod(["", ""]) == nil)
    }
}
