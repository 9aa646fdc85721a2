import Foundation
import LedgerTestSupport
import Testing

/// Issue 77, item 2: seed 001's generator by default, a coach's strength block by choice, each program saying which
/// made it; and seed 001's goal table for explosive lifts.
@Suite("ledger program generate --style")
struct StrengthBlockCLITests {
    @Test("--style strength-block: heavy main lifts once a week, days within their minutes; show names the style; a bad style appends nothing")
    func strengthBlock() throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        #expect(
            try cli.run([
                "program", "questionnaire", "--days", "4", "--minutes", "60", "--experience", "intermediate", "--goal", "strength",
                "--equipment", "full-gym", "--at", "2026-11-30T08:00:00Z",
            ]).status == 0)
        let before = try cli.eventCount()
        let refused = try cli.run(["program", "generate", "--style", "strength", "--json"])
        #expect(refused.status == 1 && refused.stderr.contains("seed, strength-block"), "\(refused.stderr)")
        #expect(try cli.eventCount() == before)

        let block = try cli.json(["program", "generate", "--style", "strength-block", "--seed", "7", "--at", "2026-11-30T08:01:00Z"])
        #expect(block["style"] as? String == "strength-block" && block["sessionMinutes"] as? Int == 60)
        let days = try #require(block["sessions"] as? [[String: Any]])
        let lines = days.flatMap { ($0["exercises"] as? [[String: Any]]) ?? [] }
        let heavy = lines.filter { $0["repsMin"] as? Int == 3 && $0["repsMax"] as? Int == 5 }
        #expect(
            Set(heavy.compactMap { $0["name"] as? String })
                == ["Squat (Barbell)", "Deadlift (Barbell)", "Bench Press (Barbell)", "Overhead Press (Barbell)"], "\(heavy)")
        #expect(heavy.allSatisfy { ($0["restSeconds"] as? Int ?? 0) >= 180 })
        #expect(days.allSatisfy { ($0["minutes"] as? Int ?? 99) <= 60 }, "\(days.map { $0["minutes"] as? Int ?? -1 })")
        let shown = try cli.run(["program", "show"]).stdout
        #expect(shown.contains("A strength block:") && shown.contains("4 × 3–5"), "\(shown)")

        // The default stays seed 001's, and says its rep ranges are drawn per exercise.
        let seed = try cli.json(["program", "generate", "--seed", "7", "--at", "2026-11-30T08:02:00Z"])
        #expect(seed["style"] as? String == "seed")
        let seedLines = (seed["sessions"] as? [[String: Any]] ?? []).flatMap { ($0["exercises"] as? [[String: Any]]) ?? [] }
        #expect(seedLines.allSatisfy { $0["sets"] as? Int == 3 })
        #expect(try cli.run(["program", "show"]).stdout.contains("rep ranges drawn per exercise"))
        // The strength block is still live, still itself.
        let list = try cli.json(["program", "list"])
        #expect((list["programs"] as? [[String: Any]])?.count == 2)
    }
}
