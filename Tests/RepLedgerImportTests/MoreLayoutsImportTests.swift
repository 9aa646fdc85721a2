import Foundation
import LedgerTestSupport
import RepLedgerProjections
import Testing

@testable import RepLedgerCore
@testable import RepLedgerImport

/// The layouts and quirks of `real-exports-more`, each on a small fixture:
/// US-locale Hevy dates, Chinese Strong headers, the FitNotes iOS layout, a
/// duration in words the importer does not know, identical blocks, and a
/// file none of whose rows can be imported.
@Suite("More layouts: US dates, Chinese, FitNotes iOS, unreadable durations, identical blocks")
struct MoreLayoutsImportTests {
    static func fixture(_ name: String) throws -> String { try ImportLayoutTests.fixture(name) }

    @Test("a US phone's Hevy export: 12-hour times, a workout across midnight keeps its 45 minutes")
    func hevyUSDates() throws {
        let t = try MemoryLedger()
        let s = try t.importCSV(.hevy, try Self.fixture("hevy-us-dates.csv"), zone: "America/New_York")
        #expect((s.workouts, s.sets, s.skipped.total) == (2, 4, 0))
        let rows = try t.history()
        #expect(rows.map(\.startedAt.iso8601) == ["2026-04-02T12:07:00-04:00", "2026-04-12T23:45:00-04:00"])
        #expect(rows.map(\.durationSeconds) == [55 * 60, 45 * 60])
        #expect(rows[1].exercises[0].sets.map(\.type) == [.normal, .failure])
    }

    @Test("a Chinese Strong header reads by meaning; 1小时29分钟 is a duration; kg-converted pounds keep their value")
    func chinese() throws {
        let t = try MemoryLedger()
        let s = try t.importCSV(.strong, try Self.fixture("strong-chinese.csv"), unit: .lb)
        #expect(s.layout == "Strong 12-column, Chinese header")
        #expect((s.workouts, s.sets, s.skipped.total, s.unreadDurations.count) == (2, 4, 0, 0))
        let rows = try t.history()
        #expect(rows.map(\.durationSeconds) == [89 * 60, 45 * 60])
        #expect(rows[0].notes == "星期二")
        #expect(rows[0].exercises.map(\.note) == [nil, "窄握"])
        // 176.36980974790205 lb is 80 kg as the app stored it: kept as 176.37 lb, within a gram of 80 kg.
        let squat = try #require(rows[0].exercises[0].sets.first?.weightKg)
        #expect(abs(squat - 80) < 0.001)
        #expect(rows[1].exercises[0].sets[0].metrics == SetMetrics(durationSeconds: 60))
    }

    @Test("the FitNotes iOS layout: UTC times into the lifter's zone, decimal commas, Failed sets kept, planned ones not")
    func fitnotesIOS() throws {
        let t = try MemoryLedger()
        let s = try t.importCSV(.fitnotes, try Self.fixture("fitnotes-ios.csv"), unit: .kg, zone: "Europe/Paris")
        #expect(s.layout == "FitNotes iOS (times in UTC)")
        #expect((s.workouts, s.sets) == (2, 4))
        #expect(s.skipped.rows.map(\.line) == [5])
        #expect(s.skipped.byReason == ["a planned set never done (status NotStarted)": 1])
        #expect(s.ignoredColumns == ["BodyWeight", "Equipment"])
        let rows = try t.history()
        // 11:45:45 PM UTC is 00:45:45 in Paris the next day; the end 12:27:20 AM UTC closes it 41 min 35 s later.
        #expect(rows[0].startedAt.iso8601 == "2018-01-28T00:45:45+01:00")
        #expect(rows[0].durationSeconds == Int64(41 * 60 + 35))
        #expect(rows[0].name == "Greyskulls A")
        let row = try #require(rows[0].exercises.first)
        #expect(row.sets.map(\.type) == [.normal, .normal, .failure])  // identical rows are real sets: no set numbers
        #expect(row.sets.map { $0.metrics.weight } == [Weight(40.82, .kg), Weight(40.82, .kg), Weight(45, .kg)])
        #expect(rows[1].exercises[0].sets[0].metrics == SetMetrics(durationSeconds: 24 * 60 + 30, distanceMeters: 3080))
        // Given as Strong, it is told what it is.
        #expect(throws: ImportError.wrongSource(named: "Strong", looksLike: "fitnotes")) {
            try MemoryLedger().importCSV(.strong, try Self.fixture("fitnotes-ios.csv"), unit: .kg)
        }
    }

    @Test("a duration in words the importer does not know costs the workout its end, not its sets, and is reported")
    func unreadableDuration() throws {
        let t = try MemoryLedger()
        let s = try t.importCSV(.strong, try Self.fixture("strong-unreadable-duration.csv"), unit: .kg)
        #expect((s.workouts, s.sets, s.skipped.total) == (2, 3, 0))
        #expect(s.unreadDurations.map(\.line) == [2])
        #expect(s.unreadDurations.first?.reason.contains("duration '1 ч 29 мин'") == true)
        #expect(s.unreadDurations.first?.reason.hasSuffix("the workout's end is left unknown") == true)
        #expect(try t.history().map(\.durationSeconds) == [0, 45 * 60])
    }

    @Test("two identical blocks of one exercise are real sets; a run of several exercises written twice is still a duplicate")
    func identicalBlocks() throws {
        let t = try MemoryLedger()
        let s = try t.importCSV(.hevy, try Self.fixture("hevy-identical-blocks.csv"))
        #expect((s.workouts, s.sets, s.skipped.total) == (1, 4, 0))
        #expect(try t.history()[0].exercises.map(\.sets.count) == [2, 2])
        #expect(ImportPlan.repeatPeriod(["a", "b", "a", "b"]) == 2)
    }

    @Test("a refusal's example headers are the ones real files have: the unit-column layout's duration comes last")
    func refusalExamplesAreReal() throws {
        let t = try MemoryLedger()
        do {
            try t.importCSV(.strong, "Datum,Name der Übung,Gewicht\n2025-01-01 10:00:00,Squat,100\n", unit: .kg)
            Issue.record("a header without a workout name or set order was accepted")
        } catch let error as ImportError {
            let real =
                "Date;Workout Name;Exercise Name;Set Order;Weight;Weight Unit;Reps;RPE;Distance;Distance Unit;Seconds;Notes;Workout Notes;Workout Duration"
            #expect(error.description.contains(real))
            #expect(!error.description.contains("Workout Name;Workout Duration"))
            #expect(error.description.contains("Chinese"))
        }
        // Both delimiters of that layout are one layout.
        let comma = try t.importCSV(
            .strong,
            "Date,Workout Name,Exercise Name,Set Order,Weight,Weight Unit,Reps,RPE,Distance,Distance Unit,Seconds,Notes,Workout Notes,Workout Duration\n"
                + "2021-12-09 18:00:00,3. Legs,Squat (Barbell),1,135,lbs,5,,,,0,,,31m\n")
        #expect(comma.layout == "Strong with unit columns and duration")
    }

    @Test("a file none of whose rows can be imported is refused, naming the commonest reasons once each; nothing appended")
    func nothingImported() throws {
        let t = try MemoryLedger()
        let before = try t.count()
        var csv =
            "title,start_time,end_time,description,exercise_title,superset_id,exercise_notes,set_index,set_type,weight_kg,reps,distance_km,duration_seconds,rpe\n"
        for day in 1...40 { csv += "\"A\",\"Day \(day) of April\",\"\",\"\",\"Squat (Barbell)\",,\"\",0,\"normal\",100,5,,,\n" }
        csv += "\"A\",\"12 Apr 2026, 10:00\",\"\",\"\",\"Squat (Barbell)\",,\"\",0,\"normal\",100,5000,,,\n"
        do {
            try t.importCSV(.hevy, csv)
            Issue.record("a file with nothing importable was taken")
        } catch let error as ImportError {
            guard case .nothingImported(let rows, let reasons) = error else { Issue.record("\(error)"); return }
            #expect(rows == 41)
            #expect(reasons.map(\.count) == [40, 1])
            #expect(reasons.first?.reason.hasPrefix("start_time is not a date and time such as") == true)
            #expect(reasons.last?.reason == "reps out of range (0 to 1000)")
            #expect(error.description.hasPrefix("none of the file's 41 rows could be imported (40 × start_time is not a date"))
            #expect(!error.description.contains("\n"))
        }
        #expect(try t.count() == before)
        // With one good row, the file is refused for the rest, naming the first and counting them; with
        // --skip-unreadable they are reported by kind of reason, not by each bad value.
        let withGood = csv + "\"B\",\"13 Apr 2026, 10:00\",\"\",\"\",\"Squat (Barbell)\",,\"\",0,\"normal\",100,5,,,\n"
        #expect {
            try t.importCSV(.hevy, withGood)
        } throws: { error in
            guard case ImportError.unreadableRows(2, let reason, 41) = error else { return false }
            return reason.contains("'Day 1 of April'")
        }
        #expect(try t.count() == before)
        let partial = try t.importCSV(.hevy, withGood, skipUnreadable: true)
        #expect(partial.workouts == 1)
        #expect(partial.skipped.byReason.count == 2)
        #expect(partial.skipped.rows.count == 41)
        #expect(partial.skipped.rows[0].reason.contains("'Day 1 of April'"))
    }
}
