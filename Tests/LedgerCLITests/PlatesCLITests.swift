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

/// The lifter's own bar and plates (issue 31 point 7's settings half): what
/// `plates` loads by default and what `next` rounds barbell targets to.
@Suite("ledger settings plates")
struct PlateInventoryCLITests {
    @Test("a 15 kg bar and 20, 10, 5, 2.5 kg plates: plates loads with them, next rounds a 62.5 kg target to 65 kg; bad lists append nothing")
    func inventory() throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        // Shown before anything is set, without creating a ledger.
        #expect(try cli.run(["settings", "plates", "--json"]).json?["default"] as? Bool == true)
        let set = try cli.run(["settings", "plates", "--bar", "15kg", "--plates", "20,10,5,2.5", "--json"])
        #expect(set.status == 0 && set.json?["bar"] as? Double == 15 && set.json?["plates"] as? [Double] == [20, 10, 5, 2.5])
        let plates = try #require(try cli.run(["plates", "62.5", "--json"]).json)
        #expect(plates["bar"] as? Double == 15 && plates["exact"] as? Bool == false)
        #expect((plates["below"] as? [String: Any])?["weight"] as? Double == 60 && (plates["above"] as? [String: Any])?["weight"] as? Double == 65)
        // A lb weight is not loaded with kg plates: the lb defaults.
        #expect(try cli.run(["plates", "225lb", "--json"]).json?["bar"] as? Double == 45)

        let w = try #require(try cli.run(["workout", "start", "--at", "2026-11-20T18:00:00Z", "--json"]).json?["workoutId"] as? String)
        for _ in 0..<3 {
            #expect(try cli.run(["workout", "log", w, "bench", "--reps", "12", "--weight", "60kg", "--at", "2026-11-20T18:10:00Z"]).status == 0)
        }
        #expect(try cli.run(["workout", "finish", w, "--at", "2026-11-20T19:00:00Z"]).status == 0)
        // Asked the next day: no break has begun, whatever day the test runs.
        let asked = ["--until", "2026-11-21"]
        let next = try #require(try cli.run(["next", "bench", "--json"] + asked).json)
        #expect(next["weightKg"] as? Double == 65 && next["unroundedKg"] as? Double == 62.5)
        #expect(try cli.run(["next", "bench"] + asked).stdout.contains("62.5 kg rounded to what your plates load"))
        let before = try cli.run(["log", "--json"]).stdout
        for bad in [["--bar", "15kg", "--plates", "20,0"], ["--bar", "15kg", "--plates", "20,10lb"], ["--bar", "15kg", "--plates", "20,x"]] {
            let out = try cli.run(["settings", "plates"] + bad)
            #expect(out.status != 0 && out.stderr.split(separator: "\n").count <= 3, "\(bad): \(out.stderr)")
        }
        #expect(try cli.run(["log", "--json"]).stdout == before)
        #expect(try cli.run(["settings", "plates", "--default"]).status == 0)
        #expect(try cli.run(["next", "bench", "--json"] + asked).json?["weightKg"] as? Double == 62.5)
    }
}
