import Foundation
import LedgerTestSupport
import Testing

/// Issue 49, row 2: percentages of a max. `percent` works from a tested max
/// (`settings one-rep-max`, an event) or the estimated one, names which and
/// from when, and rounds each load to one the lifter can load. On Andrew50's
/// real Strong history (lb), its bench estimate worked out from the file.
@Suite("ledger percent: loads from a tested or estimated max", .needsSharedData(.realExports))
struct PercentCLITests {
    /// The file's best Epley e1RM of bench working sets (1–12 reps) in the 56 days up to its last bench session, in lb, and that day.
    static func benchEstimate() throws -> (lb: Double, date: String) {
        let rows = try PlansMeanWhatTheySayCLITests.rows().filter {
            $0.exercise == "Bench Press (Barbell)" && $0.order != "W" && $0.weight > 0 && (1...12).contains(Int($0.reps))
        }
        let day = { (row: PlansMeanWhatTheySayCLITests.Row) in String(row.date.prefix(10)) }
        let format = DateFormatter()
        format.dateFormat = "yyyy-MM-dd"
        format.timeZone = TimeZone(identifier: "UTC")
        let last = try #require(rows.map(day).max().flatMap(format.date))
        let recent = rows.filter { format.date(from: day($0))! >= last.addingTimeInterval(-56 * 86_400) }
        let best = try #require(
            recent.max { a, b in
                let (ea, eb) = (a.reps == 1 ? a.weight : a.weight * (1 + a.reps / 30), b.reps == 1 ? b.weight : b.weight * (1 + b.reps / 30))
                return (ea, a.date) < (eb, b.date)
            })
        return (best.reps == 1 ? best.weight : best.weight * (1 + best.reps / 30), day(best))
    }

    @Test("without a tested max the table is 50–100 % of the file's estimate; each load is loadable and the nearest one")
    func fromTheEstimate() throws {
        let (cli, _) = try AndrewsStrongHistory.imported()
        defer { cli.cleanUp() }
        let (estimate, date) = try Self.benchEstimate()
        let answer = try #require(try cli.run(["percent", "Bench Press (Barbell)", "--json"]).json)
        let max = try #require(answer["max"] as? [String: Any])
        #expect(max["source"] as? String == "e1rm" && max["date"] as? String == date && max["formula"] as? String == "epley", "\(max)")
        #expect(abs((max["value"] as? Double ?? 0) - estimate) < 0.01, "\(max) against \(estimate) lb from the file")
        let rows = try #require(answer["rows"] as? [[String: Any]])
        #expect(rows.compactMap { $0["percent"] as? Int } == Array(stride(from: 50, through: 100, by: 5)))
        for row in rows {
            let weight = try #require(row["weight"] as? Double), percent = try #require(row["percent"] as? Int)
            let wanted = estimate * Double(percent) / 100
            // The lb plates go in 2.5 lb pairs: the nearest load is at most 2.5 lb away, ties to the lighter.
            #expect(abs(weight - wanted) <= 2.5 + 0.001 && weight >= 45, "\(percent) %: \(weight) for \(wanted)")
            #expect(try cli.run(["plates", "\(weight.formatted)lb", "--json"]).json?["exact"] as? Bool == true, "\(weight) lb loads")
        }
        let text = try cli.run(["percent", "bench"]).stdout
        #expect(text.contains("the e1RM of \(date)") && text.contains("100 %"), "\(text)")

        // Off the bar, loads go in steps of the increment (5 lb).
        let raises = try #require(try cli.run(["percent", "Lateral Raise (Dumbbell)", "--json"]).json?["rows"] as? [[String: Any]])
        #expect(raises.compactMap { $0["weight"] as? Double }.allSatisfy { $0.truncatingRemainder(dividingBy: 5) == 0 }, "\(raises)")
    }

    @Test("a tested max is an event; it becomes the default and the answer names it and its day; --of e1rm still estimates")
    func fromATestedMax() throws {
        let (cli, _) = try AndrewsStrongHistory.imported()
        defer { cli.cleanUp() }
        let before = try cli.eventCount()
        let set = try cli.run(["settings", "one-rep-max", "bench", "250lb", "--at", "2026-01-10T10:00:00Z", "--json"])
        #expect(set.status == 0 && set.json?["changed"] as? Bool == true && set.json?["exerciseId"] as? String == "barbell-bench-press")
        #expect(try cli.eventCount() == before + 1)
        let again = try cli.run(["settings", "one-rep-max", "bench", "250lb", "--json"])
        let afterAgain = try cli.eventCount()
        #expect(again.json?["changed"] as? Bool == false && afterAgain == before + 1, "the same max again records nothing")

        let tested = try #require(try cli.run(["percent", "bench", "85", "--json"]).json)
        let max = try #require(tested["max"] as? [String: Any])
        #expect(max["source"] as? String == "tested" && max["value"] as? Double == 250 && max["date"] as? String == "2026-01-10")
        #expect(
            (tested["rows"] as? [[String: Any]])?.map { $0["weight"] as? Double } == [212.5 - 2.5],
            "85 % of 250 is 212.5: 210 and 215 tie, the lighter")
        #expect(try cli.run(["percent", "bench"]).stdout.contains("percentages of 250 lb, the max you tested on 2026-01-10"))
        let estimated = try #require(try cli.run(["percent", "bench", "--of", "e1rm", "--json"]).json?["max"] as? [String: Any])
        let fromFile = try Self.benchEstimate().lb
        #expect(estimated["source"] as? String == "e1rm" && abs((estimated["value"] as? Double ?? 0) - fromFile) < 0.01)

        let count = try cli.eventCount()
        let refusals: [([String], String)] = [
            (["percent", "bench", "105"], "105 % is refused: give a percentage of the max from 1 to 100"),
            (["percent", "plank"], "Plank has no load to take a percentage of"),
            (["percent", "squat", "--of", "tested"], "no tested max for Squat (Barbell)"),
            (["percent", "bench", "--of", "guess"], "unknown max 'guess'"),
            (["settings", "one-rep-max", "bench", "0"], "a max of 0 lb is refused"),
            (["settings", "one-rep-max", "bench", "900kg"], "at most 600 kg"),
        ]
        for (args, words) in refusals {
            let out = try cli.run(args)
            #expect(out.status == 1 && out.stderr.contains(words) && out.stderr.split(separator: "\n").count == 1, "\(args): \(out.stderr)")
        }
        #expect(try cli.eventCount() == count)
    }
}
