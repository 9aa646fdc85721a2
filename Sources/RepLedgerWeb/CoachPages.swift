import Foundation
import RepLedgerCharts
import RepLedgerCore
import RepLedgerQueries
import RepLedgerService

/// The coach dashboard's HTML, written here (no template engine): plain
/// server-rendered pages that work without JavaScript, one stylesheet, the
/// report's SVG charts, and every figure printed from the value the JSON API
/// serves (`ClientProgress`), so the two never differ.
package enum CoachPages {
    package static func e(_ s: String) -> String { SVGChart.escape(s) }

    /// Which pages a page belongs to: the name in its header and title, and where they live.
    package struct Site: Sendable {
        package var name: String
        package var root: String
        package static let coach = Site(name: "RepLedger Coach", root: "/coach")
        package static let account = Site(name: "RepLedger Account", root: "/account")
    }

    package static func page(_ title: String, _ body: String, signedIn csrf: String? = nil, site: Site = .coach) -> String {
        var header = "<header class=\"top\"><a class=\"brand\" href=\"\(site.root)\">\(e(site.name))</a>"
        if let csrf {
            header +=
                "<form method=\"post\" action=\"\(site.root)/sign-out\">\(hidden(csrf))<button class=\"link\" type=\"submit\" id=\"sign-out\">Sign out</button></form>"
        }
        header += "</header>"
        return """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(e(title)) · \(e(site.name))</title><link rel="stylesheet" href="/coach/style.css"></head>
            <body>\(header)<main>\(body)</main></body></html>

            """
    }

    package static func hidden(_ csrf: String) -> String { "<input type=\"hidden\" name=\"csrf\" value=\"\(e(csrf))\">" }

    // MARK: Sign-in

    package static func signIn(csrf: String, error: String? = nil) -> String {
        var body =
            "<section class=\"card narrow\"><h1>Sign in</h1><p id=\"by-account\">Signed up with an emailed code or Apple? <a href=\"/account/sign-in\" id=\"account-sign-in\">Sign in to your account</a>, then choose “Open the coach’s dashboard”.</p>"
            + "<p class=\"caption\">Or with a coach account's token from this server's operator (<code>ledger server token create</code>):</p>"
        if let error { body += "<p class=\"error\" role=\"alert\">\(e(error))</p>" }
        body += """
            <form method="post" action="/coach/sign-in">\(hidden(csrf))
            <label for="token">Token</label><input id="token" name="token" type="password" autocomplete="current-password" required>
            <button type="submit" id="sign-in">Sign in</button></form></section>
            """
        return page("Sign in", body)
    }

    package static func message(_ title: String, _ text: String, csrf: String?) -> String {
        page(
            title,
            "<section class=\"card\"><h1>\(e(title))</h1><p class=\"error\" role=\"alert\">\(e(text))</p><p><a href=\"/coach\">Back to the clients</a></p></section>",
            signedIn: csrf)
    }

    // MARK: Figures, worded once for both pages

    package static func percent(_ x: Double?) -> String { x.map { "\(Int(($0 * 100).rounded()))%" } ?? "–" }

    package static func kg(_ x: Double?) -> String { x.map { "\($0.formattedShort) kg" } ?? "–" }

    package static func signed(_ x: Double, unit: String = " kg") -> String { (x > 0 ? "+" : x < 0 ? "−" : "±") + abs(x).formattedShort + unit }

    package static func reason(_ r: ClientProgress.Reason, _ p: ClientProgress) -> String {
        switch r {
        case .noWorkoutIn7Days: return p.daysSinceLastWorkout.map { "no workout in \($0) days" } ?? "no workout yet"
        case .complianceFell:
            let before = percent(p.previousSessions30), now = percent(p.compliance?.sessions30)
            return "sessions fell from \(before) to \(now) (30 days)"
        }
    }

    package static func lastWorkout(_ p: ClientProgress) -> String {
        guard let at = p.lastWorkoutAt, let days = p.daysSinceLastWorkout else { return "never" }
        return days == 0 ? "today" : days == 1 ? "yesterday (\(at.isoDate))" : "\(days) days ago (\(at.isoDate))"
    }

    // MARK: The roster

    package static func roster(
        coach: String, rows: [LedgerAPI.RosterRow], csrf: String, newInvite: (code: String, expiresAt: String)? = nil
    ) -> String {
        var body = "<h1>Clients</h1><p class=\"caption\">\(e(coach)) · \(rows.count) client\(rows.count == 1 ? "" : "s"), needs-attention first</p>"
        if let newInvite {
            body +=
                "<section class=\"card invite\" id=\"new-invite\"><h2>Invite code</h2><p class=\"code\">\(e(newInvite.code))</p><p class=\"caption\">Shown this once. It works once, until \(e(newInvite.expiresAt)); the client runs <code>ledger coach accept CODE</code>.</p></section>"
        }
        if rows.isEmpty {
            body += "<section class=\"card\"><p>No clients yet: make an invite below and send the code to your client.</p></section>"
        } else {
            body +=
                "<div class=\"table\"><table class=\"roster\"><thead><tr><th>Client</th><th>Last workout</th><th>Sessions 7 d / 30 d</th><th>Sets 7 d / 30 d</th><th>Records 7 d</th><th>Volume this week</th><th>Bodyweight</th></tr></thead><tbody>"
            for row in rows {
                let p = row.progress
                let attention = p.needsAttention
                body += "<tr data-client=\"\(e(row.accountId))\" class=\"\(attention ? "attention" : "")\">"
                body += "<td><a href=\"/coach/clients/\(e(row.accountId))\">\(e(row.name.isEmpty ? row.accountId : row.name))</a>"
                if attention { body += "<span class=\"flag\">\(e(p.reasons.map { reason($0, p) }.joined(separator: "; ")))</span>" }
                body += "</td><td data-label=\"Last workout\">\(e(lastWorkout(p)))</td>"
                if let c = p.compliance {
                    body +=
                        "<td data-label=\"Sessions\" class=\"n\">\(percent(c.sessions7)) / \(percent(c.sessions30))</td><td data-label=\"Sets\" class=\"n\">\(percent(c.sets7)) / \(percent(c.sets30))</td>"
                } else {
                    body += "<td data-label=\"Sessions\" class=\"n muted\">no program</td><td data-label=\"Sets\" class=\"n muted\">–</td>"
                }
                body += "<td data-label=\"Records\" class=\"n\">\(p.records7.count)</td>"
                body += "<td data-label=\"Volume\" class=\"n\">\(kg(p.weeklyVolumeKg)) <small>\(signed(p.weeklyVolumeChangeKg))</small></td>"
                body +=
                    "<td data-label=\"Bodyweight\" class=\"n\">\(kg(p.bodyweightKg))\(p.bodyweightChange30DaysKg.map { " <small>\(signed($0)) / 30 d</small>" } ?? "")</td></tr>"
            }
            body += "</tbody></table></div>"
        }
        body += """
            <section class="card"><h2>Invite a client</h2><form method="post" action="/coach/invites" class="row">\(hidden(csrf))
            <label for="invite-note" class="sr">Note</label><input id="invite-note" name="note" maxlength="200" placeholder="A note to know it by (optional)">
            <button type="submit" id="make-invite">Make an invite code</button></form></section>
            """
        return page("Clients", body, signedIn: csrf)
    }

    // MARK: A client's page

    static func client(_ d: ClientPageData, csrf: String) -> String {
        let p = d.progress
        var body = "<p class=\"crumb\"><a href=\"/coach\">Clients</a></p><h1 id=\"client-name\">\(e(d.name.isEmpty ? d.accountId : d.name))</h1>"
        body +=
            "<p class=\"caption\">\(p.program.map { "Program: \(e($0))" } ?? "No active program") · last workout \(e(lastWorkout(p))) · <a id=\"inspect\" href=\"/inspect/clients/\(e(d.accountId))/log\">Inspect the log</a></p>"
        if p.needsAttention {
            body += "<p class=\"flag big\">Needs attention: \(e(p.reasons.map { reason($0, p) }.joined(separator: "; ")))</p>"
        }
        body += "<section class=\"stats\">"
        for (value, label, id) in [
            (percent(p.compliance?.sessions7), "sessions, 7 days", "sessions7"),
            (percent(p.compliance?.sessions30), "sessions, 30 days", "sessions30"),
            (percent(p.compliance?.sets7), "planned sets, 7 days", "sets7"), (percent(p.compliance?.sets30), "planned sets, 30 days", "sets30"),
            ("\(p.workoutsLast7Days)", "workouts, 7 days", "workouts7"), ("\(p.records7.count)", "records, 7 days", "records7"),
            (kg(p.weeklyVolumeKg), "volume this week (\(signed(p.weeklyVolumeChangeKg)))", "volume"),
            (kg(p.bodyweightKg), "bodyweight\(p.bodyweightChange30DaysKg.map { " (\(signed($0)) / 30 d)" } ?? "")", "bodyweight"),
        ] {
            body += "<div class=\"stat\" id=\"stat-\(id)\"><b>\(e(value))</b><span>\(e(label))</span></div>"
        }
        body += "</section>"

        // Four weeks of planned vs done.
        body +=
            "<section class=\"card\"><h2>Last four weeks</h2><p class=\"caption\">● trained, ○ planned by the active program's schedule and not trained.</p><table class=\"weeks\"><thead><tr><th>Week of</th>"
        for day in ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"] { body += "<th>\(day)</th>" }
        body += "<th>Done / planned</th></tr></thead><tbody>"
        for w in p.weeks {
            // The program's planned week under the date: "week 2 of 5 (accumulation, RIR 2, …)" or a deload.
            let block = w.blockWeek.map { "<br><small class=\"block\(w.blockWeek!.deload ? " deload" : "")\">\(e($0.line))</small>" } ?? ""
            body += "<tr><td>\(e(w.monday))\(block)</td>"
            let monday = CivilCalendar.days(fromCivil: Int(w.monday.prefix(4))!, Int(w.monday.dropFirst(5).prefix(2))!, Int(w.monday.suffix(2))!)
            for i in 0..<7 {
                let (y, m, dd) = CivilCalendar.civil(fromDays: monday + Int64(i))
                let date = String(format: "%04d-%02d-%02d", y, m, dd)
                let planned = w.plannedDays.contains(date) ? " (planned)" : ""
                if w.trainedDays.contains(date) {
                    body += "<td class=\"day done\" title=\"\(date): trained\(planned)\">●</td>"
                } else if !planned.isEmpty {
                    body += "<td class=\"day planned\" title=\"\(date): planned\">○</td>"
                } else {
                    body += "<td class=\"day\" title=\"\(date)\"></td>"
                }
            }
            body += "<td class=\"n\">\(w.done) / \(w.planned.map { $0.formattedShort } ?? "–")</td></tr>"
        }
        body += "</tbody></table></section>"

        if let s = p.lastSession {
            body +=
                "<section class=\"card\" id=\"last-session\"><h2>Last session: \(e(s.name))</h2><p class=\"caption\">\(e(s.startedAt.localText))</p><table><tbody>"
            for line in s.sets {
                var what = ""
                if let reps = line.reps { what = line.weightKg.map { "\($0.formattedShort) kg × \(reps)" } ?? "\(reps) reps" }
                if what.isEmpty, let seconds = line.durationSeconds { what = "\(Int(seconds)) s" }
                body += "<tr><td>\(e(line.exercise))</td><td class=\"n\">\(e(what))</td></tr>"
            }
            body += "</tbody></table></section>"
        }
        body += "<section class=\"card\" id=\"records\"><h2>Records, last 7 days</h2>"
        if p.records7.isEmpty {
            body += "<p class=\"muted\">None.</p>"
        } else {
            body += "<table><tbody>"
            for line in p.recordLines {
                body += "<tr><td>\(e(line.set))</td><td>\(e(line.what))</td><td class=\"n\">\(e(line.at.isoDate))</td></tr>"
            }
            body += "</tbody></table>"
        }
        body += "</section>"

        if !d.lifts.isEmpty {
            body += card(
                "Estimated 1RM",
                "Best e1RM of each workout in the last 12 weeks, kg: the lifts most trained in them, " + d.lifts.map(\.name).joined(separator: ", ")
                    + ".",
                legend(d.lifts.map(\.name))
                    + SVGChart.lines(d.lifts.map { SVGChart.Series(name: $0.name, points: $0.points.map { (x: $0.day, y: $0.kg) }) }, unit: "kg"),
                id: "e1rm")
        }
        if !d.volume.isEmpty {
            body += card(
                "Weekly volume", "Tonnage per training week, kg.",
                SVGChart.stackedBars(d.volume.map { SVGChart.Stack(label: $0.label, values: [$0.kg]) }, names: ["kg"]))
        }
        if d.bodyweight.count > 1 {
            body += card(
                "Bodyweight", "Weigh-ins, kg.",
                SVGChart.lines([SVGChart.Series(name: "Bodyweight", points: d.bodyweight.map { (x: $0.day, y: $0.kg) })], unit: "kg"))
        }

        body += "<section class=\"card\" id=\"notes\"><h2>Notes</h2><p class=\"caption\">In your own log only; the client never sees them.</p>"
        body +=
            "<form method=\"post\" action=\"/coach/clients/\(e(d.accountId))/notes\">\(hidden(csrf))<label for=\"note\" class=\"sr\">Note</label><textarea id=\"note\" name=\"text\" rows=\"3\" maxlength=\"10000\" required></textarea><button type=\"submit\" id=\"add-note\">Add note</button></form>"
        body += "<ul class=\"notes\">"
        for n in d.notes { body += "<li><time>\(e(n.at.localText))</time> \(e(n.text))</li>" }
        body += "</ul></section>"

        body += "<section class=\"card\" id=\"assign\"><h2>Assign a program or template</h2>"
        if d.programs.isEmpty && d.templates.isEmpty {
            body +=
                "<p class=\"muted\">You have no program or template yet: make one with <code>ledger program generate</code> or <code>ledger template create</code> and sync.</p>"
        } else {
            body +=
                "<form method=\"post\" action=\"/coach/clients/\(e(d.accountId))/assignments\" class=\"row\">\(hidden(csrf))<label for=\"assignment\" class=\"sr\">What</label><select id=\"assignment\" name=\"what\">"
            for (ref, label) in d.programs { body += "<option value=\"program:\(e(ref))\">Program: \(e(label))</option>" }
            for (ref, label) in d.templates { body += "<option value=\"template:\(e(ref))\">Template: \(e(label))</option>" }
            body += "</select><button type=\"submit\" id=\"assign-button\">Offer it</button></form>"
        }
        if !d.offers.isEmpty {
            body += "<table class=\"offers\"><tbody>"
            for (o, status) in d.offers.reversed() {
                body +=
                    "<tr data-assignment=\"\(e(o.offer.assignmentId.lowercased))\"><td>\(e(o.offer.kind.rawValue)): \(e(o.offer.name))</td><td>\(e(o.offeredAt.isoDate))</td><td class=\"status \(e(status))\">\(e(status))</td></tr>"
            }
            body += "</tbody></table>"
        }
        body += "</section>"
        return page(d.name, body, signedIn: csrf)
    }

    package static func card(_ title: String, _ caption: String, _ content: String, id: String? = nil) -> String {
        "<section class=\"card chart\"\(id.map { " id=\"\(e($0))\"" } ?? "")><h2>\(e(title))</h2><p class=\"caption\">\(e(caption))</p>\(content)</section>"
    }

    /// The chart legend as SVG swatches: the page's policy allows no inline styles.
    package static func legend(_ names: [String]) -> String {
        "<div class=\"legend\">"
            + names.enumerated().map { i, name in
                "<span><svg width=\"10\" height=\"10\" aria-hidden=\"true\"><rect width=\"10\" height=\"10\" rx=\"3\" fill=\"\(SVGChart.palette[i % SVGChart.palette.count])\"/></svg> \(e(name))</span>"
            }.joined() + "</div>"
    }

    package static let css = """
        *{box-sizing:border-box}body{margin:0;background:#f4f1ec;color:#1d1d1f;font:15px/1.45 -apple-system,BlinkMacSystemFont,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif}
        .top{display:flex;justify-content:space-between;align-items:center;padding:12px 20px;background:#1d1d1f;color:#fff}.top a{color:#fff;text-decoration:none;font-weight:600}
        .top form{margin:0}button.link{background:none;border:0;color:#fff;text-decoration:underline;cursor:pointer;padding:0;font:inherit}
        main{max-width:1000px;margin:0 auto;padding:24px 20px 40px}h1{margin:0;font-size:28px;letter-spacing:-.4px}h2{margin:0 0 4px;font-size:18px}
        .caption{margin:2px 0 14px;color:#6e6e73;font-size:13px}.crumb{margin:0 0 6px;font-size:13px}.muted{color:#8e8e93}
        .card{background:#fff;border-radius:16px;padding:18px 20px;margin-bottom:16px;box-shadow:0 1px 3px rgba(0,0,0,.06)}.narrow{max-width:420px;margin:40px auto}
        .stats{display:grid;grid-template-columns:repeat(4,1fr);gap:12px;margin:14px 0 16px}
        .stat{background:#1d1d1f;color:#fff;border-radius:14px;padding:12px 14px}.stat b{display:block;font-size:22px}.stat span{color:#c7c7cc;font-size:12px}
        .table{overflow-x:auto;margin-bottom:16px}table{width:100%;border-collapse:collapse;font-size:14px}
        .roster{background:#fff;border-radius:16px;overflow:hidden}th{text-align:left;font-size:12px;color:#6e6e73;font-weight:600;padding:10px 12px;border-bottom:1px solid #ececf0}
        td{padding:9px 12px;border-bottom:1px solid #f2f2f5;vertical-align:top}td.n{text-align:right;white-space:nowrap}td small{color:#6e6e73}
        tr.attention td:first-child{border-left:4px solid #e4572e}.flag{display:block;color:#b3261e;font-size:12px;margin-top:2px}.flag.big{font-size:14px;margin:8px 0 0}
        .weeks td,.weeks th{text-align:center;padding:6px 4px}.weeks td:first-child,.weeks th:first-child{text-align:left}.day.done{color:#2e86ab;font-size:18px;line-height:1}.day.planned{color:#8e8e93;font-size:18px;line-height:1}
        form{margin:8px 0}label{display:block;font-size:13px;margin:8px 0 4px}.sr{position:absolute;left:-9999px}
        input,textarea,select{width:100%;font:inherit;padding:9px 10px;border:1px solid #d2d2d7;border-radius:10px;background:#fff}
        button{margin-top:10px;font:inherit;font-weight:600;padding:9px 16px;border:0;border-radius:10px;background:#2e86ab;color:#fff;cursor:pointer}
        .row{display:flex;gap:10px;align-items:flex-end}.row input,.row select{flex:1}.row button{margin-top:0;white-space:nowrap}
        .error{color:#b3261e}.code{font:600 26px/1.2 ui-monospace,Menlo,monospace;letter-spacing:2px;margin:6px 0}
        .notes{list-style:none;padding:0;margin:12px 0 0}.notes li{padding:8px 0;border-top:1px solid #f2f2f5}.notes time{color:#6e6e73;font-size:12px;margin-right:6px}
        .status.accepted{color:#2e7d32}.status.declined{color:#b3261e}.legend{display:flex;flex-wrap:wrap;gap:6px 14px;margin-bottom:6px;font-size:13px}
        svg{max-width:100%;height:auto}svg .grid{stroke:#e5e5ea;stroke-width:1}svg .axis{fill:#8e8e93;font-size:11px}svg .label{fill:#1d1d1f;font-size:12px}
        code{font-size:13px;background:#f2f2f5;padding:1px 5px;border-radius:5px}
        td form{margin:0}td button.link{color:#b3261e;margin:0}.tag{font-size:11px;background:#e8f3f8;color:#1f6f91;border-radius:6px;padding:1px 6px;margin-left:6px}
        .notice{color:#2e7d32}button.danger{background:#b3261e}#new-token{display:inline-block;word-break:break-all;font-size:14px}
        @media (max-width:640px){.stats{grid-template-columns:repeat(2,1fr)}.roster thead{display:none}.roster tr{display:block;border-bottom:1px solid #ececf0;padding:6px 0}
        .roster td{display:flex;justify-content:space-between;border:0;padding:4px 12px}.roster td.n{text-align:right}.roster td::before{content:attr(data-label);color:#6e6e73;font-size:12px;margin-right:10px}
        .roster td:first-child{display:block}.row{flex-direction:column;align-items:stretch}.weeks{font-size:12px}}
        """
}
