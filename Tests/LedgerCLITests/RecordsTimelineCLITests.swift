import Foundation
import LedgerTestSupport
import Testing

/// Issue 52, point 8: `prs --timeline` says one line per set that set
/// records, with its weight × reps and its set, the rep maxes folded into
/// that line; on a real Strong history, against the timeline's JSON.
@Suite("ledger prs --timeline: one line per record set", .needsSharedData(.realExports))
struct RecordsTimelineCLITests {
    @Test("each set's records on one line with its weight × reps and set id; rep maxes as a range; session volumes by workout")
    func oneLinePerSet() throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let path = RealExports.folder.appendingPathComponent("strong_hipml_strong-unwrapped.csv").path
        #expect(try cli.run(["import", "strong", path, "--unit", "lb", "--timezone", "UTC"]).status == 0)
        let json = try #require(try cli.json(["prs", "Squat (Barbell)", "--timeline"])["exercises"] as? [[String: Any]])
        let timeline = try #require(json.first?["timeline"] as? [[String: Any]])
        // The sets (or workouts, for session volume) in the order their records were set.
        var groups: [(key: String, records: [[String: Any]])] = []
        for r in timeline {
            let key = (r["setId"] as? String).map { "set \($0.prefix(8))" } ?? "workout \((r["workoutId"] as? String ?? "").prefix(8))"
            if groups.last?.key == key { groups[groups.count - 1].records.append(r) } else { groups.append((key, [r])) }
        }
        let text = try cli.run(["prs", "Squat (Barbell)", "--timeline"]).stdout
        let lines = text.split(separator: "\n").drop { !$0.hasPrefix("Squat (Barbell)") || $0.contains("lb  ") }.dropFirst().map(String.init)
        #expect(lines.count == groups.count, "\(lines.prefix(3))")
        #expect(groups.count < timeline.count)
        for (line, group) in zip(lines, groups) {
            #expect(line.contains("\(group.key): "), "\(line)")
            let repMaxes = group.records.compactMap { $0["kind"] as? String == "repMax" ? $0["repMax"] as? Int : nil }.sorted()
            if let lo = repMaxes.first, let hi = repMaxes.last, lo < hi, repMaxes.count == hi - lo + 1 {
                #expect(line.hasSuffix("\(lo)RM–\(hi)RM"), "\(line)")
            }
            if let reps = group.records.first?["reps"] as? Int, group.key.hasPrefix("set") {
                #expect(line.contains(" lb × \(reps)  set "), "\(line)")
            }
            #expect(!line.contains("  1RM "), "a rep max on a line of its own: \(line)")
        }
    }

    @Test("an assisted exercise's record is the least assistance, no help at all included; it has no e1RM or volume")
    func assistedRecordsAreLessHelp() throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let path = RealExports.folder.appendingPathComponent("strong_hipml_strong-unwrapped.csv").path
        #expect(try cli.run(["import", "strong", path, "--unit", "lb", "--timezone", "UTC"]).status == 0)
        // The file's own assisted pull-ups: their assistance in lb, the set done with least of it.
        let records = RealExports.records(try String(contentsOfFile: path, encoding: .utf8), delimiter: ",")
        let header = try #require(records.first)
        let name = try #require(header.firstIndex(of: "Exercise Name")), weight = try #require(header.firstIndex(of: "Weight"))
        let help = records.dropFirst().filter { $0.count > weight && $0[name] == "Pull Up (Assisted)" }.compactMap { Double($0[weight]) }
        #expect(help.count > 10 && help.max()! > help.min()!)
        let prs = try #require(try cli.json(["prs", "Pull Up (Assisted)"])["exercises"] as? [[String: Any]])
        let pullUp = try #require(prs.first)
        #expect(pullUp["assisted"] as? Bool == true)
        #expect(abs((pullUp["heaviestKg"] as? Double ?? -1) - help.min()! * 0.45359237) < 0.001)
        #expect(pullUp["bestE1rmKg"] is NSNull && pullUp["bestSetVolumeKg"] is NSNull && pullUp["bestSessionVolumeKg"] is NSNull)
        #expect(try cli.run(["prs", "Pull Up (Assisted)"]).stdout.contains("\(Int(help.min()!)) lb assist"))
        // An ordinary exercise keeps the heaviest as its record.
        let squat = try #require(try cli.json(["prs", "Squat (Barbell)"])["exercises"] as? [[String: Any]]).first
        #expect(squat?["assisted"] as? Bool == false && squat?["bestE1rmKg"] as? Double != nil)
    }
}
