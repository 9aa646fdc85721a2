import Foundation
import RepLedgerCore
import RepLedgerProjections
import RepLedgerQueries

/// The inspector's HTML, written here as the coach's pages are: server-rendered, working without
/// JavaScript (every step is a link), one stylesheet, and every figure printed from the answer the
/// page's JSON serves. A derived number is a `data-why` link to the events and rule that made it.
package enum InspectorPages {
    static func e(_ s: String) -> String { CoachPages.e(s) }

    /// A number as the JSON documents write it, so `data-…-kg` attributes equal the CLI's `--json`.
    static func json(_ x: Double?) -> String { x.map { JSONValue.number($0).rendered } ?? "" }

    /// Where a page sits and whose log it shows: the server's pages say whose log it is and offer
    /// a sign-out; `ledger inspect`'s have one log and no account.
    package struct Frame: Sendable {
        /// The pages' links start here (`/inspect`, or `/inspect/clients/ID` for a coach's client).
        package var base: String
        /// Where the stylesheet and the script are.
        package var assets: String
        /// Whose log this is, said under the title (the server's pages).
        package var reader: String?
        /// The session's CSRF token for the sign-out form (the server's pages).
        package var signOut: String?
        /// The log's first bad position, said on every page while the chain is broken.
        package var damage: ChainDamage?

        package init(base: String, assets: String? = nil, reader: String? = nil, signOut: String? = nil) {
            self.base = base
            self.assets = assets ?? base
            self.reader = reader
            self.signOut = signOut
        }
    }

    static func page(_ title: String, _ body: String, frame: Frame) -> String {
        let base = frame.base, assets = frame.assets
        var account = ""
        if let reader = frame.reader { account += "<span class=\"reader\" id=\"reader\">\(e(reader))</span>" }
        if let csrf = frame.signOut {
            account +=
                "<form method=\"post\" action=\"\(assets)/sign-out\" class=\"sign-out\"><input type=\"hidden\" name=\"csrf\" value=\"\(e(csrf))\"><button type=\"submit\" id=\"sign-out\">Sign out</button></form>"
        }
        return """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(e(title)) · RepLedger Inspector</title><link rel="stylesheet" href="\(assets)/style.css"><script src="\(assets)/inspector.js" defer></script></head>
            <body><header class="top"><a class="brand" href="\(base)/log">RepLedger Inspector</a><nav class="tabs"><a href="\(base)/log">Log</a><a href="\(base)/at">As of</a><a href="\(base)/rules">Rules</a><a href="\(base)/verify">Verify</a></nav>\(account)</header>
            <main>\(damageBanner(frame))\(body)</main></body></html>

            """
    }

    /// The alert every page shows above its content while the log fails verification.
    static func damageBanner(_ frame: Frame) -> String {
        guard let damage = frame.damage else { return "" }
        return "<p class=\"error damage\" role=\"alert\" id=\"damage\" data-first-bad=\"\(damage.position)\">This log fails verification at position "
            + "<a href=\"\(frame.base)/log?from=\(damage.position)\">\(damage.position)</a>: \(e(damage.reason)). Its numbers stand on events the chain no longer vouches for; "
            + "<a href=\"\(frame.base)/verify\">Verify</a> says more.</p>"
    }

    package static func message(_ title: String, _ text: String, frame: Frame) -> String {
        page(
            title,
            "<section class=\"card\"><h1>\(e(title))</h1><p class=\"error\" role=\"alert\">\(e(text))</p><p><a href=\"\(frame.base)/log\">The log</a></p></section>",
            frame: frame)
    }

    /// `ledger serve`'s sign-in: an account's token, the owner's or a coach's.
    package static func signIn(csrf: String, error: String?, action: String) -> String {
        var body =
            "<section class=\"card narrow\"><h1>Sign in</h1><p id=\"by-account\">Signed up with an emailed code or Apple? <a href=\"/account/sign-in\" id=\"account-sign-in\">Sign in to your account</a>, then choose “Inspect your log”; a coach opens a client’s log from the dashboard.</p>"
            + "<p class=\"caption\">Or with an account's token from this server's operator (<code>ledger server token create</code>): your own log, or as a coach, a client's who granted you access.</p>"
        if let error { body += "<p class=\"error\" role=\"alert\">\(e(error))</p>" }
        body +=
            "<form method=\"post\" action=\"\(e(action))\"><input type=\"hidden\" name=\"csrf\" value=\"\(e(csrf))\">"
            + "<label for=\"token\">Token</label><input id=\"token\" name=\"token\" type=\"password\" autocomplete=\"current-password\" required>"
            + "<button type=\"submit\" id=\"sign-in\">Sign in</button></form></section>"
        return page("Sign in", body, frame: .init(base: String(action.dropLast("/sign-in".count))))
    }

    static func query(_ pairs: [(String, String?)]) -> String {
        let kept = pairs.compactMap { k, v in v.flatMap { $0.isEmpty ? nil : "\(k)=\(percent($0))" } }
        return kept.isEmpty ? "" : "?" + kept.joined(separator: "&")
    }

    static func percent(_ s: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return s.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
    }

    static func whyLink(_ text: String, base: String, subject: String, target: String, asOf: Int64, workout: UUID? = nil) -> String {
        let href = base + "/why" + query([("subject", subject), ("target", target), ("asOf", String(asOf)), ("workout", workout?.lowercased)])
        return "<a data-why href=\"\(e(href))\">\(e(text))</a>"
    }

    static func kg(_ x: Double?, _ unit: WeightUnit) -> String {
        x.map { "\(((unit.fromKilograms($0) * 10).rounded() / 10).formatted) \(unit.rawValue)" } ?? "–"
    }

    // MARK: Log

    package struct LogView {
        package var page: LogPageQuery.Page
        package var filter: LogPageQuery.Filter
        package var counts: [(key: String, events: Int)]
        package var period: LogPageQuery.Period
        package var workoutNames: [String: String]
    }

    /// Periods the Log page lists (the latest); its JSON holds them all.
    static let shownCounts = 16

    /// The Log page's parameter for "every event that touched" one exercise, workout or set.
    static func touchingParameter(_ kind: LogPageQuery.Touching.Kind) -> String { "touching" + kind.rawValue.capitalized }

    package static func log(_ v: LogView, frame: Frame) -> String {
        let base = frame.base
        let f = v.filter
        func filterQuery(from: Int64?) -> String {
            query(
                f.types.map { ("type", $0) } + [
                    ("stream", f.stream), ("workout", f.workout), ("device", f.device), ("since", f.since), ("until", f.until),
                    ("correlation", f.correlation), ("causedBy", f.causedBy.map(String.init)), ("grep", f.grep),
                    (f.touching.map { touchingParameter($0.kind) } ?? "touchingExercise", f.touching?.reference),
                    ("by", v.period == .week ? nil : v.period.rawValue), ("from", from.map(String.init)),
                ])
        }
        var body = "<h1>Log</h1><p class=\"caption\">\(v.page.headPosition) events · page from #\(v.page.from)\(f.isEmpty ? "" : " · filtered")</p>"
        let types = ["any"] + EventCatalog.entries.map(\.type.name).sorted()
        body += "<section class=\"card\"><form method=\"get\" action=\"\(base)/log\" class=\"filters\">"
        body += "<div class=\"field\"><label for=\"type\">Type</label><select id=\"type\" name=\"type\">"
        for t in types {
            let selected = (t == "any" && f.types.isEmpty) || f.types.first == t
            body += "<option\(t == "any" ? " value=\"\"" : "")\(selected ? " selected" : "")>\(e(t))</option>"
        }
        body += "</select></div>"
        let touching = LogPageQuery.Touching.Kind.allCases.map { kind in
            (touchingParameter(kind), "Touching \(kind.rawValue)", f.touching.flatMap { $0.kind == kind ? $0.reference : nil })
        }
        let fields: [(String, String, String?)] = [
            ("stream", "Stream", f.stream), ("workout", "Workout id", f.workout), ("device", "Device", f.device),
            ("since", "Recorded from (ISO 8601)", f.since), ("until", "Recorded until", f.until),
            ("correlation", "Correlation id", f.correlation), ("causedBy", "Caused by #", f.causedBy.map(String.init)),
            ("grep", "Names and notes hold", f.grep),
        ]
        for (name, label, value) in fields + touching {
            body +=
                "<div class=\"field\"><label for=\"\(name)\">\(label)</label><input id=\"\(name)\" name=\"\(name)\" value=\"\(e(value ?? ""))\"></div>"
        }
        body += "<div class=\"field\"><label for=\"by\">Count by</label><select id=\"by\" name=\"by\">"
        for p in LogPageQuery.Period.allCases {
            body += "<option\(p == v.period ? " selected" : "")>\(p.rawValue)</option>"
        }
        body += "</select></div><button type=\"submit\" id=\"filter\">Filter</button></form>"
        body += "<form method=\"get\" action=\"\(base)/log\" class=\"row\"><label class=\"sr\" for=\"at\">Jump to</label>"
        body += "<input id=\"at\" name=\"at\" placeholder=\"a position or a time\"><button type=\"submit\" id=\"jump\">Jump</button></form></section>"

        let most = v.counts.map(\.events).max() ?? 0
        body +=
            "<section class=\"card\" id=\"counts\"><h2>Events per \(v.period.rawValue)</h2><p class=\"caption\">Over the whole log\(f.isEmpty ? "" : " (filtered)"), by the day they happened</p><div class=\"table counts\"><table><tbody>"
        for c in v.counts.suffix(shownCounts) {
            body +=
                "<tr data-period=\"\(e(c.key))\"><td>\(e(c.key))</td><td class=\"n\">\(c.events)</td><td><meter min=\"0\" max=\"\(most)\" value=\"\(c.events)\"></meter></td></tr>"
        }
        body +=
            "</tbody></table></div>\(v.counts.count > shownCounts ? "<p class=\"caption\">The latest \(shownCounts) of \(v.counts.count); the JSON holds them all.</p>" : "")</section>"

        body += pager(v.page, base: base, filterQuery)
        body +=
            "<div class=\"table events\"><table><thead><tr><th>#</th><th>Recorded</th><th>Trained</th><th>Stream</th><th>Type</th><th>Device</th><th>Payload</th></tr></thead><tbody>"
        for ev in v.page.events {
            let streamCell: String
            if let id = ev.event.workoutId?.lowercased {
                streamCell = "<a href=\"\(base)/workouts/\(id)\">\(e(v.workoutNames[id] ?? "workout \(id.prefix(8))"))</a>"
            } else {
                streamCell = "<a href=\"\(base)/log\(query([("stream", ev.stream.raw)]))\">\(e(ev.stream.raw))</a>"
            }
            var payload = ev.event.payloadJSON
            if payload.count > 160 { payload = String(payload.prefix(160)) + "…" }
            body +=
                "<tr data-position=\"\(ev.position)\"><td class=\"n\"><a href=\"\(base)/at/\(ev.position)\">\(ev.position)</a></td><td><time>\(e(ev.recordedAt.iso8601))</time></td><td><time>\(e(ev.occurredAt.iso8601))</time></td><td>\(streamCell) <small>v\(ev.version)</small></td><td>\(e(ev.type.name))</td><td>\(e(ev.device))</td><td><code>\(e(payload))</code></td></tr>"
        }
        if v.page.events.isEmpty { body += "<tr><td colspan=\"6\" class=\"muted\">No event matches.</td></tr>" }
        body += "</tbody></table></div>"
        body += pager(v.page, base: base, filterQuery)
        return page("Log", body, frame: frame)
    }

    static func pager(_ p: LogPageQuery.Page, base: String, _ link: (Int64?) -> String) -> String {
        var out = "<nav class=\"pager\">"
        out += p.from > 1 ? "<a href=\"\(e(base + "/log" + link(nil)))\" class=\"first\">First</a>" : "<span class=\"muted\">First</span>"
        out +=
            p.previous.map { "<a rel=\"prev\" class=\"previous\" href=\"\(e(base + "/log" + link($0)))\">Previous</a>" }
            ?? "<span class=\"muted\">Previous</span>"
        out += p.next.map { "<a rel=\"next\" class=\"next\" href=\"\(e(base + "/log" + link($0)))\">Next</a>" } ?? "<span class=\"muted\">Next</span>"
        return out + "</nav>"
    }

    // MARK: As of

    package static func asOf(_ a: AsOfQuery.Answer, days: TrainingDaySteps.Steps = .init(), frame: Frame) -> String {
        let base = frame.base
        let n = a.position, unit = a.unit
        var body = "<h1>As of #\(n)</h1><p class=\"caption\">of \(a.headPosition) events"
        if let ev = a.event {
            body += " · \(e(ev.type.name)) in \(e(ev.stream.raw)), recorded \(e(ev.recordedAt.iso8601)) by \(e(ev.device))"
        } else {
            body += " · before the first event"
        }
        body += "</p>"
        if let change = a.change { body += "<p class=\"change\" id=\"change\">\(e(change))</p>" }
        body += "<nav class=\"pager stepper\">"
        body +=
            n > 0
            ? "<a id=\"first\" href=\"\(base)/at/0\">Start</a><a id=\"previous\" rel=\"prev\" href=\"\(base)/at/\(n - 1)\">← Previous</a>"
            : "<span class=\"muted\">Start</span><span class=\"muted\">← Previous</span>"
        body +=
            n < a.headPosition
            ? "<a id=\"next\" rel=\"next\" href=\"\(base)/at/\(n + 1)\">Next →</a><a id=\"head\" href=\"\(base)/at/\(a.headPosition)\">Head</a>"
            : "<span class=\"muted\">Next →</span><span class=\"muted\">Head</span>"
        // By training date: the end of the day before this event's, and of the day after.
        body +=
            days.previous.map { "<a id=\"previous-day\" href=\"\(base)/at/\($0)\">← Day before</a>" } ?? "<span class=\"muted\">← Day before</span>"
        body += days.next.map { "<a id=\"next-day\" href=\"\(base)/at/\($0)\">Day after →</a>" } ?? "<span class=\"muted\">Day after →</span>"
        body += "</nav><form method=\"get\" action=\"\(base)/at\" class=\"row slider\"><label class=\"sr\" for=\"position\">Position</label>"
        body +=
            "<input id=\"position\" name=\"position\" type=\"range\" min=\"0\" max=\"\(a.headPosition)\" value=\"\(n)\"><button type=\"submit\" id=\"go\">Go</button></form>"
        if let ev = a.event { body += "<p class=\"caption\"><a href=\"\(base)/log?from=\(ev.position)\">This event in the log</a></p>" }

        body +=
            "<section class=\"card\" id=\"records\"><h2>Records</h2><p class=\"caption\">`ledger prs --as-of \(n)`; each figure links to the events that made it</p><div class=\"table\"><table><thead><tr><th>Exercise</th><th>Heaviest</th><th>Best e1RM</th><th>Best session volume</th></tr></thead><tbody>"
        for r in a.records {
            body +=
                "<tr data-exercise=\"\(e(r.exercise))\" data-heaviest-kg=\"\(json(r.heaviestKg))\" data-e1rm-kg=\"\(json(r.bestE1rmKg))\"><td>\(e(r.exercise))</td>"
            body +=
                "<td class=\"n\">\(r.heaviestKg == nil ? "–" : whyLink(kg(r.heaviestKg, unit), base: base, subject: "prs", target: r.exercise, asOf: n))</td>"
            body +=
                "<td class=\"n\">\(r.bestE1rmKg == nil ? "–" : whyLink(kg(r.bestE1rmKg, unit), base: base, subject: "e1rm", target: r.exercise, asOf: n))</td>"
            body +=
                "<td class=\"n\">\(r.bestSessionVolumeKg == nil ? "–" : whyLink(kg(r.bestSessionVolumeKg, unit), base: base, subject: "prs", target: r.exercise, asOf: n))</td></tr>"
        }
        if a.records.isEmpty { body += "<tr><td colspan=\"4\" class=\"muted\">No record yet.</td></tr>" }
        body += "</tbody></table></div></section>"

        body +=
            "<section class=\"card\" id=\"volume\"><h2>Volume by week</h2><p class=\"caption\">The latest 8 weeks of `ledger volume --by week --as-of \(n)`, every week whatever the plan</p><div class=\"table\"><table><thead><tr><th>Week</th><th>Sets</th><th>Tonnage</th></tr></thead><tbody>"
        for r in a.volume.rows.suffix(8) {
            body += "<tr data-week=\"\(e(r.key))\" data-tonnage-kg=\"\(json(r.tonnageKg))\"><td>\(e(r.label))</td><td class=\"n\">\(r.sets)</td>"
            body += "<td class=\"n\">\(whyLink(kg(r.tonnageKg, unit), base: base, subject: "volume", target: r.key, asOf: n))</td></tr>"
        }
        if a.volume.rows.isEmpty { body += "<tr><td colspan=\"3\" class=\"muted\">No counted set yet.</td></tr>" }
        body += "</tbody></table></div></section>"

        body += "<section class=\"card\" id=\"history\"><h2>Latest workouts</h2><ul class=\"notes\">"
        for w in a.history.rows {
            body +=
                "<li data-workout=\"\(w.workoutId.lowercased)\"><time>\(e(w.startedAt.iso8601))</time><a href=\"\(base)/workouts/\(w.workoutId.lowercased)\">\(e(w.name))</a> · \(w.sets) sets · \(e(kg(w.tonnageKg, unit)))</li>"
        }
        if a.history.rows.isEmpty { body += "<li class=\"muted\">No workout yet.</li>" }
        body += "</ul></section>"

        let s = a.entitlements.state
        body +=
            "<section class=\"card\" id=\"entitlements\"><h2>Plan</h2><p>\(whyLink(s.isCoach ? "Coach" : s.isPro ? "Pro" : "Free", base: base, subject: "entitlement", target: s.isCoach ? "coach" : "pro", asOf: n)) as of \(e(a.entitlements.at.iso8601)) · templates \(s.liveTemplates) of \(s.templateLimit.map(String.init) ?? "unlimited") · \(s.completedWorkouts) completed workouts</p></section>"
        body += "<section class=\"card\" id=\"programs\"><h2>Programs</h2><ul class=\"notes\">"
        for p in a.programs.live {
            body += "<li>\(e(p.generated.split))\(a.programs.active == p.programId ? " · <b>active</b>" : "") · made \(e(p.createdAt.isoDate))</li>"
        }
        if a.programs.live.isEmpty { body += "<li class=\"muted\">No program.</li>" }
        body += "</ul></section>"
        return page("As of #\(n)", body, frame: frame)
    }

    // MARK: Why

    package static func why(_ a: WhyQuery.Answer, exercise: String?, unit: WeightUnit, asOf: Int64?, frame: Frame) -> String {
        let base = frame.base
        var body = "<h1>Why: \(e(a.subject))\(exercise.map { " · \(e($0))" } ?? "")</h1>"
        body +=
            "<p class=\"caption\">Rule set \(e(a.rules.id)) v\(a.rules.version) · e1RM by \(e(a.rules.e1rmFormula.rawValue)), reps 1–\(a.rules.e1rmRepCap)\(asOf.map { " · as of #\($0)" } ?? "")</p>"
        let p = a.proof
        body += "<section class=\"card proof \(p.ok ? "ok" : "bad")\" id=\"proof\"><h2>Proof</h2><p>"
        body +=
            a.numbers.allSatisfy(\.events.isEmpty)
            ? "No event to cite: nothing in the log made this number other than it is. The head is #\(p.headPosition) (hash <code>\(e(p.headHash))</code>)."
            : p.ok
                ? "Every event below is in the chain: the server re-linked each hash from #\(p.from) to the head #\(p.headPosition) (head hash <code>\(e(p.headHash))</code>)."
                : "The chain is broken at #\(p.firstBadPosition ?? 0): these events cannot be proved."
        body += "</p></section>"
        for n in a.numbers {
            let value =
                n.unit == "kg"
                ? kg(n.value, unit)
                : n.unit == "active" ? (n.value == 1 ? "in force" : "not in force") : "\(((n.value * 100).rounded() / 100).formatted) \(n.unit)"
            body +=
                "<section class=\"card number\" data-kind=\"\(e(n.kind))\" data-value=\"\(json(n.value))\"><h2>\(e(n.kind))\(n.repMax.map { " (\($0) reps)" } ?? ""): \(e(value))</h2>"
            body +=
                "<p class=\"computation\">\(e(n.computation))</p><div class=\"table\"><table><thead><tr><th>#</th><th>Type</th><th>Happened</th><th>Device</th><th>Change</th></tr></thead><tbody>"
            for ev in n.events {
                body +=
                    "<tr data-position=\"\(ev.envelope.position)\"><td class=\"n\"><a href=\"\(base)/at/\(ev.envelope.position)\">\(ev.envelope.position)</a></td><td>\(e(ev.envelope.type.name))</td><td><time>\(e(ev.envelope.occurredAt.iso8601))</time></td><td>\(e(ev.envelope.device))</td><td>\(e(ev.change))</td></tr>"
            }
            body += "</tbody></table></div>"
            if let w = n.workoutId { body += "<p class=\"caption\"><a href=\"\(base)/workouts/\(w.lowercased)\">The workout, event by event</a></p>" }
            body += "</section>"
        }
        return page("Why", body, frame: frame)
    }

    // MARK: Session

    /// The session as time: each set, the rest before it, each pause and the rest timer, from the start.
    static func timeline(_ rows: [SessionTimeline.Row], base: String) -> String {
        guard !rows.isEmpty else { return "" }
        func clock(_ seconds: Int64) -> String {
            let (h, m, s) = (seconds / 3600, seconds / 60 % 60, seconds % 60)
            return h > 0 ? "\(h):\(m < 10 ? "0" : "")\(m):\(s < 10 ? "0" : "")\(s)" : "\(m):\(s < 10 ? "0" : "")\(s)"
        }
        var body =
            "<section class=\"card\" id=\"timeline\"><h2>Timeline</h2><p class=\"caption\">When each thing happened, from the start, and how long the rests and pauses were</p><div class=\"table\"><table><thead><tr><th>At</th><th>What</th><th class=\"n\">Lasted</th></tr></thead><tbody>"
        for r in rows {
            let lasted = r.seconds.map { "<td class=\"n\" data-seconds=\"\($0)\">\(clock($0))</td>" } ?? "<td></td>"
            body +=
                "<tr data-kind=\"\(r.kind.rawValue)\"><td><a href=\"\(base)/at/\(r.position)\">+\(clock(r.at))</a></td><td>\(e(r.label))</td>\(lasted)</tr>"
        }
        return body + "</tbody></table></div></section>"
    }

    package static func session(
        _ steps: AuditQuery.Steps, name: String, against: [AgainstLastTime.Row], head: Int64, unit: WeightUnit, frame: Frame
    ) -> String {
        let base = frame.base
        var body =
            "<h1>\(e(name))</h1><p class=\"caption\">Workout \(steps.workoutId.lowercased) · \(steps.steps.count) events · `ledger replay`</p>"
        if !against.isEmpty {
            body +=
                "<section class=\"card\" id=\"against\"><h2>Against last time</h2><p class=\"caption\">The hint each exercise showed and its \"+N reps\" counter, as the log stands at #\(head)</p><div class=\"table\"><table><thead><tr><th>Exercise</th><th>Last time</th><th class=\"n\">+ reps</th></tr></thead><tbody>"
            for row in against {
                let best = row.hint.bestSet.map { s in "\(s.weightKg.map { kg($0, unit) } ?? "bodyweight") × \(s.reps ?? 0)" }
                let last =
                    best.map {
                        whyLink(
                            "\($0) on \(row.hint.date?.isoDate ?? "?")", base: base, subject: "hint", target: row.exercise, asOf: head,
                            workout: steps.workoutId)
                    } ?? "<span class=\"muted\">nothing to beat</span>"
                body +=
                    "<tr data-exercise=\"\(e(row.exercise))\"><td>\(e(row.exercise))</td><td>\(last)</td><td class=\"n\" data-excess-reps=\"\(row.excessReps)\">\(whyLink("+\(row.excessReps)", base: base, subject: "repcount", target: row.exercise, asOf: head, workout: steps.workoutId))</td></tr>"
            }
            body += "</tbody></table></div></section>"
        }
        body += timeline(SessionTimeline.rows(steps.steps), base: base)
        body +=
            "<p><a id=\"fixture\" href=\"\(base)/workouts/\(steps.workoutId.lowercased)/fixture\">Save as a test fixture</a> <small class=\"muted\">(its events and every view's JSON; `ledger check-fixture FILE` replays it)</small></p><ol class=\"steps\">"
        var before: [String: String] = [:]
        for step in steps.steps {
            let after = flatten(AuditQuery.state(step.state, steps.library))
            let changed = after.keys.filter { after[$0] != before[$0] }.sorted() + before.keys.filter { after[$0] == nil }.sorted()
            body +=
                "<li class=\"card\" data-position=\"\(step.envelope.position)\"><p><a href=\"\(base)/at/\(step.envelope.position)\">#\(step.envelope.position)</a> \(e(step.envelope.type.name)) · <time>\(e(step.envelope.occurredAt.iso8601))</time></p><p class=\"change\">\(e(step.change))</p>"
            if !changed.isEmpty {
                body += "<table class=\"diff\"><tbody>"
                for key in changed.prefix(40) {
                    body +=
                        "<tr data-field=\"\(e(key))\"><td><code>\(e(key))</code></td><td><del>\(e(before[key] ?? "–"))</del></td><td><ins>\(e(after[key] ?? "–"))</ins></td></tr>"
                }
                body += "</tbody></table>"
            }
            body += "</li>"
            before = after
        }
        body += "</ol>"
        return page(name, body, frame: frame)
    }

    /// A JSON document as `path: value` leaves, to mark what one event changed.
    static func flatten(_ v: JSONValue, prefix: String = "", into out: inout [String: String]) {
        switch v {
        case .object(let pairs): for (k, x) in pairs { flatten(x, prefix: prefix.isEmpty ? k : prefix + "." + k, into: &out) }
        case .array(let items): for (i, x) in items.enumerated() { flatten(x, prefix: "\(prefix)[\(i)]", into: &out) }
        default: out[prefix] = v.rendered
        }
    }

    static func flatten(_ v: JSONValue) -> [String: String] {
        var out: [String: String] = [:]
        flatten(v, into: &out)
        return out
    }

    // MARK: Rules

    /// The rule file's form and, once posted, every value it would change, per exercise (the changes of
    /// `rebuild --diff`, as its JSON words them).
    package static func rules(_ a: RebuildQuery.Answer?, text: String, csrf: String, frame: Frame) -> String {
        let base = frame.base
        var body =
            "<h1>Rules</h1><p class=\"caption\">A rule file (the format `ledger rebuild --diff --rules FILE` reads) against the built-in rules: nothing is written.</p>"
        body += "<section class=\"card\"><form method=\"post\" action=\"\(base)/rules\"><input type=\"hidden\" name=\"csrf\" value=\"\(e(csrf))\">"
        body += "<label for=\"rules-file\">Load a file</label><input id=\"rules-file\" type=\"file\" accept=\".json,application/json\">"
        body += "<label for=\"rules\">Rule file</label><textarea id=\"rules\" name=\"rules\" rows=\"12\" spellcheck=\"false\">\(e(text))</textarea>"
        body += "<button type=\"submit\" id=\"preview\">Preview the changes</button></form></section>"
        guard let a else { return page("Rules", body, frame: frame) }
        let changes = a.changes.map { RebuildQuery.change($0, a.log) }
        body +=
            "<section class=\"card\" id=\"changes\"><h2>\(changes.count) change\(changes.count == 1 ? "" : "s") under \(e(a.rules.id)) v\(a.rules.version)</h2>"
        guard !changes.isEmpty else { return page("Rules", body + "<p data-no-change>No value changes.</p></section>", frame: frame) }
        // One row per exercise: how many values move and the largest e1RM move; every change below it.
        var byExercise: [String: [(kind: String, detail: String)]] = [:]
        var largest: [String: Double] = [:]
        for c in changes {
            guard case .object(let pairs) = c else { continue }
            var exercise = "", kind = "", detail: [String] = []
            for (k, v) in pairs {
                switch (k, v) {
                case ("exercise", .string(let x)): exercise = x
                case ("change", .string(let x)): kind = x
                case ("exerciseId", _), ("workoutId", _), ("setId", _), ("valueKg", _), (_, .null): continue
                case (_, .number(let x)):
                    // A weight is shown in the lifter's unit, so its label drops the JSON key's "Kg" ("from 231.5 lb", not "fromKg 231.5 lb").
                    detail.append(
                        k.hasSuffix("Kg") ? "\(k.dropLast(2)) \(kg(x, a.log.account.liftingUnit))" : "\(k) \(((x * 100).rounded() / 100).formatted)")
                    if k == "deltaKg", abs(x) > abs(largest[exercise] ?? 0) { largest[exercise] = x }
                case (_, .string(let x)): detail.append("\(k) \(x)")
                default: detail.append("\(k) \(v.rendered)")
                }
            }
            byExercise[exercise, default: []].append((kind, detail.joined(separator: " · ")))
        }
        body += "<div class=\"table\"><table><thead><tr><th>Exercise</th><th>Changes</th><th>Largest e1RM move</th></tr></thead><tbody>"
        for exercise in byExercise.keys.sorted() {
            let list = byExercise[exercise] ?? []
            var kinds: [String: Int] = [:]
            for c in list { kinds[c.kind, default: 0] += 1 }
            let summary = kinds.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
            body +=
                "<tr data-exercise=\"\(e(exercise))\"><td>\(e(exercise))</td><td><details><summary>\(e(summary))</summary><table class=\"diff\"><tbody>"
            for c in list { body += "<tr data-change=\"\(e(c.kind))\"><td>\(e(c.kind))</td><td>\(e(c.detail))</td></tr>" }
            body +=
                "</tbody></table></details></td><td class=\"n\">\(largest[exercise].map { (($0 > 0) ? "+" : "") + kg($0, a.log.account.liftingUnit) } ?? "–")</td></tr>"
        }
        body += "</tbody></table></div></section>"
        return page("Rules", body, frame: frame)
    }

    // MARK: Verify

    package static func verify(_ r: VerificationReport, frame: Frame) -> String {
        let base = frame.base
        var body = "<h1>Verify</h1><section class=\"card proof \(r.ok ? "ok" : "bad")\" id=\"verify\">"
        if let bad = r.firstBadPosition {
            body +=
                "<p class=\"error\" role=\"alert\" data-first-bad=\"\(bad)\">The chain is broken at #\(bad): \(e(r.reason ?? "unknown")).</p><p>Events before #\(bad) are intact; from there on nothing can be proved. <a href=\"\(base)/log?from=\(bad)\">The log from #\(bad)</a></p>"
        } else {
            body += "<p data-ok>The chain is intact: \(r.events) events, head hash <code>\(e(r.headHash))</code>.</p>"
        }
        body += "</section>"
        return page("Verify", body, frame: frame)
    }
}
