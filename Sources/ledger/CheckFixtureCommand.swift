import ArgumentParser
import Foundation
import LedgerShell
import RepLedgerCore
import RepLedgerQueries
import RepLedgerSQLite

/// `ledger check-fixture FILE`: a session fixture (the inspector's session page offers one) replayed in
/// memory, its views computed again and compared with what it expects.
struct CheckFixtureCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check-fixture",
        abstract: "Replay a session fixture and compare every view with what it expects; exits 1 at the first difference.",
        discussion: """
            A fixture holds the log up to a workout's last event and the views there (the inspector's As-of \
            document and the workout's replay), saved from the inspector's session page. Its events are replayed \
            into memory (nothing is written), every view is computed again, and the first difference is named by \
            its JSON path with both values. An event edited by hand fails its hash first (exit 3).

            Examples:
              ledger check-fixture Tests/Fixtures/sessions/demo-upper-a.fixture
            """)
    @Argument(help: "The fixture file.") var file: String

    func run() throws {
        guard let data = FileManager.default.contents(atPath: file) else { throw ImportError.unreadableFile(file, reason: "cannot read it") }
        let store = try SQLiteEventStore(path: ":memory:")
        let difference: String?
        do {
            difference = try SessionFixture.check(String(decoding: data, as: UTF8.self), into: store)
        } catch let failure as SessionFixture.Failure {
            Console.error("error: \(failure)")
            if case .brokenChain = failure { throw ExitCode(ExitStatus.integrity) }
            throw ExitCode(ExitStatus.refused)
        }
        if let difference {
            Console.error("differs: \(difference)")
            throw ExitCode(ExitStatus.refused)
        }
        Console.out("ok: every view matches (\(try store.headPosition()) events replayed)")
    }
}
