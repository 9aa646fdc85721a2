import Foundation
import LedgerTestSupport
import Testing

/// `ledger plates`: per-side plates, the nearest loadable weights, the
/// lifter's unit for a bare number, and one-line refusals; it never writes.
@Suite("ledger plates")
struct PlatesCLITests {
    @Test("exact and inexact loads, in text and JSON, with no ledger created")
    func loads() throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let exact = try cli.run(["plates", "102.5kg"])
        #expect(exact.status == 0 && exact.stdout == "102.5 kg: 25 + 15 + 1.25 kg a side on a 20 kg bar\n", "\(exact.stdout)")
        let json = try #require(try cli.run(["plates", "101kg", "--json"]).json)
        #expect(json["exact"] as? Bool == false && json["perSide"] is NSNull)
        #expect((json["below"] as? [String: Any])?["weight"] as? Double == 100)
        #expect((json["above"] as? [String: Any])?["weight"] as? Double == 102.5)
        let custom = try #require(try cli.run(["plates", "100", "--plates", "15,10", "--json"]).json)
        let side = try #require(custom["perSide"] as? [[String: Any]])
        #expect(side.map { $0["plate"] as? Double } == [15, 10] && side.map { $0["count"] as? Int } == [2, 1])
        #expect(!FileManager.default.fileExists(atPath: cli.db))
    }

    @Test("a bare number is in the lifter's unit: lb after `settings unit lb`")
    func liftersUnit() throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        #expect(try cli.run(["settings", "unit", "lb"]).status == 0)
        let lb = try #require(try cli.run(["plates", "225", "--json"]).json)
        #expect(lb["unit"] as? String == "lb" && lb["bar"] as? Double == 45)
        #expect((lb["perSide"] as? [[String: Any]])?.first?["count"] as? Int == 2)
    }

    @Test(
        "bad input: one line, a refusal or a usage error",
        arguments: [
            (["plates", "heavy"], Int32(1), "weight 'heavy' is refused"),
            (["plates", "2000kg"], 1, "over the 1000 kg limit"),
            (["plates", "100kg", "--plates", "0"], 1, "give at least one plate"),
            (["plates", "100kg", "--bar", "45lb"], 2, "give the bar in kg"),
        ])
    func refusals(args: [String], status: Int32, words: String) throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let out = try cli.run(args)
        #expect(out.status == status && out.stderr.contains(words), "\(out.stderr)")
        #expect(out.stderr.split(separator: "\n").count == 1)
        #expect(!FileManager.default.fileExists(atPath: cli.db))
    }
}
