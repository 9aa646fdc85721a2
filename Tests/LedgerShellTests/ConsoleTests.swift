import Foundation
import LedgerShell
import RepLedgerCore
import Testing

/// What a person at a terminal reads: no control character from a file or
/// another device reaches the terminal raw, and a refusal's pointers to
/// commands and options are the shell's, added at its edge.
@Suite struct ConsoleTests {
    @Test func controlCharactersAreShownEscaped() {
        #expect(Console.shown("Bench\u{1b}[2J Press") == "Bench\\x1b[2J Press")
        #expect(Console.shown("a\rb\u{1c}c\u{7f}") == "a\\x0db\\x1cc\\x7f")
        #expect(Console.shown("next\u{85}line") == "next\\u{85}line")
        #expect(Console.shown("two\nlines\tand a tab, Übung, 深蹲") == "two\nlines\tand a tab, Übung, 深蹲")
    }

    @Test func everyScalarButTheHiddenOnesSurvivesInOrder() throws {
        var rng = SystemRandomNumberGenerator()
        let escape = try Regex(#"\\x[0-9a-f]{2}|\\u\{[0-9a-f]+\}"#)
        func hidden(_ s: Unicode.Scalar) -> Bool { s.properties.generalCategory == .control && s != "\n" && s != "\t" }
        for _ in 0..<300 {
            // No backslash of its own, so that what is left after removing the escapes is the text's.
            let scalars = (0..<40).compactMap { _ in Unicode.Scalar(UInt32.random(in: 0...0x2FF, using: &rng)) }.filter { $0 != "\\" }
            let text = String(String.UnicodeScalarView(scalars))
            let shown = Console.shown(text)
            #expect(!shown.unicodeScalars.contains(where: hidden))
            #expect(shown.replacing(escape, with: "") == String(String.UnicodeScalarView(scalars.filter { !hidden($0) })))
            #expect(shown.matches(of: escape).count == scalars.filter(hidden).count)
        }
    }

    @Test func theCoreSaysWhatIsWrongAndTheShellWhereToLook() {
        let refusals: [Refusal] = [
            .setLacksMeasure(exercise: "Plank", kind: .isometric), .unknownExercise("Zercher", suggestions: []),
            .workoutFinished(UUID()), .noChangesGiven,
        ]
        for refusal in refusals {
            #expect(!refusal.description.contains("--") && !refusal.description.contains("`ledger"), "\(refusal.description)")
            #expect(refusal.shellMessage.contains("--") || refusal.shellMessage.contains("`ledger"), "\(refusal.shellMessage)")
        }
    }

    @Test func weightsAreShownInTheLiftersUnit() {
        #expect(WeightText.show(kg: 100, in: .kg) == "100 kg")
        #expect(WeightText.show(kg: 100, in: .lb) == "220.46 lb")
        #expect(WeightText.show(kg: nil, in: .kg) == "bodyweight")
        #expect(WeightText.set(kg: 60, reps: 8, in: .kg) == "60 kg × 8")
        #expect(counted(1, "set") == "1 set" && counted(3, "set") == "3 sets")
    }
}
