import Foundation
import LedgerTestSupport
import Testing

/// Issue 45, row 2: the seeds' own words. The traffic light speaks in the
/// rules document's headline and explanation and the web logger's one line,
/// beside DOMAIN.md's title and message; the questionnaire explains each
/// split in the seed's words, read from split_templates.json; the
/// equipment and repeat warnings use the seed's sentences. On a real Strong
/// history (Andrew50's): the workouts are logged at its last bench weight.
@Suite("ledger prompt, summary and programs: the seeds' own words", .needsSharedData(.realExports))
struct SeedWordsCLITests {
    static let splitFile = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/RepLedgerCore/Programs/split_templates.json")

    /// Each outcome of the rules document, with the reps its examples give for 8-12.
    static let outcomes: [(reps: [Int], kind: String, headline: String, explanation: String, line: String)] = [
        (
            [7, 10, 10], "regression", "⚠️ Form check needed - reduce weight", "Your first 2 sets fell below the target range",
            "Great effort! Try a lighter weight next time"
        ),
        (
            [12, 12, 10], "progression", "💪 Ready to progress - increase weight next session",
            "First 2 sets at/above max, 3rd set in range", "Excellent! Time to increase weight"
        ),
        (
            [12, 12, 7], "consistency", "🎯 Great consistency - maintain and push on 3rd set", "Strong start but 3rd set fell short",
            "Great start! Push harder on the last set"
        ),
        (
            [10, 9, 8], "consistency", "🎯 Great work - maintain this weight", "Everything within target range or mixed results",
            "You're doing great! Keep it up"
        ),
    ]

    @Test("prompt and summary carry the headline, the explanation and the one line of each outcome, in text and JSON")
    func promptWords() throws {
        let (cli, weight) = try AndrewsStrongHistory.withBenchTemplate()
        defer { cli.cleanUp() }
        for o in Self.outcomes {
            let w = try #require(
                try cli.run(["workout", "start", "--template", "Bench 8-12", "--at", "now", "--json"]).json?["workoutId"] as? String)
            for r in o.reps {
                #expect(try cli.run(["workout", "log", w, "bench", "--reps", "\(r)", "--weight", "\(weight)lb"]).status == 0)
            }
            let json = try #require(try cli.run(["prompt", w, "bench", "--json"]).json)
            #expect(json["prompt"] as? String == o.kind)
            #expect(json["headline"] as? String == o.headline)
            #expect(json["explanation"] as? String == o.explanation)
            #expect(json["line"] as? String == o.line)
            #expect(json["reps"] as? [Int] == o.reps)
            #expect(json["range"] as? String == "8-12")
            let text = try cli.run(["prompt", w, "bench"]).stdout
            #expect(text.contains(o.headline) && text.contains(o.explanation), "\(text)")
            let summary = try #require(try cli.run(["workout", "summary", w, "--json"]).json?["exercises"] as? [[String: Any]])
            #expect(summary.first?["promptLine"] as? String == o.line)
            #expect(summary.first?["promptExplanation"] as? String == o.explanation)
            #expect(try cli.run(["workout", "summary", w]).stdout.contains(o.line))
            #expect(try cli.run(["workout", "finish", w, "--at", "now"]).status == 0)
        }
    }

    @Test("the questionnaire explains every split in the file's words, and a generated week has the file's sessions")
    func splitWords() throws {
        let file = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: Self.splitFile)) as? [String: Any])
        let splits = try #require(file["splits"] as? [[String: Any]])
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        for days in 1...6 {
            let answer = try #require(
                try cli.run(["program", "questionnaire", "--days", "\(days)", "--minutes", "60", "--experience", "intermediate", "--json"]).json)
            let options = try #require(answer["options"] as? [[String: Any]])
            let inFile = splits.filter { $0["days"] as? Int == days }
            #expect(Set(options.compactMap { $0["split"] as? String }) == Set(inFile.compactMap { $0["name"] as? String }))
            for o in options {
                let entry = try #require(inFile.first { $0["name"] as? String == o["split"] as? String })
                #expect(o["message"] as? String == entry["explanation"] as? String)
            }
            let recommended = try #require((answer["recommended"] as? [String])?.first)
            #expect(try cli.run(["program", "generate"]).status == 0)
            let week = try #require(try cli.run(["program", "show", "--json"]).json)
            let entry = try #require(splits.first { $0["name"] as? String == recommended })
            let names = try #require(entry["sessions"] as? [[String: Any]]).compactMap { $0["name"] as? String }
            #expect((week["sessions"] as? [[String: Any]])?.compactMap { $0["name"] as? String } == names)
        }
    }

    @Test("with only a band, the seed's limited-equipment warning, a notice naming each short muscle, and a repeat in the seed's words")
    func equipmentWords() throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let answer = try #require(
            try cli.run([
                "program", "questionnaire", "--days", "6", "--minutes", "90", "--experience", "complete-beginner", "--equipment", "band", "--json",
            ])
            .json)
        let warnings = try #require(answer["warnings"] as? [[String: Any]])
        // Seed 001 §5.1's pre-generation warning, word for word, with its two actions.
        let limited = try #require(warnings.first { $0["code"] as? String == "limitedEquipment" })
        #expect(limited["title"] as? String == "Limited Equipment")
        #expect(
            limited["message"] as? String
                == "Selecting only one equipment type may limit your exercise variety and program effectiveness. For the best results, we recommend adding at least one more equipment category."
        )
        #expect(limited["actions"] as? [String] == ["Add More Equipment", "Continue Anyway"])
        // The project's own notice beside it names each short muscle.
        let warning = try #require(warnings.first { $0["code"] as? String == "fewExercises" })
        let message = try #require(warning["message"] as? String)
        let sentence = /(No exercises available for [a-zA-Z]+\. Check your equipment selection\.|Only found (\d+) of (\d+) exercises for [a-zA-Z]+\.)/
        let sentences = message.matches(of: sentence)
        #expect(!sentences.isEmpty && sentences.map { String($0.output.0) }.joined(separator: " ") == message, "\(message)")
        for s in sentences {
            if let found = s.output.2.flatMap({ Int($0) }), let needed = s.output.3.flatMap({ Int($0) }) { #expect(found < needed) }
        }
        #expect(try cli.run(["program", "generate"]).status == 0)
        let week = try #require(try cli.run(["program", "show", "--json"]).json)
        #expect(week["repeatWarning"] as? Bool == true)
        let repeatWarning = (week["warnings"] as? [[String: Any]])?.first { $0["code"] as? String == "repeatWarning" }
        #expect(repeatWarning?["title"] as? String == "Program Generation Notice")
        #expect(
            repeatWarning?["message"] as? String
                == "Your programme includes some repeated exercises across days due to limited equipment. Would you like to go back and add more equipment, or proceed?"
        )
        #expect(repeatWarning?["actions"] as? [String] == ["Add equipment", "Proceed anyway"])
        #expect(try cli.run(["program", "show"]).stdout.contains("! Program Generation Notice: Your programme includes some repeated exercises"))
    }
}
