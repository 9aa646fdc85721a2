import Foundation
import LedgerTestSupport
import Testing

/// The offline drill in real Chromium: 200 sets logged with the network cut three times, two reloads while
/// offline and the tab closed and reopened while offline. The pending count is exact after every offline set and
/// zero after every reconnection; the server ends with exactly 200 sets, each once, and a chain that verifies.
@Suite(
    .serialized, .enabled(if: Browser.available || Browser.required, "chromium and chromedriver are not installed"),
    .disabled(if: ServerProcess.onPostgres, "the app's commands run on PostgreSQL in CommandAPITests; page sessions are in memory"))
struct LifterAppOfflineDrillTests {
    @Test func twoHundredSetsThroughThreeCutsTwoReloadsAndAClosedTabReachTheServerOnceEach() async throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let mail = try CapturedMail(in: cli.folder)
        let server = try ServerProcess(cli: cli, serveFlags: ["--mail-command", mail.command])
        let browser = try await Browser(width: 390, height: 844)
        do {
            try await drill(browser, server: server, mail: mail, cli: cli)
        } catch {
            await browser.quit()
            throw error
        }
        await browser.quit()
    }

    /// One set through the workout screen's form, as a tap on **Log set** sends it.
    func log(_ browser: Browser, reps: Int) async throws {
        _ = try await browser.execute(
            "const f = document.getElementById('log'); f.exercise.value = 'Squat (Barbell)'; f.weight.value = '100'; f.reps.value = '\(reps)'; f.requestSubmit();"
        )
    }

    func drill(_ browser: Browser, server: ServerProcess, mail: CapturedMail, cli: LedgerProcess) async throws {
        let base = server.base
        try await AppSteps.signUp(browser, server: server, mail: mail, email: "sam@example.org")
        let accountId = try await browser.await("#account-id").text
        try await browser.find("#device").type("watch")
        try await browser.find("#add-device").click()
        let watch = try Device("watch", cli: cli, token: try await browser.await("#new-token").text)
        try await browser.find("#open-app").click()
        try await browser.await("#start").click()
        _ = try await browser.await("#log:not([hidden])")
        #expect(try await AppSteps.pending(browser, becoming: 0) == 0)
        // The service worker holds the page before the first cut, so a reload offline still opens the app.
        let controlled = Date().addingTimeInterval(60)
        while try await browser.execute("return navigator.serviceWorker.controller !== null") as? Bool != true, Date() < controlled {
            try await Task.sleep(for: .milliseconds(100))
        }

        // Sets 1–200: offline for 1–30, 71–100 and 141–170; reloads at 10 and 80, the tab closed and reopened at 150.
        let cuts = [1...30, 71...100, 141...170]
        var offline = 0
        for n in 1...200 {
            if cuts.contains(where: { $0.lowerBound == n }) {
                try await AppSteps.offline(browser, true)
                offline = 0
            }
            try await log(browser, reps: n % 12 + 1)
            if cuts.contains(where: { $0.contains(n) }) {
                offline += 1
                #expect(try await AppSteps.pending(browser, becoming: offline) == offline, "after set \(n), offline")
                if n == 10 || n == 80 {
                    try await browser.open(base + "/app")
                    _ = try await browser.await("#log:not([hidden])")
                    #expect(try await AppSteps.pending(browser, becoming: offline) == offline, "after the reload at set \(n)")
                }
                if n == 150 {
                    try await closeAndReopen(browser, base + "/app")
                    #expect(try await AppSteps.pending(browser, becoming: offline) == offline, "in a reopened tab at set \(n)")
                }
            } else {
                #expect(try await AppSteps.pending(browser, becoming: 0) == 0, "after set \(n), online")
            }
            if let cut = cuts.first(where: { $0.upperBound == n }) {
                try await AppSteps.offline(browser, false)
                #expect(try await AppSteps.pending(browser, becoming: 0) == 0, "after reconnecting at set \(cut.upperBound)")
            }
        }

        // Exactly 200 sets on the server, each once, in the order logged, and the chain whole.
        #expect(try watch.sync(server, account: accountId).status == 0)
        let workout = try #require(try watch.run(["workout", "show", "last", "--json"]).json)
        let sets = (workout["exercises"] as? [[String: Any]] ?? []).flatMap { $0["sets"] as? [[String: Any]] ?? [] }
        let ids = Set(sets.compactMap { $0["setId"] as? String })
        #expect(sets.count == 200 && ids.count == 200, "\(sets.count) sets, \(ids.count) distinct")
        #expect(sets.compactMap { $0["reps"] as? Int } == (1...200).map { $0 % 12 + 1 }, "the sets arrived out of order")
        #expect(try watch.run(["verify"]).status == 0)
    }

    /// The app's tab closed and the app opened in a new one (offline: from the service worker), as a lifter who
    /// swiped the browser away does.
    func closeAndReopen(_ browser: Browser, _ address: String) async throws {
        let old = try #require(try await browser.command(.GET, "/window") as? String)
        let opened = try #require(try await browser.command(.POST, "/window/new", ["type": "tab"]) as? [String: Any])
        let fresh = try #require(opened["handle"] as? String)
        _ = try await browser.command(.DELETE, "/window")
        #expect(old != fresh)
        try await browser.command(.POST, "/window", ["handle": fresh])
        // The new tab's network is its own: cut again, as the phone's still is.
        try await AppSteps.offline(browser, true)
        try await browser.open(address)
        _ = try await browser.await("#log:not([hidden])")
    }
}
