import Foundation
import LedgerTestSupport
import RepLedgerSQLite
import Testing

/// Issue 44's question on the CLI: `why prs|e1rm|volume` gives a number with
/// the events that made it, the rule that computed it, and a proof that the
/// events are in the chain. On Andrew50's real Strong history: every number
/// equals what `prs`, `e1rm` and `volume` print, every event is the one
/// `log --json` holds at its position, and a tampered file fails the proof.
@Suite("ledger why: a number, its events, its rule, its proof", .needsSharedData(.realExports))
struct WhyCLITests {
    /// `log --json`'s events by position.
    static func log(_ cli: LedgerProcess) throws -> [Int: [String: Any]] {
        let lines = try cli.run(["log", "--json"]).stdout.split(separator: "\n")
        let events = lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        return Dictionary(events.map { ($0["position"] as! Int, $0) }, uniquingKeysWith: { a, _ in a })
    }

    /// Each cited event is `log --json`'s at that position, with its hash, and touched one of the number's sets.
    static func checkEvents(_ number: [String: Any], _ log: [Int: [String: Any]]) throws {
        let events = try #require(number["events"] as? [[String: Any]])
        let sets = Set(try #require(number["setIds"] as? [String]))
        #expect(!events.isEmpty, "\(number)")
        for e in events {
            let position = try #require(e["position"] as? Int)
            let stored = try #require(log[position])
            #expect(stored["hash"] as? String == e["hash"] as? String && stored["type"] as? String == e["type"] as? String)
            let setId = (stored["payload"] as? [String: Any])?["setId"] as? String
            #expect(setId.map(sets.contains) == true, "\(e) touches a set of the number")
        }
    }

    @Test("records, an e1RM point and a week's volume equal prs, e1rm and volume; each event is the logged one; the proof reaches the head")
    func numbersAndEvents() throws {
        let (cli, _) = try AndrewsStrongHistory.imported()
        defer { cli.cleanUp() }
        let log = try Self.log(cli)
        let head = try cli.eventCount()

        let why = try #require(try cli.run(["why", "prs", "Bench Press (Barbell)", "--json"]).json)
        let prs = try #require((try cli.run(["prs", "Bench Press (Barbell)", "--json"]).json?["exercises"] as? [[String: Any]])?.first)
        let numbers = try #require(why["numbers"] as? [[String: Any]])
        func value(_ kind: String, _ repMax: Int? = nil) -> Double? {
            numbers.first { $0["kind"] as? String == kind && $0["repMax"] as? Int == repMax }?["value"] as? Double
        }
        let near = { (a: Double?, b: Double?) in a != nil && b != nil && abs(a! - b!) < 1e-3 }
        #expect(near(value("heaviest"), prs["heaviestKg"] as? Double))
        #expect(near(value("e1rm"), prs["bestE1rmKg"] as? Double))
        #expect(near(value("setVolume"), prs["bestSetVolumeKg"] as? Double))
        for (reps, kg) in try #require(prs["repMaxesKg"] as? [String: Double]) { #expect(near(value("repMax", Int(reps)), kg), "\(reps)RM") }
        for n in numbers where n["kind"] as? String != "sessionVolume" { try Self.checkEvents(n, log) }
        let proof = try #require(why["proof"] as? [String: Any])
        #expect(
            proof["ok"] as? Bool == true && proof["headPosition"] as? Int == head && proof["headHash"] as? String == log[head]?["hash"] as? String)
        #expect((why["rules"] as? [String: Any])?["e1rmFormula"] as? String == "epley")
        let text = try cli.run(["why", "prs", "Bench Press (Barbell)"]).stdout
        #expect(text.contains("by epley (reps 1–12) = ") && text.contains("re-links by hash to the head #\(head)"), "\(text)")

        // Under other rules the e1RM record is another formula's, and says so.
        let rules = cli.folder.appendingPathComponent("brzycki.json").path
        try #"{"id":"brzycki-10","version":1,"e1rmFormula":"brzycki","e1rmRepCap":10}"#.write(toFile: rules, atomically: true, encoding: .utf8)
        let brzycki = try #require(try cli.run(["why", "prs", "Bench Press (Barbell)", "--rules", rules, "--json"]).json)
        let e1rm = try #require((brzycki["numbers"] as? [[String: Any]])?.first { $0["kind"] as? String == "e1rm" })
        #expect((e1rm["computation"] as? String)?.contains("by brzycki (reps 1–10)") == true)
        #expect((brzycki["rules"] as? [String: Any])?["id"] as? String == "brzycki-10")

        // The latest e1RM point (the history ends in January 2026), as `e1rm` gives it.
        let point = try #require(
            (try cli.run(["e1rm", "Bench Press (Barbell)", "--until", "2026-01-20", "--json"]).json?["points"] as? [[String: Any]])?.last)
        let whyPoint = try #require((try cli.run(["why", "e1rm", "Bench Press (Barbell)", "--json"]).json?["numbers"] as? [[String: Any]])?.first)
        #expect(near(whyPoint["value"] as? Double, point["e1rmKg"] as? Double) && whyPoint["workoutId"] as? String == point["workoutId"] as? String)
        try Self.checkEvents(whyPoint, log)

        // A week's volume, as `volume --by week` gives it: every counted set, one event each at least.
        let week = try #require(
            (try cli.run(["volume", "--by", "week", "--until", "2023-03-14", "--json"]).json?["rows"] as? [[String: Any]])?.first {
                $0["key"] as? String == "2023-W10"
            })
        let volume = try #require((try cli.run(["why", "volume", "2023-03-08", "--json"]).json?["numbers"] as? [[String: Any]])?.first)
        #expect(near(volume["value"] as? Double, week["tonnageKg"] as? Double) && (volume["setIds"] as? [Any])?.count == week["sets"] as? Int)
        try Self.checkEvents(volume, log)

        // As the log stood before the heaviest bench: an older record, from events before that position.
        let heaviest = try #require(numbers.first { $0["kind"] as? String == "heaviest" })
        let at = try #require((heaviest["events"] as? [[String: Any]])?.first?["position"] as? Int)
        let before = try #require(try cli.run(["why", "prs", "Bench Press (Barbell)", "--as-of", "\(at - 1)", "--json"]).json)
        let older = try #require((before["numbers"] as? [[String: Any]])?.first { $0["kind"] as? String == "heaviest" })
        #expect((older["value"] as? Double ?? .infinity) < (heaviest["value"] as? Double ?? 0))
        #expect((older["events"] as? [[String: Any]])?.allSatisfy { ($0["position"] as? Int ?? .max) < at } == true)
    }

    @Test("a hint, a rep count and a plan equal hint, repcount and entitlements, with the sets and purchases that made them")
    func hintsRepCountsAndEntitlements() throws {
        let (cli, _) = try AndrewsStrongHistory.imported()
        defer { cli.cleanUp() }
        let bench = "Bench Press (Barbell)"
        // The workout of the latest bench e1RM point: it had a last time to beat.
        let workout = try #require(
            (try cli.run(["why", "e1rm", bench, "--json"]).json?["numbers"] as? [[String: Any]])?.first?["workoutId"] as? String)
        let log = try Self.log(cli)
        let near = { (a: Double?, b: Double?) in a != nil && b != nil && abs(a! - b!) < 1e-3 }

        let hint = try #require(try cli.run(["hint", bench, "--workout", workout, "--json"]).json)
        let whyHint = try #require((try cli.run(["why", "hint", bench, "--workout", workout, "--json"]).json?["numbers"] as? [[String: Any]])?.first)
        #expect(whyHint["workoutId"] as? String == hint["lastWorkoutId"] as? String && hint["lastWorkoutId"] is String)
        #expect(near(whyHint["value"] as? Double, (hint["bestSet"] as? [String: Any])?["weightKg"] as? Double), "\(whyHint)")
        #expect((whyHint["setIds"] as? [String])?.count == (hint["sets"] as? [Any])?.count)
        try Self.checkEvents(whyHint, log)

        let counted = try #require(try cli.run(["repcount", workout, bench, "--json"]).json)
        let whyCount = try #require(
            (try cli.run(["why", "repcount", bench, "--workout", workout, "--json"]).json?["numbers"] as? [[String: Any]])?.first)
        #expect(whyCount["value"] as? Double == (counted["excessReps"] as? Int).map(Double.init) && whyCount["workoutId"] as? String == workout)
        #expect((whyCount["computation"] as? String)?.contains("this workout [") == true)
        try Self.checkEvents(whyCount, log)

        // The next session's target: the number `next` gives, with its reason, and the sets it was decided from.
        let next = try #require(try cli.run(["next", bench, "--json"]).json)
        let whyTarget = try #require((try cli.run(["why", "target", bench, "--json"]).json?["numbers"] as? [[String: Any]])?.first)
        #expect(near(whyTarget["value"] as? Double, next["weightKg"] as? Double), "\(whyTarget) against \(next)")
        #expect((whyTarget["computation"] as? String)?.hasSuffix(next["reason"] as? String ?? "?") == true, "\(whyTarget)")
        #expect((whyTarget["setIds"] as? [String])?.isEmpty == false)
        try Self.checkEvents(whyTarget, log)

        // A plan: bought, then refunded; in force between the two, cited by its events.
        #expect(
            try cli.run([
                "purchase", "repledger_pro_monthly", "--transaction", "t-1", "--purchased", "2026-01-01T00:00:00Z", "--expires",
                "2099-01-01T00:00:00Z",
            ]).status == 0)
        let bought = try cli.eventCount()
        #expect(try cli.run(["refund", "t-1", "--at", "2026-06-01T00:00:00Z"]).status == 0)
        let atPurchase = try #require(
            (try cli.run(["why", "entitlement", "pro", "--as-of", "\(bought)", "--json"]).json?["numbers"] as? [[String: Any]])?.first)
        let recorded = try #require(try Self.log(cli)[bought]?["recordedAt"] as? String)
        let then = try #require(try cli.run(["entitlements", "--as-of", "\(bought)", "--at", recorded, "--json"]).json)
        #expect(atPurchase["value"] as? Double == 1 && then["isPro"] as? Bool == true)
        #expect((atPurchase["events"] as? [[String: Any]])?.map { $0["position"] as? Int } == [bought])
        let now = try #require((try cli.run(["why", "entitlement", "pro", "--json"]).json?["numbers"] as? [[String: Any]])?.first)
        let entitlements = try cli.run(["entitlements", "--json"]).json
        #expect(now["value"] as? Double == 0 && entitlements?["isPro"] as? Bool == false)
        #expect((now["events"] as? [[String: Any]])?.map { $0["type"] as? String } == ["PurchaseRecorded", "PurchaseRefunded"])
        #expect((now["computation"] as? String)?.contains("ended 2026-06-01") == true, "\(now)")
        let coach = try cli.run(["why", "entitlement", "coach"]).stdout
        #expect(coach.hasPrefix("coach not in force") && coach.contains("no purchase or grant of Coach"), "\(coach)")
        let refused = try cli.run(["why", "entitlement", "gold"])
        #expect(refused.status == 2 && refused.stderr == "error: an entitlement is pro or coach, not 'gold'\n", "\(refused.stderr)")
    }

    @Test("a tampered event after the cited ones fails the proof (exit 3, its position named); bad input is refused in one line")
    func tamperedAndRefused() throws {
        let (cli, _) = try AndrewsStrongHistory.imported()
        defer { cli.cleanUp() }
        for (args, words) in [
            (["why", "pr", "Bench Press (Barbell)"], "unknown subject 'pr'"),
            (["why", "volume", "2023-W99"], "a week is 2026-W47 or a date in it"),
            (["why", "prs", "Bench Pres (Barbel)"], "Bench Pres (Barbel)"),
            (["why", "e1rm", "Plank"], "no e1RM for Plank"),
        ] {
            let out = try cli.run(args)
            #expect(out.status != 0 && out.stderr.split(separator: "\n").count == 1 && out.stderr.contains(words), "\(args): \(out.stderr)")
        }
        let head = try cli.eventCount()
        let db = try SQLiteDatabase(path: cli.db)
        try db.execute("DROP TRIGGER events_no_update")
        try db.execute("UPDATE events SET device = 'elsewhere' WHERE position = \(head)")
        let out = try cli.run(["why", "prs", "Bench Press (Barbell)", "--json"])
        #expect(out.status == 3 && out.stderr.contains("position \(head)"), "\(out.stderr)")
        let proof = try #require(out.json?["proof"] as? [String: Any])
        #expect(proof["ok"] as? Bool == false && proof["firstBadPosition"] as? Int == head)
    }
}
