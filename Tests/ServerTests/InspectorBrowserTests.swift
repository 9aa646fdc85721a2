import Foundation
import LedgerTestSupport
import RepLedgerSQLite
import Testing

/// The inspector in a real browser (headless Chromium through chromedriver)
/// over `ledger inspect` on Andrew50's real Strong history: the one-time
/// address, jumping in the log, stepping the As-of view with the arrow keys,
/// its records equal to `prs --as-of`, a `data-why` link to its events, a rule
/// file's preview, the Verify page, and a phone-width window; over the demo, a
/// session page, a bundle and a damaged ledger. With `REPLEDGER_SCREENSHOTS=docs` it
/// also saves the pages' screenshots there.
@Suite(
    .serialized, .enabled(if: Browser.available || Browser.required, "chromium and chromedriver are not installed"),
    .disabled(if: ServerProcess.onPostgres, "the inspector reads a device's file, not the server's storage"))
struct InspectorBrowserTests {
    @Test(.needsSharedData(.realExports))
    func aLifterStepsThroughTheLogAndFollowsARecordToItsEvents() async throws {
        let cli = try InspectorTests.importedAndrew()
        defer { cli.cleanUp() }
        let inspector = try InspectorProcess(db: cli.db, folder: cli.folder)
        let browser = try await Browser()
        do {
            try await walkThrough(browser, inspector, cli)
        } catch {
            await browser.quit()
            throw error
        }
        await browser.quit()
    }

    @Test func aSessionABundleAndADamagedLedgerInTheBrowser() async throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        try #require(try cli.run(["demo", "--json"]).status == 0)
        let bundle = cli.folder.appendingPathComponent("demo.rlbundle").path
        try #require(try cli.run(["export", "--bundle", bundle]).status == 0)
        let browser = try await Browser()
        do {
            try await sessionBundleAndDamage(browser, cli, bundle: bundle)
        } catch {
            await browser.quit()
            throw error
        }
        await browser.quit()
    }

    func sessionBundleAndDamage(_ browser: Browser, _ cli: LedgerProcess, bundle: String) async throws {
        let head = try cli.eventCount()
        let workout = try #require(
            (try cli.run(["history", "--json", "--limit", "1"]).json?["workouts"] as? [[String: Any]])?.first?["workoutId"] as? String)
        let replayed = try #require(try JSONSerialization.jsonObject(with: Data(try cli.run(["replay", workout, "--json"]).stdout.utf8)) as? [Any])

        // A bundle, read into memory: its log, its chain, and a session with each exercise against last time.
        let fromBundle = try InspectorProcess(["--bundle", bundle], folder: cli.folder)
        try await browser.open(fromBundle.address)
        #expect(try await browser.url(becoming: fromBundle.base + "/inspect/log") == fromBundle.base + "/inspect/log")
        #expect(try await browser.all("tr[data-position]").count == 100)
        try await browser.open(fromBundle.base + "/inspect/verify")
        #expect(try await browser.await("[data-ok]").text.contains("\(head) events"))
        try await browser.open(fromBundle.base + "/inspect/workouts/\(workout)")
        _ = try await browser.await("#against")
        #expect(try await browser.all("ol.steps li[data-position]").count == replayed.count)
        try await browser.find("#against a[data-why][href*='subject=hint']").click()
        _ = try await browser.await("#proof")
        #expect(try await browser.url.contains("/inspect/why?subject=hint"))
        #expect(try await browser.find("#proof").attribute("class")?.contains("ok") == true)

        // A damaged ledger: the Verify page names its first bad position.
        let damaged = 40
        let db = try SQLiteDatabase(path: cli.db)
        try db.execute("DROP TRIGGER events_no_update")
        try db.execute("UPDATE events SET device = 'elsewhere' WHERE position = \(damaged)")
        let inspector = try InspectorProcess(db: cli.db, folder: cli.folder)
        try await browser.open(inspector.address)
        _ = try await browser.url(becoming: inspector.base + "/inspect/log")
        try await browser.open(inspector.base + "/inspect/verify")
        #expect(try await browser.await("[data-first-bad]").attribute("data-first-bad") == "\(damaged)")
    }

    func walkThrough(_ browser: Browser, _ inspector: InspectorProcess, _ cli: LedgerProcess) async throws {
        let shots = ProcessInfo.processInfo.environment["REPLEDGER_SCREENSHOTS"]
        let head = try cli.eventCount()
        // The printed address signs in and leaves the code behind.
        try await browser.open(inspector.address)
        #expect(try await browser.url(becoming: inspector.base + "/inspect/log") == inspector.base + "/inspect/log")
        let session = try #require(try await browser.cookies().first { $0["name"] as? String == "rl_inspect" })
        #expect(session["httpOnly"] as? Bool == true && session["sameSite"] as? String == "Strict")
        #expect(try await browser.all("tr[data-position]").count == 100)
        if let shots { try await browser.screenshot(to: "\(shots)/inspector-log.png", maxHeight: 1100) }

        // Jump to a position, then open the As-of view from its row.
        let n = head / 2
        try await browser.find("#at").type(String(n))
        try await browser.find("#jump").click()
        _ = try await browser.url(becoming: inspector.base + "/inspect/log?from=\(n)")
        try await browser.await("tr[data-position=\"\(n)\"] a").click()
        #expect(try await browser.url(becoming: inspector.base + "/inspect/at/\(n)") == inspector.base + "/inspect/at/\(n)")

        // The arrow keys move one event each way.
        try await browser.press("\u{E014}")
        #expect(try await browser.url(becoming: inspector.base + "/inspect/at/\(n + 1)") == inspector.base + "/inspect/at/\(n + 1)")
        try await browser.press("\u{E012}")
        #expect(try await browser.url(becoming: inspector.base + "/inspect/at/\(n)") == inspector.base + "/inspect/at/\(n)")

        // Every record row is `prs --as-of N --json`'s.
        let prs = try #require(try cli.run(["prs", "--as-of", "\(n)", "--json"]).json?["exercises"] as? [[String: Any]])
        let rows = try await browser.all("tr[data-exercise]")
        #expect(rows.count == prs.count && !rows.isEmpty)
        for row in rows {
            let name = try await row.attribute("data-exercise") ?? ""
            let expected = try #require(prs.first { $0["exercise"] as? String == name }, "\(name) is not in prs")
            let heaviest = try await row.attribute("data-heaviest-kg").flatMap(Double.init)
            let e1rm = try await row.attribute("data-e1rm-kg").flatMap(Double.init)
            // Foundation's JSON reader may round the last digit of a number the page wrote exactly.
            func same(_ a: Double?, _ b: Double?) -> Bool { a == nil ? b == nil : b.map { abs(a! - $0) <= 1e-9 * max(1, abs($0)) } ?? false }
            #expect(same(heaviest, expected["heaviestKg"] as? Double) && same(e1rm, expected["bestE1rmKg"] as? Double), "\(name)")
        }
        if let shots { try await browser.screenshot(to: "\(shots)/inspector-as-of.png", maxHeight: 1100) }

        // A record's figure leads to the events that made it, proved to the head.
        let bench = try await browser.find("tr[data-exercise=\"Bench Press (Barbell)\"] a[data-why]")
        try await bench.click()
        _ = try await browser.await("#proof")
        #expect(try await browser.url.contains("/inspect/why?subject=prs"))
        #expect(try await browser.find("#proof").attribute("class")?.contains("ok") == true)
        let cited = try await browser.all("tr[data-position]")
        #expect(!cited.isEmpty)
        if let shots { try await browser.screenshot(to: "\(shots)/inspector-why.png", maxHeight: 1100) }

        // A rule file previewed: what it moves, per exercise, as `rebuild --diff` says.
        try await browser.open(inspector.base + "/inspect/rules")
        let rules = try await browser.await("#rules")
        try await rules.clear()
        try await rules.type(#"{"id":"brzycki-10","version":1,"e1rmFormula":"brzycki","e1rmRepCap":10}"#)
        try await browser.find("#preview").click()
        _ = try await browser.await("#changes")
        #expect(try await !browser.all("tr[data-change=\"e1rmMoved\"]").isEmpty)
        if let shots { try await browser.screenshot(to: "\(shots)/inspector-rules.png", maxHeight: 1100) }

        try await browser.open(inspector.base + "/inspect/verify")
        #expect(try await browser.await("[data-ok]").text.contains("\(head) events"))

        // At a phone's width nothing runs off the side.
        try await browser.resize(width: 390, height: 844)
        for path in ["/inspect/log", "/inspect/at/\(n)"] {
            try await browser.open(inspector.base + path)
            _ = try await browser.await("main")
            let overflow = try await browser.execute("return document.documentElement.scrollWidth - document.documentElement.clientWidth") as? Int
            #expect(overflow == 0, "\(path) is wider than a phone")
        }
        if let shots { try await browser.screenshot(to: "\(shots)/inspector-phone.png", maxHeight: 1100) }
    }
}
