import Foundation
import LedgerTestSupport
import Testing

/// A ledger holding Andrew50's real Strong history (in lb), which several
/// suites build on, and the heaviest weight of its last bench workout, read
/// from the file.
enum AndrewsStrongHistory {
    static func imported() throws -> (cli: LedgerProcess, benchLb: Double) {
        let cli = try LedgerProcess()
        #expect(try cli.run(["import", "strong", PlansMeanWhatTheySayCLITests.file, "--unit", "lb", "--timezone", "UTC"]).status == 0)
        let weight = try #require(try PlansMeanWhatTheySayCLITests.lastWorkoutRows("Bench Press (Barbell)").map(\.weight).max())
        return (cli, weight)
    }

    /// Imported, with a template planning 3 bench sets of 8-12.
    static func withBenchTemplate() throws -> (cli: LedgerProcess, benchLb: Double) {
        let (cli, weight) = try imported()
        #expect(
            try cli.run(["template", "create", "Bench 8-12", "--exercise", "Bench Press (Barbell)", "--sets", "3", "--reps", "8-12"]).status == 0)
        return (cli, weight)
    }

    /// Imported, with a questionnaire answered for a full gym, 3 days of 60 minutes (a program not yet generated).
    static func withQuestionnaire() throws -> (cli: LedgerProcess, benchLb: Double) {
        let (cli, weight) = try imported()
        #expect(
            try cli.run([
                "program", "questionnaire", "--days", "3", "--minutes", "60", "--experience", "intermediate", "--equipment", "barbell",
                "--equipment", "dumbbell", "--equipment", "cable", "--equipment", "machine", "--equipment", "bench",
            ]).status == 0)
        return (cli, weight)
    }
}
