import Foundation
import LedgerTestSupport
import Testing

/// Issue 52, point 8: the report's main lifts are squat, bench, deadlift and
/// overhead press when done (else the most done), its axes carry years, its
/// year is the calendar year, and no label is cut. On real Strong histories,
/// with Pro recorded so the charts show all time; what is expected comes from
/// the test's own reading of each file.
@Suite("ledger report: main lifts, years and whole labels", .needsSharedData(.realExports, .realExportsMore))
struct ReportReadsRightCLITests {
    static let four = ["Squat (Barbell)", "Bench Press (Barbell)", "Deadlift (Barbell)", "Overhead Press (Barbell)"]

    /// Loaded working sets per exercise name, as the file writes them (a numbered set with a weight above 0).
    static func loadedSets(_ path: String, exercise: String, order: String, weight: String) throws -> [String: Int] {
        let records = RealExports.records(try String(contentsOfFile: path, encoding: .utf8), delimiter: ",")
        let header = try #require(records.first).map { $0.replacingOccurrences(of: "\u{FEFF}", with: "") }
        let (x, o, w) = (
            try #require(header.firstIndex(of: exercise)), try #require(header.firstIndex(of: order)), try #require(header.firstIndex(of: weight))
        )
        var counts: [String: Int] = [:]
        for r in records.dropFirst() where r.count > w && Int(r[o]) != nil && (Double(r[w]) ?? 0) > 0 { counts[r[x], default: 0] += 1 }
        return counts
    }

    /// A report of `file` with Pro in force: its HTML.
    static func report(_ cli: LedgerProcess, _ path: String) throws -> String {
        #expect(try cli.run(["import", "strong", path, "--unit", "lb", "--timezone", "UTC"]).status == 0)
        let pro = [
            "purchase", "repledger_pro_annual", "--transaction", "report-test", "--purchased", "2026-01-01T00:00:00Z", "--expires",
            "2099-01-01T00:00:00Z",
        ]
        #expect(try cli.run(pro).status == 0)
        let file = cli.folder.appendingPathComponent("report.html").path
        #expect(try cli.run(["report", "--html", file]).status == 0)
        return try String(contentsOfFile: file, encoding: .utf8)
    }

    /// The names in the e1RM card's legend.
    static func mainLifts(_ html: String) throws -> [String] {
        let card = try #require(html.components(separatedBy: "Estimated 1RM, main lifts").dropFirst().first)
        let legend = try #require(card.components(separatedBy: "<div class=\"legend\">").dropFirst().first?.components(separatedBy: "</div>").first)
        return legend.components(separatedBy: "</i>").dropFirst().map {
            $0.components(separatedBy: "</span>")[0].replacingOccurrences(of: "&amp;", with: "&")
        }
    }

    @Test("a lifter who does all four: squat, bench, deadlift, overhead press; the axes and calendar say their years; no lane name is cut")
    func allFour() throws {
        let path = RealExports.folder.appendingPathComponent("strong_Andrew50_Lifting.csv").path
        let loaded = try Self.loadedSets(path, exercise: "Exercise Name", order: "Set Order", weight: "Weight")
        #expect(Self.four.allSatisfy { (loaded[$0] ?? 0) > 0 })
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let html = try Self.report(cli, path)
        #expect(try Self.mainLifts(html) == Self.four)

        // The calendar year of the last workout, with every exercise's record days in it (from `prs --timeline`).
        let records = try String(contentsOfFile: path, encoding: .utf8).components(separatedBy: "\n").dropFirst()
        let year = try #require(records.compactMap { $0.count >= 4 ? Int($0.prefix(4)) : nil }.max())
        let prs = try #require(try cli.run(["prs", "--timeline", "--json"]).json?["exercises"] as? [[String: Any]])
        let days = Set(
            prs.flatMap { ($0["timeline"] as? [[String: Any]]) ?? [] }
                .filter { ["heaviest", "e1rm"].contains($0["kind"] as? String) }
                .compactMap { ($0["at"] as? String).map { String($0.prefix(10)) } }
                .filter { $0.hasPrefix("\(year)-") })
        #expect(html.contains("<b>\(days.count)</b><span>PR days in \(year)</span>"), "\(days.count) in \(year)")

        // Every chart's first month label says its year, and later ones say each new year.
        let svgs = html.components(separatedBy: "<svg").dropFirst()
        for svg in svgs {
            let labels = Self.texts(svg, class: "axis").map(\.text).filter { l in Self.months.contains { l.hasPrefix($0) } }
            guard let first = labels.first else { continue }
            #expect(first.range(of: #"^[A-Z][a-z]{2} \d{4}$"#, options: .regularExpression) != nil, "\(labels)")
            let years = labels.compactMap { Int($0.suffix(4)) }
            #expect(years == years.sorted() && Set(years).count == years.count, "\(labels)")
        }
        // The e1RM chart spans 2022 to 2026: each year it crosses is named.
        let trend = try #require(svgs.first)
        let named = Set(Self.texts(trend, class: "axis").compactMap { Int($0.text.suffix(4)) })
        #expect(named.isSuperset(of: [2023, 2024, 2025]), "\(named)")

        // No label is cut: each lane's lines make its whole name, and every axis label lies inside its drawing.
        let lanes = try #require(svgs.first { $0.contains("class=\"label\"") })
        let names = Set(prs.compactMap { $0["exercise"] as? String })
        for lane in lanes.components(separatedBy: "class=\"label\"").dropFirst() {
            let text = lane.components(separatedBy: "</text>")[0]
            let lines = text.components(separatedBy: "<tspan").dropFirst().map { Self.inner($0.components(separatedBy: "</tspan>")[0]) }
            let title = Self.inner(try #require(text.components(separatedBy: "<title>").dropFirst().first?.components(separatedBy: "</title>").first))
            #expect(lines.joined(separator: " ") == title && names.contains(title), "\(lines) for \(title)")
        }
        #expect(html.contains("Triceps Pushdown (Cable -"))
        for svg in svgs {
            let width = try #require(Double(svg.components(separatedBy: "viewBox=\"0 0 ").dropFirst().first?.split(separator: " ").first ?? ""))
            for label in Self.texts(svg, class: "axis", centred: true) {
                let half = Double(label.text.count) * 11 * 0.5 / 2
                #expect(label.x - half >= 0 && label.x + half <= width, "\(label) in \(width)")
            }
        }
    }

    @Test("a lifter who never squats with a barbell: bench, deadlift, overhead press, then the most done (the test's count)")
    func threeAndTheMostDone() throws {
        let path = RealExports.moreFolder.appendingPathComponent("strong_DericMei_My-WorkOut-Project.csv").path
        let loaded = try Self.loadedSets(path, exercise: "运动名称", order: "设置顺序", weight: "重量")
        #expect(loaded["Squat (Barbell)"] == nil)
        let most = try #require(loaded.filter { !Self.four.contains($0.key) }.max { $0.value < $1.value }?.key)
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        #expect(try Self.mainLifts(Self.report(cli, path)) == ["Bench Press (Barbell)", "Deadlift (Barbell)", "Overhead Press (Barbell)", most])
    }

    static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// The `<text>` elements of `svg` with `class` (only those centred on their x, if asked), their x and their text.
    static func texts(_ svg: String, class name: String, centred: Bool = false) -> [(x: Double, text: String)] {
        svg.components(separatedBy: "<text ").dropFirst().compactMap { element in
            let head = element.components(separatedBy: ">")[0]
            guard head.contains("class=\"\(name)\""), !centred || head.contains("text-anchor=\"middle\""),
                let x = Double(element.components(separatedBy: "x=\"").dropFirst().first?.split(separator: "\"").first ?? "")
            else { return nil }
            let body = element.components(separatedBy: ">").dropFirst().first?.components(separatedBy: "<").first ?? ""
            return (x, inner(body))
        }
    }

    static func inner(_ s: String) -> String {
        let body = s.hasPrefix(">") ? String(s.dropFirst()) : (s.contains(">") ? String(s[s.index(after: s.firstIndex(of: ">")!)...]) : s)
        return body.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(
            of: "&quot;", with: "\""
        )
        .replacingOccurrences(of: "&amp;", with: "&")
    }
}
