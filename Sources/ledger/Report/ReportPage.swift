import Foundation
import LedgerShell
import RepLedgerCharts
import RepLedgerCore
import RepLedgerProjections

/// One self-contained HTML page: inline CSS and SVG, no scripts, no fonts or
/// images from the network, so it opens offline and prints cleanly.
enum ReportPage {
    static func html(_ r: TrainingReport, generatedAt: Timestamp) -> String {
        let e = SVGChart.escape
        let unit = r.unit.rawValue
        func date(_ day: Int64) -> String {
            let (y, m, d) = CivilCalendar.civil(fromDays: day)
            return "\(d) \(SVGChart.monthNames[m - 1]) \(y)"
        }
        var body = ""
        body += "<header><h1>Training report</h1>"
        body += r.workouts == 0 ? "<p class=\"sub\">No workouts yet.</p>" : "<p class=\"sub\">\(date(r.firstDay)) – \(date(r.lastDay))</p>"
        body += "</header>"
        if r.workouts == 0 {
            body +=
                "<section class=\"card\"><p>Nothing to chart yet: log a workout, import a history with <code>ledger import</code>, or try <code>ledger demo</code>.</p></section>"
            return page(body)
        }
        body += "<section class=\"stats\">"
        for (value, label) in [
            ("\(r.workouts)", "workouts"), (r.sets.formattedThousands, "working sets"),
            (r.unit.fromKilograms(r.tonnageKg).formattedShort, "\(unit) lifted"),
            ("\(r.recordDaysInYear)", "PR days in \(r.year)"),
        ] {
            body += "<div class=\"stat\"><b>\(e(value))</b><span>\(e(label))</span></div>"
        }
        body += "</section>"
        if let window = r.chartWindow, let hidden = r.hidden {
            body +=
                "<section class=\"card\" id=\"hidden\"><p>\(e(window.hiddenNote(hidden, everyPlan: "the records timeline below and `ledger history` show it"))).</p></section>"
        } else if let window = r.chartWindow {
            body += "<section class=\"card\"><p>\(e(window.upsell)).</p></section>"
        }

        // Free's window counts back from today; an imported history may end before it.
        let windowEmpty =
            r.chartWindow.map { "No training since \($0.from.isoDate): Free charts the last \(ChartWindow.freeDays) days" } ?? "No data yet"
        body += card(
            "Estimated 1RM, main lifts",
            "Best e1RM of each \(r.monthlyTrend ? "month" : "week") (\(unit)): squat, bench press, deadlift and overhead press where done, else the most trained.",
            legend(r.lifts.map(\.name))
                + SVGChart.lines(
                    r.lifts.map { l in
                        SVGChart.Series(name: l.name, points: l.points.map { (Double($0.day), $0.value) })
                    }, unit: unit, emptyText: windowEmpty))
        body += card(
            "Weekly volume by muscle group", "Working sets per week, last \(r.weeks.count) training weeks\(r.weekSpan.map { " (\($0))" } ?? "").",
            legend(r.muscleGroups)
                + SVGChart.stackedBars(
                    r.weeks.map { SVGChart.Stack(label: $0.label, values: $0.sets) },
                    names: r.muscleGroups, emptyText: windowEmpty))
        let span = r.recordsFrom == r.firstDay ? "since \(date(r.firstDay))" : "last twelve months"
        body += card(
            "Personal records", "Days with a new heaviest lift or e1RM, \(span).",
            SVGChart.timeline(
                lanes: r.records.map { lane in (lane.name, lane.points.map { (Double($0.day), $0.label) }) },
                from: Double(r.recordsFrom), to: Double(r.lastDay)))
        if !r.bodyLengths.isEmpty {
            body += card(
                "Body measurements", "Every measurement taken (cm).",
                legend(r.bodyLengths.map(\.name))
                    + SVGChart.lines(
                        r.bodyLengths.map { l in SVGChart.Series(name: l.name, points: l.points.map { (Double($0.day), $0.value) }) }, unit: "cm"))
        }
        if !r.bodyFat.isEmpty {
            body += card(
                "Body fat", "Every reading (%).",
                SVGChart.lines(r.bodyFat.map { l in SVGChart.Series(name: l.name, points: l.points.map { (Double($0.day), $0.value) }) }, unit: "%"))
        }
        let weeks = 53
        let lastMonday = r.lastDay - ((r.lastDay + 3) % 7 + 7) % 7
        let levels = r.days.map { d in (d.day, d.sets == 0 ? 1 : min(4, 1 + d.sets / 8), d.title) }
        body += card(
            "Training calendar", "Every training day of the last year; darker is more working sets.",
            SVGChart.calendar(days: levels, from: lastMonday - Int64((weeks - 1) * 7), weeks: weeks))

        body += "<section class=\"card\"><h2>Last workouts</h2><div class=\"workouts\">"
        for w in r.recent {
            body +=
                "<article><h3>\(e(w.name))</h3><p class=\"meta\">\(e(w.date))\(w.duration.isEmpty ? "" : " · " + e(w.duration)) · \(counted(w.sets, "set")) · \(e(w.tonnage))</p>\(w.note.map { "<p class=\"meta\">\(e($0))</p>" } ?? "")<table>"
            for line in w.lines.prefix(8) {
                body += "<tr><td>\(e(line.exercise))</td><td class=\"n\">\(line.sets)×</td><td class=\"n\">\(e(line.best))</td></tr>"
            }
            body += "</table></article>"
        }
        body += "</div></section>"
        body +=
            "<footer>Made by RepLedger from the ledger's event log on \(e(generatedAt.isoDate)). Every number here can be rebuilt from the log.</footer>"
        return page(body)
    }

    static func page(_ body: String) -> String {
        """
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
        <title>Training report</title><style>\(css)</style></head><body><main>\(body)</main></body></html>

        """
    }

    static func card(_ title: String, _ caption: String, _ content: String) -> String {
        "<section class=\"card\"><h2>\(SVGChart.escape(title))</h2><p class=\"caption\">\(SVGChart.escape(caption))</p>\(content)</section>"
    }

    static func legend(_ names: [String]) -> String {
        "<div class=\"legend\">"
            + names.enumerated().map { i, name in
                "<span><i style=\"background:\(SVGChart.palette[i % SVGChart.palette.count])\"></i>\(SVGChart.escape(name))</span>"
            }.joined() + "</div>"
    }

    static let css = """
        *{box-sizing:border-box}body{margin:0;background:#f4f1ec;color:#1d1d1f;font:15px/1.45 -apple-system,BlinkMacSystemFont,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif}
        main{max-width:800px;margin:0 auto;padding:28px 20px 40px}
        header h1{margin:0;font-size:30px;letter-spacing:-.5px}.sub{margin:2px 0 18px;color:#6e6e73}
        .stats{display:grid;grid-template-columns:repeat(4,1fr);gap:12px;margin-bottom:16px}
        .stat{background:#1d1d1f;color:#fff;border-radius:14px;padding:14px 16px}.stat b{display:block;font-size:24px}.stat span{color:#c7c7cc;font-size:13px}
        .card{background:#fff;border-radius:16px;padding:18px 20px;margin-bottom:16px;box-shadow:0 1px 3px rgba(0,0,0,.06)}
        h2{margin:0;font-size:18px}.caption{margin:2px 0 10px;color:#6e6e73;font-size:13px}
        .legend{display:flex;flex-wrap:wrap;gap:6px 14px;margin-bottom:6px;font-size:13px}.legend i{display:inline-block;width:10px;height:10px;border-radius:3px;margin-right:6px}
        svg .grid{stroke:#e5e5ea;stroke-width:1}svg .axis{fill:#8e8e93;font-size:11px}svg .label{fill:#1d1d1f;font-size:12px}
        .workouts{display:grid;grid-template-columns:1fr 1fr;gap:12px;margin-top:10px}
        article{border:1px solid #ececf0;border-radius:12px;padding:12px 14px}article h3{margin:0;font-size:15px}.meta{margin:2px 0 8px;color:#6e6e73;font-size:12px}
        table{width:100%;border-collapse:collapse;font-size:13px}td{padding:2px 0}td.n{text-align:right;white-space:nowrap;padding-left:8px;color:#3a3a3c}
        footer{color:#8e8e93;font-size:12px;text-align:center;margin-top:8px}
        @media (max-width:600px){.stats{grid-template-columns:repeat(2,1fr)}.workouts{grid-template-columns:1fr}}
        """
}

extension Int {
    var formattedThousands: String { Double(self).formattedShort }
}
