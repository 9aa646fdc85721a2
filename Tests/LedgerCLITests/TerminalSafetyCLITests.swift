import Foundation
import LedgerTestSupport
import Testing

/// What reaches a terminal from input (a typed name, a file's header) carries
/// no control character: each is shown escaped, so nothing can move the
/// cursor, clear the screen or rewrite a line.
@Suite("terminal safety")
struct TerminalSafetyCLITests {
    /// Control characters other than the line break and the tab.
    static func hidden(_ text: String) -> [String] {
        text.unicodeScalars.filter { $0.properties.generalCategory == .control && $0 != "\n" && $0 != "\t" }
            .map { String($0.value, radix: 16) }
    }

    @Test("an error that repeats a typed name shows its escape and separator characters escaped")
    func errorEscapes() throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        #expect(try cli.run(["settings", "distance", "mi"]).status == 0)
        let shown = try cli.run(["exercise", "show", "Bench\u{1B}[2J\u{1C}\r"])
        #expect(shown.status == 1, "\(shown.stderr)")
        #expect(Self.hidden(shown.stderr).isEmpty, "raw control characters \(Self.hidden(shown.stderr)) in: \(shown.stderr)")
        #expect(shown.stderr.contains(#"'Bench\x1b[2J\x1c\x0d'"#), "\(shown.stderr)")
    }

    @Test("an import's report names a damaged header column escaped, and imports the rest")
    func importEscapes() throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let file = cli.folder.appendingPathComponent("damaged.csv")
        try "Date,Workout Name,Exercise Name,Set Order,Weight,Reps,Mood\u{1C}\u{1B}[31m\n2024-01-02 10:00:00,A,Bench,1,100,5,ok\n"
            .write(to: file, atomically: true, encoding: .utf8)
        let imported = try cli.run(["import", "strong", file.path, "--unit", "kg"])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(Self.hidden(imported.stdout + imported.stderr).isEmpty, "raw control characters in: \(imported.stdout)")
        #expect(imported.stdout.contains(#"Columns not recognised, left out: Mood\x1c\x1b[31m"#), "\(imported.stdout)")
        #expect(imported.stdout.contains("Imported 1 workout"), "\(imported.stdout)")
    }
}
