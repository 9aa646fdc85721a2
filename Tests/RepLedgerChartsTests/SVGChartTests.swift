import Foundation
import RepLedgerCore
import Testing

@testable import RepLedgerCharts

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// The charts are SVG a strict content policy renders: well-formed, no
/// script and no inline style, every point inside the drawing, every name
/// escaped; the axis steps are round and cover the data.
@Suite struct SVGChartTests {
    /// The elements of `svg` by name, with their attributes → nil when it is not well-formed XML.
    final class Elements: NSObject, XMLParserDelegate {
        var found: [(name: String, attributes: [String: String])] = []
        var text = ""
        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String]) {
            found.append((name, attributes))
        }
        func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }

        static func of(_ svg: String) -> Elements? {
            let parser = XMLParser(data: Data(svg.utf8))
            let elements = Elements()
            parser.delegate = elements
            return parser.parse() ? elements : nil
        }
    }

    /// A seeded generator: the same series on every run.
    struct Seeded: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state
        }
    }

    static func viewBox(_ elements: Elements) throws -> (width: Double, height: Double) {
        let box = try #require(elements.found.first?.attributes["viewBox"]).split(separator: " ").compactMap { Double($0) }
        return (box[2], box[3])
    }

    @Test func ticksAreRoundAndCoverTheRange() {
        var rng = Seeded(state: 7)
        for _ in 0..<500 {
            let lo = Double.random(in: -50...500, using: &rng), span = Double.random(in: 0.01...2_000, using: &rng)
            let ticks = SVGChart.ticks(lo, lo + span)
            let step = ticks[1] - ticks[0]
            // The last tick may fall short of the top by a thousandth of a step (the drawings widen to the data).
            #expect(ticks.first! <= lo && ticks.last! >= lo + span - step / 1000, "\(lo)…\(lo + span): \(ticks)")
            let mantissa = step / pow(10, floor(log10(step)))
            #expect([1, 2, 2.5, 5, 10].contains { abs($0 - mantissa) < 1e-6 }, "step \(step)")
            #expect(ticks.count <= 12)
        }
    }

    @Test func linesStayInsideTheDrawingAndEscapeTheirNames() throws {
        var rng = Seeded(state: 42)
        for _ in 0..<100 {
            let series = (0..<Int.random(in: 1...4, using: &rng)).map { i in
                SVGChart.Series(
                    name: "<script>alert(\(i))</script> & \"co\"",
                    points: (0..<Int.random(in: 0...30, using: &rng)).map { _ in
                        (x: Double.random(in: 20_000...20_400, using: &rng), y: Double.random(in: 0...400, using: &rng))
                    })
            }
            let svg = SVGChart.lines(series, unit: "kg")
            let elements = try #require(Elements.of(svg), "not well-formed: \(svg.prefix(200))")
            #expect(!elements.found.contains { $0.name == "script" || $0.attributes["style"] != nil })
            let (width, height) = try Self.viewBox(elements)
            let circles = elements.found.filter { $0.name == "circle" }
            #expect(circles.count == series.map(\.points.count).reduce(0, +))
            for circle in circles {
                let x = Double(circle.attributes["cx"] ?? "") ?? -1, y = Double(circle.attributes["cy"] ?? "") ?? -1
                #expect((0...width).contains(x) && (0...height).contains(y), "(\(x), \(y)) outside \(width)×\(height)")
            }
            #expect(elements.found.filter { $0.name == "polyline" }.count == series.filter { !$0.points.isEmpty }.count)
        }
    }

    @Test func noDataIsSaidNotDrawn() throws {
        let elements = try #require(Elements.of(SVGChart.lines([], unit: "kg")))
        #expect(elements.text == "No data yet")
        #expect(!elements.found.contains { $0.name == "polyline" || $0.name == "circle" })
    }

    @Test func stackedBarsAreAsTallAsTheirTotals() throws {
        let bars = [
            SVGChart.Stack(label: "W1", values: [10, 20]), SVGChart.Stack(label: "W2", values: [30, 0]),
            SVGChart.Stack(label: "W<3>", values: [5, 5]),
        ]
        let svg = SVGChart.stackedBars(bars, names: ["push", "pull"])
        let elements = try #require(Elements.of(svg))
        #expect(!svg.contains("W<3>") && svg.contains("W&lt;3&gt;"))
        let heights = elements.found.filter { $0.name == "rect" }.compactMap { Double($0.attributes["height"] ?? "") }
        // A layer of 0 draws nothing: W1's two layers, W2's one, W<3>'s two, in proportion to their values.
        try #require(heights.count == 5, "\(heights)")
        #expect(abs(heights[0] * 2 - heights[1]) < 0.2 && abs(heights[0] + heights[1] - heights[2]) < 0.2, "\(heights)")
        #expect(abs(heights[3] - heights[4]) < 0.1 && abs(heights[3] * 6 - heights[2]) < 0.5, "\(heights)")
        let (_, height) = try Self.viewBox(elements)
        #expect(heights.allSatisfy { $0 > 0 && $0 <= height })
    }

    @Test func monthLabelsSayTheirYearsWhereverThinningFalls() {
        // Four years and a bit, thinned to every seventh month: most Januaries are passed over, yet every year is named once.
        let from = Double(CivilCalendar.days(fromCivil: 2022, 3, 15)), to = Double(CivilCalendar.days(fromCivil: 2026, 5, 2))
        let labels = SVGChart.monthLabels(from, to).map(\.0)
        #expect(labels.filter { $0.hasPrefix("Jan") }.count < 4, "\(labels)")
        #expect(labels.compactMap { Int($0.suffix(4)) } == [2022, 2023, 2024, 2025, 2026], "\(labels)")
        #expect(labels.first?.hasSuffix("2022") == true)
    }

    @Test func longNamesWrapBetweenWordsAndAreNeverCut() {
        let name = "Triceps Pushdown (Cable - Straight Bar)"
        let lines = SVGChart.wrap(name, at: 30)
        #expect(lines == ["Triceps Pushdown (Cable -", "Straight Bar)"])
        #expect(SVGChart.wrap("Supercalifragilisticexpialidocious-Press", at: 10) == ["Supercalifragilisticexpialidocious-Press"])
        let svg = SVGChart.timeline(lanes: [(name, [(x: 1, label: "a")])], from: 0, to: 2)
        #expect(
            svg.contains(">Triceps Pushdown (Cable -</tspan>") && svg.contains(">Straight Bar)</tspan>")
                && svg.contains("<title>\(SVGChart.escape(name))</title>"))
    }

    @Test func escapeLeavesNoMarkup() {
        #expect(SVGChart.escape(#"<a href="x">&</a>"#) == "&lt;a href=&quot;x&quot;&gt;&amp;&lt;/a&gt;")
    }
}
