import Foundation
import LedgerTestSupport
import Testing

/// Issue 49, row 3: e1RM from effort. Under `e1rmFormula: rpe-table` a set
/// with an RPE is read through RTS's table, and a set without one (or out of
/// the table's reach) by the rule set's rep formula. On ValterAndersson's
/// real Strong export, which carries an RPE on about half its sets; the
/// expected records are worked out from the file here.
@Suite("e1RM from effort: the rpe-table rule", .needsSharedData(.realExports, .realExportsMore))
struct RPETableCLITests {
    static let file = RealExports.moreFolder.appendingPathComponent("strong_ValterAndersson_myon.csv").path

    /// RTS's chart as a person reads it: rows of RPE 10 down to 6.5, columns of 1 to 12 reps.
    static let chart: [Double: [Double]] = [
        10: [100, 95.5, 92.2, 89.2, 86.3, 83.7, 81.1, 78.6, 76.2, 73.9, 70.7, 68.0],
        9.5: [97.8, 93.9, 90.7, 87.8, 85.0, 82.4, 79.9, 77.4, 75.1, 72.3, 69.4, 66.7],
        9: [95.5, 92.2, 89.2, 86.3, 83.7, 81.1, 78.6, 76.2, 73.9, 70.7, 68.0, 65.3],
        8.5: [93.9, 90.7, 87.8, 85.0, 82.4, 79.9, 77.4, 75.1, 72.3, 69.4, 66.7, 64.0],
        8: [92.2, 89.2, 86.3, 83.7, 81.1, 78.6, 76.2, 73.9, 70.7, 68.0, 65.3, 62.6],
        7.5: [90.7, 87.8, 85.0, 82.4, 79.9, 77.4, 75.1, 72.3, 69.4, 66.7, 64.0, 61.3],
        7: [89.2, 86.3, 83.7, 81.1, 78.6, 76.2, 73.9, 70.7, 68.0, 65.3, 62.6, 59.9],
        6.5: [87.8, 85.0, 82.4, 79.9, 77.4, 75.1, 72.3, 69.4, 66.7, 64.0, 61.3, 58.6],
    ]

    /// The best e1RM of `exercise` in the file: working sets of 1–12 reps with a weight; through the chart when
    /// `table` and the set has an RPE it covers, else Epley.
    static func best(_ exercise: String, table: Bool) throws -> Double {
        let records = RealExports.records(try String(contentsOfFile: file, encoding: .utf8), delimiter: ",")
        let header = try #require(records.first)
        let col = { (name: String) in try #require(header.firstIndex(of: name)) }
        let (name, order, weight, reps, rpe) = (try col("Exercise Name"), try col("Set Order"), try col("Weight"), try col("Reps"), try col("RPE"))
        var best = 0.0
        for r in records.dropFirst() where r.count > rpe && r[name] == exercise && r[order] != "W" {
            guard let kg = Double(r[weight]), kg > 0, let n = Double(r[reps]).map(Int.init), (1...12).contains(n) else { continue }
            let epley = n == 1 ? kg : kg * (1 + Double(n) / 30)
            let percent = table ? Double(r[rpe]).flatMap { chart[$0]?[n - 1] } : nil
            best = max(best, percent.map { kg * 100 / $0 } ?? epley)
        }
        return best
    }

    @Test("records under rpe-table are the chart's where a set has an RPE and Epley where not; rebuild --diff shows the move")
    func recordsFromEffort() throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        #expect(try cli.run(["import", "strong", Self.file, "--unit", "kg", "--timezone", "UTC"]).status == 0)
        let rules = cli.folder.appendingPathComponent("rpe.json").path
        try #"{"id":"rpe","version":1,"e1rmFormula":"rpe-table"}"#.write(toFile: rules, atomically: true, encoding: .utf8)
        func records(_ extra: [String]) throws -> [String: Double] {
            let list = try #require(try cli.run(["prs", "--json"] + extra).json?["exercises"] as? [[String: Any]])
            return Dictionary(
                list.compactMap { x in (x["bestE1rmKg"] as? Double).map { (x["exercise"] as! String, $0) } }, uniquingKeysWith: { a, _ in a })
        }
        let (plain, effort) = (try records([]), try records(["--rules", rules]))
        var moved = 0
        for exercise in ["Seated Row (Cable)", "Lat Pulldown (Cable)", "Incline Bench Press (Dumbbell)", "Chest Press (Machine)", "Squat (Barbell)"] {
            let (e, t) = (try Self.best(exercise, table: false), try Self.best(exercise, table: true))
            #expect(abs((plain[exercise] ?? 0) - e) < 0.01, "\(exercise) under Epley: \(plain[exercise] ?? 0) against \(e) from the file")
            #expect(abs((effort[exercise] ?? 0) - t) < 0.01, "\(exercise) under rpe-table: \(effort[exercise] ?? 0) against \(t) from the file")
            if abs(e - t) > 0.01 { moved += 1 }
        }
        #expect(moved >= 3, "the file's efforts move most of these records")

        let diff = try cli.run(["rebuild", "--rules", rules, "--diff"])
        #expect(diff.status == 0 && diff.stdout.contains("e1RM moved in") && diff.stdout.contains("Seated Row (Cable): e1RM moved"), "\(diff.stdout)")
        // A rep formula of its own for sets without an effort; rpe-table cannot be its own fallback.
        let brzycki = cli.folder.appendingPathComponent("rpe-brzycki.json").path
        try #"{"id":"rpe-b","version":1,"e1rmFormula":"rpe-table","e1rmRepFormula":"brzycki"}"#.write(
            toFile: brzycki, atomically: true, encoding: .utf8)
        #expect(try records(["--rules", brzycki]) != effort, "sets without an effort now follow Brzycki")
        let loop = cli.folder.appendingPathComponent("loop.json").path
        try #"{"e1rmFormula":"rpe-table","e1rmRepFormula":"rpe-table"}"#.write(toFile: loop, atomically: true, encoding: .utf8)
        let refused = try cli.run(["prs", "--rules", loop])
        #expect(refused.status == 1 && refused.stderr.contains("e1rmRepFormula is the formula for sets without an effort"), "\(refused.stderr)")
    }
}
