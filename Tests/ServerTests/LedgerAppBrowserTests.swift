import Foundation
import LedgerTestSupport
import Testing

/// `ledger app` in real Chromium: the same app a server serves, over a device's own ledger file, opened by the
/// one-time address it prints. A workout the CLI started is trained in the browser and finished; stopped by
/// SIGTERM, the app leaves the file with the sets, stamped device "app", its chain intact, and nothing of its
/// own behind.
@Suite(
    .serialized, .enabled(if: Browser.available || Browser.required, "chromium and chromedriver are not installed"),
    .disabled(if: ServerProcess.onPostgres, "ledger app serves a device's SQLite file whatever the server suite's store"))
struct LedgerAppBrowserTests {
    @Test func aWorkoutTrainedInLedgerAppIsInTheDevicesFile() async throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        #expect(
            try cli.run([
                "template", "create", "Garage A", "--exercise", "Squat (Barbell)", "--sets", "3", "--reps", "5", "--weight", "100kg",
            ]).status == 0)
        #expect(try cli.run(["workout", "start", "--template", "Garage A"]).status == 0)
        let scratch = cli.folder.appendingPathComponent("tmp")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        let app = try InspectorProcess(["--db", cli.db], folder: cli.folder, command: "app", environment: ["TMPDIR": scratch.path])
        let browser = try await Browser(width: 390, height: 844)
        do {
            try await train(browser, app: app)
        } catch {
            await browser.quit()
            _ = app.stop()
            throw error
        }
        await browser.quit()
        #expect(app.stop() == 0, "ledger app did not stop cleanly on SIGTERM")
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path).isEmpty, "ledger app left its folder behind")

        let workout = try #require(try cli.run(["workout", "show", "last", "--json"]).json)
        let sets = (workout["exercises"] as? [[String: Any]] ?? []).flatMap { $0["sets"] as? [[String: Any]] ?? [] }
        #expect(workout["status"] as? String == "finished" && workout["feeling"] as? Int == 5, "\(workout)")
        #expect(sets.count == 3 && sets.allSatisfy { $0["state"] as? String == "done" && $0["weightKg"] as? Double == 100 }, "\(sets)")
        let fromApp = try cli.run(["log", "--json"]).stdout.split(separator: "\n").filter { $0.contains(#""device":"app""#) }
        #expect(fromApp.count >= 7, "three sets, three rests and the finish: \(fromApp.count) events from the app")
        #expect(try cli.run(["verify"]).status == 0)
    }

    func train(_ browser: Browser, app: InspectorProcess) async throws {
        try await browser.open(app.address)
        #expect(try await browser.url(becoming: app.base + "/app") == app.base + "/app")
        #expect(try await app.get(app.address).status == 401, "the printed code works once")
        let done = "#exercises [data-planned] button[data-complete]"
        _ = try await browser.await("#exercises [data-exercise='Squat (Barbell)'] [data-planned]")
        while try await !browser.all(done).isEmpty {
            let set = try #require(try await browser.find(done).attribute("data-complete"))
            try await browser.find("button[data-complete='\(set)']").click()
            _ = try await browser.await("[data-set-id='\(set)'].done")
        }
        #expect(try await AppSteps.pending(browser, becoming: 0) == 0)
        _ = try await browser.execute("document.querySelector('#finish-form select[name=feeling]').value = '5'")
        try await browser.find("#finish").click()
        _ = try await browser.await("#finished:not([hidden])")
        #expect(try await AppSteps.pending(browser, becoming: 0) == 0)
        // A record's why opens in the inspector beside the app, on the same one-time code's session.
        let why = try #require(try await browser.await("#finished-records li[data-record] a").attribute("href"))
        try await browser.open(app.base + why)
        _ = try await browser.await(".computation")
        let page = try await browser.execute("return document.body.innerText") as? String ?? ""
        let events = try await browser.all("table tbody tr").count
        #expect(page.contains("100 kg") && events > 0, "\(page)")
    }
}
