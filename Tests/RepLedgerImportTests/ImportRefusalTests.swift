import Foundation
import LedgerTestSupport
import RepLedgerProjections
import Testing

@testable import RepLedgerCore
@testable import RepLedgerImport

@Suite("Import refusals, idempotency and time zones")
struct ImportRefusalTests {
    static let legacyHeader = "Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,Notes,Workout Notes,RPE"

    static func day(_ date: String, _ name: String, weight: Double = 100) -> String {
        "\(date) 18:00:00,\"\(name)\",1h,\"Deadlift (Barbell)\",1,\(weight),5,0,0,\"\",\"\",\n"
    }

    @Test("an unknown header is refused naming the expected layouts; nothing is appended")
    func unknownHeader() throws {
        let t = try MemoryLedger()
        let before = try t.count()
        #expect {
            try t.importCSV(.strong, "When,What,Kilos\n2026-01-01,Squat,100\n")
        } throws: { error in
            guard case ImportError.unknownHeader(_, let found, let expected, _) = error else { return false }
            return found == ["When", "What", "Kilos"] && expected.contains(Self.legacyHeader)
        }
        #expect(try t.count() == before)
    }

    @Test("a header cell holding a line break (a quote left open) is quoted on one line in the refusal")
    func headerOnOneLine() throws {
        let t = try MemoryLedger()
        let csv = "Date,\"Workout\nTitle\",Exercise Name,Set Order,Weight,Reps\n2026-01-05 18:00:00,A,Squat,1,100,5\n"
        #expect {
            try t.importCSV(.strong, csv, unit: .kg)
        } throws: { error in
            guard let e = error as? ImportError, case .unknownHeader = e else { return false }
            return e.description.contains("(Date,Workout\\nTitle,Exercise Name") && !e.description.contains(where: \.isNewline)
        }
    }

    @Test("Strong 2016 named by its unit columns: lb and mi without notes, kg and km with them")
    func layout2016Names() throws {
        let lb = try MemoryLedger().importCSV(
            .strong, "Date,Workout Name,Exercise Name,Set Order,lb,Reps,mi,Seconds\r\n2016-09-05 18:00:00,A,Squat,1,135.0,5,0.0,0\r\n")
        #expect(lb.layout == "Strong 2016 (lb and mi columns, no notes)")
        #expect(lb.unit == .lb)
        let kg = try MemoryLedger().importCSV(
            .strong, "Date,Workout Name,Exercise Name,Set Order,kg,Reps,km,Seconds,Notes\n2016-09-05 18:00:00,A,Squat,0,60.0,5,0.0,0,\n")
        #expect(kg.layout == "Strong 2016 (kg and km columns)")
    }

    @Test("a file that does not state its unit needs --unit; a Hevy file given as Strong says so")
    func unitAndSource() throws {
        let t = try MemoryLedger()
        #expect(throws: ImportError.unitRequired(source: "Strong")) {
            try t.importCSV(.strong, Self.legacyHeader + "\n" + Self.day("2026-01-05", "A"))
        }
        #expect(throws: ImportError.wrongSource(named: "Strong", looksLike: "hevy")) {
            try t.importCSV(.strong, HevyFitNotesImportTests.hevy)
        }
        #expect(try t.count() == Int64(Ledger.seedEvents.count))
    }

    @Test("a malformed row names its physical line, counting newlines inside quotes, and nothing lands")
    func malformedRow() throws {
        let t = try MemoryLedger()
        let csv =
            Self.legacyHeader + "\n"
            + "2026-01-05 18:00:00,\"A\",1h,\"Deadlift (Barbell)\",1,100,5,0,0,\"\",\"two\nlines\",\n"
            + "2026-01-05 18:00:00,\"A\",1h,\"Deadlift (Barbell)\",2,100,five,0,0,\"\",\"\",\n"
        let before = try t.count()
        #expect(throws: ImportError.unreadableRows(line: 4, reason: "reps 'five' is not a number", count: 1)) {
            try t.importCSV(.strong, csv, unit: .kg)
        }
        let bad =
            Self.legacyHeader + "\n" + Self.day("2026-01-05", "A") + "2026-01-06 18:00:00,\"B\",1h,\"Deadlift (Barbell)\",1,5000,5,0,0,\"\",\"\",\n"
        #expect {
            try t.importCSV(.strong, bad, unit: .kg)
        } throws: { error in
            guard case ImportError.unreadableRows(3, let reason, 1) = error else { return false }
            return reason.contains("1000 kg")
        }
        #expect(try t.count() == before)
        // With --skip-unreadable the same rows are left out, each with its line and reason, and the rest lands.
        let lenient = try t.importCSV(.strong, csv, unit: .kg, skipUnreadable: true)
        #expect(lenient.skipped.rows == [SkippedRow(line: 4, reason: "reps 'five' is not a number", refused: true)])
        #expect(lenient.sets == 1)
    }

    @Test("the same file twice appends nothing; a newer export adds only the workouts the ledger lacks")
    func idempotent() throws {
        let t = try MemoryLedger()
        let older = Self.legacyHeader + "\n" + Self.day("2026-01-05", "A") + Self.day("2026-01-07", "B")
        let first = try t.importCSV(.strong, older, unit: .kg)
        #expect((first.workouts, first.alreadyImported) == (2, false))
        let count = try t.count()
        let again = try t.importCSV(.strong, older, unit: .kg)
        #expect((again.workouts, again.alreadyImported) == (0, true))
        #expect(try t.count() == count)
        let newer = older + Self.day("2026-01-09", "A", weight: 110)
        let more = try t.importCSV(.strong, newer, unit: .kg)
        #expect((more.workouts, more.workoutsAlreadyPresent, more.alreadyImported) == (1, 2, false))
        #expect(try t.history().map(\.name) == ["A", "B", "A"])
        #expect(try t.importCSV(.strong, newer, unit: .kg).alreadyImported)
        // Imported events name their batch as causation and carry the file's time as occurredAt.
        var batchEvents = 0
        try t.store.read(EventQuery(stream: .workout(try #require(try t.history().last?.workoutId)))) { e in
            #expect(e.causationId == more.batchId)
            #expect(e.occurredAt.isoDate == "2026-01-09")
            batchEvents += 1
        }
        #expect(batchEvents > 0)
    }

    @Test("wall-clock times are read in the given zone, daylight saving included")
    func timeZones() throws {
        let t = try MemoryLedger()
        let csv = Self.legacyHeader + "\n" + Self.day("2026-01-05", "Winter") + Self.day("2026-07-06", "Summer")
        try t.importCSV(.strong, csv, unit: .kg, zone: "Europe/Paris")
        let rows = try t.history()
        #expect(rows.map(\.startedAt.iso8601) == ["2026-01-05T18:00:00+01:00", "2026-07-06T18:00:00+02:00"])
        // The same workouts read in another zone (from a re-saved file) are still the same workouts: nothing new.
        let again = try t.importCSV(.strong, csv + "\n", unit: .kg, zone: "UTC")
        #expect((again.workouts, again.workoutsAlreadyPresent) == (0, 2))
        #expect(throws: ImportError.invalidTimeZone("Mars/Olympus")) { try ImportTimeZone(parsing: "Mars/Olympus") }
        #expect(try ImportTimeZone(parsing: "-05:30").name == "-05:30")
    }

    @Test("the float-noise and duration rules")
    func values() throws {
        #expect(ImportValues.weight(74.99999999999999, .lb) == Weight(75, .lb))
        #expect(ImportValues.weight(6.80388555, .kg) == Weight(15, .lb))
        #expect(ImportValues.weight(11.34, .kg) == Weight(11.34, .kg))  // rounded by the app, not an exact conversion
        #expect(ImportValues.weight(71.32500457763672, .kg) == Weight(71.325, .kg))
        for (text, seconds) in [("1h 38m", 5880.0), ("55m", 3300), ("1h", 3600), ("20s", 20), ("9min", 540), ("0:09:21", 561), ("3324", 3324)] {
            #expect(try ImportValues.duration(text, line: 2) == seconds)
        }
        #expect(throws: ImportError.self) { try ImportValues.duration("2 fortnights", line: 7) }
    }
}
