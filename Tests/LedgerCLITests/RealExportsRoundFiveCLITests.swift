import Foundation
import LedgerTestSupport
import Testing

/// What the files of `real-exports-5` showed beyond their counts: each was
/// refused or cut short before, and SOURCES.md names the lines.
@Suite("real exports, round five: the rows that were lost, by line", .serialized, .needsSharedData(.realExports5))
struct RealExportsRoundFiveCLITests {
    static func path(_ name: String) -> String { RealExports.fifthFolder.appendingPathComponent(name).path }

    static func workouts(_ cli: LedgerProcess, month: String) throws -> [[String: Any]] {
        try #require(try cli.run(["history", "--json", "--month", month]).json?["workouts"] as? [[String: Any]])
    }

    static func exercises(_ workout: [String: Any]) -> [[String: Any]] { workout["exercises"] as? [[String: Any]] ?? [] }

    /// The instant an ISO 8601 time names, whatever offset history writes it with.
    static func instant(_ value: Any?) -> Date? { (value as? String).flatMap { ISO8601DateFormatter().date(from: $0) } }

    static func at(_ iso: String) -> Date { ISO8601DateFormatter().date(from: iso)! }

    @Test("a workout written twice with two Durations (59h 15m and 1h 53m) is one workout of 13 sets that lasted 1 h 53 min")
    func copiesWithAnotherDuration() throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let out = try cli.run(["import", "strong", Self.path("strong_jannesantana_gymdata.csv"), "--unit", "kg", "--timezone", "UTC"])
        #expect(out.status == 0, "\(out.stderr)")
        // Lines 1729–1780: four copies of one workout, 13 sets each.
        let day = try Self.workouts(cli, month: "2023-10").filter { ($0["startedAt"] as? String ?? "").hasPrefix("2023-10-31") }
        #expect(day.count == 1)
        #expect(day.first?["sets"] as? Int == 13)
        #expect(day.first?["durationSeconds"] as? Int == 113 * 60)
    }

    @Test("Strong's Note rows are the note of the exercise they name, and count as notes, not skipped rows")
    func noteRows() throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let j = try #require(
            try cli.run(["import", "strong", Self.path("strong_joao-conde_fitness-tracker.csv"), "--timezone", "UTC", "--json"]).json)
        #expect(j["noteRows"] as? Int == 6)
        #expect((j["skippedRows"] as? [Any])?.isEmpty == true)
        // Line 7385: "Banco a 30°" on the incline press of 2024-02-23.
        let push = try #require(try Self.workouts(cli, month: "2024-02").first { ($0["startedAt"] as? String ?? "").hasPrefix("2024-02-23") })
        let incline = try #require(Self.exercises(push).first { $0["exercise"] as? String == "Incline Bench Press (Dumbbell)" })
        #expect(incline["note"] as? String == "Banco a 30°")
        #expect((incline["sets"] as? [Any])?.count == 4)
    }

    @Test("Spanish Strong: Rep. is the reps column, 1 h 46 min a duration, Temporizador de descanso a rest; every set matches")
    func spanishStrong() throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let j = try #require(
            try cli.run(["import", "strong", Self.path("strong_cuyakonwu_cuyakonwu-landing-page.csv"), "--unit", "lb", "--timezone", "UTC", "--json"])
                .json)
        #expect(j["layout"] as? String == "Strong 12-column, Spanish header")
        #expect(j["restPeriods"] as? Int == 389)
        #expect((j["unreadDurations"] as? [Any])?.isEmpty == true)
        #expect((j["ignoredColumns"] as? [Any])?.isEmpty == true)
    }

    @Test("Turkish Hevy dates (11 Nis 2026, 13:05) import whole: 975 workouts, none left out")
    func turkishHevy() throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let j = try #require(
            try cli.run([
                "import", "hevy", Self.path("hevy_canonat2326_Can-Onat-Yaren-DSA-210-Project.csv"), "--timezone", "Europe/Istanbul", "--json",
            ])
            .json)
        #expect(j["workouts"] as? Int == 975)
        #expect(j["sets"] as? Int == 19_627)
        // The first row, 11 Nis 2026, 13:05 in Istanbul, is 10:05 UTC.
        let april = try Self.workouts(cli, month: "2026-04")
        #expect(april.contains { Self.instant($0["startedAt"]) == Self.at("2026-04-11T10:05:00Z") })
    }

    @Test("a set with a load alone is a set: the sled back peddle pull keeps its 305 lb, and its supersets hold")
    func weightOnlySets() throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let j = try #require(try cli.run(["import", "hevy", Self.path("hevy_andyjwest_workouts.csv"), "--timezone", "UTC", "--json"]).json)
        #expect(j["sets"] as? Int == 1_732)
        let july = try #require(try Self.workouts(cli, month: "2025-07").first { ($0["startedAt"] as? String ?? "").hasPrefix("2025-07-02") })
        let sled = try #require(Self.exercises(july).first { $0["exercise"] as? String == "sled back peddle pull" })
        let kg = (sled["sets"] as? [[String: Any]] ?? []).compactMap { $0["weightKg"] as? Double }
        #expect(kg.map { ($0 / 0.45359237).rounded() } == [305, 305, 305, 280])
    }

    @Test("the newer FitNotes iOS layout: ISO times in UTC, RPE and notes kept, planned sets left out; without --unit it asks for one")
    func newerFitNotesIOS() throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let file = Self.path("fitnotes_melvinrdn_intervals-icu-fitnotes.csv")
        let asks = try cli.run(["import", "fitnotes", file, "--timezone", "Europe/Paris"])
        #expect(asks.status == 1)
        #expect(asks.stderr.contains("repeat with --unit kg or --unit lb"), "\(asks.stderr)")
        let j = try #require(try cli.run(["import", "fitnotes", file, "--unit", "kg", "--timezone", "Europe/Paris", "--json"]).json)
        #expect(j["layout"] as? String == "FitNotes iOS (ISO times in UTC, warm-up, RPE and notes)")
        #expect((j["workouts"] as? Int, j["sets"] as? Int) == (50, 804))
        // Line 2: Push from 2025-02-23T10:13:53Z to 11:08:47Z.
        let push = try #require(
            try Self.workouts(cli, month: "2025-02").first {
                $0["name"] as? String == "Push" && Self.instant($0["startedAt"]) == Self.at("2025-02-23T10:13:53Z")
            })
        #expect(Self.instant(push["finishedAt"]) == Self.at("2025-02-23T11:08:47Z"))
        var rpe = 0, notes: Set<String> = []
        for month in ["2025-02", "2025-03", "2025-04", "2025-05", "2025-06", "2025-07", "2025-08", "2025-09", "2025-10", "2025-11", "2025-12"]
            + ["2026-01", "2026-02", "2026-03", "2026-04", "2026-05"]
        {
            for w in try Self.workouts(cli, month: month) {
                for x in Self.exercises(w) {
                    for s in x["sets"] as? [[String: Any]] ?? [] {
                        if s["rpe"] as? Double != nil { rpe += 1 }
                        if let n = s["notes"] as? String { notes.insert(n) }
                    }
                }
            }
        }
        #expect(rpe == 210)
        #expect(notes.contains("Genou"))
    }
}
