import Foundation
import LedgerTestSupport
import Testing

/// A ledger holding Andrew50's real Strong history (in lb), which several
/// suites build on, and the heaviest weight of its last bench workout, read
/// from the file.
enum AndrewsStrongHistory {
    /// The history imported once a test run, and its last bench weight: some twenty tests start from it, and
    /// importing its 21,900 rows with a debug build costs seconds each time. Removed when the run ends.
    private static let template: Result<(folder: URL, benchLb: Double), TemplateFailure> = {
        do {
            let cli = try LedgerProcess()
            let imported = try cli.run(["import", "strong", PlansMeanWhatTheySayCLITests.file, "--unit", "lb", "--timezone", "UTC"])
            guard imported.status == 0 else { return .failure(TemplateFailure(why: imported.stderr)) }
            guard let weight = try PlansMeanWhatTheySayCLITests.lastWorkoutRows("Bench Press (Barbell)").map(\.weight).max() else {
                return .failure(TemplateFailure(why: "the file has no bench workout"))
            }
            atexit { if case .success(let made) = AndrewsStrongHistory.template { try? FileManager.default.removeItem(at: made.folder) } }
            return .success((cli.folder, weight))
        } catch {
            return .failure(TemplateFailure(why: "\(error)"))
        }
    }()

    struct TemplateFailure: Error, CustomStringConvertible {
        var why: String
        var description: String { "importing Andrew50's history failed: \(why)" }
    }

    /// A ledger of its own holding the history (a copy of the one imported once), and the last bench weight.
    static func imported() throws -> (cli: LedgerProcess, benchLb: Double) {
        let (folder, weight) = try template.get()
        let cli = try LedgerProcess()
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            try FileManager.default.copyItem(at: folder.appendingPathComponent(name), to: cli.folder.appendingPathComponent(name))
        }
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
