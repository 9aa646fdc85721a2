import Foundation
import LedgerTestSupport
import Testing

/// Issue 74's `ledger what-if --at N -- COMMAND …`: a recording command tried
/// against the log as it stood at N, nothing written.
@Suite("ledger what-if")
struct WhatIfCLITests {
    @Test("a command tried at a point says what it would append and change; a refused one says why; the ledger is untouched")
    func triedNotWritten() throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        #expect(try cli.run(["demo"]).status == 0)
        #expect(try cli.run(["prs"]).status == 0)
        let head = try cli.eventCount()
        let before = try Data(contentsOf: URL(fileURLWithPath: cli.db))

        let started = try cli.run(["what-if", "--json", "--", "workout", "start", "--name", "Probe"])
        #expect(started.status == 0, "\(started.stderr)")
        let answer = try #require(started.json)
        #expect(answer["at"] as? Int == head && (answer["output"] as? String)?.hasPrefix("Started workout ") == true)
        #expect((answer["appended"] as? [[String: Any]])?.map { $0["type"] as? String } == ["WorkoutStarted"])
        let changes = try #require(answer["changes"] as? [[String: Any]])
        #expect(
            changes.contains {
                $0["area"] as? String == "history" && $0["change"] as? String == "added" && ($0["subject"] as? String)?.contains("Probe") == true
            })

        // Earlier in the log: the merge as it would have landed there, its records moved.
        let merged = try cli.run(["what-if", "--at", "\(head - 40)", "--", "exercise", "merge", "Front Squat (Barbell)", "Squat (Barbell)"])
        #expect(merged.status == 0 && merged.stdout.hasPrefix("Tried at #\(head - 40): exercise merge"), "\(merged.stderr)")
        #expect(
            merged.stdout.contains("It would append 1 event: ExerciseMerged.") && merged.stdout.contains("Front Squat (Barbell): no records any more")
        )

        // Refused there: the command's own one-line reason, its exit status.
        let refused = try cli.run(["what-if", "--", "workout", "log", "last", "deadlift", "--reps", "5", "--weight", "9000", "--at", "now"])
        #expect(
            refused.status == 1 && refused.stderr.hasPrefix("error: weight '9000' is refused") && refused.stderr.split(separator: "\n").count == 1,
            "\(refused.stderr)")

        for (args, words) in [
            (["what-if"], "give the command to try after --"), (["what-if", "--", "sync"], "'sync' is not one"),
            (["what-if", "--at", "\(head + 5)", "--", "workout", "start"], "--at takes a position of the log, 0 to \(head)"),
        ] {
            let out = try cli.run(args)
            #expect(out.status == 2 && (out.stderr.split(separator: "\n").first ?? "").contains(words), "\(args): \(out.stderr)")
        }
        // A --db among the command's words names the ledger to copy (the command itself runs on the copy).
        let elsewhere = try cli.run(
            ["what-if", "--", "workout", "start", "--db", cli.folder.appendingPathComponent("none.sqlite").path], useDbFlag: false)
        #expect(elsewhere.status == 4 && elsewhere.stderr.contains("none.sqlite"), "\(elsewhere.stderr)")
        #expect(try cli.eventCount() == head)
        #expect(try Data(contentsOf: URL(fileURLWithPath: cli.db)) == before, "what-if wrote to the ledger")
    }
}
