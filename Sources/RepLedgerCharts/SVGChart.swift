import Foundation
import RepLedgerCore

/// Small SVG charts for the HTML report and the coach's pages: plain shapes,
/// no scripts and no inline styles, so a page renders anywhere (a browser, a
/// mail client, a PDF printer) offline and under a strict content policy.
public enum SVGChart {
    public static let palette = ["#e4572e", "#2e86ab", "#76b041", "#f3a712", "#8e5ea2", "#29335c", "#a8c686", "#db2763"]

    public static func escape(_ s: String) -> String {
        s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }

    static func n(_ v: Double) -> String { String(format: "%.1f", v) }

    /// Round axis steps: 1, 2, 2.5 or 5 times a power of ten.
    static func ticks(_ lo: Double, _ hi: Double, count: Int = 5) -> [Double] {
        guard hi > lo else { return [lo] }
        let raw = (hi - lo) / Double(count)
        let p = pow(10, floor(log10(raw)))
        let step = [1, 2, 2.5, 5, 10].map { $0 * p }.first { $0 >= raw } ?? raw
        var out: [Double] = []
        // From the step at or below `lo` to the one at or above `hi` (or short of it by under a thousandth
        // of a step, a float's error on an exact hit); the charts widen their range to the data besides.
        var t = (lo / step).rounded(.down) * step
        while t < hi + step * 0.999 { out.append(t); t += step }
        return out
    }

    public struct Series {
        public var name: String
        /// x in days since 1970, y in display units.
        public var points: [(x: Double, y: Double)]
        public init(name: String, points: [(x: Double, y: Double)]) {
            self.name = name
            self.points = points
        }
    }

    /// Lines over time with dots, a y grid and month labels.
    /// `emptyText` is said when there is nothing to draw.
    public static func lines(_ series: [Series], width: Double = 720, height: Double = 280, unit: String, emptyText: String = "No data yet") -> String
    {
        let all = series.flatMap(\.points)
        guard let x0 = all.map(\.x).min(), let x1 = all.map(\.x).max(),
            let yMin = all.map(\.y).min(), let yMax = all.map(\.y).max()
        else { return empty(width, height, emptyText) }
        let padY = max(1, (yMax - yMin) * 0.08)
        let ticksY = ticks(max(0, yMin - padY), yMax + padY)
        let lo = min(ticksY.first ?? yMin, yMin), hi = max(ticksY.last ?? yMax, yMax)
        let left = 52.0, right = 16.0, top = 14.0, bottom = 30.0
        func px(_ x: Double) -> Double { left + (x1 == x0 ? 0.5 : (x - x0) / (x1 - x0)) * (width - left - right) }
        func py(_ y: Double) -> Double { top + (hi == lo ? 0.5 : 1 - (y - lo) / (hi - lo)) * (height - top - bottom) }
        var s = open(width, height)
        for t in ticksY {
            s += "<line x1=\"\(n(left))\" x2=\"\(n(width - right))\" y1=\"\(n(py(t)))\" y2=\"\(n(py(t)))\" class=\"grid\"/>"
            s += "<text x=\"\(n(left - 6))\" y=\"\(n(py(t) + 4))\" class=\"axis\" text-anchor=\"end\">\(t.formattedShort)</text>"
        }
        s += axisLabels(monthLabels(x0, x1), at: px, y: height - 8, width: width)
        for (i, line) in series.enumerated() where !line.points.isEmpty {
            let color = palette[i % palette.count]
            let path = line.points.map { "\(n(px($0.x))),\(n(py($0.y)))" }.joined(separator: " ")
            s += "<polyline points=\"\(path)\" fill=\"none\" stroke=\"\(color)\" stroke-width=\"2.5\" stroke-linejoin=\"round\"/>"
            for p in line.points { s += "<circle cx=\"\(n(px(p.x)))\" cy=\"\(n(py(p.y)))\" r=\"3\" fill=\"\(color)\"/>" }
        }
        return s + "</svg>"
    }

    public struct Stack {
        public var label: String
        public var values: [Double]
        public init(label: String, values: [Double]) {
            self.label = label
            self.values = values
        }
    }

    /// Stacked bars, one per label; `names` are the layers, in palette order.
    public static func stackedBars(
        _ bars: [Stack], names: [String], width: Double = 720, height: Double = 280, emptyText: String = "No data yet"
    ) -> String {
        let totals = bars.map { $0.values.reduce(0, +) }
        guard let top = totals.max(), top > 0 else { return empty(width, height, emptyText) }
        let ticksY = ticks(0, top)
        let hi = max(ticksY.last ?? top, top)
        let left = 40.0, right = 8.0, topPad = 14.0, bottom = 30.0
        let slot = (width - left - right) / Double(bars.count)
        func py(_ y: Double) -> Double { topPad + (1 - y / hi) * (height - topPad - bottom) }
        var s = open(width, height)
        for t in ticksY {
            s += "<line x1=\"\(n(left))\" x2=\"\(n(width - right))\" y1=\"\(n(py(t)))\" y2=\"\(n(py(t)))\" class=\"grid\"/>"
            s += "<text x=\"\(n(left - 6))\" y=\"\(n(py(t) + 4))\" class=\"axis\" text-anchor=\"end\">\(t.formattedShort)</text>"
        }
        for (i, bar) in bars.enumerated() {
            let x = left + Double(i) * slot + slot * 0.15
            var base = 0.0
            for (layer, v) in bar.values.enumerated() where v > 0 {
                let y0 = py(base), y1 = py(base + v)
                s +=
                    "<rect x=\"\(n(x))\" y=\"\(n(y1))\" width=\"\(n(slot * 0.7))\" height=\"\(n(y0 - y1))\" fill=\"\(palette[layer % palette.count])\"><title>\(escape(bar.label)) \(escape(names[layer])): \(v.formattedShort)</title></rect>"
                base += v
            }
            if bars.count <= 16 || i % 2 == 0 {
                s += "<text x=\"\(n(x + slot * 0.35))\" y=\"\(n(height - 8))\" class=\"axis\" text-anchor=\"middle\">\(escape(bar.label))</text>"
            }
        }
        return s + "</svg>"
    }

    /// A year of days as GitHub-style squares, Monday on top; `level` 0–4 per day.
    public static func calendar(days: [(day: Int64, level: Int, title: String)], from first: Int64, weeks: Int) -> String {
        let cell = 13.0, gap = 3.0, left = 28.0, top = 18.0
        // Room on the right for a month label that starts in the last column.
        let width = left + Double(weeks) * (cell + gap) + 48, height = top + 7 * (cell + gap)
        let colors = ["#ebedf0", "#ffd8c2", "#ffa77a", "#f0703c", "#c2410c"]
        let byDay = Dictionary(days.map { ($0.day, ($0.level, $0.title)) }, uniquingKeysWith: { a, _ in a })
        var s = open(width, height)
        for (row, name) in [(0, "Mon"), (2, "Wed"), (4, "Fri")] {
            s += "<text x=\"0\" y=\"\(n(top + Double(row) * (cell + gap) + 10))\" class=\"axis\">\(name)</text>"
        }
        var lastMonth = 0
        for w in 0..<weeks {
            let monday = first + Int64(w * 7)
            let (_, m, d) = CivilCalendar.civil(fromDays: monday)
            if m != lastMonth, d <= 7 {
                // The year is said where it starts (January) and on the first label, so the chart is never ambiguous.
                let (y, _, _) = CivilCalendar.civil(fromDays: monday)
                let label = lastMonth == 0 || m == 1 ? "\(monthNames[m - 1]) \(y)" : monthNames[m - 1]
                s += "<text x=\"\(n(left + Double(w) * (cell + gap)))\" y=\"10\" class=\"axis\">\(label)</text>"
                lastMonth = m
            }
            for wd in 0..<7 {
                let day = monday + Int64(wd)
                let (level, title) = byDay[day] ?? (0, "")
                let (y, mo, dd) = CivilCalendar.civil(fromDays: day)
                let tip = String(format: "%04d-%02d-%02d", y, mo, dd) + (title.isEmpty ? ": rest" : ": " + title)
                s +=
                    "<rect x=\"\(n(left + Double(w) * (cell + gap)))\" y=\"\(n(top + Double(wd) * (cell + gap)))\" width=\"\(n(cell))\" height=\"\(n(cell))\" rx=\"2\" fill=\"\(colors[level])\"><title>\(escape(tip))</title></rect>"
            }
        }
        return s + "</svg>"
    }

    /// Records as dots on a time line, one lane per exercise.
    public static func timeline(
        lanes: [(name: String, points: [(x: Double, label: String)])], from x0: Double, to x1: Double,
        width: Double = 720
    ) -> String {
        let laneHeight = 34.0, right = 16.0, top = 8.0
        let height = top + Double(lanes.count) * laneHeight + 26
        guard !lanes.isEmpty else { return empty(width, 80) }
        // Names are never cut: the margin grows to the longest line (to a third of the width), and a
        // longer name goes on two lines.
        let names = lanes.map { wrap($0.name, at: maxLineCharacters) }
        let widest = names.flatMap { $0 }.map { textWidth($0, fontSize: 12) }.max() ?? 0
        let left = min(width / 3, max(120, widest + 18))
        func px(_ x: Double) -> Double { left + (x1 == x0 ? 0.5 : (x - x0) / (x1 - x0)) * (width - left - right) }
        var s = open(width, height)
        for (i, lane) in lanes.enumerated() {
            let y = top + Double(i) * laneHeight + laneHeight / 2
            let color = palette[i % palette.count]
            let lines = names[i]
            s += "<text x=\"\(n(left - 10))\" y=\"\(n(y + 4 - Double(lines.count - 1) * 7))\" class=\"label\" text-anchor=\"end\">"
            for (k, line) in lines.enumerated() {
                s += k == 0 ? "<tspan>\(escape(line))</tspan>" : "<tspan x=\"\(n(left - 10))\" dy=\"14\">\(escape(line))</tspan>"
            }
            s += "<title>\(escape(lane.name))</title></text>"
            s += "<line x1=\"\(n(left))\" x2=\"\(n(width - right))\" y1=\"\(n(y))\" y2=\"\(n(y))\" class=\"grid\"/>"
            for p in lane.points {
                s +=
                    "<circle cx=\"\(n(px(p.x)))\" cy=\"\(n(y))\" r=\"5.5\" fill=\"\(color)\" fill-opacity=\"0.85\" stroke=\"#fff\" stroke-width=\"1.5\"><title>\(escape(p.label))</title></circle>"
            }
        }
        s += axisLabels(monthLabels(x0, x1), at: px, y: height - 8, width: width)
        return s + "</svg>"
    }

    public static let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// First days of months between two day numbers, thinned to at most eight labels, with years.
    static func monthLabels(_ x0: Double, _ x1: Double) -> [(String, Double)] {
        var out: [(year: Int, month: Int, day: Double)] = []
        var (y, m, _) = CivilCalendar.civil(fromDays: Int64(x0))
        while true {
            m += 1
            if m > 12 { m = 1; y += 1 }
            let day = Double(CivilCalendar.days(fromCivil: y, m, 1))
            if day > x1 { break }
            out.append((y, m, day))
        }
        let every = max(1, Int((Double(out.count) / 8).rounded(.up)))
        let shown = out.enumerated().filter { $0.offset % every == 0 }.map(\.element)
        // Thinning may pass over January: the first label and each one in a new year say the year.
        return shown.enumerated().map { i, l in
            (i == 0 || shown[i - 1].year != l.year ? "\(monthNames[l.month - 1]) \(l.year)" : monthNames[l.month - 1], l.day)
        }
    }

    /// Axis labels centred on their x, moved in where a label would stick out of the drawing.
    static func axisLabels(_ labels: [(String, Double)], at px: (Double) -> Double, y: Double, width: Double) -> String {
        labels.map { label, x in
            let half = textWidth(label, fontSize: 11) / 2
            let cx = min(max(px(x), half + 2), width - half - 2)
            return "<text x=\"\(n(cx))\" y=\"\(n(y))\" class=\"axis\" text-anchor=\"middle\">\(escape(label))</text>"
        }.joined()
    }

    /// The longest line a lane name keeps before it wraps.
    static let maxLineCharacters = 30

    /// `text` in lines of at most `limit` characters, broken between words (a word longer than that is a line of its own).
    static func wrap(_ text: String, at limit: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty, line.count + 1 + word.count > limit {
                lines.append(line)
                line = ""
            }
            line += line.isEmpty ? String(word) : " " + word
        }
        return lines + (line.isEmpty ? [] : [line])
    }

    /// A generous estimate of a line's width in the report's sans-serif (about 0.6 em a character), so nothing drawn from it is cut.
    static func textWidth(_ text: String, fontSize: Double) -> Double { Double(text.count) * fontSize * 0.6 }

    static func open(_ w: Double, _ h: Double) -> String {
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(n(w)) \(n(h))\" width=\"100%\" role=\"img\">"
    }

    static func empty(_ w: Double, _ h: Double, _ message: String = "No data yet") -> String {
        open(w, h) + "<text x=\"\(n(w / 2))\" y=\"\(n(h / 2))\" class=\"axis\" text-anchor=\"middle\">\(escape(message))</text></svg>"
    }
}

extension Double {
    /// 1234 → "1,234"; 12.5 → "12.5".
    public var formattedShort: String {
        if abs(self) >= 1000 {
            let digits = String(Int(abs(self).rounded()))
            var out = ""
            for (i, c) in digits.enumerated() {
                if i > 0, (digits.count - i) % 3 == 0 { out.append(",") }
                out.append(c)
            }
            return (self < 0 ? "-" : "") + out
        }
        return ((self * 10).rounded() / 10).formatted
    }
}
