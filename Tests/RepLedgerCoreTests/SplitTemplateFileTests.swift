import Foundation
import Testing

@testable import RepLedgerCore

/// Issue 45, row 2: split_templates.json governs generation. The file beside
/// the generator is the one the core embeds; an edited copy changes the
/// program generated from it; a broken copy is refused, naming the place.
@Suite("split_templates.json: the data programs are generated from")
struct SplitTemplateFileTests {
    static let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/RepLedgerCore/Programs/split_templates.json")

    static func fileJSON() throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: path)) as? [String: Any])
    }

    static func decode(_ json: [String: Any]) throws -> SplitTemplateFile {
        try SplitTemplateFile.decode(try JSONSerialization.data(withJSONObject: json))
    }

    /// `edit` applied to the split named `name` in a copy of the file.
    static func edited(_ name: String, _ edit: (inout [String: Any]) -> Void) throws -> [String: Any] {
        var json = try fileJSON()
        var splits = try #require(json["splits"] as? [[String: Any]])
        let i = try #require(splits.firstIndex { $0["name"] as? String == name })
        edit(&splits[i])
        json["splits"] = splits
        return json
    }

    @Test("the embedded copy is the file: same splits, days, explanations and sessions")
    func embeddedIsTheFile() throws {
        let file = try SplitTemplateFile.decode(Data(contentsOf: Self.path))
        #expect(file == SplitTemplateFile.embedded)
        #expect(
            file.entries.map(\.split)
                == Split.allCases.sorted { a, b in
                    file.entries.firstIndex { $0.split == a }! < file.entries.firstIndex { $0.split == b }!
                })
        for e in file.entries { #expect(Split.options(days: e.days).contains(e.split)) }
    }

    @Test("an edited session changes the program generated from it, and only that session")
    func editedFileGovernsGeneration() throws {
        var q = QuestionnaireAnswered()
        q.daysPerWeek = 2
        q.experience = .intermediate
        q.equipment = Equipment.allCases
        q.sessionMinutes = 60
        let json = try Self.edited("Upper Lower") { split in
            var sessions = split["sessions"] as! [[String: Any]]
            sessions[1] = ["name": "Legs and Calves", "mainLifts": ["squat"], "muscles": ["calves", "calves", "hamstrings"]]
            split["sessions"] = sessions
        }
        let library = Ledger.seededLibrary
        let original = try ProgramGenerator.generate(library: library, answers: q, split: .upperLower, seed: 7).sessions
        let edited = try ProgramGenerator.generate(library: library, answers: q, split: .upperLower, seed: 7, templates: try Self.decode(json))
            .sessions
        #expect(original.map(\.name) == ["Upper", "Lower"])
        #expect(edited.map(\.name) == ["Upper", "Legs and Calves"])
        #expect(edited[0] == original[0], "the untouched session is generated as before")
        let lower = edited[1].exercises.compactMap { library.exercises[$0.exerciseId]?.definition }
        #expect(lower.count == 4)
        #expect(lower.filter { $0.primaryMuscles.contains(.calves) }.count == 2, "\(lower.map(\.name))")
        #expect(lower.filter { $0.primaryMuscles.contains(.glutes) && !$0.primaryMuscles.contains(.quads) }.isEmpty)
    }

    @Test("a broken copy is refused with the place named")
    func brokenCopiesRefused() throws {
        let unknownMuscle = try Self.edited("PPL x2") { split in
            var sessions = split["sessions"] as! [[String: Any]]
            sessions[0]["muscles"] = ["pecs"]
            split["sessions"] = sessions
        }
        #expect(throws: SplitTemplateFile.Problem.unknownMuscle(session: "Push A", name: "pecs")) { try Self.decode(unknownMuscle) }
        let days = try Self.edited("Upper Lower x2") { $0["days"] = 3 }
        #expect(throws: SplitTemplateFile.Problem.sessionsDoNotMatchDays(split: "Upper Lower x2", days: 3, sessions: 4)) {
            try Self.decode(days)
        }
        var missing = try Self.fileJSON()
        missing["splits"] = (missing["splits"] as! [[String: Any]]).filter { $0["name"] as? String != "Full Body x3" }
        #expect(throws: SplitTemplateFile.Problem.missingSplit("Full Body x3")) { try Self.decode(missing) }
        let lift = try Self.edited("Full Body") { split in
            split["sessions"] = [["name": "Full Body", "mainLifts": ["snatch"], "muscles": []]]
        }
        #expect(throws: SplitTemplateFile.Problem.unknownMainLift(session: "Full Body", name: "snatch")) { try Self.decode(lift) }
        do {
            _ = try SplitTemplateFile.decode(Data("{\"splits\": 3}".utf8))
            Issue.record("a file that is not the expected JSON was read")
        } catch {
            #expect(error.description.hasPrefix("split_templates.json is not the expected JSON"))
        }
    }
}
