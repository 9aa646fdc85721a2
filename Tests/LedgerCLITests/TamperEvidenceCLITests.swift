import Foundation
import LedgerTestSupport
import RepLedgerSQLite
import Testing

/// Issue 74's tamper evidence on every read: a changed byte in the file is
/// answered with exit 3 and the first bad position by every query, not only
/// by `verify` and `why`.
@Suite("A damaged file answers exit 3 on every read")
struct TamperEvidenceCLITests {
    /// Changes one stored event in place, as a hand edit or a bad disk would.
    static func damage(_ cli: LedgerProcess, at position: Int) throws {
        let db = try SQLiteDatabase(path: cli.db)
        try db.execute("DROP TRIGGER events_no_update")
        try db.execute("UPDATE events SET device = 'elsewhere' WHERE position = \(position)")
    }

    @Test("an event changed after the last read fails every query with its position; log shows it and then says so")
    func everyQueryNamesTheDamage() throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        #expect(try cli.run(["demo"]).status == 0)
        #expect(try cli.run(["prs"]).status == 0)
        #expect(try cli.run(["workout", "start"]).status == 0)
        #expect(try cli.run(["workout", "log", "last", "deadlift", "--reps", "5", "--weight", "200"]).status == 0)
        #expect(try cli.run(["workout", "log", "last", "deadlift", "--reps", "5", "--weight", "205"]).status == 0)
        let target = try cli.eventCount() - 1
        try Self.damage(cli, at: target)
        let said = "error: the log fails verification at position \(target): "
        for args in [
            ["prs"], ["history"], ["volume"], ["e1rm", "deadlift"], ["hint", "deadlift"], ["workout", "summary", "last"], ["entitlements"],
            ["rebuild"], ["prs", "--json"],
        ] {
            let out = try cli.run(args)
            #expect(out.status == 3 && out.stdout.isEmpty, "\(args): \(out.status) \(out.stdout.prefix(200))")
            #expect(out.stderr.hasPrefix(said) && out.stderr.split(separator: "\n").count == 1, "\(args): \(out.stderr)")
        }
        let log = try cli.run(["log", "--from", "\(target)"])
        #expect(log.status == 3 && log.stdout.hasPrefix("#\(target) ") && log.stderr.hasPrefix(said), "\(log.stderr)")
        let verify = try cli.run(["verify", "--json"])
        #expect(verify.status == 3 && verify.json?["firstBadPosition"] as? Int == target)
    }

    @Test("rebuild walks the whole chain first: an event changed before the last read is caught there and by verify")
    func rebuildWalksTheWholeChain() throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        #expect(try cli.run(["workout", "start"]).status == 0)
        #expect(try cli.run(["workout", "log", "last", "deadlift", "--reps", "5", "--weight", "200"]).status == 0)
        let target = try cli.eventCount()
        #expect(try cli.run(["workout", "finish", "last"]).status == 0)
        #expect(try cli.run(["history"]).status == 0)
        try Self.damage(cli, at: target)
        for args in [["rebuild"], ["verify"]] {
            let out = try cli.run(args)
            #expect(out.status == 3 && out.stderr.contains("position \(target)"), "\(args): \(out.stderr)")
        }
    }
}
